"""Persistence for the server: SQLAlchemy 2 models, async engine and Alembic migrations.

A table's truth is its log (:class:`~boneyard.store.models.LogEntry`): one row per deal and per
accepted action, unique on ``(table_id, seq)``. Everything else about a live table is rebuilt from
the log by replaying it through the game.
"""
