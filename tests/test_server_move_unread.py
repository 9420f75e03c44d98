"""A move made at the event its process knows is committed without reading the events
table first (issue 55: one statement a move fewer, with one process as with several);
another process's commit that this one has not heard of makes the move conflict or be
refused, and the match is followed then, so that what is accepted is what it was when
every request read first (``routes._made_at_known``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stairgames.bench.postgresql import PostgreSQL
from stairgames.server.base.store import EventRecord
from tests.postgresql_helpers import DEADLINE, postgresql_server, receive_until_within, two_servers
from tests.server_helpers import JSON, connect, new_match, seat_get, state_at_rest, token_of
from tests.test_server_fanout_carried import events_read


@pytest.fixture(scope="module")
def postgresql() -> Iterator[PostgreSQL]:
    with postgresql_server() as server:
        yield server


def after(event: int) -> Any:
    return lambda m: m["type"] == "state" and m["event"] > event


def online_pair(a: TestClient) -> tuple[str, str, str]:
    """A Stairs match made on ``a``: its id, the first seat's token, the second's."""
    created = new_match(a, "stairs", ["human", "online"])
    joined = a.post(f"/api/matches/{created['match']}/join", headers=JSON).json()
    return created["match"], token_of(created, 0), joined["token"]


def written_unheard(server: TestClient, match: str, token: str) -> dict[str, Any]:
    """The next move of the seat of ``token``, committed to the database by ``server``'s
    store with no notification (as by a process that died before it could tell): the
    view after it."""
    view = seat_get(server, f"/api/matches/{match}?token={token}").json()
    record = EventRecord(view["event"] + 1, "move", view["to_act"], {"move": view["legal"][0]})
    server.app.state.hub.service.store.append_events(match, [record])  # type: ignore[attr-defined]
    after_it: dict[str, Any] = seat_get(server, f"/api/matches/{match}?token={token}").json()
    assert after_it["event"] == record.number
    return after_it


def first_move_then_unheard(
    light: Any, b: TestClient, match: str, dark_token: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The first seat moves through its socket (on process a); the second seat's reply is
    written by ``b`` with no notification: the first seat's view after its move, and the
    view after the reply."""
    view = state_at_rest(light)
    light.send_json({"type": "move", "move": view["legal"][0], "event": view["event"]})
    view = receive_until_within(light, after(view["event"]), DEADLINE)
    assert view["to_act"] == 1
    return view, written_unheard(b, match, dark_token)


def test_a_move_at_the_known_event_reads_no_events_first(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    with two_servers(tmp_path, postgresql.url) as (a, b):
        match, light_token, dark_token = online_pair(a)
        with (
            connect(a, f"/ws/matches/{match}?token={light_token}") as light,
            connect(b, f"/ws/matches/{match}?token={dark_token}") as dark,
        ):
            view = state_at_rest(light)
            state_at_rest(dark)
            with events_read(a) as read_on_a, events_read(b) as read_on_b:
                for mover, other in ((light, dark), (dark, light), (light, dark)):
                    at = view["event"]
                    mover.send_json({"type": "move", "move": view["legal"][0], "event": at})
                    view = receive_until_within(other, after(at), DEADLINE)
                    receive_until_within(mover, after(at), DEADLINE)
            assert len(view["history"]) == 3
    assert read_on_a == [] and read_on_b == []  # the mover's and the other's alike


def test_a_move_after_an_unheard_event_is_followed_first(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    with two_servers(tmp_path, postgresql.url) as (a, b):
        match, light_token, dark_token = online_pair(a)
        with connect(a, f"/ws/matches/{match}?token={light_token}") as light:
            first_move_then_unheard(light, b, match, dark_token)
            # the page learned of it elsewhere (a view from the other process)
            told = seat_get(b, f"/api/matches/{match}?token={light_token}").json()
            assert told["to_act"] == 0
            light.send_json({"type": "move", "move": told["legal"][0], "event": told["event"]})
            seen = receive_until_within(light, after(told["event"]), DEADLINE)
            assert seen["history"][-1] == told["legal"][0] and len(seen["history"]) == 3


def test_a_request_refused_behind_an_unheard_event_catches_up(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    with two_servers(tmp_path, postgresql.url) as (a, b):
        match, light_token, dark_token = online_pair(a)
        with connect(a, f"/ws/matches/{match}?token={light_token}") as light:
            view, unheard = first_move_then_unheard(light, b, match, dark_token)
            # made at the event process a knows, which has light waiting: refused there
            light.send_json({"type": "move", "move": "a1-a2", "event": view["event"]})
            said: list[dict[str, Any]] = []

            def noted(message: dict[str, Any]) -> bool:
                said.append(message)
                return bool(message["type"] == "error")

            receive_until_within(light, noted, DEADLINE)
            assert said[-1]["event"] == unheard["event"]  # the refusal, then...
            # ...the event it had not heard, told before it (the match followed)
            (fresh,) = [m for m in said if after(view["event"])(m)]
            assert fresh["event"] == unheard["event"] and fresh["to_act"] == 0
            with events_read(a):
                light.send_json(
                    {"type": "move", "move": fresh["legal"][0], "event": fresh["event"]}
                )
                done = receive_until_within(light, after(fresh["event"]), DEADLINE)
            assert len(done["history"]) == 3
