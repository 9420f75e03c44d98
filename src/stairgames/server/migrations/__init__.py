"""Alembic migrations of the server's database (run at start-up by :func:`upgrade`).

``alembic -c src/stairgames/server/migrations/alembic.ini upgrade head`` runs them by hand
(``-x url=...`` names the database); the server does the same on every start.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.engine import Engine

MIGRATIONS_DIR = Path(__file__).parent


def upgrade(engine: Engine) -> None:
    """Bring the database of ``engine`` to the newest schema (idempotent)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
