"""Alembic migrations of the server's database (run at start-up by :func:`upgrade`).

``alembic -c src/stairgames/server/migrations/alembic.ini upgrade head`` runs them by hand
(``-x url=...`` names the database); the server does the same on every start.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import Engine

MIGRATIONS_DIR = Path(__file__).parent
HEAD = "0001"
"""The newest revision in ``versions/`` (a test checks it against Alembic's head): a
database already there starts without loading Alembic."""


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at; ``None`` for a new database."""
    from sqlalchemy import inspect, text

    with engine.connect() as connection:
        if not inspect(connection).has_table("alembic_version"):
            return None
        return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def upgrade(engine: Engine) -> None:
    """Bring the database of ``engine`` to the newest schema (idempotent)."""
    if current_revision(engine) == HEAD:
        return
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
