"""Alembic environment: runs on a connection handed over by :func:`boneyard.store.db.migrate`.

Importing this module outside Alembic (pytest's doctest collection does) does nothing.
"""

from __future__ import annotations

from alembic import context

from boneyard.store.models import Base


def run() -> None:
    """Apply the migrations on the connection put in the config's attributes."""
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("run migrations with boneyard.store.db.migrate(url)")
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


if getattr(context, "_proxy", None) is not None:
    run()
