"""A pooled connection to PostgreSQL is tried before use only when it lay idle
(``store.PING_AFTER_IDLE_SECONDS``): a busy server saves a round trip a statement (issue
55), and a dead idle connection is still replaced before a statement meets it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import text

from stairgames.bench.postgresql import PostgreSQL
from stairgames.server.base.store import make_engine
from tests.postgresql_helpers import postgresql_server


@pytest.fixture(scope="module")
def postgresql() -> Iterator[PostgreSQL]:
    with postgresql_server() as server:
        yield server


def counting_pings(engine: Any, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    pings: list[int] = []
    ping = engine.dialect.do_ping

    def counted(dbapi_connection: Any) -> bool:
        pings.append(1)
        return bool(ping(dbapi_connection))

    monkeypatch.setattr(engine.dialect, "do_ping", counted)
    return pings


def backend_pid(engine: Any) -> int:
    with engine.connect() as connection:
        return int(connection.execute(text("SELECT pg_backend_pid()")).scalar_one())


def test_a_connection_used_a_moment_ago_is_not_tried(
    monkeypatch: pytest.MonkeyPatch, postgresql: PostgreSQL
) -> None:
    engine = make_engine(postgresql.url, ping_after_idle=3600.0)
    pings = counting_pings(engine, monkeypatch)
    pids = {backend_pid(engine) for _ in range(5)}
    engine.dispose()
    assert len(pids) == 1 and pings == []


def test_an_idle_connection_is_tried_and_a_dead_one_replaced(
    monkeypatch: pytest.MonkeyPatch, postgresql: PostgreSQL
) -> None:
    engine = make_engine(postgresql.url, ping_after_idle=0.0)  # every reuse is "idle"
    pings = counting_pings(engine, monkeypatch)
    first = backend_pid(engine)
    assert pings == []  # a new connection is not tried
    assert backend_pid(engine) == first and pings == [1]
    killer = make_engine(postgresql.url)
    with killer.connect() as connection:
        connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": first})
    killer.dispose()
    second = backend_pid(engine)  # the dead one was tried, dropped and replaced
    engine.dispose()
    assert second != first and len(pings) == 2
