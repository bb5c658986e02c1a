"""The rules pages for players (:mod:`.pages`), with figures the engines draw (:mod:`.figures`)."""
