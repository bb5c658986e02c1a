"""``boneyard serve``: the web server (FastAPI), its table actors and the fair-deal scheme."""
