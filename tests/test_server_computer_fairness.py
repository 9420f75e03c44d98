"""Fair computers (issue 48): the pool serves the matches in turn, the matches with no
person in them think apart from those a person plays and are let in only within limits
(per player or address, per server), they stop when nobody watches them, and a
computer's move reaches the database off the event loop."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from stairgames.server.base.store import Store, make_engine, on_event_loop_thread
from stairgames.server.migrations import upgrade
from stairgames.server.play import computer
from stairgames.server.play.computer import ComputerPool
from stairgames.server.play.hub import Connection, Hub
from stairgames.server.play.matches import MatchService
from tests.server_helpers import (
    JSON,
    FakeClock,
    connect,
    new_match,
    receive_until,
    running,
    token_of,
)
from tests.test_server_computers import ENDLESS, ended

GUARD = 60.0
"""How long a blocked computer waits to be let go before it gives up (a guard against a
test hanging, never a measured time)."""
TOO_MANY = "computer_games_per_player"
FULL = "computer_games_full"
STOPPED = "computer_games_unwatched"
COMPUTERS = ["computer:hard", "computer:hard"]
"""A Stairs match with no person in it (its computers, ``hard``, are held by the tests)."""


class Held:
    """``choose_move`` for the tests: ``hard`` thinks until the test lets it go (each
    call counted; ``finished`` set once one has ended), every other player as it would."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.started = threading.Event()
        self.finished = threading.Event()
        self.calls = 0
        self.real = computer.choose_move

    def __call__(self, *job: Any, **options: Any) -> str:
        if job[2] != "hard":
            return self.real(*job, **options)
        self.calls += 1
        self.started.set()
        self.go.wait(GUARD)
        self.finished.set()
        random_player = (*job[:2], "random", *job[3:])
        return self.real(*random_player, **options)


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[Held]:
    holder = Held()
    monkeypatch.setattr(computer, "choose_move", holder)
    try:
        yield holder
    finally:
        holder.go.set()


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def matches_stored(data_dir: Path) -> int:
    with sqlite3.connect(data_dir / "stairgames.db") as db:
        count: int = db.execute("SELECT count(*) FROM matches").fetchone()[0]
    return count


def create(client: TestClient, seats: list[str]) -> Any:
    return client.post("/api/matches", json={"game": "stairs", "seats": seats}, headers=JSON)


# ----- the pool's turns ------------------------------------------------------------------


