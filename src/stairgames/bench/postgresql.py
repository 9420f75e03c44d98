"""A PostgreSQL server of one's own in a temporary folder, on loopback: for the
benchmarks (``benchmarks/fanout_latency.py``, ``benchmarks/site_load.py``) and the tests
(``tests/postgresql_helpers.py`` skips where it cannot start).

Debian's PostgreSQL: initdb and pg_ctl under /usr/lib/postgresql/*/bin. As root, the
server runs as the ``postgres`` user (initdb refuses root).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class PostgreSQLMissingError(Exception):
    """PostgreSQL cannot be started here (the message says why)."""


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's programs (``None``: none is installed)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(found[-1]).parent if found else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass(frozen=True)
class PostgreSQL:
    """A running server: its SQLAlchemy URL (psycopg 3), and how to stop and start it."""

    url: str
    pg_ctl: list[str]
    options: str
    log: Path

    @property
    def libpq(self) -> str:
        """The URI psycopg takes (no SQLAlchemy driver name)."""
        return self.url.replace("postgresql+psycopg://", "postgresql://")

    def execute(self, statement: str, *args: Any) -> list[tuple[Any, ...]]:
        import psycopg

        with psycopg.connect(self.libpq, autocommit=True) as connection:
            cursor = connection.execute(statement, args or None)
            return list(cursor.fetchall()) if cursor.description else []

    def stop(self, mode: str = "immediate") -> None:
        """Stop the server (``immediate``: as if it crashed; ``fast``: cleanly)."""
        subprocess.run([*self.pg_ctl, "-m", mode, "stop"], check=True, capture_output=True)

    def start(self) -> None:
        """Start it again (returns once it accepts connections)."""
        subprocess.run(
            [*self.pg_ctl, "-o", self.options, "-l", str(self.log), "-w", "start"],
            check=True,
            capture_output=True,
        )

    @property
    def data(self) -> Path:
        """The server's data folder (``pg_ctl -D``)."""
        return Path(self.pg_ctl[self.pg_ctl.index("-D") + 1])

    def postmaster(self) -> int | None:
        """The process id of the running server (its ``postmaster.pid``), or ``None``."""
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def restart(self) -> None:
        self.stop()
        self.start()


def _run_as() -> list[str]:
    """The command prefix that runs PostgreSQL's programs as a user it accepts."""
    if os.geteuid() != 0:
        return []
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise PostgreSQLMissingError("running as root and there is no postgres user") from None
    return ["runuser", "-u", "postgres", "--"]


@contextlib.contextmanager
def postgresql_server(settings: Sequence[str] = (), *, fsync: bool = True) -> Iterator[PostgreSQL]:
    """A new server on a free loopback port, stopped and deleted afterwards.

    ``settings``: ``name=value`` settings of its own (its ``-c`` options); ``fsync``:
    ``False`` for tests, which need no durability (``-F``), ``True`` (PostgreSQL's
    default) for figures.

    :raises PostgreSQLMissingError: not installed, or no user to run it as.
    """
    bin_dir = postgres_bin()
    if bin_dir is None:
        raise PostgreSQLMissingError("PostgreSQL is not installed (apt-get install -y postgresql)")
    as_user = _run_as()
    folder = Path(tempfile.mkdtemp(prefix="stairgames-pg-"))
    if as_user:
        user = pwd.getpwnam("postgres")
        os.chown(folder, user.pw_uid, user.pw_gid)
    data, port = folder / "data", free_port()
    subprocess.run(
        [*as_user, str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"],
        check=True,
        capture_output=True,
    )
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
    options += "".join(f" -c {setting}" for setting in settings)
    if not fsync:
        options += " -F"
    server = PostgreSQL(
        f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres",
        [*as_user, str(bin_dir / "pg_ctl"), "-D", str(data)],
        options,
        folder / "log",
    )
    server.start()
    try:
        yield server
    finally:
        subprocess.run([*server.pg_ctl, "-m", "immediate", "stop"], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
