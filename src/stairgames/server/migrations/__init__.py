"""Alembic migrations of the server's database (run at start-up by :func:`upgrade`).

``stairgames db upgrade`` / ``stairgames db downgrade`` run them by hand (docs/deploy.md,
"Upgrades and rollbacks"); the server upgrades on every start. A release started on a
database a newer release migrated refuses to start (:class:`NewerDatabaseError`) rather
than fail inside Alembic: the newer release rolls the database back first.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import Engine

MIGRATIONS_DIR = Path(__file__).parent
HEAD = "0016"
"""The newest revision in ``versions/`` (a test checks it against Alembic's head): a
database already there starts without loading Alembic."""


class NewerDatabaseError(RuntimeError):
    """The database is at a revision this release does not know: a newer release
    migrated it. Nothing was changed."""


def known_revisions() -> list[str]:
    """The revisions in ``versions/``, oldest first (from the files' names, ``0001_...``)."""
    return sorted(
        path.name.split("_", 1)[0]
        for path in (MIGRATIONS_DIR / "versions").glob("[0-9][0-9][0-9][0-9]_*.py")
    )


def refuse_newer(revision: str | None) -> None:
    """Raise :class:`NewerDatabaseError` for a revision ``versions/`` does not hold."""
    if revision is not None and revision not in known_revisions():
        raise NewerDatabaseError(
            f"the database is at revision {revision}, which this release does not know "
            f"(its newest is {HEAD}): a newer release migrated it. Run that release, or "
            f"roll the database back with it first: stairgames db downgrade {HEAD}"
        )


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


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database of ``engine`` to the newest schema (idempotent), or to
    ``revision``.

    Several server processes may start together on one empty database: each migrates
    under one lock (PostgreSQL's advisory lock, held to the end of the migration's
    transaction; for SQLite an exclusive lock on a file beside the database), and the
    revision is read again once the lock is held, so one process makes the schema and
    the others find it made.

    :raises NewerDatabaseError: the database is at a revision this release does not know.
    """
    found = current_revision(engine)
    if found == HEAD and revision == "head":
        return
    refuse_newer(found)
    _run_locked(engine, "upgrade", revision)


def downgrade(engine: Engine, revision: str = "-1") -> str | None:
    """Take the database of ``engine`` back to ``revision`` (by default one revision
    back), under the same lock as :func:`upgrade`; answer the revision it is at now
    (``None``: every table dropped).

    :raises NewerDatabaseError: the database is at a revision this release does not know.
    """
    refuse_newer(current_revision(engine))
    _run_locked(engine, "downgrade", revision)
    return current_revision(engine)


def _run_locked(engine: Engine, direction: str, revision: str) -> None:
    """Alembic's ``upgrade`` or ``downgrade`` to ``revision``, in one transaction under
    the migration lock."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    step = command.upgrade if direction == "upgrade" else command.downgrade
    with _sqlite_file_lock(engine), engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        step(config, revision)


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