def test_the_pool_serves_the_matches_in_turn_not_in_the_order_they_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One thread thinks (``workers=0``); while match A's first move is thought, A asks
    for two more, then B for three, then C for one: each match gets a move before any
    gets a second."""
    served: list[str] = []
    go = threading.Event()
    labels = ["A1", "A2", "A3", "B1", "B2", "B3", "C1"]

    def think(*job: Any) -> str:
        served.append(labels[job[5]])
        if len(served) == 1:
            go.wait(GUARD)
        return "move"

    monkeypatch.setattr(computer, "choose_move", think)

    async def scenario() -> None:
        pool = ComputerPool(0)

        def ask(index: int) -> asyncio.Task[str]:
            queue = labels[index][0]
            return asyncio.ensure_future(
                pool.choose("stairs", {}, "random", 0, [], index, queue=queue)
            )

        first = ask(0)
        while not served:  # its thread has started
            await asyncio.sleep(0)
        asked = [ask(index) for index in range(1, len(labels))]
        while pool.move_turns().waiting() < len(asked):
            await asyncio.sleep(0)
        go.set()
        await asyncio.gather(first, *asked)

    asyncio.run(scenario())
    assert served == ["A1", "B1", "C1", "A2", "B2", "A3", "B3"]


def test_a_request_cancelled_while_it_waits_gives_its_turn_to_the_next() -> None:
    async def scenario() -> list[str]:
        turns = computer.FairTurns(1)
        order: list[str] = []
        held = asyncio.Event()

        async def take(queue: str) -> None:
            async with turns.turn(queue):
                order.append(queue)
                if queue == "A":
                    await held.wait()

        first = asyncio.ensure_future(take("A"))
        await asyncio.sleep(0)
        cancelled = asyncio.ensure_future(take("B"))
        last = asyncio.ensure_future(take("C"))
        while turns.waiting() < 2:
            await asyncio.sleep(0)
        cancelled.cancel()
        held.set()
        await asyncio.gather(first, last)
        assert cancelled.cancelled() and turns.waiting() == 0
        return order

    assert asyncio.run(scenario()) == ["A", "C"]


def test_a_lane_starts_workers_of_its_own_and_leaves_a_persons_prepared_one() -> None:
    """A move of a match of computers only does not take the idle worker in which a
    person's computer is prepared (the person's next move would wait for a new one to
    start and prepare: seconds)."""

    async def scenario() -> None:
        pool = ComputerPool(1)
        try:
            await pool.choose("stairs", {}, "random", 0, [], 1, queue="person")
            [person] = pool.pids()
            lane = computer.COMPUTER_ONLY_LANE
            await pool.choose("stairs", {}, "random", 0, [], 1, queue="watched", lane=lane)
            assert len(pool.pids()) == 2 and person in pool.pids()
            await pool.choose("stairs", {}, "random", 0, [], 2, queue="person")
            assert len(pool.pids()) == 2
        finally:
            pool.shutdown()

    asyncio.run(scenario())


def test_a_match_of_computers_only_never_holds_up_a_persons_computer(
    tmp_path: Path, held: Held
) -> None:
    """The computers of a match with no person in it think for as long as the test says;
    meanwhile a person's computer opponent replies (before, it waited its turn behind
    them in the one thread)."""
    with running(tmp_path) as client:
        new_match(client, "stairs", COMPUTERS)
        assert held.started.wait(GUARD)
        created = new_match(client, "stairs", ["human", "computer:random"])
        url = f"/ws/matches/{created['match']}?token={token_of(created, 0)}"
        with connect(client, url) as ws:
            view = receive_until(ws, lambda m: m["type"] == "state")
            ws.send_json({"type": "move", "move": view["legal"][0], "event": view["event"]})
            replied = receive_until(ws, lambda m: m["type"] == "state" and m["event"] == 2)
        still_thinking = not held.finished.is_set()
        held.go.set()
    assert replied["to_act"] == 0 and replied["computer_error"] is None
    assert still_thinking, "the person's computer replied only after the other match's"


# ----- which matches of computers only are let in ----------------------------------------


def test_an_address_may_run_two_matches_of_computers_only_a_third_is_refused(
    tmp_path: Path, held: Held
) -> None:
    """A browser that is no player counts by its address; a refused match is not made,
    and a match a person plays is let in all the same."""
    with running(tmp_path) as client:
        for _ in range(2):
            new_match(client, "stairs", COMPUTERS)
        refused = create(client, COMPUTERS)
        stored = matches_stored(tmp_path)
        assert create(client, ["human", "computer:hard"]).status_code == 200
    assert refused.status_code == 429
    error = refused.json()["error"]
    assert error["code"] == TOO_MANY and error["args"] == {"limit": 2, "minutes": 10}
    assert "2 games of computers only running already" in error["message"]
    assert stored == 2


def test_a_player_counts_apart_from_addresses_and_the_server_takes_at_most_n(
    tmp_path: Path, held: Held
) -> None:
    with running(tmp_path, computer_only_matches=3) as client:
        for _ in range(2):
            new_match(client, "stairs", COMPUTERS)
        assert client.post("/api/me", json={"name": "Kato"}, headers=JSON).status_code == 200
        new_match(client, "stairs", COMPUTERS)  # the player's first: the server's third
        full = create(client, COMPUTERS)
        assert matches_stored(tmp_path) == 3
        assert hub_of(client).computer_only_running() == 3
    assert full.status_code == 503
    error = full.json()["error"]
    assert error["code"] == FULL and error["args"] == {"limit": 3}


def test_a_match_refused_for_its_seats_frees_the_place_it_held(tmp_path: Path) -> None:
    """``perfect`` cannot play City of Stairs: three such matches are refused (400), and
    the address's two places are still free."""
    seats = ["computer:perfect"] * 4
    offered = ("easy", "medium", "hard", "expert", "random", "perfect")
    with running(tmp_path, computer_players=offered, computer_only_per_player=2) as client:
        for _ in range(3):
            answer = client.post(
                "/api/matches", json={"game": "city_of_stairs", "seats": seats}, headers=JSON
            )
            assert answer.status_code == 400
        assert hub_of(client).computer_only_running() == 0
        for _ in range(2):
            new_match(client, "stairs", ["computer:random", "computer:random"], size=3)


# ----- matches nobody watches stop -------------------------------------------------------


