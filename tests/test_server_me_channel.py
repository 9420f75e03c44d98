"""Issue 51, item 4: told wherever you are. Each player's channel, ``WS /ws/me``
(``server/chat/told.py``): the waiting count, "your turn", the end of a game and chat
mentions, on one server process and across two on PostgreSQL. No test sleeps: each
waits for the message it expects."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from stairgames.server.chat.told import mentions
from stairgames.server.chat.told_contract import ME_MESSAGES
from stairgames.server.people.players import COOKIE
from stairgames.server.play.turns import came_to
from tests.postgresql_helpers import (
    DEADLINE,
    PostgreSQL,
    postgresql_server,
    receive_until_within,
    two_servers,
)
from tests.server_helpers import JSON, connect, receive_until, running, state_at_rest


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with running(tmp_path) as made:
        yield made


def player(client: TestClient, name: str) -> dict[str, str]:
    """Headers of a new player's requests (its cookie; ``x-player``: its id)."""
    made, secret = client.app.state.players.create(name)  # type: ignore[attr-defined]
    return {**JSON, "cookie": f"{COOKIE}={secret}", "x-player": made.id}


def challenge(client: TestClient, who: dict[str, str]) -> dict[str, Any]:
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}
    made = client.post("/api/challenges", json=body, headers=who)
    assert made.status_code == 200, made.text
    created: dict[str, Any] = made.json()
    return created


def accept(client: TestClient, who: dict[str, str], made: dict[str, Any]) -> None:
    taken = client.post(f"/api/challenges/{made['challenge']}/accept", headers=who)
    assert taken.status_code == 200, taken.text


def told(ws: Any, kind: str, **fields: Any) -> dict[str, Any]:
    """The next ``kind`` message of a ``/ws/me`` socket with these ``fields``, checked
    against its model."""

    def fits(message: dict[str, Any]) -> bool:
        ME_MESSAGES.validate_python(message)
        return message["type"] == kind and all(message[k] == v for k, v in fields.items())

    return receive_until(ws, fits)


def play_first_move(client: TestClient, who: dict[str, str], match: str, seat: int) -> None:
    with connect(client, f"/ws/matches/{match}?seat={seat}", headers=who) as ws:
        view = state_at_rest(ws)
        ws.send_json({"type": "move", "move": view["legal"][0], "event": view["event"]})
        receive_until(ws, lambda m: m["type"] == "state" and m["event"] > view["event"])


def test_a_browser_that_is_no_player_is_told_why_and_closed(client: TestClient) -> None:
    with connect(client, "/ws/me") as ws:
        refused = ws.receive_json()
        ME_MESSAGES.validate_python(refused)
        assert refused["type"] == "error" and refused["error"]["id"] == "choose a name first"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4401


