"""The chat of a match (issue 30): a players' room everyone reads, a spectators' room the
players never see, checked messages stored as written, preset phrases, a rate per player,
and live delivery to the right WebSockets."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stairgames.server.chat.chat import CHAT_RATE, MAX_LENGTH, PHRASES, clean_text
from stairgames.server.people.players import COOKIE
from tests.server_helpers import JSON, receive_until, running, state_at_rest, token_of

HOSTILE_MARKUP = [
    "<img src=x onerror=alert(1)>",
    "<script>alert('chat')</script>",
    '"><svg onload=alert(1)>',
    "&lt;b&gt; &amp; {{7*7}} ${7*7}",
]
CONTROL = [
    "line\nbreak",
    "tab\there",
    "bell\x07",
    "nul\x00",
    "\x1b[31mred",
    "del\x7f",
    "evil\u202etxt",  # a right-to-left override
    "isolate\u2066x\u2069",
    "line\u2028separator",
]
MESSAGE_KEYS = {"id", "room", "seat", "name", "text", "phrase", "move", "at"}
"""Everything a message carries (nothing a seat may not know)."""


class Clock:
    """A clock the test moves (the rate limits read it)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(tmp_path: Path, clock: Clock) -> Iterator[TestClient]:
    with running(tmp_path, clock=clock) as made:
        yield made


def player(client: TestClient, name: str) -> dict[str, str]:
    """Headers of requests made by a new player called ``name`` (its cookie)."""
    _made, secret = client.app.state.players.create(name)  # type: ignore[attr-defined]
    return {**JSON, "cookie": f"{COOKIE}={secret}"}


def cookie(who: dict[str, str]) -> dict[str, str]:
    return {"cookie": who["cookie"]}


def online_match(client: TestClient, host: dict[str, str], guest: dict[str, str]) -> str:
    """A match of Stairs whose seat 0 ``host`` holds and seat 1 ``guest`` joined."""
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}
    made = client.post("/api/matches", json=body, headers=host)
    assert made.status_code == 200, made.text
    match: str = made.json()["match"]
    joined = client.post(f"/api/matches/{match}/join", headers=guest)
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    return match


def say(client: TestClient, match: str, who: dict[str, str], **body: Any) -> Any:
    return client.post(f"/api/matches/{match}/chat", json=body, headers=who)


def said(reply: Any) -> dict[str, Any]:
    assert reply.status_code == 200, reply.text
    message: dict[str, Any] = reply.json()
    return message


