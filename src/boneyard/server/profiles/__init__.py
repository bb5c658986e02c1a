"""A person's public page and its JSON (:mod:`.service`)."""
