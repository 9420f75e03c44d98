"""Issue 33: a client's limits hold over every server process of one database.

Two apps on one PostgreSQL database (``tests/postgresql_helpers.py``), as two server
processes. The rates of requests are token buckets in the database
(``limits.SharedAllowances``): a client alternating between the two gets one allowance,
not two. The WebSockets' limits are split between the processes alive (their
heartbeats): each takes its share. Every TestClient request comes from one address
(``testclient``). Every wait has a deadline; no test sleeps for time to pass.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stairgames.server.base.limits import LiveProcesses, Rate, SharedAllowances
from stairgames.server.base.store import make_engine
from stairgames.server.migrations import upgrade
from tests.postgresql_helpers import PostgreSQL, postgresql_server, wait_for
from tests.server_helpers import JSON, connect, new_match, running, token_of

AN_HOUR = 3600.0
DEADLINE = 20.0
HARDLY = Rate(per_minute=0.01, burst=3)
"""Three at once, then (as far as a test can tell) never again."""


@pytest.fixture(scope="module")
def postgresql() -> Iterator[PostgreSQL]:
    with postgresql_server() as server:
        yield server


@contextlib.contextmanager
def two_servers(
    tmp_path: Path, url: str, **settings: Any
) -> Iterator[tuple[TestClient, TestClient]]:
    settings.setdefault("follow_seconds", AN_HOUR)
    with (
        running(tmp_path / "a", database_url=url, **settings) as first,
        running(tmp_path / "b", database_url=url, **settings) as second,
    ):
        yield first, second


def new_player(client: TestClient) -> int:
    """``POST /api/me`` as a new browser (no cookie): its status."""
    client.cookies.clear()
    status: int = client.post("/api/me", json={}, headers=JSON).status_code
    return status


def alive(client: TestClient) -> int:
    """The server processes alive as ``client``'s app reads them now."""
    processes: LiveProcesses = client.app.state.processes  # type: ignore[attr-defined]
    return len(processes.read())


@pytest.mark.slow
def test_a_client_alternating_between_two_processes_gets_one_allowance(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    with two_servers(tmp_path, postgresql.url, players_per_minute=HARDLY) as (first, second):
        statuses = [new_player(client) for client in (first, second, first, second, first)]
        assert statuses == [200, 200, 200, 429, 429]
        refused = second.post("/api/me", json={}, headers=JSON)
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) > 60
        # another kind of request has its own allowance
        assert first.post("/api/matches/none/join", headers=JSON).status_code == 404


def test_a_shared_allowance_keeps_no_address_and_refuses_past_its_burst(
    postgresql: PostgreSQL,
) -> None:
    engine = make_engine(postgresql.url)
    try:
        upgrade(engine)
        allowances = SharedAllowances(engine)
        rate = Rate(per_minute=60, burst=2)  # one a second
        assert allowances.take("test", "10.1.2.3", rate) == 0.0
        assert allowances.take("test", "10.1.2.3", rate) == 0.0
        wait = allowances.take("test", "10.1.2.3", rate)
        assert 0.0 < wait <= 1.0
        assert allowances.take("test", "10.1.2.4", rate) == 0.0  # each client its own
        rows = postgresql.execute("SELECT client FROM client_allowances WHERE kind = 'test'")
        hashed = hashlib.sha256(b"10.1.2.3").hexdigest()
        assert hashed in {client for (client,) in rows}
        assert not any("10.1.2" in client for (client,) in rows)
        logged = postgresql.execute(
            "SELECT relpersistence FROM pg_class WHERE relname = 'client_allowances'"
        )
        assert logged == [("u",)]  # unlogged: nothing in it needs to survive a crash
    finally:
        engine.dispose()


def test_a_chat_writer_has_one_allowance_over_both_processes(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    with two_servers(tmp_path, postgresql.url) as (first, second):
        created = new_match(first, "stairs", ["human", "online"])
        match, seat = created["match"], {**JSON, "x-seat-token": token_of(created, 0)}

        def say(client: TestClient, number: int) -> int:
            url = f"/api/matches/{match}/chat"
            status: int = client.post(url, json={"text": f"#{number}"}, headers=seat).status_code
            return status

        statuses = [say(client, n) for n, client in enumerate([first, second] * 3)]
        assert statuses == [200, 200, 200, 200, 200, 429]  # five at once, over both


@pytest.mark.slow
def test_each_process_takes_its_share_of_a_clients_websockets(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    settings = {"max_connections_per_client": 2, "messages_per_second": 10.0}
    with two_servers(tmp_path, postgresql.url, **settings) as (first, second):
        # (the earlier tests' servers stop beating within seconds)
        wait_for(lambda: alive(first) == alive(second) == 2, DEADLINE, "two processes alive")
        created = new_match(first, "stairs", ["human", "online"])
        url = f"/ws/matches/{created['match']}"
        with connect(first, url) as one, connect(second, url) as other:
            assert one.receive_json()["type"] == other.receive_json()["type"] == "state"
            with connect(first, url) as refused:
                error = refused.receive_json()
                assert error["type"] == "error" and error["error"]["args"] == {"limit": 1}
            hub = first.app.state.hub  # type: ignore[attr-defined]
            assert hub._clients["address:testclient"].bucket.rate == 5.0  # half of 10 a second


@pytest.mark.slow
def test_logins_for_one_name_are_limited_over_both_processes(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    """Ten wrong passwords for one name, alternating between the processes, use up the
    name's allowance on both (``LOGINS_PER_NAME``: 10 at once, then 1 a minute)."""
    from tests.test_server_players import become

    many = Rate(per_minute=10_000, burst=10_000)
    limits = {"logins_per_minute": many, "players_per_minute": many}  # earlier tests spent them
    with two_servers(tmp_path, postgresql.url, **limits) as (first, second):
        become(first, "Hayashi")
        first.post("/api/account", json={"password": "correct horse"}, headers=JSON)
        attempt = {"name": "Hayashi", "password": "wrong password"}
        codes = [
            client.post("/api/login", json=attempt, headers=JSON).status_code
            for client in [first, second] * 5
        ]
        assert codes == [401] * 10
        right = {"name": "Hayashi", "password": "correct horse"}
        assert first.post("/api/login", json=right, headers=JSON).status_code == 429
        assert second.post("/api/login", json=right, headers=JSON).status_code == 429
