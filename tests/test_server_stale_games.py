"""Stale games against the computer leave My games (issue 51, item 4).

A player may hide a game going on against the computer from My games (it leaves the list
and the waiting count, theirs and their channel's, until they show it again) or resign it
from there; a game against the computer with one person that nobody moved in for the
stale limit (30 days) ends by itself, no winner; a game of two people never does. The
wall clock is a fake one the test moves by hand and the lobby's sweep is called by the
test: nothing sleeps.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stairgames.server.chat.told_contract import ME_MESSAGES
from stairgames.server.lobby.lobby import STALE_SECONDS, Lobby
from stairgames.server.people.players import COOKIE
from tests.server_helpers import JSON, FakeClock, connect, receive_until, running, state_at_rest

START = 1_800_000_000.0
DAY = 86_400.0
ENDED_STALE = "The game ended after {days} without a move"


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def client(tmp_path: Path, fake: FakeClock) -> Iterator[TestClient]:
    with running(
        tmp_path,
        wall_clock=fake,
        lobby_sweep_seconds=3600.0,  # only the test sweeps
        heartbeat_seconds=3600.0,
    ) as made:
        yield made


def player(client: TestClient, name: str) -> dict[str, str]:
    """Headers of a new player's requests (its cookie)."""
    made, secret = client.app.state.players.create(name)  # type: ignore[attr-defined]
    return {**JSON, "cookie": f"{COOKIE}={secret}", "x-player": made.id}


def against_the_computer(client: TestClient, who: dict[str, str]) -> str:
    """A Stairs match of ``who`` (seat 0, to move) against the computer: its id."""
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "computer:random"]}
    made = client.post("/api/matches", json=body, headers=who)
    assert made.status_code == 200, made.text
    match: str = made.json()["match"]
    return match


def between_people(client: TestClient, ann: dict[str, str], bob: dict[str, str]) -> str:
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}
    made = client.post("/api/challenges", json=body, headers=ann)
    assert made.status_code == 200, made.text
    match: str = made.json()["match"]
    taken = client.post(f"/api/challenges/{match}/accept", headers=bob)
    assert taken.status_code == 200, taken.text
    return match


def my_games(client: TestClient, who: dict[str, str], **query: str) -> dict[str, Any]:
    reply = client.get("/api/my/games", params=query, headers=who)
    assert reply.status_code == 200, reply.text
    games: dict[str, Any] = reply.json()
    return games


def listed(client: TestClient, who: dict[str, str], **query: str) -> list[str]:
    return [game["match"] for game in my_games(client, who, **query)["games"]]


def act(client: TestClient, who: dict[str, str], match: str, action: str) -> Any:
    return client.post(f"/api/my/games/{match}/{action}", headers=who)


def sweep(client: TestClient) -> None:
    """One round of the lobby's sweep, as its task runs it."""
    lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
    client.portal.call(lobby.sweep_once)  # type: ignore[union-attr]


def result_of(client: TestClient, match: str) -> dict[str, Any] | None:
    view = client.get(f"/api/matches/{match}").json()
    result: dict[str, Any] | None = view["result"]
    return result


def test_a_hidden_game_leaves_the_list_and_the_waiting_count_until_shown(
    client: TestClient,
) -> None:
    ann = player(client, "Ann")
    kept, stale = against_the_computer(client, ann), against_the_computer(client, ann)
    before = my_games(client, ann)
    assert (before["waiting"], before["hidden"]) == (2, 0)

    assert act(client, ann, stale, "hide").json() == {"ok": True}
    after = my_games(client, ann)
    assert listed(client, ann) == [kept]
    assert (after["waiting"], after["hidden"], after["total"]) == (1, 1, 1)
    assert listed(client, ann, hidden="true") == [stale]
    assert act(client, ann, stale, "hide").status_code == 200  # again: nothing changes
    assert my_games(client, ann)["hidden"] == 1

    assert act(client, ann, stale, "show").json() == {"ok": True}
    assert set(listed(client, ann)) == {kept, stale}
    assert my_games(client, ann)["waiting"] == 2
    assert listed(client, ann, hidden="true") == []


def test_a_game_is_hidden_for_its_player_alone(client: TestClient) -> None:
    """Bob watching Ann's game holds no seat: he cannot hide it, nor show it."""
    ann, bob = player(client, "Ann"), player(client, "Bob")
    match = against_the_computer(client, ann)
    for action in ("hide", "show", "resign"):
        refused = act(client, bob, match, action)
        assert refused.status_code == 404
        assert refused.json()["error"]["code"] == "not_your_game"
    assert act(client, ann, match, "hide").status_code == 200
    assert listed(client, ann) == []


def test_only_a_game_going_on_against_the_computer_is_hidden_or_resigned_here(
    client: TestClient,
) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    match = between_people(client, ann, bob)
    for action in ("hide", "resign"):
        refused = act(client, ann, match, action)
        assert refused.status_code == 409
        assert refused.json()["error"]["code"] == "not_against_the_computer"
    finished = against_the_computer(client, ann)
    assert act(client, ann, finished, "resign").status_code == 200
    refused = act(client, ann, finished, "hide")
    assert refused.json()["error"]["code"] == "not_against_the_computer"
    assert act(client, ann, "no-such-match", "hide").status_code == 404
    assert client.post(f"/api/my/games/{match}/hide", headers=JSON).status_code == 401


