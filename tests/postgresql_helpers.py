"""A PostgreSQL server of the tests' own, and reading WebSockets with a deadline.

:func:`postgresql_server` starts Debian's PostgreSQL (initdb and pg_ctl under
/usr/lib/postgresql/*/bin) in a temporary folder, listening on loopback, with the
benchmarks' start-up (:mod:`stairgames.bench.postgresql`); a test module makes a fixture of
it. It skips, saying why, where the binaries or psycopg are missing. :func:`two_servers`
runs two apps on one such database, as two server processes.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stairgames.bench.postgresql import PostgreSQL, PostgreSQLMissingError, free_port
from stairgames.bench.postgresql import postgresql_server as _postgresql_server
from stairgames.server.play.fanout import NotifyingFanOut, PostgresFanOut
from tests.server_helpers import running

__all__ = [
    "AN_HOUR",
    "DEADLINE",
    "PostgreSQL",
    "cut_listening",
    "fanout_of",
    "free_port",
    "notifying_fanout_of",
    "postgresql_server",
    "receive_json_within",
    "two_servers",
    "wait_for",
]

AN_HOUR = 3600.0
DEADLINE = 20.0
"""Seconds a message may take before a test fails (a hung test otherwise)."""


@contextlib.contextmanager
def postgresql_server() -> Iterator[PostgreSQL]:
    """:func:`stairgames.bench.postgresql.postgresql_server` without flushing to disk (a test
    needs no durability), or the test skipped, saying why."""
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install psycopg[binary])")
    with contextlib.ExitStack() as stack:
        try:
            server = stack.enter_context(_postgresql_server(fsync=False))
        except PostgreSQLMissingError as exc:
            pytest.skip(f"{exc}: skipped")
        yield server


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


def cut_listening(postgresql: PostgreSQL, fanout: PostgresFanOut) -> None:
    """End ``fanout``'s listening connection from the database's side (as a restart of
    PostgreSQL or a network fault would), and wait until it has noticed."""
    ended = postgresql.execute(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
        f"{fanout.name}-listen",
    )
    assert ended == [(True,)]
    wait_for(lambda: not fanout.connected, DEADLINE, "the lost connection noticed")


def fanout_of(client: TestClient) -> PostgresFanOut:
    fanout = client.app.state.fanout  # type: ignore[attr-defined]
    assert isinstance(fanout, PostgresFanOut)
    return fanout


def notifying_fanout_of(client: TestClient) -> NotifyingFanOut:
    """The app's fan-out over a message channel (PostgreSQL's or Redis's)."""
    fanout = client.app.state.fanout  # type: ignore[attr-defined]
    assert isinstance(fanout, NotifyingFanOut)
    return fanout


@contextlib.contextmanager
def two_servers(
    tmp_path: Path, url: str, **settings: Any
) -> Iterator[tuple[TestClient, TestClient]]:
    """Two apps on the database at ``url``, as two server processes, once both listen
    (their fan-outs connected); polling is set to an hour (``follow_seconds``) unless
    told, so what reaches the other app comes through ``LISTEN``/``NOTIFY``."""
    settings.setdefault("follow_seconds", AN_HOUR)  # polling delivers nothing in a test
    with (
        running(tmp_path / "a", database_url=url, **settings) as first,
        running(tmp_path / "b", database_url=url, **settings) as second,
    ):
        wait_for(lambda: notifying_fanout_of(first).connected, DEADLINE, "the first listening")
        wait_for(lambda: notifying_fanout_of(second).connected, DEADLINE, "the second listening")
        yield first, second
