"""The rules pages for players (:mod:`.service`, routes in :mod:`.router`), with figures the
engines draw (:mod:`.figures`), and each option's words for the New table form."""
