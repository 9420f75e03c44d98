"""Seeks that die with their creator; games nobody started are aborted (issue 51, item 1).

A challenge lives while its creator has a page open on the site (the lobby's socket, the
channel ``/ws/me`` every page opens, or their seat's in its match, on any server
process) and is withdrawn once the last closed the grace ago. A timed match whose person
to act has not made a first move within the limit is aborted: no winner, no rating
change, and its view, record and "My games" say so. Every clock here is a fake one the
test moves by hand (the background sweeps are set far apart, so that only the test
acts): nothing sleeps.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stairgames.server.base.errors import ServerError
from stairgames.server.base.store import Store, default_database_url, make_engine
from stairgames.server.migrations import upgrade
from stairgames.server.people.players import COOKIE
from stairgames.server.play.clocks import REALTIME, FirstMoveLimits, TimeControl
from stairgames.server.play.matches import MatchService
from tests.server_helpers import JSON, FakeClock, connect, receive_until, running

START = 1_800_000_000.0
GRACE = 10.0
ABORTED = "The game was aborted: {name} did not make a first move"


@pytest.fixture
def fake() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
def client(tmp_path: Path, fake: FakeClock) -> Iterator[TestClient]:
    with running(
        tmp_path,
        wall_clock=fake,
        challenge_grace_seconds=GRACE,
        lobby_sweep_seconds=3600.0,  # only the test sweeps
        heartbeat_seconds=3600.0,  # the referee acts when the test asks it
    ) as made:
        yield made


def player(client: TestClient, name: str) -> dict[str, str]:
    """Headers of a request made by a new player called ``name`` (its cookie)."""
    made, secret = client.app.state.players.create(name)  # type: ignore[attr-defined]
    return {**JSON, "cookie": f"{COOKIE}={secret}", "x-player": made.id}


def challenge(client: TestClient, who: dict[str, str], **fields: Any) -> dict[str, Any]:
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"], **fields}
    reply = client.post("/api/challenges", json=body, headers=who)
    assert reply.status_code == 200, reply.text
    made: dict[str, Any] = reply.json()
    return made


def listed(client: TestClient) -> list[str]:
    return [entry["id"] for entry in client.get("/api/challenges").json()["challenges"]]


def sweep(client: TestClient) -> bool:
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    closed: bool = client.portal.call(lobby.sweep)  # type: ignore[union-attr]
    return closed


# ----- a challenge lives while its creator has a page open ------------------------------


def test_a_challenge_is_withdrawn_a_grace_after_its_creators_last_page_closed(
    client: TestClient, fake: FakeClock
) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    with connect(client, "/ws/lobby", headers=bob) as watching:
        receive_until(watching, lambda m: m["type"] == "lobby")
        with connect(client, "/ws/lobby", headers=ann) as ann_lobby:
            receive_until(ann_lobby, lambda m: m["type"] == "lobby")
            made = challenge(client, ann, rated=True, time_control={"kind": "realtime"})
            receive_until(watching, lambda m: m["type"] == "lobby" and m["challenges"])
            fake.advance(600)  # present: however long, it stays
            assert sweep(client) is False
        # Ann closed her tab: the challenge stays for the grace, then is withdrawn
        fake.advance(GRACE - 1)
        assert sweep(client) is False
        assert listed(client) == [made["challenge"]]
        fake.advance(1)
        lobby = client.app.state.lobby  # type: ignore[attr-defined]
        client.portal.call(lobby.sweep_once)  # type: ignore[union-attr]
        emptied = receive_until(watching, lambda m: m["type"] == "lobby" and not m["challenges"])
        assert emptied["challenges"] == []
    assert listed(client) == []
    refused = client.post(f"/api/challenges/{made['challenge']}/accept", headers=bob)
    assert refused.status_code == 409


def test_a_reload_within_the_grace_keeps_the_challenge(client: TestClient, fake: FakeClock) -> None:
    ann = player(client, "Ann")
    made = challenge(client, ann)
    for _reload in range(3):  # each time back within the grace: never withdrawn
        fake.advance(GRACE - 1)
        with connect(client, "/ws/lobby", headers=ann) as ws:
            receive_until(ws, lambda m: m["type"] == "lobby")
            assert sweep(client) is False
    assert listed(client) == [made["challenge"]]
    fake.advance(GRACE)
    assert sweep(client) is True
    assert listed(client) == []


def test_the_creators_seat_open_in_the_match_keeps_the_challenge(
    client: TestClient, fake: FakeClock
) -> None:
    ann = player(client, "Ann")
    made = challenge(client, ann)
    url = f"/ws/matches/{made['match']}?token={made['seats'][0]['token']}"
    with connect(client, url) as ws:
        receive_until(ws, lambda m: m["type"] == "state")
        fake.advance(600)
        assert sweep(client) is False
    fake.advance(GRACE)
    assert sweep(client) is True


def test_any_page_of_the_creators_keeps_the_challenge_through_its_channel(
    client: TestClient, fake: FakeClock
) -> None:
    """Every page opens ``/ws/me``: a creator reading a profile or "My games" is on the
    site, and their challenge lives; when the last such page closes, the grace runs."""
    ann = player(client, "Ann")
    made = challenge(client, ann)
    with connect(client, "/ws/me", headers=ann) as first:
        receive_until(first, lambda m: m["type"] == "me")
        with connect(client, "/ws/me", headers=ann) as second:
            receive_until(second, lambda m: m["type"] == "me")
            fake.advance(600)
            assert sweep(client) is False
        fake.advance(600)  # one page closed, the other still open
        assert sweep(client) is False
    assert listed(client) == [made["challenge"]]
    fake.advance(GRACE - 1)
    assert sweep(client) is False
    fake.advance(1)
    assert sweep(client) is True
    assert listed(client) == []


def test_a_challenge_made_with_no_page_open_lasts_the_grace(
    client: TestClient, fake: FakeClock
) -> None:
    ann = player(client, "Ann")
    challenge(client, ann)
    fake.advance(GRACE - 1)
    assert sweep(client) is False
    fake.advance(1)
    assert sweep(client) is True


def test_a_creator_present_on_another_server_process_keeps_the_challenge(
    client: TestClient, fake: FakeClock
) -> None:
    ann = player(client, "Ann")
    made = challenge(client, ann)
    lobby = client.app.state.lobby  # type: ignore[attr-defined]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    # another process holds Ann's seat connected (the hub's shared presence) ...
    hub._note_presence_elsewhere(made["match"], "elsewhere", ((0,), 0))
    fake.advance(600)
    assert sweep(client) is False
    hub._note_presence_elsewhere(made["match"], "elsewhere", ((), 0))
    # ... then her lobby page there: that process writes when it last saw her
    fake.advance(GRACE - 1)
    lobby.store.seen(made["challenge"], lobby.now())
    fake.advance(GRACE - 1)
    assert sweep(client) is False
    fake.advance(1)
    assert sweep(client) is True


# ----- a game nobody started is aborted ---------------------------------------------------


def rated_game(
    client: TestClient, control: dict[str, Any]
) -> tuple[str, dict[str, str], dict[str, str]]:
    """A rated Stairs game of Ann (light, to move) and Bob, started now."""
    ann, bob = player(client, "Ann"), player(client, "Bob")
    made = challenge(client, ann, rated=True, time_control=control)
    accepted = client.post(f"/api/challenges/{made['challenge']}/accept", headers=bob)
    assert accepted.status_code == 200, accepted.text
    return made["match"], ann, bob


def keep_time(client: TestClient) -> None:
    referee = client.app.state.referee  # type: ignore[attr-defined]
    client.portal.call(referee.check)  # type: ignore[union-attr]


def view_of(client: TestClient, match: str, who: dict[str, str] | None = None) -> dict[str, Any]:
    reply = client.get(f"/api/matches/{match}", headers=who or {})
    assert reply.status_code == 200, reply.text
    view: dict[str, Any] = reply.json()
    return view


def play(client: TestClient, match: str, who: dict[str, str]) -> None:
    """``who`` plays their first legal move (over their match socket, by cookie)."""
    with connect(client, f"/ws/matches/{match}", headers=who) as ws:
        view = receive_until(ws, lambda m: m["type"] == "state")
        ws.send_json({"type": "move", "move": view["legal"][0], "event": view["event"]})
        receive_until(ws, lambda m: m["type"] == "state" and m["event"] > view["event"])


def test_a_rated_real_time_game_whose_first_mover_never_moves_is_aborted_unrated(
    client: TestClient, fake: FakeClock
) -> None:
    match, ann, bob = rated_game(client, {"kind": "realtime", "minutes": 1})
    fake.advance(29.9)
    keep_time(client)
    assert view_of(client, match)["result"] is None
    fake.advance(0.1)
    keep_time(client)
    view = view_of(client, match, bob)
    result = view["result"]
    assert result["winners"] == [] and result["aborted"] is True
    assert result["reason_id"] == ABORTED
    assert result["reason_args"] == {"name": {"id": "light"}}
    assert view["to_act"] is None and view["clock"]["running"] is None
    ratings = client.app.state.ratings  # type: ignore[attr-defined]
    assert ratings.ratings_of(ann["x-player"]) == {} == ratings.ratings_of(bob["x-player"])
    record = client.get(f"/api/matches/{match}/record").json()
    assert record["result"] == "The game was aborted: light did not make a first move"
    (game,) = client.get("/api/my/games", headers=ann).json()["games"]
    assert game["over"] is True and game["your_turn"] is False
    assert game["result"] == {"winners": [], "reason_id": ABORTED, "aborted": True}


def test_the_second_seat_must_make_its_first_move_too(client: TestClient, fake: FakeClock) -> None:
    match, ann, bob = rated_game(client, {"kind": "realtime", "minutes": 3})
    fake.advance(20)
    play(client, match, ann)  # Ann's first move; Bob's first turn starts now
    fake.advance(29.9)
    keep_time(client)
    assert view_of(client, match)["result"] is None
    fake.advance(0.1)
    keep_time(client)
    result = view_of(client, match)["result"]
    assert result["aborted"] is True and result["reason_args"] == {"name": {"id": "dark"}}
    ratings = client.app.state.ratings  # type: ignore[attr-defined]
    assert ratings.ratings_of(bob["x-player"]) == {}


def test_once_both_moved_a_time_out_is_lost_and_rated(client: TestClient, fake: FakeClock) -> None:
    match, ann, bob = rated_game(client, {"kind": "realtime", "minutes": 1, "increment": 0})
    play(client, match, ann)
    play(client, match, bob)
    fake.advance(60)  # Ann thinks for ever
    keep_time(client)
    result = view_of(client, match)["result"]
    assert result["winners"] == [1] and "aborted" not in result
    assert result["reason_id"] == "{name} runs out of time"
    ratings = client.app.state.ratings  # type: ignore[attr-defined]
    assert ratings.ratings_of(bob["x-player"])["stairs size=4"].games == 1


def test_a_quarter_minute_game_is_aborted_not_lost_on_time(
    client: TestClient, fake: FakeClock
) -> None:
    match, _ann, _bob = rated_game(client, {"kind": "realtime", "minutes": 0.25})
    fake.advance(15)  # Ann's time is up before the first-move limit: aborted all the same
    keep_time(client)
    result = view_of(client, match)["result"]
    assert result["aborted"] is True and result["winners"] == []


def test_a_correspondence_game_gives_a_first_move_a_day(
    client: TestClient, fake: FakeClock
) -> None:
    match, _ann, _bob = rated_game(client, {"kind": "correspondence", "days": 3})
    fake.advance(86_399)
    keep_time(client)
    assert view_of(client, match)["result"] is None
    fake.advance(1)
    keep_time(client)
    assert view_of(client, match)["result"]["aborted"] is True


def test_an_untimed_game_is_never_aborted(client: TestClient, fake: FakeClock) -> None:
    match, _ann, _bob = rated_game(client, {"kind": "none"})
    service = client.app.state.hub.service  # type: ignore[attr-defined]
    assert service.due(service.get(match)) is None
    fake.advance(30 * 86_400)
    keep_time(client)
    assert view_of(client, match)["result"] is None


def test_a_first_move_that_arrives_after_the_limit_is_refused_and_the_game_aborted(
    tmp_path: Path, fake: FakeClock
) -> None:
    engine = make_engine(default_database_url(tmp_path))
    upgrade(engine)
    service = MatchService(Store(engine), ("random",), clock=fake, first_moves=FirstMoveLimits())
    match = service.create("stairs", {}, ["human", "online"], TimeControl(REALTIME, 5)).match
    service.join(match)
    move = match.state.action_to_string(match.state.legal_actions()[0])
    fake.advance(31)  # the referee has not come to it
    with pytest.raises(ServerError) as refused:
        asyncio.run(service.move_async(match, 0, move, received=START + 30.5))
    assert refused.value.code == "aborted"
    result = match.result()
    assert result is not None and result["aborted"] is True
    assert match.state.move_number() == 0


def test_a_service_without_first_move_limits_never_aborts(tmp_path: Path, fake: FakeClock) -> None:
    engine = make_engine(default_database_url(tmp_path))
    upgrade(engine)
    service = MatchService(Store(engine), ("random",), clock=fake)
    match = service.create("stairs", {}, ["human", "online"], TimeControl(REALTIME, 1)).match
    service.join(match)
    fake.advance(45)
    assert service.keep_time(match) is False and not match.over
