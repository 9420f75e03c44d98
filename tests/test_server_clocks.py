"""Clocks kept by the server (issue 30): time controls, increments, flags, correspondence
deadlines, a restart mid-game, and the turns that run no clock. Every clock here is a
fake one the test moves by hand: nothing sleeps, nothing reads the wall clock."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from stairgames.server.base.errors import ServerError
from stairgames.server.base.store import ClockStore, Store, default_database_url, make_engine
from stairgames.server.migrations import upgrade
from stairgames.server.play.clocks import (
    REALTIME,
    Clock,
    TimeControl,
    parse_time_control,
)
from stairgames.server.play.match import Match
from stairgames.server.play.matches import OFFER_SECONDS, MatchService
from stairgames.server.play.seats import COMPUTER
from tests.server_helpers import (
    JSON,
    FakeClock,
    connect,
    receive_until,
    running,
    seat_get,
    token_of,
)

START = 1_800_000_000.0
FIVE_PLUS_THREE = TimeControl(REALTIME, minutes=5, increment=3)


def service_on(tmp_path: Path, clock: FakeClock) -> MatchService:
    engine = make_engine(default_database_url(tmp_path))
    upgrade(engine)
    return MatchService(Store(engine), ("random", "medium"), clock=clock)


def started(service: MatchService, game: str, control: TimeControl, seats: int = 2) -> Match:
    """A match of one person here and the others online, every seat taken."""
    options = {"players": seats} if seats > 2 else {}
    created = service.create(game, options, ["human", *["online"] * (seats - 1)], control)
    match = created.match
    for _ in range(seats - 1):
        service.join(match)
    return match


def first_move(match: Match) -> str:
    state = match.state
    return state.action_to_string(state.legal_actions()[0])


# ----- the time control a request asks for -------------------------------------------


@pytest.mark.parametrize(
    ("asked", "message"),
    [
        ("5+3", "bad_time_control"),
        ({"kind": "blitz"}, "time_control_kind"),
        (
            {"kind": "realtime", "minutes": 0},
            "bad_minutes",
        ),
        (
            {"kind": "realtime", "minutes": 1.5},
            "bad_minutes",
        ),
        ({"kind": "realtime", "minutes": "5"}, "clock_not_numbers"),
        ({"kind": "realtime", "minutes": True}, "clock_not_numbers"),
        (
            {"kind": "realtime", "increment": -1},
            "bad_increment",
        ),
        (
            {"kind": "realtime", "increment": 1000},
            "bad_increment",
        ),
        ({"kind": "correspondence", "days": 5}, "bad_days"),
        ({"kind": "correspondence", "days": True}, "bad_days"),
        ({"kind": "realtime", "secs": 5}, "unknown_time_control_field"),
    ],
)
def test_a_bad_time_control_is_refused_with_its_reason(asked: Any, message: str) -> None:
    with pytest.raises(ServerError) as refused:
        parse_time_control(asked)
    assert refused.value.status == 400
    assert refused.value.code == message


def test_time_controls_read_with_the_games_own_default() -> None:
    assert parse_time_control(None).timed is False
    assert parse_time_control({"kind": "realtime"}, (3, 5)) == TimeControl(REALTIME, 3, 5)
    assert parse_time_control({"kind": "realtime", "minutes": 0.25, "increment": 0}).initial_ms == (
        15_000
    )
    assert parse_time_control({"kind": "correspondence", "days": 2}).move_seconds == 2 * 86_400


# ----- the clock itself -----------------------------------------------------------------


def test_a_real_time_clock_charges_the_runner_and_adds_the_increment() -> None:
    clock = Clock(FIVE_PLUS_THREE, 2)
    clock.run(0, START)
    clock.charge(START + 10)
    clock.moved(0)
    clock.run(1, START + 10)
    assert clock.remaining_ms == [293_000, 300_000]
    assert clock.left_ms(START + 25) == [293_000, 285_000]
    assert clock.deadline() == START + 10 + 300


def test_a_clock_never_shows_less_than_nothing() -> None:
    clock = Clock(TimeControl(REALTIME, minutes=1), 2)
    clock.run(0, START)
    assert clock.left_ms(START + 61) == [0, 60_000]


# ----- the service: flags, increments, deadlines ---------------------------------------


def test_the_clock_starts_once_every_seat_is_taken(tmp_path: Path) -> None:
    fake = FakeClock(START)
    service = service_on(tmp_path, fake)
    created = service.create("stairs", {}, ["human", "online"], FIVE_PLUS_THREE)
    match = created.match
    assert match.clock_seat() is None and match.deadline() is None
    fake.advance(1000)  # nobody came yet: no one's time runs
    service.join(match)
    assert match.clock_seat() == 0
    assert match.deadline() == fake.now + 300


def test_a_move_costs_its_time_and_earns_the_increment(tmp_path: Path) -> None:
    fake = FakeClock(START)
    service = service_on(tmp_path, fake)
    match = started(service, "stairs", FIVE_PLUS_THREE)
    fake.advance(10)
    service.move(match, 0, first_move(match))
    assert match.clock is not None
    assert match.clock.remaining_ms == [293_000, 300_000]
    assert match.clock.running == 1
    fake.advance(4.5)
    view = match.view(1, connected=set(), thinking=False, now=fake.now)
    assert view["clock"]["remaining_ms"] == [293_000, 295_500]
    assert view["clock"]["running"] == 1 and view["clock"]["increment_ms"] == 3000
    assert view["time_control"] == {"kind": "realtime", "minutes": 5.0, "increment": 3}


def test_a_two_player_game_is_lost_when_the_time_runs_out(tmp_path: Path) -> None:
    fake = FakeClock(START)
    service = service_on(tmp_path, fake)
    match = started(service, "stairs", TimeControl(REALTIME, minutes=1))
    fake.advance(59.999)
    assert service.keep_time(match) is False and not match.over
    fake.advance(0.001)
    assert service.keep_time(match) is True
    result = match.result()
    assert result is not None and result["winners"] == [1]
    assert result["reason_id"] == "{name} runs out of time"
    assert match.record(None)["time_control"] == {
        "kind": "realtime",
        "minutes": 1.0,
        "increment": 0,
    }
    assert service.keep_time(match) is False  # over: nothing more to do


def test_in_a_game_of_three_the_flagged_seat_goes_to_the_computer_and_play_goes_on(
    tmp_path: Path,
) -> None:
    fake = FakeClock(START)
    service = service_on(tmp_path, fake)
    match = started(service, "ishigaki_race", TimeControl(REALTIME, minutes=1), seats=3)
    runner = match.clock_seat()
    assert runner is not None
    fake.advance(60)
    assert service.keep_time(match) is True
    assert not match.over and runner in match.left
    assert match.seats[runner].kind == COMPUTER and match.seats[runner].player == "medium"


def test_correspondence_gives_each_move_its_days(tmp_path: Path) -> None:
    fake = FakeClock(START)
    service = service_on(tmp_path, fake)
    match = started(service, "stairs", TimeControl("correspondence", days=2))
    assert match.deadline() == fake.now + 2 * 86_400
    fake.advance(86_400)
    service.move(match, 0, first_move(match))
    assert match.clock_seat() == 1 and match.deadline() == fake.now + 2 * 86_400
    view = match.view(0, connected=set(), thinking=False, now=fake.now)
    assert view["clock"]["deadline_ms"] == round((fake.now + 2 * 86_400) * 1000)
    fake.advance(2 * 86_400)
    assert service.keep_time(match) is True
    result = match.result()
    assert result is not None and result["winners"] == [0]


def test_the_computers_thinking_and_the_dice_run_no_clock(tmp_path: Path) -> None:
    fake = FakeClock(START)
    service = service_on(tmp_path, fake)
    control = TimeControl(REALTIME, minutes=1)
    created = service.create("ishigaki_race", {}, ["human", "computer:random"], control)
    match = created.match
    while match.to_act() == 0:  # the person plays their whole turn, taking 5 s a decision
        fake.advance(5)
        service.move(match, 0, first_move(match))
    assert match.clock is not None
    spent = match.clock.remaining_ms[0]
    assert match.clock_seat() is None  # the computer to act (or the dice): no clock runs
    fake.advance(10_000)
    assert service.keep_time(match) is False
    seat = match.computer_to_act()
    assert seat is not None
    service.computer_move(match, seat.seat, first_move(match))
    assert match.clock.remaining_ms == [spent, 60_000]


def test_a_takeback_nobody_answers_lapses_after_a_minute_in_real_time(tmp_path: Path) -> None:
    fake = FakeClock(START)
    service = service_on(tmp_path, fake)
    match = started(service, "stairs", TimeControl(REALTIME, minutes=10))
    service.move(match, 0, first_move(match))
    service.ask_takeback(match, 0)
    assert service.due(match) == fake.now + OFFER_SECONDS
    fake.advance(OFFER_SECONDS - 1)
    assert service.keep_time(match) is False and match.takeback == 0
    fake.advance(1)
    assert service.keep_time(match) is True
    assert match.takeback is None and match.open_offer() is None and not match.over
    told = match.view(0, connected=set(), thinking=False, now=fake.now)["takeback_outcome"]
    assert told == {"by": 0, "outcome": "lapsed"}


def test_clocks_replay_the_same_from_the_database(tmp_path: Path) -> None:
    fake = FakeClock(START)
    service = service_on(tmp_path, fake)
    match = started(service, "stairs", FIVE_PLUS_THREE)
    fake.advance(12.25)
    service.move(match, 0, first_move(match))
    fake.advance(3)
    service.move(match, 1, first_move(match))
    service.forget(match.id)
    again = service.get(match.id)
    assert again.clock is not None and match.clock is not None
    assert again.clock.remaining_ms == match.clock.remaining_ms == [290_750, 300_000]
    assert again.deadline() == match.deadline()


# ----- clocks enforced where the move is accepted (issue 48) ---------------------------


def test_a_move_received_after_the_deadline_is_refused_and_flags_the_mover(
    tmp_path: Path,
) -> None:
    fake = FakeClock(START)
    service = service_on(tmp_path, fake)
    match = started(service, "stairs", TimeControl(REALTIME, minutes=1))
    fake.advance(60.2)  # the referee has not come to it: the loop was busy
    with pytest.raises(ServerError) as refused:
        asyncio.run(service.move_async(match, 0, first_move(match), received=START + 60.1))
    assert refused.value.status == 409
    assert refused.value.code == "flagged"
    result = match.result()
    assert result is not None and result["winners"] == [1]
    assert match.state.move_number() == 0  # the move was not played


def test_a_move_received_in_time_counts_from_its_arrival_however_late_it_is_played(
    tmp_path: Path,
) -> None:
    fake = FakeClock(START)
    service = service_on(tmp_path, fake)
    match = started(service, "stairs", TimeControl(REALTIME, minutes=1))
    fake.advance(62)  # the server came to the move after the deadline ...
    received = START + 59.5  # ... but it arrived half a second before it
    asyncio.run(service.move_async(match, 0, first_move(match), received=received))
    assert not match.over and match.clock is not None
    assert match.clock.remaining_ms == [500, 60_000]
    assert match.last_at == received


def test_a_late_move_over_the_websocket_is_refused_and_the_game_flagged(tmp_path: Path) -> None:
    fake = FakeClock(START)
    with running(tmp_path, wall_clock=fake) as client:
        match, light, dark = timed_online_match(client, ONE_MINUTE)
        first_moves(client, match, light, dark)
        with connect(client, f"/ws/matches/{match}?token={light}") as ws:
            view = receive_until(ws, lambda m: m["type"] == "state")
            move = view["legal"][0] if view.get("legal") else None
            fake.advance(61)  # the referee's timer has not fired: only the move handler sees
            ws.send_json({"type": "move", "move": move or "a1", "event": view["event"]})
            answers: dict[str, dict[str, Any]] = {}  # the flagged view, then the refusal
            while len(answers) < 2:
                message = ws.receive_json()
                if message["type"] in ("state", "error"):
                    answers[message["type"]] = message
        error, flagged = answers["error"], answers["state"]
        assert error["error"]["code"] == "flagged"
        assert flagged["result"]["winners"] == [1]


# ----- the running server: the referee, restarts, the API ----------------------------


ONE_MINUTE = {"kind": "realtime", "minutes": 1, "increment": 0}


def first_moves(client: Any, match: str, *tokens: str) -> None:
    """Each seat (by its token, in turn) makes its first move: a person who never made one
    is not flagged, their game is aborted (issue 51: tests/test_server_seeks.py)."""
    for token in tokens:
        with connect(client, f"/ws/matches/{match}?token={token}") as ws:
            view = receive_until(ws, lambda m: m["type"] == "state")
            ws.send_json({"type": "move", "move": view["legal"][0], "event": view["event"]})
            receive_until(ws, lambda m, seen=view["event"]: m.get("event", -1) > seen)


def timed_online_match(client: Any, control: dict[str, Any]) -> tuple[str, str, str]:
    response = client.post(
        "/api/matches",
        json={"game": "stairs", "seats": ["human", "online"], "time_control": control},
    )
    assert response.status_code == 200, response.text
    created = response.json()
    joined = client.post(f"/api/matches/{created['match']}/join", headers=JSON).json()
    return created["match"], token_of(created, 0), joined["token"]


def test_the_referee_flags_at_the_deadline_with_nobody_connected(tmp_path: Path) -> None:
    fake = FakeClock(START)
    with running(tmp_path, wall_clock=fake) as client:
        match, light, dark = timed_online_match(client, ONE_MINUTE)
        first_moves(client, match, light, dark)
        referee = client.app.state.referee  # type: ignore[attr-defined]
        fake.advance(61)
        assert client.portal.call(referee.check) == 1  # type: ignore[union-attr]
        with connect(client, f"/ws/matches/{match}?token={dark}") as ws:
            view = receive_until(ws, lambda m: m["type"] == "state")
        assert view["result"]["winners"] == [1]
        assert view["clock"]["remaining_ms"][0] == 0 and view["clock"]["running"] is None


def test_a_restart_gives_back_the_time_the_server_was_down(tmp_path: Path) -> None:
    fake = FakeClock(START)
    with running(tmp_path, wall_clock=fake) as client:
        five = {"kind": "realtime", "minutes": 5, "increment": 0}
        match, light, dark = timed_online_match(client, five)
        first_moves(client, match, light, dark)
        fake.advance(100)  # light thinks 100 s, then the server stops
    fake.advance(3600)  # an hour down
    with running(tmp_path, wall_clock=fake) as client:
        view = seat_get(client, f"/api/matches/{match}?token={light}").json()
        assert view["result"] is None
        assert view["clock"]["remaining_ms"][0] == 200_000  # the hour given back
        referee = client.app.state.referee  # type: ignore[attr-defined]
        fake.advance(199)
        assert client.portal.call(referee.check) == 0  # type: ignore[union-attr]
        fake.advance(1)
        assert client.portal.call(referee.check) == 1  # type: ignore[union-attr]
        view = seat_get(client, f"/api/matches/{match}?token={light}").json()
        assert view["result"]["winners"] == [1]
    engine = make_engine(default_database_url(tmp_path))
    assert match not in ClockStore(engine).open_timed_matches()  # ended: not taken up again


def test_a_request_with_a_bad_time_control_makes_no_match(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        response = client.post(
            "/api/matches",
            json={"game": "stairs", "seats": ["human", "online"], "time_control": {"kind": "x"}},
        )
        assert response.status_code == 400
        assert response.json()["error"]["code"] == "time_control_kind"
        untimed = client.post("/api/matches", json={"game": "stairs", "seats": ["human", "human"]})
        view = client.get(f"/api/matches/{untimed.json()['match']}").json()
        assert view["clock"] is None and view["time_control"] == {"kind": "none"}


def test_the_game_default_fills_a_real_time_control_left_open(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        response = client.post(
            "/api/matches",
            json={
                "game": "ishigaki_race",
                "seats": ["human", "online"],
                "time_control": {"kind": "realtime"},
            },
        )
        view = client.get(f"/api/matches/{response.json()['match']}").json()
        assert view["time_control"] == {"kind": "realtime", "minutes": 3.0, "increment": 5}


def test_a_rated_game_lost_on_time_rates_it_a_loss(tmp_path: Path) -> None:
    """Issue 29: an abandoned game (its player let the clock run out) counts as a loss."""
    from stairgames.server.people.players import COOKIE

    fake = FakeClock(START)
    with running(tmp_path, wall_clock=fake) as client:
        players = client.app.state.players  # type: ignore[attr-defined]
        heads = {}
        for name in ("Ann", "Bob"):
            made, secret = players.create(name)
            heads[name] = ({**JSON, "cookie": f"{COOKIE}={secret}"}, made.id)
        body = {
            "game": "stairs",
            "options": {"size": 4},
            "seats": ["human", "online"],
            "rated": True,
            "time_control": ONE_MINUTE,
        }
        made = client.post("/api/challenges", json=body, headers=heads["Ann"][0]).json()
        accepted = client.post(
            f"/api/challenges/{made['challenge']}/accept", headers=heads["Bob"][0]
        )
        assert accepted.status_code == 200, accepted.text
        first_moves(client, made["match"], made["seats"][0]["token"], accepted.json()["token"])
        fake.advance(60)  # Ann (light) never moves again
        referee = client.app.state.referee  # type: ignore[attr-defined]
        assert client.portal.call(referee.check) == 1  # type: ignore[union-attr]
        ratings = client.app.state.ratings  # type: ignore[attr-defined]
        pool = "stairs size=4"
        ann, bob = (ratings.ratings_of(heads[name][1])[pool] for name in ("Ann", "Bob"))
        assert ann.games == bob.games == 1 and bob.mu > ann.mu
