"""Issue 33: what no event records reaches every server process too, through the
fan-out's topics (``FanOut.broadcast`` / ``subscribe``, ``server/play/fanout.py``).

Two apps on one PostgreSQL database (``tests/postgresql_helpers.py``), each with its own
event loop, as two server processes; polling is set to an hour, so anything that
reaches the other app came through ``LISTEN``/``NOTIFY``. The lobby's list, who is
connected, a chat message and an analysis's progress, each made on one app, reach a
WebSocket on the other. Every wait has a deadline; no test asserts on a duration. The
first tests need no database: the topics of one process.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stairgames.server.people.players import COOKIE
from stairgames.server.play.fanout import (
    MAX_TOPIC_BYTES,
    LocalFanOut,
    decode_topic,
    encode_topic,
)
from tests.postgresql_helpers import (
    DEADLINE,
    PostgreSQL,
    cut_listening,
    fanout_of,
    postgresql_server,
    receive_until_within,
    two_servers,
    wait_for,
)
from tests.server_helpers import JSON, connect, new_match, token_of

TINY = {"analysis_iterations": 4, "analysis_position_iterations": 8}


# ----- the topics of one process ------------------------------------------------------


def test_a_local_fanout_delivers_each_topic_to_its_handlers_in_order_once() -> None:
    heard: list[tuple[str, dict[str, Any]]] = []

    async def scenario() -> None:
        fanout = LocalFanOut()

        async def lobby(data: dict[str, Any]) -> None:
            heard.append(("lobby", data))

        async def progress(data: dict[str, Any]) -> None:
            heard.append(("analysis", data))

        fanout.subscribe("lobby", lobby)
        fanout.subscribe("analysis", progress)
        for done in range(3):
            fanout.broadcast("analysis", {"done": done})
            fanout.broadcast("lobby", {})  # the same message waiting: delivered once
        fanout.broadcast("nobody listens", {"x": 1})
        while fanout.topics._task is not None and not fanout.topics._task.done():
            await asyncio.sleep(0)
        await fanout.close()

    asyncio.run(scenario())
    assert heard == [
        ("analysis", {"done": 0}),
        ("lobby", {}),
        ("analysis", {"done": 1}),
        ("analysis", {"done": 2}),
    ]


def test_a_topic_message_too_large_for_notify_is_not_sent() -> None:
    small = encode_topic("p1", "lobby", {"text": "x"})
    assert small is not None and decode_topic(small) == ("p1", "lobby", {"text": "x"})
    assert encode_topic("p1", "chat", {"text": "あ" * (MAX_TOPIC_BYTES // 3)}) is None
    assert decode_topic("not json") is None and decode_topic('{"from": 1}') is None


# ----- two processes on PostgreSQL ------------------------------------------------------


@pytest.fixture(scope="module")
def postgresql() -> Iterator[PostgreSQL]:
    with postgresql_server() as server:
        yield server


def player(client: TestClient, name: str) -> dict[str, str]:
    """Headers of a new player's requests (names are unique in the module's database)."""
    unique = f"{name}-{secrets.token_hex(3)}"
    _made, secret = client.app.state.players.create(unique)  # type: ignore[attr-defined]
    return {**JSON, "cookie": f"{COOKIE}={secret}"}


def challenge(client: TestClient, who: dict[str, str]) -> str:
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}
    made = client.post("/api/challenges", json=body, headers=who)
    assert made.status_code == 200, made.text
    return str(made.json()["challenge"])


def listing(challenge_id: str, *, listed: bool = True) -> Any:
    """Accepts a lobby message that lists (or no longer lists) ``challenge_id``."""

    def accepts(message: dict[str, Any]) -> bool:
        ids = [entry["id"] for entry in message.get("challenges", ())]
        return message["type"] == "lobby" and (challenge_id in ids) == listed

    return accepts


@pytest.mark.slow
def test_a_challenge_made_on_one_process_reaches_a_lobby_on_the_other(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    with two_servers(tmp_path, postgresql.url) as (first, second):
        ann, bob = player(first, "Ann"), player(second, "Bob")
        with connect(second, "/ws/lobby") as lobby:
            receive_until_within(lobby, lambda m: m["type"] == "lobby", DEADLINE)
            made = challenge(first, ann)
            shown = receive_until_within(lobby, listing(made), DEADLINE)
            (entry,) = [c for c in shown["challenges"] if c["id"] == made]
            assert entry["creator"]["name"].startswith("Ann-")
            with connect(first, "/ws/lobby") as other_lobby:
                receive_until_within(other_lobby, listing(made), DEADLINE)
                taken = second.post(f"/api/challenges/{made}/accept", headers=bob)
                assert taken.status_code == 200
                gone = receive_until_within(other_lobby, listing(made, listed=False), DEADLINE)
                (live,) = [game for game in gone["live"] if game["id"] == made]
                assert [name.split("-")[0] for name in live["players"]] == ["Ann", "Bob"]


@pytest.mark.slow
def test_a_lobby_reads_its_list_again_after_the_fanout_was_lost(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    """A change made while a process did not listen reaches its lobby once it listens
    again (the fan-out's resync)."""
    with two_servers(tmp_path, postgresql.url) as (first, second):
        ann = player(first, "Ann")
        listener = fanout_of(second)
        listener.backoff = (0.5, 0.5)
        with connect(second, "/ws/lobby") as lobby:
            receive_until_within(lobby, lambda m: m["type"] == "lobby", DEADLINE)
            cut_listening(postgresql, listener)
            made = challenge(first, ann)
            receive_until_within(lobby, listing(made), DEADLINE)
            assert listener.connections == 2


@pytest.mark.slow
def test_who_is_connected_is_counted_over_both_processes(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    with two_servers(tmp_path, postgresql.url) as (first, second):
        created = new_match(first, "stairs", ["human", "online"])
        match = created["match"]
        with connect(second, f"/ws/matches/{match}") as spectator:
            receive_until_within(spectator, lambda m: m["type"] == "state", DEADLINE)
            with connect(first, f"/ws/matches/{match}?token={token_of(created, 0)}") as light:
                # light (on the first) hears of the spectator on the second
                receive_until_within(light, lambda m: m.get("spectators") == 1, DEADLINE)
                # the spectator (on the second) sees light connected on the first
                receive_until_within(
                    spectator,
                    lambda m: m["type"] == "presence" and m["connected"] == [0],
                    DEADLINE,
                )
                view = second.get(f"/api/matches/{match}").json()
                assert [seat["connected"] for seat in view["seats"]] == [True, False]
                assert view["spectators"] == 1
            gone = receive_until_within(
                spectator, lambda m: m["type"] == "presence" and m["connected"] == [], DEADLINE
            )
            assert gone["spectators"] == 1
        wait_for(
            lambda: first.get(f"/api/matches/{match}").json()["spectators"] == 0,
            DEADLINE,
            "the spectator's departure heard on the first",
        )


def test_a_chat_message_said_on_one_process_reaches_a_player_on_the_other(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    with two_servers(tmp_path, postgresql.url) as (first, second):
        created = new_match(first, "stairs", ["human", "online"])
        match = created["match"]
        dark = second.post(f"/api/matches/{match}/join", headers=JSON).json()
        with connect(second, f"/ws/matches/{match}?token={dark['token']}") as ws:
            receive_until_within(ws, lambda m: m["type"] == "state", DEADLINE)
            said = first.post(
                f"/api/matches/{match}/chat",
                json={"text": "across processes"},
                headers={**JSON, "x-seat-token": token_of(created, 0)},
            )
            assert said.status_code == 200, said.text
            heard = receive_until_within(ws, lambda m: m["type"] == "chat", DEADLINE)
            assert heard["message"]["text"] == "across processes"
            assert heard["message"]["seat"] == 0


def finished_stairs(client: TestClient) -> str:
    """A Stairs 3×3 match of two random computer players, played to its end."""
    created = new_match(client, "stairs", ["computer:random", "computer:random"], size=3)
    match = str(created["match"])
    wait_for(
        lambda: client.get(f"/api/matches/{match}").json()["result"] is not None,
        60,
        "the game's end",
    )
    return match


@pytest.mark.slow
def test_an_analysis_made_on_one_process_is_followed_on_the_other(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    with two_servers(tmp_path, postgresql.url, **TINY) as (first, second):
        match = finished_stairs(first)
        with connect(second, f"/ws/matches/{match}") as ws:
            receive_until_within(ws, lambda m: m["type"] == "state", DEADLINE)
            started = first.post(f"/api/matches/{match}/analysis", headers=JSON)
            assert started.status_code == 200, started.text
            running_ = receive_until_within(ws, lambda m: m["type"] == "analysis", DEADLINE)
            assert running_["status"] in ("running", "done")
            done = receive_until_within(
                ws, lambda m: m["type"] == "analysis" and m["status"] != "running", 60
            )
        assert done["status"] == "done" and done["match"] == match
        assert done["analysis"]["decisions"] == done["done"] == done["total"] > 0
        assert second.get(f"/api/matches/{match}/analysis").json()["status"] == "done"
