"""Issue 48: the lobby, the chat and the referee never touch the database on the event
loop. The test servers guard it (``Settings.loop_guard``): a database connection taken
on the loop's thread raises :class:`BlockingOnLoopError`, which a route answers as a 500
and a background task or an after-change listener logs. A whole lobby challenge (made,
watched, taken, played to its end, rated, rematched, lost on time, rated again) and a
chat through it pass only when none of it blocked the loop."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stairgames.server.base.store import BlockingOnLoopError, ClockStore
from stairgames.server.people.players import COOKIE
from tests.server_helpers import JSON, FakeClock, connect, receive_until, running

START = 1_750_000_000.0
POOL = "stairs size=4"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def client(tmp_path: Path, clock: FakeClock) -> Iterator[TestClient]:
    # The referee's timer waits for the next deadline (the fake clock never reaches it
    # by itself); the test calls its check when it moves the clock.
    with running(tmp_path, wall_clock=clock, heartbeat_seconds=3600.0) as made:
        yield made


def player(client: TestClient, name: str) -> dict[str, str]:
    """Headers of requests made by a new player called ``name`` (its cookie)."""
    made, secret = client.app.state.players.create(name)  # type: ignore[attr-defined]
    return {**JSON, "cookie": f"{COOKIE}={secret}", "x-player": made.id}


def ok(reply: Any) -> Any:
    assert reply.status_code == 200, reply.text
    return reply.json()


def blocked_the_loop(record: logging.LogRecord) -> bool:
    """Whether the record logs a :class:`BlockingOnLoopError` (or one it led to)."""
    error = record.exc_info[1] if record.exc_info else None
    while error is not None:
        if isinstance(error, BlockingOnLoopError):
            return True
        error = error.__cause__ or error.__context__
    return "BlockingOnLoopError" in record.getMessage()


def _state_after(message: dict[str, Any], event: int) -> bool:
    return bool(message["type"] == "state" and message["event"] > event)


def play_moves(sockets: dict[int, Any], most: int) -> dict[str, Any]:
    """Each seat plays its first legal move, on its own socket, until the game is over or
    ``most`` moves were played: the last state its seat 0 was sent."""
    views = {
        seat: receive_until(ws, lambda m: m["type"] == "state") for seat, ws in sockets.items()
    }
    for _ in range(most):
        if views[0]["result"] is not None:
            break
        mover = views[0]["to_act"]
        seen = views[mover]["event"]
        sockets[mover].send_json({"type": "move", "move": views[mover]["legal"][0], "event": seen})
        for seat, ws in sockets.items():
            views[seat] = receive_until(ws, lambda m, seen=seen: _state_after(m, seen))
    return views[0]


def test_the_test_servers_guard_their_event_loop(client: TestClient) -> None:
    """What makes the test below mean something: a database read on the loop raises."""
    store = client.app.state.lobby.store  # type: ignore[attr-defined]

    async def read_on_the_loop() -> None:
        store.open_challenges()

    with pytest.raises(BlockingOnLoopError):
        client.portal.call(read_on_the_loop)  # type: ignore[union-attr]


def test_a_rated_challenge_and_its_chat_never_block_the_event_loop(
    client: TestClient, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR)
    ann, bob, cat = player(client, "Ann"), player(client, "Bob"), player(client, "Cat")
    body = {
        "game": "stairs",
        "options": {"size": 4},
        "seats": ["human", "online"],
        "rated": True,
        "time_control": {"kind": "realtime", "minutes": 5},
    }
    with connect(client, "/ws/lobby") as lobby_ws:
        assert lobby_ws.receive_json() == {"type": "lobby", "challenges": [], "live": []}
        # made, withdrawn, made again, and listed to everyone
        dropped = ok(client.post("/api/challenges", json=body, headers=ann))
        ok(client.delete(f"/api/challenges/{dropped['challenge']}", headers=ann))
        made = ok(client.post("/api/challenges", json=body, headers=ann))
        match = made["match"]
        listed = receive_until(lobby_ws, lambda m: [c["id"] for c in m["challenges"]] == [match])
        assert listed["challenges"][0]["creator"] == {"name": "Ann", "rating": None}
        assert [c["id"] for c in ok(client.get("/api/challenges"))["challenges"]] == [match]
        # taken: the game starts, and the lobby shows it being played
        assert ok(client.post(f"/api/challenges/{match}/accept", headers=bob))["seat"] == 1
        started = receive_until(lobby_ws, lambda m: m["live"] and not m["challenges"])
        assert started["live"][0]["players"] == ["Ann", "Bob"]
    assert ok(client.get(f"/api/my/seats/{match}", headers=bob))["seats"] == [1]
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    assert client.portal.call(lobby.sweep) is False  # type: ignore[union-attr]

    url = f"/ws/matches/{match}"
    with (
        connect(client, url, headers=ann) as ann_ws,
        connect(client, url, headers=bob) as bob_ws,
    ):
        # a chat: each player's room and the spectators', read and written
        hello = ok(client.post(f"/api/matches/{match}/chat", json={"text": "hi"}, headers=ann))
        assert (hello["room"], hello["seat"], hello["name"]) == ("players", 0, "Ann")
        ok(client.post(f"/api/matches/{match}/chat", json={"phrase": "good_luck"}, headers=bob))
        aside = ok(client.post(f"/api/matches/{match}/chat", json={"text": "go"}, headers=cat))
        assert aside["room"] == "spectators"
        as_cat = ok(client.get(f"/api/matches/{match}/chat", headers=cat))
        assert [m["text"] or m["phrase"] for m in as_cat["messages"]] == ["hi", "good_luck", "go"]
        as_bob = ok(client.get(f"/api/matches/{match}/chat", headers=bob))
        assert [m["text"] or m["phrase"] for m in as_bob["messages"]] == ["hi", "good_luck"]
        chat = client.app.state.chat  # type: ignore[attr-defined]
        client.portal.call(chat.deliver_said_elsewhere)  # type: ignore[union-attr]

        # played to its end: rated at once (an after-change listener)
        over = play_moves({0: ann_ws, 1: bob_ws}, 500)
        assert over["result"] is not None
        ann_ws.send_json({"type": "rematch"})
        bob_ws.send_json({"type": "rematch"})
        again = receive_until(ann_ws, lambda m: m["type"] == "state" and m["rematch"])
    ratings = client.app.state.ratings  # type: ignore[attr-defined]
    (winner,) = over["result"]["winners"]
    won, lost = (bob, ann) if winner == 1 else (ann, bob)
    assert ratings.ratings_of(won["x-player"])[POOL].games == 1
    assert (
        ratings.ratings_of(won["x-player"])[POOL].mu > ratings.ratings_of(lost["x-player"])[POOL].mu
    )

    # the rematch: its players one seat on, rated as the challenge was
    rematch = again["rematch"]
    assert ok(client.get(f"/api/matches/{rematch}", headers=bob))["you"] == 0
    assert [s["player"] for s in ok(client.get(f"/api/matches/{rematch}"))["seats"]] == [
        "Bob",
        "Ann",
    ]
    # each makes a first move (else the game is aborted, issue 51), then Bob's second; Ann
    # never answers: the referee flags her at her deadline
    with (
        connect(client, f"/ws/matches/{rematch}", headers=bob) as ws,
        connect(client, f"/ws/matches/{rematch}", headers=ann) as her_ws,
    ):
        play_moves({0: ws, 1: her_ws}, 3)
    clock.now += 6 * 60
    referee = client.app.state.referee  # type: ignore[attr-defined]
    assert client.portal.call(referee.check) == 1  # type: ignore[union-attr]
    flagged = ok(client.get(f"/api/matches/{rematch}"))
    assert flagged["result"]["winners"] == [0]
    assert ratings.ratings_of(ann["x-player"])[POOL].games == 2
    engine = client.app.state.hub.service.store.engine  # type: ignore[attr-defined]
    assert rematch not in ClockStore(engine).open_timed_matches()  # marked ended

    # the player's pages
    games = ok(client.get("/api/my/games", headers=ann))["games"]
    assert {g["match"] for g in games} == {dropped["match"], match, rematch}
    profile = ok(client.get("/api/players/Ann"))
    assert profile["ratings"][POOL]["games"] == 2 and len(profile["games"]) == 3
    assert not [r for r in caplog.records if blocked_the_loop(r)]
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