def test_resigning_from_my_games_ends_the_game_as_from_its_page(client: TestClient) -> None:
    ann = player(client, "Ann")
    match = against_the_computer(client, ann)
    assert act(client, ann, match, "resign").json() == {"ok": True}
    result = result_of(client, match)
    assert result is not None
    assert (result["winners"], result["reason_id"]) == ([1], "{name} resigns")
    entry = my_games(client, ann)
    assert entry["waiting"] == 0
    assert entry["games"][0]["over"] and entry["games"][0]["result"]["winners"] == [1]
    assert act(client, ann, match, "resign").status_code == 409  # over: nothing to resign


def test_the_channel_counts_a_hidden_game_out_at_once(client: TestClient) -> None:
    ann = player(client, "Ann")
    match = against_the_computer(client, ann)

    def told_waiting(ws: Any, count: int) -> dict[str, Any]:
        def fits(message: dict[str, Any]) -> bool:
            ME_MESSAGES.validate_python(message)
            return bool(message["type"] == "me" and message["waiting"] == count)

        return receive_until(ws, fits)

    with connect(client, "/ws/me", headers=ann) as ws:
        assert told_waiting(ws, 1)["games"] == [match]
        act(client, ann, match, "hide")
        assert told_waiting(ws, 0)["games"] == []
        act(client, ann, match, "show")
        assert told_waiting(ws, 1)["games"] == [match]


def test_a_game_against_the_computer_left_for_30_days_ends_by_itself(
    client: TestClient, fake: FakeClock
) -> None:
    ann = player(client, "Ann")
    match = against_the_computer(client, ann)
    with connect(client, f"/ws/matches/{match}?seat=0", headers=ann) as ws:
        view = state_at_rest(ws)
        ws.send_json({"type": "move", "move": view["legal"][0], "event": view["event"]})
        receive_until(ws, lambda m: m["type"] == "state" and m.get("to_act") == 0)
    assert STALE_SECONDS == 30 * DAY
    fake.advance(30 * DAY - 60)
    sweep(client)
    assert result_of(client, match) is None  # a minute short of 30 days: it goes on

    fake.advance(3600)  # the sweep looks again an hour later
    sweep(client)
    result = result_of(client, match)
    assert result is not None
    assert result["aborted"] and result["winners"] == [] and result["returns"] == [0.0, 0.0]
    assert result["reason_id"] == ENDED_STALE
    assert result["reason_args"]["days"]["n"] == 30
    assert result["reason"] == "The game ended after 30 days without a move"
    games = my_games(client, ann)
    assert games["waiting"] == 0
    assert games["games"][0]["result"] == {
        "winners": [],
        "reason_id": ENDED_STALE,
        "aborted": True,
    }


def test_a_game_nobody_ever_moved_in_counts_from_its_making(
    client: TestClient, fake: FakeClock
) -> None:
    ann = player(client, "Ann")
    match = against_the_computer(client, ann)
    fake.advance(31 * DAY)
    sweep(client)
    result = result_of(client, match)
    assert result is not None and result["reason_args"]["days"]["n"] == 31


def test_a_game_of_two_people_is_never_ended_as_stale(client: TestClient, fake: FakeClock) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    people = between_people(client, ann, bob)
    three = client.post(
        "/api/challenges",
        json={
            "game": "ishigaki_race",
            "options": {"players": 3},
            "seats": ["human", "online", "computer:random"],
        },
        headers=ann,
    )
    assert three.status_code == 200, three.text
    taken = client.post(f"/api/challenges/{three.json()['match']}/accept", headers=bob)
    assert taken.status_code == 200, taken.text
    fake.advance(400 * DAY)
    sweep(client)
    assert result_of(client, people) is None
    assert result_of(client, three.json()["match"]) is None


def test_the_stale_limit_is_the_lobbys_stale_seconds(client: TestClient, fake: FakeClock) -> None:
    """With a limit of two days, a game left two days ends; the sweep looks once an
    hour (a sweep before that leaves it)."""
    ann = player(client, "Ann")
    match = against_the_computer(client, ann)
    lobby: Lobby = client.app.state.lobby  # type: ignore[attr-defined]
    lobby.stale_seconds = 2 * DAY
    fake.advance(DAY)
    sweep(client)
    assert result_of(client, match) is None
    fake.advance(DAY + 60)
    sweep(client)
    assert result_of(client, match) is not None
    assert client.portal.call(lobby.end_stale_games) == 0  # type: ignore[union-attr]


def test_the_service_ends_only_a_quiet_game_against_the_computer(
    client: TestClient, fake: FakeClock
) -> None:
    """The sweep's candidates are checked again by the service under the match's lock:
    one moved in since (its last event within the limit) goes on."""
    ann = player(client, "Ann")
    match_id = against_the_computer(client, ann)
    service = client.app.state.hub.service  # type: ignore[attr-defined]
    match = service.get(match_id)
    fake.advance(10 * DAY)
    assert not service.end_stale(match, 30 * DAY)
    assert service.end_stale(match, 10 * DAY)
    assert match.over and match.idle_days == 10
    assert not service.end_stale(match, 10 * DAY)  # over: once
