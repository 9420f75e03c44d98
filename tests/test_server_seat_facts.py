"""Who holds a match's seats is read once a move, not once by each of the move's listeners
(the views' ratings and bot marks, the turn told, the push): issue 55's CPU a move. A
seat is only ever taken, so what was read at an event holds for it, except at a join's
event, whose seat is written just after the event (``Lobby.seat_facts``)."""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import event

from stairgames.server.people.players import COOKIE
from tests.server_helpers import JSON, connect, receive_until, running, state_at_rest


def player(client: TestClient, name: str) -> dict[str, str]:
    made, secret = client.app.state.players.create(name)  # type: ignore[attr-defined]
    return {**JSON, "cookie": f"{COOKIE}={secret}", "x-player": made.id}


@contextlib.contextmanager
def counting_reads(client: TestClient) -> Iterator[collections.Counter[str]]:
    """The statements the app sends its database meanwhile, by the table they read."""
    engine = client.app.state.engine  # type: ignore[attr-defined]
    counts: collections.Counter[str] = collections.Counter()

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT") and "FROM seat_players" in statement:
            counts["seat_players"] += 1

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield counts
    finally:
        event.remove(engine, "before_cursor_execute", count)


def after(event: int) -> Any:
    """What a view after ``event`` passes."""
    return lambda m: m["type"] == "state" and m["event"] > event


async def listeners_done(client: TestClient) -> None:
    """Wait for what the moves' listeners started: the push and the turn told."""
    state = client.app.state  # type: ignore[attr-defined]
    await state.push.pusher.settle()
    while state.told._tasks:
        await asyncio.gather(*list(state.told._tasks), return_exceptions=True)


def test_a_moves_listeners_share_one_read_of_the_seats(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        ann, bob = player(client, "Ann"), player(client, "Bob")
        body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}
        made = client.post("/api/challenges", json=body, headers=ann).json()
        joined = client.post(f"/api/challenges/{made['challenge']}/accept", headers=bob).json()
        tokens = [made["seats"][0]["token"], joined["token"]]
        urls = [f"/ws/matches/{made['match']}?token={token}" for token in tokens]
        with connect(client, urls[0]) as first, connect(client, urls[1]) as second:
            sockets = [first, second]
            view = state_at_rest(first)
            state_at_rest(second)
            moves = 4
            with counting_reads(client) as counts:
                for _ in range(moves):
                    seat = view["to_act"]
                    move, at = view["legal"][0], view["event"]
                    sockets[seat].send_json({"type": "move", "move": move, "event": at})
                    view = receive_until(sockets[1 - seat], after(at))
                    receive_until(sockets[seat], after(at))
                client.portal.call(listeners_done, client)  # type: ignore[union-attr]
            assert view["seats"][0]["player"] == "Ann" and view["seats"][1]["player"] == "Bob"
    # told, push, the views' bot marks and ratings: once a move between them all
    assert counts["seat_players"] <= moves, counts


def test_the_seats_are_read_again_at_a_joins_event(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        ann, bob = player(client, "Ann"), player(client, "Bob")
        body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}
        made = client.post("/api/challenges", json=body, headers=ann).json()
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        hub = client.app.state.hub  # type: ignore[attr-defined]
        match = hub.service.get(made["match"])
        before = lobby.holders(match)
        assert list(before.values()) == [ann["x-player"]]
        client.post(f"/api/challenges/{made['challenge']}/accept", headers=bob)
        match = hub.service.get(made["match"])
        assert match.last_was_join
        with counting_reads(client) as counts:
            holders = lobby.holders(match)
            again = lobby.holders(match)
        assert holders == again == {0: ann["x-player"], 1: bob["x-player"]}
        assert counts["seat_players"] == 2  # a join's event is not kept
        url = f"/ws/matches/{made['match']}?token={made['seats'][0]['token']}"
        with connect(client, url) as ws:
            view = state_at_rest(ws)
            ws.send_json({"type": "move", "move": view["legal"][0], "event": view["event"]})
            receive_until(ws, lambda m: m["type"] == "state" and m["event"] > view["event"])
        match = hub.service.get(made["match"])
        assert not match.last_was_join
        lobby.holders(match)
        with counting_reads(client) as counts:
            assert lobby.holders(match) == holders
        assert counts["seat_players"] == 0  # after a move, kept for its event
