"""Refused requests spend no allowance and are counted apart (issue 48, finding 8), and
the limits' database work stays off the event loop.

A request the rate limits refuse (429) spends nothing of its client's allowance, whether
this limit refuses it (:class:`ClientRates`) or a later one does (the app answering 429:
:class:`RequestLimits` gives the allowance back); so a client that keeps asking while
refused is served as soon as its allowance has refilled. Each limited kind counts the
requests it accepted and those refused, which ``/metrics`` shows. Fake clocks throughout.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.engine import Engine

from stairgames.server.base.limits import (
    ClientRates,
    LimitCounts,
    LiveProcesses,
    Rate,
    Receive,
    RequestLimits,
    Route,
    Scope,
    Send,
    SharedAllowances,
)
from stairgames.server.base.store import make_engine
from stairgames.server.migrations import upgrade
from tests.postgresql_helpers import PostgreSQL, postgresql_server
from tests.server_helpers import JSON, FakeClock, running

ONE_A_SECOND = Rate(per_minute=60, burst=1)


async def _later_limit(scope: Scope, receive: Receive, send: Send) -> None:
    """An app behind the limits that refuses ``/refused`` itself (429, as the logins of
    a name do) and answers anything else 200."""
    await receive()
    status = 429 if scope["path"] == "/refused" else 200
    await send({"type": "http.response.start", "status": status, "headers": []})
    await send({"type": "http.response.body", "body": b""})


def _limited(rates: ClientRates) -> TestClient:
    """:func:`_later_limit` behind :class:`RequestLimits`, every request of kind
    ``things``."""
    return TestClient(
        RequestLimits(_later_limit, lambda method, path: Route(4096, "things"), rates)
    )


def test_a_request_a_later_limit_refuses_gives_its_allowance_back() -> None:
    clock = FakeClock()
    rates = ClientRates({"things": ONE_A_SECOND}, clock)
    client = _limited(rates)
    for _ in range(5):  # each one takes the allowance, and gives it back when refused
        assert client.post("/refused").status_code == 429
    assert client.post("/served").status_code == 200
    refused_here = client.post("/served")
    assert refused_here.status_code == 429 and refused_here.headers["retry-after"] == "1"
    assert rates.counts == {"things": LimitCounts(accepted=1, refused=6)}


def test_a_client_asking_while_refused_is_served_once_its_allowance_refills() -> None:
    clock = FakeClock()
    rates = ClientRates({"things": ONE_A_SECOND}, clock)
    client = _limited(rates)
    assert client.post("/served").status_code == 200
    for _ in range(7):
        clock.now += 0.125
        assert client.post("/served").status_code == 429
    clock.now += 0.125  # a second after the first
    assert client.post("/served").status_code == 200
    assert rates.counts == {"things": LimitCounts(accepted=2, refused=7)}


def test_a_give_back_never_lifts_an_allowance_past_its_burst() -> None:
    clock = FakeClock()
    rates = ClientRates({"things": Rate(per_minute=60, burst=2)}, clock)
    assert rates.take("things", "10.0.0.1") == 0.0
    rates.give_back("things", "10.0.0.1")
    rates.give_back("things", "10.0.0.1")  # one more than was spent
    assert [rates.take("things", "10.0.0.1") for _ in range(3)] == [0.0, 0.0, 1.0]
    rates.give_back("other", "10.0.0.1")  # a kind without a rate: nothing
    assert rates.counts == {"things": LimitCounts(accepted=3, refused=1)}


def test_metrics_count_the_limited_requests_accepted_and_refused(tmp_path: Path) -> None:
    clock = FakeClock()
    with running(tmp_path, clock=clock, logins_per_minute=ONE_A_SECOND) as client:
        # a login with no name: answered 401 (it spends the allowance), then refused here
        assert client.post("/api/login", json={}, headers=JSON).status_code == 401
        assert client.post("/api/login", json={}, headers=JSON).status_code == 429
        text = client.get("/metrics").text
    assert 'stairgames_limited_requests_total{kind="logins",outcome="accepted"} 1.0' in text
    assert 'stairgames_limited_requests_total{kind="logins",outcome="refused"} 1.0' in text


@pytest.fixture(scope="module")
def postgresql() -> Iterator[PostgreSQL]:
    with postgresql_server() as server:
        yield server


@pytest.mark.slow
def test_a_shared_allowance_given_back_serves_the_next_request(postgresql: PostgreSQL) -> None:
    engine = make_engine(postgresql.url)
    try:
        upgrade(engine)
        rates = ClientRates({"things": Rate(per_minute=0.01, burst=1)})  # hardly refills
        rates.shared = SharedAllowances(engine)
        assert rates.spend("things", "10.1.2.3") == 0.0
        assert rates.spend("things", "10.1.2.3") > 0.0
        rates.give_back("things", "10.1.2.3")
        assert rates.spend("things", "10.1.2.3") == 0.0
        assert rates.spend("things", "10.1.2.3") > 0.0
    finally:
        engine.dispose()


# ----- the limits' database work is done off the event loop ---------------------------


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _checkouts_on_loop(engine: Engine) -> list[bool]:
    """For each connection ``engine`` hands out from now on: whether on an event loop's
    thread (where it would stop every other visitor for its round trips)."""
    on_loop: list[bool] = []

    @event.listens_for(engine, "checkout")
    def _checked_out(*_args: Any) -> None:
        on_loop.append(_on_event_loop())

    return on_loop


def test_the_processes_alive_are_read_in_a_database_thread(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'stairgames.db'}")
    try:
        upgrade(engine)
        on_loop = _checkouts_on_loop(engine)
        live = LiveProcesses(engine)
        told_on_loop: list[bool] = []

        async def read_once() -> None:
            told = asyncio.Event()

            def listener() -> None:
                told_on_loop.append(_on_event_loop())
                told.set()

            live.after_read.append(listener)
            task = asyncio.create_task(live.run(0.0))
            await asyncio.wait_for(told.wait(), timeout=30)
            task.cancel()

        asyncio.run(read_once())
        assert on_loop and not any(on_loop)
        assert told_on_loop and all(told_on_loop)  # the listeners on the loop, as ever
    finally:
        engine.dispose()


def test_a_shared_allowance_is_spent_and_given_back_in_a_database_thread(
    postgresql: PostgreSQL,
) -> None:
    engine = make_engine(postgresql.url)
    try:
        upgrade(engine)
        on_loop = _checkouts_on_loop(engine)
        rates = ClientRates({"things": ONE_A_SECOND})
        rates.shared = SharedAllowances(engine)
        client = _limited(rates)
        assert client.post("/refused").status_code == 429  # spent, then given back
        assert client.post("/served").status_code == 200
        assert len(on_loop) == 3 and not any(on_loop)
    finally:
        engine.dispose()


@pytest.mark.slow
def test_metrics_count_the_limits_routes_keep_themselves(tmp_path: Path) -> None:
    """The password changes' limit lives in the accounts' code, not the app's request
    limits: its refusals are counted in /metrics too (``player:`` kinds)."""
    with running(tmp_path) as client:
        assert client.post("/api/me", json={"name": "Kato"}, headers=JSON).status_code == 200
        made = client.post("/api/account", json={"password": "a long password"}, headers=JSON)
        assert made.status_code == 200
        wrong = {"old": "not the password", "new": "another long password"}
        answers = [
            client.post("/api/account/password", json=wrong, headers=JSON).status_code
            for _ in range(8)
        ]
        assert 401 in answers and answers[-1] == 429
        text = client.get("/metrics").text
    refused = answers.count(429)
    line = 'stairgames_limited_requests_total{kind="player:password",outcome="refused"}'
    assert f"{line} {float(refused)}" in text
