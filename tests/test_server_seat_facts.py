"""Who holds a match's seats is read once, not once by each of a move's listeners (the
views' ratings and bot marks, the turn told, the push) nor once a move: issue 55's CPU a
move. A seat is only ever taken, so what was read at an event holds for it; once every
seat that is not a computer's has its holder, it holds for every later event
(``Lobby.seat_facts``, ``lasting``). A join writes its holder with its event, and a
rematch its holders with its challenge, so that no reader finds one without the other;
a match's creator holds their seats from the moment it is made."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import datetime
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.exc import IntegrityError

from stairgames.server.base.errors import ServerError
from stairgames.server.base.store import MatchRecord, SeatRecord, _database_threads
from stairgames.server.lobby.lobby import STARTED, SeatFacts, lasting
from stairgames.server.people.players import COOKIE
from stairgames.server.play.match import Match
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


@contextlib.contextmanager
def seated(
    client: TestClient, made: dict[str, Any], second: str
) -> Iterator[tuple[list[Any], dict[str, Any]]]:
    """The sockets of both seats of the match ``made`` (the second seat's token
    ``second``), each at rest: the sockets, and the first seat's view."""
    tokens = [made["seats"][0]["token"], second]
    urls = [f"/ws/matches/{made['match']}?token={token}" for token in tokens]
    with connect(client, urls[0]) as first, connect(client, urls[1]) as other:
        view = state_at_rest(first)
        state_at_rest(other)
        yield [first, other], view


def play(sockets: list[Any], view: dict[str, Any], moves: int) -> dict[str, Any]:
    """``moves`` moves between the two seats' ``sockets``, each the first legal one of
    whoever is to act, each seen by both: the last view."""
    for _ in range(moves):
        seat = view["to_act"]
        move, at = view["legal"][0], view["event"]
        sockets[seat].send_json({"type": "move", "move": move, "event": at})
        view = receive_until(sockets[1 - seat], after(at))
        receive_until(sockets[seat], after(at))
    return view


def test_a_moves_listeners_share_one_read_of_the_seats(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        ann, bob = player(client, "Ann"), player(client, "Bob")
        body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}
        made = client.post("/api/challenges", json=body, headers=ann).json()
        joined = client.post(f"/api/challenges/{made['challenge']}/accept", headers=bob).json()
        with seated(client, made, joined["token"]) as (sockets, view):
            moves = 4
            with counting_reads(client) as counts:
                view = play(sockets, view, moves)
                client.portal.call(listeners_done, client)  # type: ignore[union-attr]
            assert view["seats"][0]["player"] == "Ann" and view["seats"][1]["player"] == "Bob"
    # told, push, the views' bot marks and ratings: every seat was held before the moves
    assert counts["seat_players"] == 0, counts


def test_a_join_writes_its_holder_with_its_event(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        ann, bob = player(client, "Ann"), player(client, "Bob")
        body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}
        made = client.post("/api/challenges", json=body, headers=ann).json()
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        hub = client.app.state.hub  # type: ignore[attr-defined]
        match = hub.service.get(made["match"])
        assert not lasting(match, lobby.seat_facts(match))  # seat 1 is free
        with counting_reads(client) as counts:
            assert lobby.holders(match) == {0: ann["x-player"]}  # kept for this event
        assert counts["seat_players"] == 0
        written: list[str] = []
        engine = client.app.state.engine  # type: ignore[attr-defined]

        def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            words = statement.split()  # UPDATE table ..., INSERT INTO table ...
            if words[0] in ("UPDATE", "INSERT"):
                written.append(f"{words[0]} {words[1 if words[0] == 'UPDATE' else 2]}")

        event.listen(engine, "before_cursor_execute", note)
        try:
            client.post(f"/api/challenges/{made['challenge']}/accept", headers=bob)
        finally:
            event.remove(engine, "before_cursor_execute", note)
        # the seat's token, the join's event and the holder in one transaction
        at = written.index("UPDATE seats")
        assert written[at : at + 3] == ["UPDATE seats", "INSERT seat_players", "INSERT events"]
        match = hub.service.get(made["match"])
        assert match.last_was_join
        with counting_reads(client) as counts:
            holders = lobby.holders(match)
            again = lobby.holders(match)
        assert holders == again == {0: ann["x-player"], 1: bob["x-player"]}
        assert counts["seat_players"] <= 1  # read once at most: it lasts from now on
        assert lasting(match, lobby.seat_facts(match))


