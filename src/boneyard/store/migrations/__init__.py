"""Alembic migrations of the server database (applied on start by ``store.db.migrate``)."""
