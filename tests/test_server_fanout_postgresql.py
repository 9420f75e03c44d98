"""Issue 33: events reach the other server processes through PostgreSQL's LISTEN/NOTIFY.

Two apps on one PostgreSQL database (``tests/postgresql_helpers.py``), each with its own
event loop, as two server processes. Polling is set to an hour (``follow_seconds``), so a
move reaches the other app only through the fan-out; every wait has a deadline, and no
test asserts on a duration.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stairgames.server.play.match import Match
from tests.postgresql_helpers import (
    DEADLINE,
    PostgreSQL,
    cut_listening,
    fanout_of,
    free_port,
    postgresql_server,
    receive_until_within,
    two_servers,
    wait_for,
)
from tests.server_helpers import JSON, connect, new_match, token_of


@pytest.fixture(scope="module")
def postgresql() -> Iterator[PostgreSQL]:
    with postgresql_server() as server:
        yield server


def wait_until_listening_and_ready(client: TestClient) -> None:
    fanout = fanout_of(client)
    wait_for(lambda: fanout.connections >= 2 and fanout.connected, DEADLINE, "listening again")
    wait_for(lambda: client.get("/readyz").status_code == 200, DEADLINE, "ready again")


def online_game(first: TestClient, second: TestClient) -> tuple[str, str, str]:
    """A Stairs game made on ``first``, its second seat joined through ``second``."""
    created = new_match(first, "stairs", ["human", "online"])
    match = created["match"]
    joined = second.post(f"/api/matches/{match}/join", headers=JSON).json()
    return match, token_of(created, 0), joined["token"]


@contextlib.contextmanager
def seated(
    first: TestClient, second: TestClient, match: str, light_token: str, dark_token: str
) -> Iterator[tuple[Any, Any, dict[str, Any]]]:
    """Light's WebSocket on ``first`` and dark's on ``second``, each past its first view;
    with light's view."""
    with (
        connect(first, f"/ws/matches/{match}?token={light_token}") as light,
        connect(second, f"/ws/matches/{match}?token={dark_token}") as dark,
    ):
        view = receive_until_within(light, lambda m: m["type"] == "state", DEADLINE)
        receive_until_within(dark, lambda m: m["type"] == "state", DEADLINE)
        yield light, dark, view


def moved(after: int) -> Any:
    return lambda m: m["type"] == "state" and m["event"] > after


def play(ws: Any, view: dict[str, Any]) -> None:
    ws.send_json({"type": "move", "move": view["legal"][0], "event": view["event"]})


@pytest.mark.slow
def test_moves_made_through_one_server_reach_a_player_on_the_other_in_order(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    with two_servers(tmp_path, postgresql.url) as (first, second):
        match, light_token, dark_token = online_game(first, second)
        with seated(first, second, match, light_token, dark_token) as (light, dark, view):
            seen_by = {0: [view["event"]], 1: []}
            players = [light, dark]
            for turn in range(6):  # light on the first server, dark on the second, in turn
                mover, other = players[turn % 2], players[1 - turn % 2]
                play(mover, view)
                mine = receive_until_within(mover, moved(view["event"]), DEADLINE)
                theirs = receive_until_within(other, moved(view["event"]), DEADLINE)
                assert theirs["event"] == mine["event"] and theirs["history"] == mine["history"]
                seen_by[1 - turn % 2].append(theirs["event"])
                view = theirs
            assert all(a < b for a, b in zip(seen_by[1], seen_by[1][1:], strict=False))
            # what the second server folded in, event by event, is the match as stored
            service = second.app.state.hub.service  # type: ignore[attr-defined]
            followed = service.get(match)
            stored = Match(service.store.load_match(match))
            assert followed.event == stored.event == view["event"]
            assert followed.view(1, connected=set(), thinking=False, now=0.0) == stored.view(
                1, connected=set(), thinking=False, now=0.0
            )
        assert fanout_of(second).received > 0 and fanout_of(second).connections == 1
        metrics = second.get("/metrics").text
    assert "stairgames_fanout_connected 1.0" in metrics
    elsewhere = 'stairgames_move_announce_seconds_count{game="stairs",origin="elsewhere"} 3.0'
    assert elsewhere in metrics  # light's three moves, made through the first server


@pytest.mark.slow
def test_a_lost_listening_connection_is_opened_again_and_catches_up(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    with two_servers(tmp_path, postgresql.url) as (first, second):
        match, light_token, dark_token = online_game(first, second)
        listener = fanout_of(second)
        listener.backoff = (0.5, 0.5)
        with seated(first, second, match, light_token, dark_token) as (light, dark, view):
            cut_listening(postgresql, listener)
            play(light, view)  # committed while the second server does not listen
            mine = receive_until_within(light, moved(view["event"]), DEADLINE)
            theirs = receive_until_within(dark, moved(view["event"]), DEADLINE)
            assert theirs["history"] == mine["history"]
            wait_for(lambda: listener.connected, DEADLINE, "listening again")
            assert listener.connections == 2
            play(dark, theirs)  # and notifications flow again, both ways
            again = receive_until_within(light, moved(theirs["event"]), DEADLINE)
            assert again["event"] > theirs["event"]


def test_polling_stands_in_while_the_database_cannot_be_listened_to(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    """While the listening connection cannot be opened again (here: a wrong port), the
    server polls every ``follow_seconds``; then it listens again."""
    with two_servers(tmp_path, postgresql.url) as (first, second):
        match, light_token, dark_token = online_game(first, second)
        listener = fanout_of(second)
        good = listener.dsn
        listener.dsn = good.replace(good.rsplit(":", 1)[1].split("/")[0], str(free_port()))
        listener.poll_seconds = 0.05
        listener.backoff = (0.2, 0.2)
        with seated(first, second, match, light_token, dark_token) as (light, dark, view):
            cut_listening(postgresql, listener)
            play(light, view)
            mine = receive_until_within(light, moved(view["event"]), DEADLINE)
            theirs = receive_until_within(dark, moved(view["event"]), DEADLINE)
            assert theirs["history"] == mine["history"] and not listener.connected
            unready = second.get("/readyz")
            assert unready.status_code == 503 and unready.json()["failed"] == ["fanout"]
            listener.dsn = good
            wait_for(lambda: listener.connected, DEADLINE, "listening again")
            ready = second.get("/readyz")
            assert ready.status_code == 200
            assert ready.json()["checks"] == {"database": True, "migrations": True, "fanout": True}


@pytest.mark.slow
def test_after_postgresql_restarts_the_servers_are_ready_again_and_lose_nothing(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    """PostgreSQL stopped and started again (last in this module: it restarts the
    module's server): each app listens again, says it is ready, and a game goes on
    across the two with every event kept."""
    with two_servers(tmp_path, postgresql.url) as (first, second):
        match, light_token, dark_token = online_game(first, second)
        with seated(first, second, match, light_token, dark_token) as (light, dark, view):
            play(light, view)
            view = receive_until_within(dark, moved(view["event"]), DEADLINE)
            postgresql.restart()
            for client in (first, second):
                wait_until_listening_and_ready(client)
            play(dark, view)
            after = receive_until_within(light, moved(view["event"]), DEADLINE)
            assert len(after["history"]) == 2
        stored = second.get(f"/api/matches/{match}", headers={"x-seat-token": dark_token}).json()
        assert stored["history"] == after["history"]