def test_the_count_comes_on_connecting_and_follows_every_change(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    with connect(client, "/ws/me", headers=ann) as ws:
        assert told(ws, "me") == {"type": "me", "waiting": 0, "games": [], "title": None}
        made = challenge(client, ann)  # light (Ann) to move once someone takes it
        accept(client, bob, made)
        turn = told(ws, "your_turn", match=made["match"])
        assert turn["game"] == "stairs" and turn["against"] == [{"name": "Bob", "level": None}]
        assert turn["text"]["id"] == "Your turn in {game} against {names}"
        count = told(ws, "me")
        assert (count["waiting"], count["games"]) == (1, [made["match"]])
        assert count["title"] == {"id": "({count}) Your turn", "args": {"count": 1}}
        play_first_move(client, ann, made["match"], 0)
        assert told(ws, "me")["waiting"] == 0  # her own move: no "your turn" for her
    games = client.get("/api/my/games", headers=ann).json()
    assert games["waiting"] == 0  # the same count as My games'


def test_a_turn_comes_to_a_player_on_another_page_and_only_to_them(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    made = challenge(client, ann)
    accept(client, bob, made)
    with connect(client, "/ws/me", headers=bob) as bobs, connect(client, "/ws/me", headers=ann):
        told(bobs, "me", waiting=0)
        play_first_move(client, ann, made["match"], 0)
        turn = told(bobs, "your_turn", match=made["match"])
        assert turn["against"] == [{"name": "Ann", "level": None}]
        assert told(bobs, "me")["games"] == [made["match"]]


def test_every_player_is_told_when_a_game_ends(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    made = challenge(client, ann)
    accept(client, bob, made)
    with (
        connect(client, "/ws/me", headers=ann) as anns,
        connect(client, "/ws/me", headers=bob) as bobs,
    ):
        told(anns, "me", waiting=1)
        told(bobs, "me", waiting=0)
        with connect(client, f"/ws/matches/{made['match']}?seat=0", headers=ann) as ws:
            view = state_at_rest(ws)
            ws.send_json({"type": "resign", "event": view["event"]})
            receive_until(ws, lambda m: m["type"] == "state" and m.get("result"))
        for socket in (anns, bobs):
            end = told(socket, "ended", match=made["match"])
            assert end["result"]["winners"] == [1]
        assert told(anns, "me")["waiting"] == 0


def test_a_turn_after_the_computers_reply_is_told(client: TestClient) -> None:
    ann = player(client, "Ann")
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "computer:random"]}
    made = client.post("/api/matches", json=body, headers=ann)
    assert made.status_code == 200, made.text
    match = made.json()["match"]
    with connect(client, "/ws/me", headers=ann) as ws:
        told(ws, "me")
        play_first_move(client, ann, match, 0)
        turn = told(ws, "your_turn", match=match)
        assert turn["against"] == [{"name": None, "level": "random"}]


def test_a_chat_message_naming_a_player_is_told_to_them(client: TestClient) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    made = challenge(client, ann)
    accept(client, bob, made)
    chat = f"/api/matches/{made['match']}/chat"
    with connect(client, "/ws/me", headers=ann) as ws:
        told(ws, "me")
        for text in ("Annabel is not you", "bob: my own name"):
            assert client.post(chat, json={"text": text}, headers=bob).status_code == 200
        said = client.post(chat, json={"text": "well played @ann!"}, headers=bob)
        assert said.status_code == 200
        mention = told(ws, "mention")  # (the earlier ones named nobody here)
        assert mention["match"] == made["match"] and mention["from"] == "Bob"
        assert mention["text"]["id"] == "{name} named you in the chat of {game}"


def test_a_spectators_mention_never_reaches_a_player_of_the_match(client: TestClient) -> None:
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    made = challenge(client, ann)
    accept(client, bob, made)
    chat = f"/api/matches/{made['match']}/chat"
    with (
        connect(client, "/ws/me", headers=ann) as anns,
        connect(client, "/ws/me", headers=cy) as cys,
    ):
        told(anns, "me")
        told(cys, "me")
        assert client.post(chat, json={"text": "Ann blundered"}, headers=cy).status_code == 200
        assert client.post(chat, json={"text": "@Cy hello"}, headers=ann).status_code == 200
        assert told(cys, "mention")["from"] == "Ann"
        assert client.post(chat, json={"text": "@Ann"}, headers=bob).status_code == 200
        # Ann's first mention is Bob's, from the players' room: Cy's never came
        assert told(anns, "mention")["from"] == "Bob"


@pytest.mark.parametrize(
    ("text", "name", "named"),
    [
        ("@Ann hello", "Ann", True),
        ("hello ann", "Ann", True),
        ("ANN!", "Ann", True),
        ("Annabel", "Ann", False),
        ("joann", "Ann", False),
        ("mail@anne", "Ann", False),
        ("こんにちは@タロウさん", "タロウ", False),  # (a word goes on after the name)
        ("@タロウ こんにちは", "タロウ", True),
        ("Hi Jo Ann", "Jo Ann", True),
        ("", "Ann", False),
    ],
)
def test_a_mention_is_the_name_after_an_at_or_as_a_word(text: str, name: str, named: bool) -> None:
    assert mentions(text, name) is named


def test_a_turn_is_told_only_when_another_seat_brought_it() -> None:
    from stairgames.server.base.store import EventRecord

    class Seat:
        def __init__(self, kind: str) -> None:
            self.kind = kind

    class Waiting:
        seats: ClassVar[list[Seat]] = [Seat("online"), Seat("online")]

        def to_act(self) -> int:
            return 0

        def free_seats(self) -> list[int]:
            return []

    holders = {0: "ann", 1: "bob"}
    by_bob = [EventRecord(5, "move", 1, {"move": "x"})]
    by_ann = [EventRecord(5, "move", 0, {"move": "roll"}), EventRecord(6, "move", None, {})]
    assert came_to(Waiting(), by_bob, holders) == "ann"  # type: ignore[arg-type]
    assert came_to(Waiting(), by_ann, holders) is None  # type: ignore[arg-type]
    assert came_to(Waiting(), by_bob, {0: "ann", 1: "ann"}) is None  # type: ignore[arg-type]


# ----- two processes on PostgreSQL ------------------------------------------------------


@pytest.fixture(scope="module")
def postgresql() -> Iterator[PostgreSQL]:
    with postgresql_server() as server:
        yield server


@pytest.mark.slow
def test_a_turn_and_a_mention_reach_a_player_on_the_other_process(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    with two_servers(tmp_path, postgresql.url) as (first, second):
        ann, bob = player(first, "Ann"), player(first, "Bob")
        made = challenge(first, ann)
        accept(first, bob, made)
        with connect(second, "/ws/me", headers=bob) as ws:
            receive_until_within(ws, lambda m: m["type"] == "me", DEADLINE)
            play_first_move(first, ann, made["match"], 0)
            turn = receive_until_within(ws, lambda m: m["type"] == "your_turn", DEADLINE)
            assert turn["match"] == made["match"]
            counted = receive_until_within(ws, lambda m: m["type"] == "me", DEADLINE)
            assert counted["games"] == [made["match"]]
            chat = f"/api/matches/{made['match']}/chat"
            assert first.post(chat, json={"text": "your move, Bob"}, headers=ann).status_code == 200
            mention = receive_until_within(ws, lambda m: m["type"] == "mention", DEADLINE)
            assert mention["from"] == "Ann"
