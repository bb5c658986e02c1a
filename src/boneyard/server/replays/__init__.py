"""Replays and analysis of finished games and uploaded records (:mod:`.service`,
:mod:`.analysis`), computed in worker processes (:mod:`.jobs`)."""
