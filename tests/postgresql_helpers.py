"""A PostgreSQL server of the tests' own, and reading WebSockets with a deadline.

:func:`postgresql_server` starts Debian's PostgreSQL (initdb and pg_ctl under
/usr/lib/postgresql/*/bin) in a temporary folder, listening on loopback, as
``tests/test_server_postgresql.py`` does; a test module makes a fixture of it. It skips,
saying why, where the binaries or psycopg are missing.
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
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest


def postgres_bin() -> Path | None:
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

    def restart(self) -> None:
        subprocess.run([*self.pg_ctl, "-m", "immediate", "stop"], check=True, capture_output=True)
        subprocess.run(
            [*self.pg_ctl, "-o", self.options, "-l", str(self.log), "-w", "start"],
            check=True,
            capture_output=True,
        )


@contextlib.contextmanager
def postgresql_server() -> Iterator[PostgreSQL]:
    bin_dir = postgres_bin()
    if bin_dir is None:
        pytest.skip("PostgreSQL is not installed (apt-get install -y postgresql): skipped")
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install psycopg[binary])")
    as_user: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="stairgames-pg-"))
    if os.geteuid() == 0:  # initdb refuses root: run the server as the postgres user
        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no postgres user: skipped")
        os.chown(folder, user.pw_uid, user.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    data, port = folder / "data", free_port()
    subprocess.run(
        [*as_user, str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"],
        check=True,
        capture_output=True,
    )
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -F"
    pg_ctl = [*as_user, str(bin_dir / "pg_ctl"), "-D", str(data)]
    log = folder / "log"
    subprocess.run(
        [*pg_ctl, "-o", options, "-l", str(log), "-w", "start"], check=True, capture_output=True
    )
    try:
        yield PostgreSQL(
            f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres", pg_ctl, options, log
        )
    finally:
        subprocess.run([*pg_ctl, "-m", "immediate", "stop"], check=False, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


def receive_json_within(ws: Any, seconds: float) -> dict[str, Any]:
    """The next message of a TestClient WebSocket, or AssertionError after ``seconds``
    (its ``receive_json`` waits for ever)."""
    import anyio

    async def receive() -> Any:
        with anyio.fail_after(seconds):
            return await ws._send_rx.receive()

    try:
        message = ws.portal.call(receive)
    except TimeoutError as exc:
        raise AssertionError(f"nothing received within {seconds} s") from exc
    ws._raise_on_close(message)
    import json

    answer: dict[str, Any] = json.loads(message["text"])
    return answer


def receive_until_within(
    ws: Any, predicate: Callable[[dict[str, Any]], bool], seconds: float
) -> dict[str, Any]:
    """The first message ``predicate`` accepts, all of it within ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no such message within {seconds} s")
        message = receive_json_within(ws, left)
        if predicate(message):
            return message


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> None:
    """Return once ``condition()`` holds; AssertionError after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds} s")
        time.sleep(0.02)