class Quiet:
    """A WebSocket that takes every message."""

    async def send_text(self, data: str) -> None:
        pass


def stop_unwatched(client: TestClient) -> list[str]:
    assert client.portal is not None
    stopped: list[str] = client.portal.call(hub_of(client).stop_unwatched)
    return stopped


def test_a_match_of_computers_only_nobody_watches_for_ten_minutes_is_stopped(
    tmp_path: Path, held: Held
) -> None:
    with running(tmp_path) as client:
        hub, clock = hub_of(client), FakeClock()
        hub.clock = clock
        match = new_match(client, "stairs", COMPUTERS)["match"]
        new_match(client, "stairs", COMPUTERS)
        assert held.started.wait(GUARD)
        clock.now += 599.0
        assert stop_unwatched(client) == []
        assert client.get(f"/api/matches/{match}").json()["thinking"]
        clock.now += 1.0
        assert match in stop_unwatched(client)
        view = client.get(f"/api/matches/{match}").json()
        new_match(client, "stairs", COMPUTERS)  # its place is free again
    assert not view["thinking"] and view["history"] == []
    assert view["computer_error"]["code"] == STOPPED
    assert view["computer_error"]["args"] == {"minutes": 10}


def test_watching_keeps_it_going_and_the_ten_minutes_count_from_the_last_watcher(
    tmp_path: Path, held: Held
) -> None:
    with running(tmp_path) as client:
        hub, clock = hub_of(client), FakeClock()
        hub.clock = clock
        assert client.portal is not None
        match = new_match(client, "stairs", COMPUTERS)["match"]
        spectator = Connection(Quiet(), None, "watcher")
        client.portal.call(hub.add, match, spectator)
        clock.now += 3600.0
        assert stop_unwatched(client) == []
        clock.now += 10.0
        client.portal.call(hub.remove, match, spectator)
        clock.now += 599.0
        assert stop_unwatched(client) == []
        clock.now += 1.0
        assert stop_unwatched(client) == [match]


def test_stopping_kills_the_worker_that_thinks_for_it(tmp_path: Path) -> None:
    """A real worker thinks for ever for a match nobody watches; stopping the match kills
    it (the computers stop thinking), and the match's view says so."""
    players = (ENDLESS,)
    with running(tmp_path, computer_workers=1, computer_players=players) as client:
        hub, clock = hub_of(client), FakeClock()
        hub.clock = clock
        match = new_match(client, "stairs", [ENDLESS, ENDLESS])["match"]
        for _ in range(100):  # each request lets the event loop start the worker
            if hub.computers.pids():
                break
            assert client.get(f"/api/matches/{match}").json()["thinking"]
        [worker] = hub.computers.pids()
        clock.now += 600.0
        assert stop_unwatched(client) == [match]
        view = client.get(f"/api/matches/{match}").json()
        assert ended(worker)
    assert view["computer_error"]["code"] == STOPPED and not view["thinking"]


# ----- the computer's moves off the event loop ---------------------------------------------


class Views:
    """A WebSocket that keeps the views it is sent."""

    def __init__(self) -> None:
        self.views: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def send_text(self, data: str) -> None:
        self.views.put_nowait(json.loads(data))


def test_a_computers_moves_reach_the_database_off_the_event_loop(tmp_path: Path) -> None:
    """Two computers play a whole game of Stairs 3×3 with every database connection
    refused on the event loop's thread: each move is committed (in a database thread)."""
    engine = make_engine(f"sqlite:///{tmp_path / 'stairgames.db'}")
    upgrade(engine)
    service = MatchService(Store(engine), ("random",))
    created = service.create("stairs", {"size": 3}, ["random", "random"])
    on_loop: list[str] = []

    @event.listens_for(engine, "checkout")
    def _checked_out(*_args: Any) -> None:
        if on_event_loop_thread():
            on_loop.append("a database connection")
            raise RuntimeError("a database call on the event loop's thread")

    async def scenario() -> dict[str, Any]:
        hub = Hub(service, ComputerPool(0))
        watcher = Views()
        hub.add(created.match.id, Connection(watcher, None, "watcher"))
        hub.start_computer(created.match)
        try:
            while True:
                view = await watcher.views.get()
                if view.get("result") is not None or view.get("computer_error"):
                    return view
        finally:
            await hub.close()

    last = asyncio.run(scenario())
    engine.dispose()
    assert on_loop == []
    assert last["computer_error"] is None and last["result"] is not None
