"""A notification carries the moves it tells of, where anyone watching may see them
(``fanout.carried``): the other processes fold them in without reading the events table
(issue 55: the CPU a move with two processes). Anything else, or anything malformed, is
read from the database as before."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import event

from stairgames.server.base.store import EventRecord, MatchRecord, SeatRecord
from stairgames.server.play.fanout import (
    MAX_TOPIC_BYTES,
    carried,
    event_payload,
    read_event_payload,
)
from stairgames.server.play.match import Match
from tests.postgresql_helpers import DEADLINE, postgresql_server, receive_until_within, two_servers
from tests.server_helpers import JSON, connect, new_match, state_at_rest, token_of

MOVES = [
    EventRecord(4, "move", 0, {"move": "a1-b2"}, 1000.5),
    EventRecord(5, "move", 1, {"move": "c3-c2"}, 1001.25),
]


def a_match(game: str, **options: Any) -> Match:
    seats = tuple(SeatRecord(s, "human", None, None) for s in range(2))
    return Match(MatchRecord("m", game, options, 1, None, seats, ()))


def test_moves_of_a_game_without_hidden_cards_are_carried() -> None:
    assert carried(a_match("stairs"), MOVES)
    assert carried(a_match("twenty_seven"), MOVES)


def test_nothing_of_a_game_with_hidden_cards_nor_a_join_is_carried() -> None:
    assert not carried(a_match("city_of_stairs", players=2), MOVES)
    join = EventRecord(3, "join", 1, {"seat": 1, "token_hash": "secret digest"})
    assert not carried(a_match("stairs"), [join, *MOVES])


def test_a_payload_gives_back_the_moves_it_carries() -> None:
    payload = event_payload("m:with:colons", 5, MOVES)
    assert payload.startswith("m:with:colons:5\n")
    assert read_event_payload(payload) == ("m:with:colons", 5, MOVES)
    assert read_event_payload("m:5") == ("m", 5, None)  # as before: a hint only


def test_moves_that_do_not_end_at_the_event_or_do_not_fit_are_left_out() -> None:
    assert event_payload("m", 6, MOVES) == "m:6"
    big = [EventRecord(5, "move", 0, {"move": "x" * MAX_TOPIC_BYTES}, None)]
    assert event_payload("m", 5, big) == "m:5"


def test_malformed_or_out_of_order_moves_are_read_instead() -> None:
    for body in (
        "not json",
        "[[4,1]]",
        '[[4,"move",0,{"move":"a1-b2"},null]]',  # ends at 4, not at the event
        '[[3,"move",0,{},null],[5,"move",1,{},null]]',  # a gap
        '[[5,"join",1,{"seat":1,"token_hash":"x"},null]]',  # not a move
        '[[5,"move",1,{},"yesterday"]]',
        '[[5,"move","one",{},null]]',
    ):
        assert read_event_payload(f"m:5\n{body}") == ("m", 5, None), body
    assert read_event_payload("m:five\n[]") is None
    assert read_event_payload(":5") is None


@contextlib.contextmanager
def events_read(client: TestClient) -> Iterator[list[str]]:
    """The reads of the events table the app makes meanwhile."""
    engine = client.app.state.engine  # type: ignore[attr-defined]
    found: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT") and "FROM events" in statement:
            found.append(statement)

    event.listen(engine, "before_cursor_execute", seen)
    try:
        yield found
    finally:
        event.remove(engine, "before_cursor_execute", seen)


def test_the_other_process_takes_a_carried_move_without_reading_it(tmp_path: Path) -> None:
    with postgresql_server() as postgresql, two_servers(tmp_path, postgresql.url) as (a, b):
        created = new_match(a, "stairs", ["human", "online"])
        match = created["match"]
        joined = a.post(f"/api/matches/{match}/join", headers=JSON).json()
        with (
            connect(a, f"/ws/matches/{match}?token={token_of(created, 0)}") as light,
            connect(b, f"/ws/matches/{match}?token={joined['token']}") as dark,
        ):
            view = state_at_rest(light)
            state_at_rest(dark)
            with events_read(b) as reads:
                move = view["legal"][0]
                light.send_json({"type": "move", "move": move, "event": view["event"]})
                seen = receive_until_within(
                    dark, lambda m: m["type"] == "state" and m["history"], DEADLINE
                )
            assert seen["history"] == [move] and seen["to_act"] == 1
            assert reads == []  # folded from the notification, not read
