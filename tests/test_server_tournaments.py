"""Tournaments on the site (issue 53; docs/tournaments.md, "On the site"): an account
creates one, players join and leave through the routes, bad requests are refused with
their codes and change nothing, and everything is kept over a restart."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stairgames.server.people.players import COOKIE
from stairgames.server.tournaments.tournaments import OPEN_PER_CREATOR
from tests.server_helpers import JSON, running

ROUTE = "/api/tournaments"
T0 = 1_800_000_000.0
"""The fake wall clock's start (seconds since the epoch)."""


class FakeClock:
    """A wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


def moment(seconds: float) -> str:
    return datetime.datetime.fromtimestamp(seconds, datetime.UTC).isoformat()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def client(tmp_path: Path, clock: FakeClock) -> Iterator[TestClient]:
    with running(tmp_path, wall_clock=clock) as made:
        yield made


def person(client: TestClient, name: str, *, password: bool = True) -> dict[str, str]:
    players = client.app.state.players  # type: ignore[attr-defined]
    made, secret = players.create(name)
    if password:
        players.add_password(made, "a long password")
    return {**JSON, "cookie": f"{COOKIE}={secret}", "x-player": made.id}


def swiss(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "kind": "swiss",
        "game": "stairs",
        "options": {},
        "starts_at": moment(T0 + 600),
        "rounds": 4,
        "time_control": {"kind": "realtime", "minutes": 3, "increment": 2},
    }
    return {**body, **changes}


def create(client: TestClient, who: dict[str, str], **changes: Any) -> str:
    reply = client.post(ROUTE, json=swiss(**changes), headers=who)
    assert reply.status_code == 200, reply.text
    made: str = reply.json()["id"]
    return made


def code(reply: Any) -> tuple[int, str]:
    return reply.status_code, reply.json()["error"]["code"]


def detail(client: TestClient, tournament: str) -> dict[str, Any]:
    reply = client.get(f"{ROUTE}/{tournament}")
    assert reply.status_code == 200, reply.text
    shown: dict[str, Any] = reply.json()
    return shown


def test_an_account_creates_a_swiss_and_players_join_and_leave(client: TestClient) -> None:
    ann = person(client, "Ann")
    made = create(client, ann)
    listed = client.get(ROUTE).json()["tournaments"]
    assert [(t["id"], t["kind"], t["creator"], t["status"], t["rounds"]) for t in listed] == [
        (made, "swiss", "Ann", "created", 4)
    ]
    assert listed[0]["time_control"] == {"kind": "realtime", "minutes": 3, "increment": 2}
    assert listed[0]["starts_at"] == moment(T0 + 600)
    names = ["Bob", "Cy", "Di"]
    players = [person(client, name, password=False) for name in names]
    for who in players:
        assert client.post(f"{ROUTE}/{made}/join", json={}, headers=who).status_code == 200
    shown = detail(client, made)
    assert sorted(s["name"] for s in shown["standings"]) == names
    assert shown["players"] == 3
    assert {s["rating"] for s in shown["standings"]} == {1500}
    assert client.post(f"{ROUTE}/{made}/leave", json={}, headers=players[1]).status_code == 200
    shown = detail(client, made)
    assert sorted(s["name"] for s in shown["standings"]) == ["Bob", "Di"]  # struck off
    again = client.post(f"{ROUTE}/{made}/leave", json={}, headers=players[1])
    assert code(again) == (409, "tournament_not_entered")
    # joining twice changes nothing
    assert client.post(f"{ROUTE}/{made}/join", json={}, headers=players[0]).status_code == 200
    assert detail(client, made)["players"] == 2


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"kind": "knockout"}, "tournament_kind"),
        ({"kind": 3}, "tournament_kind"),
        ({"game": "no_such_game"}, "invalid_option"),
        ({"kind": "tables"}, "tournament_game_seats"),
        ({"starts_at": "tomorrow"}, "tournament_start"),
        ({"starts_at": "2027-01-15T12:00:00"}, "tournament_start"),  # no time zone
        ({"starts_at": moment(T0 - 3600)}, "tournament_start"),
        ({"starts_at": moment(T0 + 40 * 86_400)}, "tournament_too_far"),
        ({"rounds": 0}, "tournament_rounds"),
        ({"rounds": None}, "tournament_rounds"),
        ({"rounds": "4"}, "tournament_length_type"),
        ({"kind": "arena", "minutes": 5}, "tournament_minutes"),
        ({"kind": "arena"}, "tournament_minutes"),
        ({"bots": "yes"}, "tournament_bots_flag"),
    ],
)
def test_a_bad_tournament_is_refused_and_nothing_is_made(
    client: TestClient, changes: dict[str, Any], expected: str
) -> None:
    ann = person(client, "Ann")
    reply = client.post(ROUTE, json=swiss(**changes), headers=ann)
    assert reply.status_code == 400, reply.text
    assert reply.json()["error"]["code"] == expected
    assert client.get(ROUTE).json()["tournaments"] == []


def test_only_an_account_creates_and_each_has_a_few_open(client: TestClient) -> None:
    guest = person(client, "Guest", password=False)
    assert code(client.post(ROUTE, json=swiss(), headers=guest)) == (
        403,
        "tournament_needs_account",
    )
    assert client.post(ROUTE, json=swiss(), headers=JSON).status_code == 401
    ann = person(client, "Ann")
    for _ in range(OPEN_PER_CREATOR):
        create(client, ann)
    assert code(client.post(ROUTE, json=swiss(), headers=ann)) == (409, "too_many_tournaments")
    assert len(client.get(ROUTE).json()["tournaments"]) == OPEN_PER_CREATOR


def test_an_unknown_tournament_is_not_found(client: TestClient) -> None:
    bob = person(client, "Bob", password=False)
    assert code(client.get(f"{ROUTE}/nope")) == (404, "tournament_not_found")
    assert code(client.post(f"{ROUTE}/nope/join", json={}, headers=bob)) == (
        404,
        "tournament_not_found",
    )
    assert code(client.post(f"{ROUTE}/nope/leave", json={}, headers=bob)) == (
        404,
        "tournament_not_found",
    )


def test_an_arena_of_round_tables_needs_its_game(client: TestClient) -> None:
    ann = person(client, "Ann")
    made = create(client, ann, kind="arena", minutes=60, rounds=None)
    shown = detail(client, made)
    assert (shown["kind"], shown["minutes"], shown["rounds"]) == ("arena", 60, None)
    tables = create(client, ann, kind="tables", game="ishigaki_race", options={"players": 3})
    assert detail(client, tables)["game"] == "ishigaki_race"


def test_the_writes_spend_the_players_allowance(client: TestClient) -> None:
    ann = person(client, "Ann")
    made = create(client, ann)
    answers = [
        client.post(f"{ROUTE}/{made}/join", json={}, headers=ann).status_code for _ in range(30)
    ]
    assert answers.count(429) > 0
    assert answers[0] == 200


def test_tournaments_are_kept_over_a_restart(tmp_path: Path, clock: FakeClock) -> None:
    with running(tmp_path, wall_clock=clock) as first:
        ann = person(first, "Ann")
        made = create(first, ann)
        bob = person(first, "Bob", password=False)
        assert first.post(f"{ROUTE}/{made}/join", json={}, headers=bob).status_code == 200
        before = detail(first, made)
    with running(tmp_path, wall_clock=clock) as second:
        assert detail(second, made) == before
        assert code(second.post(f"{ROUTE}/{made}/leave", json={}, headers=ann)) == (
            409,
            "tournament_not_entered",
        )
        assert second.post(f"{ROUTE}/{made}/leave", json={}, headers=bob).status_code == 200
        assert detail(second, made)["standings"] == []
