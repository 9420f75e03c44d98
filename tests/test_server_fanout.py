"""Hostile visitors (finding 5): watchers cost what they are, not the square of their number.

A connection gets its own full view when it opens; the others learn who connected or
left from a small ``presence`` message, gathered per match (``presence_seconds``). One
client (an address; every TestClient socket comes from ``testclient``) holds a bounded
number of connections and sends from one message bucket over all of them; a match takes
a bounded number of spectators. No test waits for time: the batching interval is either
0 (presence sent at once) or an hour with the hub's ``flush_presence`` called instead.
"""

from __future__ import annotations

import contextlib
import json
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketDisconnect

from stairgames.server.play.hub import Hub
from tests.server_helpers import connect, new_match, receive_until, running, token_of

TOO_MANY_CONNECTIONS = "too_many_connections"
TOO_MANY_SPECTATORS = "too_many_spectators"
TOO_MANY_MESSAGES = "too_many_messages"
AN_HOUR = 3600.0
"""A batching interval no test reaches: presence goes out when the test flushes it."""


@pytest.fixture
def frames(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Every WebSocket frame the server sends, counted by its ``type``."""
    counted: Counter[str] = Counter()
    send = WebSocket.send

    async def counting(self: WebSocket, message: Message) -> None:
        if message["type"] == "websocket.send" and message.get("text"):
            counted[json.loads(message["text"])["type"]] += 1
        await send(self, message)

    monkeypatch.setattr(WebSocket, "send", counting)
    return counted


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    return hub


def flush_presence(client: TestClient) -> None:
    """Send the pending presence changes now, in the app's event loop."""
    assert client.portal is not None
    client.portal.call(hub_of(client).flush_presence)


def presence_until(ws: Any, predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first presence ``predicate`` accepts; nothing but presence comes before it."""
    for _ in range(50):
        message: dict[str, Any] = ws.receive_json()
        assert message["type"] == "presence", message
        if predicate(message):
            return message
    raise AssertionError("no such presence")


def refusal(ws: Any) -> tuple[dict[str, Any], int]:
    """The error a refused connection gets first, and the code it is closed with."""
    error: dict[str, Any] = ws.receive_json()
    assert error["type"] == "error", "let in"
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    return error, closed.value.code


@contextlib.contextmanager
def online_match(client: TestClient) -> Iterator[tuple[str, str, str]]:
    """A Stairs match between two people online: (match, light's token, dark's token)."""
    created = new_match(client, "stairs", ["human", "online"])
    match = created["match"]
    joined = client.post(f"/api/matches/{match}/join", json={}).json()
    yield match, token_of(created, 0), joined["token"]


# ----- fan-out ------------------------------------------------------------------------


def test_spectators_coming_and_going_cost_frames_linear_in_their_number(
    tmp_path: Path, frames: Counter[str]
) -> None:
    """N spectators: N + 1 full views (one each, one for the player), and one presence
    per connection that did not know the latest; before, every opening and closing resent
    a view to everyone (N² views)."""
    spectators = 60
    one_client = {"max_connections_per_client": spectators + 1}  # all are "testclient"
    with (
        running(tmp_path, presence_seconds=AN_HOUR, **one_client) as client,
        online_match(client) as ids,
    ):
        match, light_token, _ = ids
        with connect(client, f"/ws/matches/{match}?token={light_token}") as light:
            assert light.receive_json()["type"] == "state"
            with contextlib.ExitStack() as stack:
                for _ in range(spectators):
                    ws = stack.enter_context(connect(client, f"/ws/matches/{match}"))
                    assert ws.receive_json()["type"] == "state"  # now it is in
                assert frames == {"state": spectators + 1}, "a view for each opening only"
                flush_presence(client)
                told = presence_until(light, lambda m: True)
                assert told["connected"] == [0] and told["spectators"] == spectators
                # each connection but the last one in was told once
                assert frames["presence"] == spectators
            flush_presence(client)  # every spectator has gone (each `with` waits for it)
            left = presence_until(light, lambda m: True)
            assert left["connected"] == [0] and left["spectators"] == 0
    assert frames == {"state": spectators + 1, "presence": spectators + 1}


def test_presence_reaches_a_player_when_an_opponent_and_a_spectator_come_and_go(
    tmp_path: Path, frames: Counter[str]
) -> None:
    with running(tmp_path, presence_seconds=0) as client, online_match(client) as ids:
        match, light_token, dark_token = ids
        with connect(client, f"/ws/matches/{match}?token={light_token}") as light:
            first = light.receive_json()
            assert first["type"] == "state"
            assert [s["connected"] for s in first["seats"]] == [True, False]
            with connect(client, f"/ws/matches/{match}?token={dark_token}") as dark:
                seen = dark.receive_json()  # the one who opens gets its full view
                assert seen["type"] == "state" and seen["you"] == 1
                assert [s["connected"] for s in seen["seats"]] == [True, True]
                came = presence_until(light, lambda m: m["connected"] == [0, 1])  # no view
                assert came == {
                    "type": "presence",
                    "match": match,
                    "event": first["event"],
                    "connected": [0, 1],
                    "spectators": 0,
                }
                with connect(client, f"/ws/matches/{match}") as watcher:
                    view = watcher.receive_json()
                    assert view["spectators"] == 1 and first["spectators"] == 0
                    presence_until(light, lambda m: m["spectators"] == 1)
                    presence_until(dark, lambda m: m["spectators"] == 1)
                presence_until(light, lambda m: m["spectators"] == 0)
                presence_until(dark, lambda m: m["spectators"] == 0)
            gone = presence_until(light, lambda m: m["connected"] == [0])
            assert gone["spectators"] == 0
            # the next state still says who is connected
            light.send_json({"type": "sync"})
            synced = receive_until(light, lambda m: m["type"] == "state")
            assert [s["connected"] for s in synced["seats"]] == [True, False]
    assert frames["state"] == 4, "no view was made for a presence change"


# ----- limits ---------------------------------------------------------------------------


def test_one_client_holds_a_bounded_number_of_connections(tmp_path: Path) -> None:
    with running(tmp_path, max_connections_per_client=2) as client, online_match(client) as ids:
        match, light_token, _ = ids
        url = f"/ws/matches/{match}"
        with connect(client, url) as first:
            assert first.receive_json()["type"] == "state"
            with connect(client, f"{url}?token={light_token}") as second:
                assert second.receive_json()["type"] == "state"
                other = new_match(client, "stairs", ["human", "human"])["match"]
                with connect(client, f"/ws/matches/{other}") as third:
                    error, code = refusal(third)  # in any match
            assert error["error"]["code"] == TOO_MANY_CONNECTIONS
            assert error["error"]["args"] == {"limit": 2} and code == 4429
            with connect(client, url) as again:  # one closed: room for one
                assert again.receive_json()["type"] == "state"


def test_players_behind_one_address_each_hold_their_own_connections(tmp_path: Path) -> None:
    """Issue 51, item 7: the cap is a player's where the cookie names one (three friends
    behind one router each have theirs), the address's only for a browser with no player."""
    from stairgames.server.people.players import COOKIE

    with running(tmp_path, max_connections_per_client=2) as client, online_match(client) as ids:
        match = ids[0]
        url = f"/ws/matches/{match}"
        players = client.app.state.players  # type: ignore[attr-defined]

        def cookie_of(name: str) -> dict[str, str]:
            _made, secret = players.create(name)
            return {"cookie": f"{COOKIE}={secret}"}

        ann, bob = cookie_of("Ann"), cookie_of("Bob")
        anonymous = {"cookie": f"{COOKIE}=none"}
        with contextlib.ExitStack() as stack:
            for headers in (ann, ann, bob, bob, anonymous, anonymous):  # two each: all in
                ws = stack.enter_context(connect(client, url, headers=headers))
                assert ws.receive_json()["type"] == "state"
            for headers in (ann, bob, anonymous):  # a third: each over their own cap
                with connect(client, url, headers=headers) as third:
                    error, code = refusal(third)
                assert error["error"]["code"] == TOO_MANY_CONNECTIONS and code == 4429
                assert error["error"]["args"] == {"limit": 2}


def test_sockets_waiting_for_their_hello_count_against_the_cap(tmp_path: Path) -> None:
    """Issue 48: sockets opened with ``?auth=message`` that never say hello held no place
    in the address's cap while they waited; now they do, from before their accept."""
    with running(tmp_path, max_connections_per_client=2) as client, online_match(client) as ids:
        match, light_token, _ = ids
        hello = f"/ws/matches/{match}?auth=message"
        with client.websocket_connect(hello), client.websocket_connect(hello) as waiting:
            with connect(client, f"/ws/matches/{match}") as third:
                error, code = refusal(third)
            assert error["error"]["code"] == TOO_MANY_CONNECTIONS and code == 4429
            with client.websocket_connect(hello) as fourth:  # refused before its hello
                error, code = refusal(fourth)
            assert error["error"]["code"] == TOO_MANY_CONNECTIONS and code == 4429
            waiting.send_json({"type": "hello", "token": light_token})
            assert waiting.receive_json()["you"] == 0  # greeted: it keeps its place
        with connect(client, f"/ws/matches/{match}") as again:  # both closed: room again
            assert again.receive_json()["type"] == "state"


def test_one_match_takes_a_bounded_number_of_spectators_but_always_its_players(
    tmp_path: Path,
) -> None:
    with running(tmp_path, max_spectators_per_match=2) as client, online_match(client) as ids:
        match, light_token, dark_token = ids
        url = f"/ws/matches/{match}"
        with contextlib.ExitStack() as stack:
            for _ in range(2):
                ws = stack.enter_context(connect(client, url))
                assert ws.receive_json()["type"] == "state"
            with connect(client, url) as refused:
                error, code = refusal(refused)
            assert error["error"]["code"] == TOO_MANY_SPECTATORS and code == 4503
            assert error["error"]["args"] == {"limit": 2}
            for token in (light_token, dark_token):
                player = stack.enter_context(connect(client, f"{url}?token={token}"))
                view = player.receive_json()
                assert view["type"] == "state" and view["spectators"] == 2
            other = new_match(client, "stairs", ["human", "human"])["match"]
            with connect(client, f"/ws/matches/{other}") as elsewhere:
                assert elsewhere.receive_json()["type"] == "state"


def test_the_message_rate_is_one_clients_over_all_its_connections(tmp_path: Path) -> None:
    """Two sockets of one client send from one bucket (before, each had its own, so
    twenty sockets sent twenty times the rate)."""
    with (
        running(tmp_path, messages_per_second=0.001, message_burst=3) as client,
        online_match(client) as ids,
    ):
        match, light_token, _ = ids
        url = f"/ws/matches/{match}"
        with (
            connect(client, f"{url}?token={light_token}") as one,
            connect(client, url) as other,
        ):
            for ws in (one, other):
                assert ws.receive_json()["type"] == "state"
            replies = []
            for ws in (one, one, other, other):
                ws.send_json({"type": "sync"})
                replies.append(receive_until(ws, lambda m: m["type"] != "presence"))
    assert [r["type"] for r in replies] == ["state", "state", "state", "error"]
    assert replies[-1]["error"]["code"] == TOO_MANY_MESSAGES