def chat(client: TestClient, match: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    reply = client.get(f"/api/matches/{match}/chat", headers=headers or {})
    assert reply.status_code == 200, reply.text
    listing: dict[str, Any] = reply.json()
    return listing


def texts(listing: dict[str, Any]) -> list[str | None]:
    return [m["text"] or m["phrase"] for m in listing["messages"]]


def error_code(reply: Any) -> str:
    message: str = reply.json()["error"]["code"]
    return message


@pytest.fixture
def table(client: TestClient) -> tuple[str, dict[str, str], dict[str, str], dict[str, str]]:
    """A match between Ann (seat 0) and Bob (seat 1), with Cat watching: (match, ann,
    bob, cat)."""
    ann, bob, cat = player(client, "Ann"), player(client, "Bob"), player(client, "Cat")
    return online_match(client, ann, bob), ann, bob, cat


Table = tuple[str, dict[str, str], dict[str, str], dict[str, str]]


# ----- rooms ---------------------------------------------------------------------------


def test_spectators_read_both_rooms_and_players_only_theirs(
    client: TestClient, table: Table
) -> None:
    match, ann, bob, cat = table
    hello = said(say(client, match, ann, text="hello Bob"))
    assert hello["room"] == "players" and hello["seat"] == 0 and hello["name"] == "Ann"
    hint = said(say(client, match, cat, text="Bob should take c3"))
    assert hint["room"] == "spectators" and hint["seat"] is None and hint["name"] == "Cat"
    reply = said(say(client, match, bob, text="thanks"))
    assert reply["room"] == "players" and reply["seat"] == 1 and reply["name"] == "Bob"

    for who in (ann, bob):
        listing = chat(client, match, cookie(who))
        assert listing["rooms"] == ["players"] and listing["room"] == "players"
        assert texts(listing) == ["hello Bob", "thanks"]
    watching = chat(client, match, cookie(cat))
    assert watching["rooms"] == ["players", "spectators"] and watching["room"] == "spectators"
    assert texts(watching) == ["hello Bob", "Bob should take c3", "thanks"]
    # a visitor who is no player yet reads as a spectator
    assert texts(chat(client, match)) == texts(watching)


def test_a_player_asking_for_a_seat_not_theirs_still_reads_only_the_players_room(
    client: TestClient, table: Table
) -> None:
    match, ann, _bob, cat = table
    said(say(client, match, cat, text="psst"))
    for seat in (1, 5, -1):
        reply = client.get(f"/api/matches/{match}/chat?seat={seat}", headers=cookie(ann))
        assert reply.json()["rooms"] == ["players"]
        assert "psst" not in texts(reply.json())
    # and writes as the seat they hold, never another
    other = client.post(f"/api/matches/{match}/chat?seat=1", json={"text": "x"}, headers=ann)
    assert said(other)["seat"] == 0


def test_a_seat_token_writes_in_the_players_room_named_by_its_seat(client: TestClient) -> None:
    created = client.post(
        "/api/matches", json={"game": "stairs", "seats": ["human", "online"]}, headers=JSON
    ).json()
    match = created["match"]
    token = token_of(created, 0)
    message = said(say(client, match, {**JSON, "x-seat-token": token}, text="hi"))
    assert (message["room"], message["seat"], message["name"]) == ("players", 0, None)
    listing = chat(client, match, {"x-seat-token": token})
    assert listing["rooms"] == ["players"] and texts(listing) == ["hi"]
    forged = say(client, match, {**JSON, "x-seat-token": "forged"}, text="hi")
    assert forged.status_code == 403
    assert (
        client.get(f"/api/matches/{match}/chat", headers={"x-seat-token": "x"}).status_code == 403
    )
    # a token is never taken in an address (it would end up in logs and histories)
    in_address = client.get(f"/api/matches/{match}/chat?token={token}")
    assert in_address.status_code == 400 and error_code(in_address) == "token_in_address"
    posted = client.post(
        f"/api/matches/{match}/chat?token={token}", json={"text": "x"}, headers=JSON
    )
    assert posted.status_code == 400
    assert texts(chat(client, match)) == ["hi"]


def test_a_spectator_must_be_a_player_to_write(client: TestClient, table: Table) -> None:
    match, *_ = table
    reply = say(client, match, JSON, text="anyone?")
    assert reply.status_code == 401 and error_code(reply) == "name_needed"
    assert texts(chat(client, match)) == []


def test_a_player_who_resigned_and_left_chats_as_a_spectator(client: TestClient) -> None:
    ann, bob, cat, dan = (player(client, n) for n in ("Ann", "Bob", "Cat", "Dan"))
    body = {
        "game": "ishigaki_race",
        "options": {"players": 3},
        "seats": ["human", "online", "online"],
    }
    match = client.post("/api/matches", json=body, headers=ann).json()["match"]
    for guest in (bob, cat):
        assert client.post(f"/api/matches/{match}/join", headers=guest).status_code == 200
    said(say(client, match, dan, text="from the stands"))
    with client.websocket_connect(f"/ws/matches/{match}", headers=cookie(cat)) as ws:
        view = receive_until(ws, lambda m: m["type"] == "state")
        assert view["you"] == 2
        assert "from the stands" not in texts(chat(client, match, cookie(cat)))
        ws.send_json({"type": "resign", "event": view["event"]})
        receive_until(ws, lambda m: m["type"] == "state" and m.get("left") == [2])
        said(say(client, match, dan, text="welcome up here"))  # reaches its socket now
        said(say(client, match, ann, text="bye Cat"))
        assert next_chat(ws)["message"]["text"] == "welcome up here"
        assert next_chat(ws)["message"]["text"] == "bye Cat"
    listing = chat(client, match, cookie(cat))
    assert listing["room"] == "spectators" and "from the stands" in texts(listing)
    assert said(say(client, match, cat, text="gg all"))["room"] == "spectators"


# ----- what may be said ----------------------------------------------------------------


def test_a_message_is_trimmed_and_at_most_500_characters(client: TestClient, table: Table) -> None:
    match, ann, *_ = table
    assert said(say(client, match, ann, text="  spaced out \n"))["text"] == "spaced out"
    longest = "長" * MAX_LENGTH
    assert said(say(client, match, ann, text=f"  {longest}  "))["text"] == longest
    reply = say(client, match, ann, text=longest + "!")
    assert reply.status_code == 400
    assert error_code(reply) == "chat_too_long"
    assert reply.json()["error"]["args"] == {"max": 500}
    assert texts(chat(client, match, cookie(ann))) == ["spaced out", longest]


@pytest.mark.parametrize("text", ["", "   ", "\n\t "])
def test_an_empty_message_is_refused(client: TestClient, table: Table, text: str) -> None:
    match, ann, *_ = table
    reply = say(client, match, ann, text=text)
    assert reply.status_code == 400 and error_code(reply) == "chat_empty"
    assert texts(chat(client, match)) == []


@pytest.mark.parametrize("text", CONTROL)
@pytest.mark.slow
def test_control_and_reordering_characters_are_refused(
    client: TestClient, table: Table, text: str
) -> None:
    match, ann, *_ = table
    reply = say(client, match, ann, text=text)
    assert reply.status_code == 400
    assert error_code(reply) == "chat_characters"
    assert texts(chat(client, match)) == []


def test_joiners_and_emoji_are_text() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert clean_text(f"gg {family} ☕️") == f"gg {family} ☕️"


@pytest.mark.parametrize("text", HOSTILE_MARKUP)
def test_markup_is_stored_and_returned_as_written_data(
    client: TestClient, table: Table, tmp_path: Path, text: str
) -> None:
    match, ann, _bob, cat = table
    message = said(say(client, match, ann, text=text))
    assert message["text"] == text
    reply = client.get(f"/api/matches/{match}/chat", headers=cookie(cat))
    assert reply.headers["content-type"] == "application/json"
    assert reply.json()["messages"][-1]["text"] == text
    with sqlite3.connect(tmp_path / "stairgames.db") as db:
        assert db.execute("SELECT text FROM chat_messages").fetchall() == [(text,)]


@pytest.mark.parametrize(
    ("body", "message_id"),
    [
        ({"text": 5}, "chat_not_text"),
        ({"text": ["hi"]}, "chat_not_text"),
        ({"text": None}, "chat_not_text"),
        ({"text": {"html": "<b>"}}, "chat_not_text"),
        ({}, "chat_text_or_phrase"),
        ({"text": "hi", "phrase": "hello"}, "chat_text_or_phrase"),
        ({"phrase": "bye"}, "unknown_phrase"),
        ({"phrase": 3}, "unknown_phrase"),
        ({"phrase": ["hello"]}, "unknown_phrase"),
        ({"phrase": "Hello"}, "unknown_phrase"),
    ],
)
def test_wrong_shapes_are_refused_and_change_nothing(
    client: TestClient, table: Table, body: dict[str, Any], message_id: str
) -> None:
    match, ann, *_ = table
    reply = say(client, match, ann, **body)
    assert reply.status_code == 400 and error_code(reply) == message_id
    assert texts(chat(client, match)) == []


def test_a_body_that_is_not_an_object_is_malformed(client: TestClient, table: Table) -> None:
    match, ann, *_ = table
    for raw in (b"[1]", b'"hi"', b"{bad json"):
        reply = client.post(f"/api/matches/{match}/chat", content=raw, headers=ann)
        assert reply.status_code == 400 and error_code(reply) == "malformed_body"
    assert texts(chat(client, match)) == []


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", ""])
def test_a_message_not_sent_as_json_is_refused_415(
    client: TestClient, table: Table, content_type: str
) -> None:
    match, ann, *_ = table
    headers = {**cookie(ann), "content-type": content_type} if content_type else cookie(ann)
    reply = client.post(f"/api/matches/{match}/chat", content=b'{"text": "hi"}', headers=headers)
    assert reply.status_code == 415
    assert error_code(reply) == "wrong_content_type"
    assert texts(chat(client, match)) == []


@pytest.mark.slow
def test_an_unknown_match_has_no_chat(client: TestClient) -> None:
    ann = player(client, "Ann")
    assert client.get("/api/matches/nope/chat").status_code == 404
    reply = say(client, "nope", ann, text="hi")
    assert reply.status_code == 404 and error_code(reply) == "match_not_found"


def test_preset_phrases_travel_as_ids_for_each_reader_to_translate(
    client: TestClient, table: Table
) -> None:
    match, ann, bob, _cat = table
    assert set(PHRASES) == {"hello", "good_luck", "thank_you", "good_game"}
    listing = chat(client, match, cookie(bob))
    assert listing["phrases"] == {
        "hello": "Hello",
        "good_luck": "Good luck",
        "thank_you": "Thank you",
        "good_game": "Good game",
    }
    message = said(say(client, match, ann, phrase="good_luck"))
    assert (message["phrase"], message["text"]) == ("good_luck", None)
    assert chat(client, match, cookie(bob))["messages"][-1]["phrase"] == "good_luck"


def test_a_finished_game_keeps_its_chat_and_takes_a_good_game(
    client: TestClient, table: Table
) -> None:
    match, ann, bob, _cat = table
    said(say(client, match, ann, phrase="good_luck"))
    with client.websocket_connect(f"/ws/matches/{match}", headers=cookie(bob)) as ws:
        view = state_at_rest(ws)
        ws.send_json({"type": "resign", "event": view["event"]})
        receive_until(ws, lambda m: m["type"] == "state" and m["result"])
    said(say(client, match, bob, phrase="good_game"))
    assert texts(chat(client, match, cookie(ann))) == ["good_luck", "good_game"]


def test_each_message_says_how_many_moves_the_game_had(client: TestClient, table: Table) -> None:
    match, ann, *_ = table
    assert said(say(client, match, ann, text="before"))["move"] == 0
    with client.websocket_connect(f"/ws/matches/{match}", headers=cookie(ann)) as ws:
        view = state_at_rest(ws)
        ws.send_json({"type": "move", "move": view["legal"][0], "event": view["event"]})
        receive_until(ws, lambda m: m["type"] == "state" and m["history"])
    message = said(say(client, match, ann, text="after"))
    assert message["move"] == 1 and set(message) == MESSAGE_KEYS


# ----- the rate -----------------------------------------------------------------------


def test_each_player_writes_five_at_once_then_one_every_two_seconds(
    client: TestClient, table: Table, clock: Clock
) -> None:
    match, ann, bob, _cat = table
    assert CHAT_RATE.burst == 5 and CHAT_RATE.per_minute == 30
    for n in range(5):
        said(say(client, match, ann, text=f"spam {n}"))
    refused = say(client, match, ann, text="spam 5")
    assert refused.status_code == 429
    assert error_code(refused) == "chat_too_fast"
    # the allowance is the player's, in every match; the others' is their own
    other = online_match(client, ann, player(client, "Eve"))
    assert say(client, other, ann, phrase="hello").status_code == 429
    said(say(client, match, bob, text="calm down"))
    clock.now += 1.5
    assert say(client, match, ann, text="again").status_code == 429
    clock.now += 0.5
    said(say(client, match, ann, text="again"))
    listing = chat(client, match, cookie(bob))
    assert texts(listing) == [*(f"spam {n}" for n in range(5)), "calm down", "again"]


# ----- live --------------------------------------------------------------------------


def next_chat(ws: Any) -> dict[str, Any]:
    return receive_until(ws, lambda m: m["type"] == "chat")


def test_the_players_room_reaches_everyone_and_the_spectators_room_only_spectators(
    client: TestClient, table: Table
) -> None:
    match, ann, bob, cat = table
    url = f"/ws/matches/{match}"
    with (
        client.websocket_connect(url, headers=cookie(ann)) as light,
        client.websocket_connect(url, headers=cookie(bob)) as dark,
        client.websocket_connect(url, headers=cookie(cat)) as stands,
        client.websocket_connect(url) as visitor,
    ):
        for ws, seat in ((light, 0), (dark, 1), (stands, None), (visitor, None)):
            assert receive_until(ws, lambda m: m["type"] == "state")["you"] == seat
        said(say(client, match, ann, text="<b>hi</b>"))
        frames = [
            receive_until(ws, lambda m: m["type"] == "chat")
            for ws in (light, dark, stands, visitor)
        ]
        assert all(frame == frames[0] for frame in frames)
        assert frames[0]["match"] == match and frames[0]["message"]["text"] == "<b>hi</b>"
        assert set(frames[0]["message"]) == MESSAGE_KEYS

        said(say(client, match, cat, text="spectators only"))
        said(say(client, match, bob, phrase="thank_you"))
        # the players' next message is Bob's: the spectators' never reached them
        for ws in (light, dark):
            assert next_chat(ws)["message"]["phrase"] == "thank_you"
        for ws in (stands, visitor):
            assert next_chat(ws)["message"]["text"] == "spectators only"
            assert next_chat(ws)["message"]["phrase"] == "thank_you"


def test_another_server_process_delivers_what_was_said_elsewhere(tmp_path: Path) -> None:
    shared: dict[str, Any] = {"shared_database": True, "follow_seconds": 0}
    with running(tmp_path, **shared) as first, running(tmp_path, **shared) as second:
        ann, bob = player(first, "Ann"), player(first, "Bob")
        match = online_match(first, ann, bob)
        with second.websocket_connect(f"/ws/matches/{match}", headers=cookie(bob)) as ws:
            state_at_rest(ws)
            said(say(first, match, ann, text="across processes"))
            chat_of_second = second.app.state.chat  # type: ignore[attr-defined]
            second.portal.call(chat_of_second.deliver_said_elsewhere)  # type: ignore[union-attr]
            said(say(second, match, bob, text="here"))  # delivered here at once
            assert next_chat(ws)["message"]["text"] == "across processes"
            assert next_chat(ws)["message"]["text"] == "here"
            # read again, nothing is delivered twice
            second.portal.call(chat_of_second.deliver_said_elsewhere)  # type: ignore[union-attr]
            said(say(second, match, bob, text="once"))
            assert next_chat(ws)["message"]["text"] == "once"