def test_a_join_that_loses_its_seat_writes_no_holder(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        ann, bob = player(client, "Ann"), player(client, "Bob")
        body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}
        made = client.post("/api/challenges", json=body, headers=ann).json()
        hub = client.app.state.hub  # type: ignore[attr-defined]
        store = client.app.state.lobby.store  # type: ignore[attr-defined]
        stale = hub.service.get(made["match"])
        client.post(
            f"/api/matches/{made['match']}/join", headers=JSON
        )  # a browser with no name first
        with pytest.raises(ServerError) as refused:
            hub.service.join(stale, bob["x-player"])
        assert refused.value.status == 409
        assert store.seat_players(made["match"]) == {0: ann["x-player"]}


def test_an_anonymous_games_facts_last_once_no_seat_is_free(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        made = client.post(
            "/api/matches",
            json={"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]},
            headers=JSON,
        ).json()
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        hub = client.app.state.hub  # type: ignore[attr-defined]
        match = hub.service.get(made["match"])
        assert not lasting(match, lobby.seat_facts(match))  # seat 1 is free
        joined = client.post(f"/api/matches/{made['match']}/join", headers=JSON).json()
        with (
            seated(client, made, joined["token"]) as (sockets, view),
            counting_reads(client) as counts,
        ):
            view = play(sockets, view, 3)
            client.portal.call(listeners_done, client)  # type: ignore[union-attr]
        match = hub.service.get(made["match"])
        assert lasting(match, lobby.seat_facts(match)) and lobby.holders(match) == {}
    assert counts["seat_players"] == 0, counts


def a_match(seats: list[tuple[str, str | None]], rematch_of: str | None = None) -> Match:
    records = tuple(SeatRecord(n, kind, None, token) for n, (kind, token) in enumerate(seats))
    return Match(MatchRecord("m", "stairs", {"size": 4}, 1, rematch_of, records, ()))


def test_what_lasts() -> None:
    nobody = SeatFacts({}, False, frozenset())
    both = SeatFacts({0: "ann", 1: "bob"}, True, frozenset())
    free = a_match([("human", "t0"), ("online", None)])
    assert not lasting(free, both)  # a join may still write its holder
    assert lasting(a_match([("human", "t0"), ("online", "t1")]), nobody)
    assert lasting(a_match([("human", "t0"), ("computer", None)]), nobody)
    rematch = a_match([("online", "t0"), ("online", "t1")], rematch_of="old")
    assert not lasting(rematch, nobody)  # not seated yet
    assert not lasting(rematch, SeatFacts({0: "ann"}, True, frozenset()))
    assert lasting(rematch, both)


def test_a_rematch_is_seated_with_its_challenge_in_one_transaction(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        ann, bob = player(client, "Ann"), player(client, "Bob")
        body = {
            "game": "stairs",
            "options": {"size": 4},
            "seats": ["human", "online"],
            "rated": True,
        }
        made = client.post("/api/challenges", json=body, headers=ann).json()
        client.post(f"/api/challenges/{made['challenge']}/accept", headers=bob)
        hub = client.app.state.hub  # type: ignore[attr-defined]
        store = client.app.state.lobby.store  # type: ignore[attr-defined]
        rematch = hub.service.create("stairs", {"size": 4}, ["online", "online"]).match
        store.seat_rematch(made["match"], rematch.id, 2, datetime.datetime.now(datetime.UTC))
        facts = store.seat_facts(rematch.id)
        assert facts.holders == {1: ann["x-player"], 0: bob["x-player"]}
        assert facts.rated
        assert store.challenge(rematch.id).closed == STARTED
        with pytest.raises(IntegrityError):  # a second process: nothing more written
            store.seat_rematch(made["match"], rematch.id, 2, datetime.datetime.now(datetime.UTC))
        assert store.seat_facts(rematch.id) == facts


def test_a_move_with_all_it_needs_kept_hops_to_a_database_thread_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The commit alone: the holders (told, push, bot streams), the views' notes and the
    planned replies of a game that cannot have any are answered on the event loop from
    what is kept (each hop costs the process a thread's wake-up and the loop's)."""
    calls: list[str] = []
    threads = _database_threads()
    submit = threads.submit

    def counted(call: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(getattr(getattr(call, "func", call), "__qualname__", repr(call)))
        return submit(call, *args, **kwargs)

    monkeypatch.setattr(threads, "submit", counted)
    with running(tmp_path) as client:
        ann = player(client, "Ann")
        body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}
        made = client.post("/api/matches", json=body, headers=ann).json()
        joined = client.post(f"/api/matches/{made['match']}/join", headers=JSON).json()
        with seated(client, made, joined["token"]) as (sockets, view):
            moves = 4
            calls.clear()
            view = play(sockets, view, moves)
            client.portal.call(listeners_done, client)  # type: ignore[union-attr]
    commits = [call for call in calls if call.endswith("append_events")]
    assert len(commits) == moves
    assert len(calls) - len(commits) <= 1, calls  # (a clock's heartbeat may fall in)
