"""Alembic migrations of the server's database (run at start-up by :func:`upgrade`).

``alembic -c src/stairgames/server/migrations/alembic.ini upgrade head`` runs them by hand
(``-x url=...`` names the database); the server does the same on every start.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import Engine

MIGRATIONS_DIR = Path(__file__).parent
HEAD = "0014"
"""The newest revision in ``versions/`` (a test checks it against Alembic's head): a
database already there starts without loading Alembic."""


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at; ``None`` for a new database."""
    from sqlalchemy import inspect

    with engine.connect() as connection:
        if not inspect(connection).has_table("alembic_version"):
            return None
        return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


MIGRATION_LOCK = 0x57A195
"""The PostgreSQL advisory lock held while migrating (any number, the same in every
server process)."""


def upgrade(engine: Engine) -> None:
    """Bring the database of ``engine`` to the newest schema (idempotent).

    Several server processes may start together on one empty database: each migrates
    under one lock (PostgreSQL's advisory lock, held to the end of the migration's
    transaction; for SQLite an exclusive lock on a file beside the database), and the
    revision is read again once the lock is held, so one process makes the schema and
    the others find it made.
    """
    if current_revision(engine) == HEAD:
        return
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    with _sqlite_file_lock(engine), engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


@contextlib.contextmanager
def _sqlite_file_lock(engine: Engine) -> Iterator[None]:
    """An exclusive lock on ``<database>.migrating`` for a SQLite file database (nothing
    for other databases, or where ``fcntl`` is missing)."""
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    if not path or path == ":memory:":
        yield
        return
    try:
        import fcntl
    except ImportError:  # Windows: one server process per SQLite file
        yield
        return
    with open(f"{path}.migrating", "a") as lock_file:
        fcntl.flock(lock_file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock_file, fcntl.LOCK_UN)
