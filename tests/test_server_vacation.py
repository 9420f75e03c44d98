"""Vacation (issue 54): a player away holds every correspondence clock of theirs, spends
their bank of days to the second, and the server starts it by itself near a deadline
unless they turned that off. Real-time games never stop. Every clock here is a fake one
the test moves by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from stairgames.server.people.players import COOKIE
from stairgames.server.people.vacation import DAY, Vacation, grown
from stairgames.server.play.clocks import CORRESPONDENCE, REALTIME, Clock, TimeControl
from stairgames.server.play.vacation import AUTO_BEFORE, VACATION_ROUTE
from tests.server_helpers import JSON, FakeClock, connect, receive_until, running, seat_get

START = 1_800_000_000.0
ONE_DAY = {"kind": "correspondence", "days": 1}
ONE_MINUTE = {"kind": "realtime", "minutes": 1, "increment": 0}


# ----- the clock ----------------------------------------------------------------------


def test_a_correspondence_clock_is_held_while_its_seat_is_away() -> None:
    clock = Clock(TimeControl(CORRESPONDENCE, days=1), 2)
    clock.run(0, START)
    clock.away(0, START + 3600, START + 3 * DAY)
    assert clock.deadline() == START + DAY + 3 * DAY - 3600
    clock.back(0, START + DAY)  # back sooner: the time away stays given
    assert clock.deadline() == START + DAY + DAY - 3600
    assert clock.away_until(START + DAY) == {}


def test_a_vacation_starting_after_the_deadline_gives_nothing_back() -> None:
    clock = Clock(TimeControl(CORRESPONDENCE, days=1), 2)
    clock.run(0, START)
    clock.away(0, START + DAY, START + 5 * DAY)
    assert clock.deadline() == START + DAY


def test_a_real_time_clock_is_never_held() -> None:
    clock = Clock(TimeControl(REALTIME, minutes=1), 2)
    clock.run(0, START)
    clock.away(0, START, START + DAY)
    assert clock.deadline() == START + 60 and clock.away_until(START) == {}


def test_the_bank_grows_to_its_cap() -> None:
    assert grown(0.0, 365 * DAY) == pytest.approx(30 * DAY)
    assert grown(20 * DAY, 10 * 365 * DAY) == 30 * DAY
    assert Vacation(DAY).json()["days_left"] == 1.0


# ----- the running server ----------------------------------------------------------------


def _player(client: Any, name: str) -> dict[str, str]:
    _made, secret = client.app.state.players.create(name)
    return {**JSON, "cookie": f"{COOKIE}={secret}"}


def _game(client: Any, ann: dict[str, str], bob: dict[str, str], control: Any) -> str:
    """A game of Ann (light) and Bob, each holding their seat, each past a first move:
    Ann to move."""
    return _game_and_token(client, ann, bob, control)[0]


def _game_and_token(
    client: Any, ann: dict[str, str], bob: dict[str, str], control: Any = ONE_DAY
) -> tuple[str, str]:
    """:func:`_game`, and Ann's seat's token."""
    body = {"game": "stairs", "seats": ["human", "online"], "time_control": control}
    made = client.post("/api/matches", json=body, headers=ann)
    assert made.status_code == 200, made.text
    match = str(made.json()["match"])
    joined = client.post(f"/api/matches/{match}/join", headers=bob)
    assert joined.status_code == 200, joined.text
    light = str(made.json()["seats"][0]["token"])
    for token in (light, joined.json()["token"]):
        _move(client, match, token)
    return match, light


def _move(client: Any, match: str, token: str) -> None:
    """The seat of ``token`` plays its first legal move."""
    with connect(client, f"/ws/matches/{match}?token={token}") as ws:
        view = receive_until(ws, lambda m: m["type"] == "state")
        ws.send_json({"type": "move", "move": view["legal"][0], "event": view["event"]})
        receive_until(ws, lambda m, seen=view["event"]: m.get("event", -1) > seen)


def _check(client: Any) -> int:
    """The referee's check now: how many clocks it flagged or held. Its own loop runs
    meanwhile and may flag a clock first (0 here, then): a test that expects a flag
    looks at the game's result, not at this count."""
    referee = client.app.state.referee
    changed: int = client.portal.call(referee.check)
    return changed


def _vacation(client: Any, headers: dict[str, str], **body: Any) -> dict[str, Any]:
    if body:
        answer = client.post(VACATION_ROUTE, json=body, headers=headers)
    else:
        answer = client.get(VACATION_ROUTE, headers=headers)
    assert answer.status_code == 200, answer.text
    told: dict[str, Any] = answer.json()
    return told


def _view(client: Any, match: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    view: dict[str, Any] = seat_get(client, f"/api/matches/{match}", headers=headers or {}).json()
    return view


def test_a_game_does_not_time_out_while_its_player_is_away(tmp_path: Path) -> None:
    fake = FakeClock(START)
    with running(tmp_path, wall_clock=fake) as client:
        ann, bob = _player(client, "Ann"), _player(client, "Bob")
        match = _game(client, ann, bob, ONE_DAY)
        before = _vacation(client, ann, automatic=False)["days_left"]  # by hand only
        fake.advance(3600)  # an hour of her turn, then she leaves
        away = _vacation(client, ann, action="start")
        assert away["away"]
        assert away["until_ms"] / 1000 == pytest.approx(fake.now + before * DAY, abs=0.01 * DAY)
        fake.advance(3 * DAY)
        assert _check(client) == 0
        view = _view(client, match, bob)  # the opponent sees until when
        assert view["result"] is None
        assert view["clock"]["away"] == [{"seat": 0, "until_ms": away["until_ms"]}]
        spectator = _view(client, match)
        assert spectator["clock"]["away"] == view["clock"]["away"]
        back = _vacation(client, ann, action="end")
        assert not back["away"]
        # her bank grew for the hour before she left, not while away; each figure is
        # shown to 0.01 day, so two of them differ from the truth by up to 0.01 between
        # them (how far the bank grew since her account was made, on the real clock,
        # decides where the rounding falls)
        hour = grown(0.0, 3600) / DAY
        assert back["days_left"] == pytest.approx(before - 3 + hour, abs=0.01 + 1e-9)
        assert "away" not in _view(client, match, bob)["clock"]
        fake.advance(DAY - 3600 - 1)  # the day of the turn, less the hour before she left
        assert _check(client) == 0
        fake.advance(2)
        _check(client)  # (or the referee's own loop did: the outcome below says)
        assert _view(client, match, bob)["result"]["winners"] == [1]


def test_the_clocks_run_again_when_the_bank_is_spent(tmp_path: Path) -> None:
    fake = FakeClock(START)
    with running(tmp_path, wall_clock=fake) as client:
        ann, bob = _player(client, "Ann"), _player(client, "Bob")
        match = _game(client, ann, bob, ONE_DAY)
        away = _vacation(client, ann, action="start", automatic=False)
        until = away["until_ms"] / 1000
        fake.now = until + 0.001  # (until_ms: to the millisecond)
        spent = _vacation(client, ann)
        assert not spent["away"] and spent["days_left"] == 0
        refused = client.post(VACATION_ROUTE, json={"action": "start"}, headers=ann)
        assert refused.status_code == 409
        assert refused.json()["error"]["code"] == "no_vacation_days"
        assert "away" not in _view(client, match, bob)["clock"]
        fake.now = until + DAY - 1
        assert _check(client) == 0
        fake.advance(2)
        _check(client)  # (or the referee's own loop did: the outcome below says)
        assert _view(client, match, bob)["result"]["winners"] == [1]


def test_a_real_time_game_keeps_running(tmp_path: Path) -> None:
    fake = FakeClock(START)
    with running(tmp_path, wall_clock=fake) as client:
        ann, bob = _player(client, "Ann"), _player(client, "Bob")
        quick = _game(client, ann, bob, ONE_MINUTE)
        slow = _game(client, ann, bob, ONE_DAY)
        _vacation(client, ann, action="start")
        assert "away" not in (_view(client, quick, bob)["clock"] or {})
        fake.advance(61)
        _check(client)  # (or the referee's own loop did: the outcome below says)
        assert _view(client, quick, bob)["result"]["winners"] == [1]
        assert _view(client, slow, bob)["result"] is None


def test_the_server_starts_a_vacation_near_a_deadline(tmp_path: Path) -> None:
    fake = FakeClock(START)
    with running(tmp_path, wall_clock=fake) as client:
        ann, bob = _player(client, "Ann"), _player(client, "Bob")
        match = _game(client, ann, bob, ONE_DAY)
        deadline = _view(client, match, bob)["clock"]["deadline_ms"] / 1000
        fake.now = deadline - AUTO_BEFORE - 1
        assert _check(client) == 0 and not _vacation(client, ann)["away"]
        fake.advance(1)
        _check(client)  # (or the referee's own loop did: the outcome below says)
        started = _vacation(client, ann)
        assert started["away"] and started["started_by_server"]
        fake.now = deadline + 2 * DAY
        assert _check(client) == 0
        assert _view(client, match, bob)["result"] is None


def test_a_vacation_the_server_started_ends_at_the_players_next_move(tmp_path: Path) -> None:
    fake = FakeClock(START)
    with running(tmp_path, wall_clock=fake) as client:
        ann, bob = _player(client, "Ann"), _player(client, "Bob")
        match, light = _game_and_token(client, ann, bob)
        other = _game(client, ann, bob, ONE_DAY)
        deadline = _view(client, match, bob)["clock"]["deadline_ms"] / 1000
        fake.now = deadline - AUTO_BEFORE
        assert _check(client) >= 1
        assert _vacation(client, ann)["started_by_server"]
        fake.advance(600)
        _move(client, match, light)
        client.portal.call(client.app.state.vacations.settled)  # type: ignore[union-attr,call-arg,attr-defined]
        assert not _vacation(client, ann)["away"]
        assert "away" not in _view(client, other, bob)["clock"]  # every game runs again


def test_a_player_who_turned_it_off_loses_on_time(tmp_path: Path) -> None:
    fake = FakeClock(START)
    with running(tmp_path, wall_clock=fake) as client:
        ann, bob = _player(client, "Ann"), _player(client, "Bob")
        match = _game(client, ann, bob, ONE_DAY)
        assert _vacation(client, ann, automatic=False)["automatic"] is False
        deadline = _view(client, match, bob)["clock"]["deadline_ms"] / 1000
        fake.now = deadline - AUTO_BEFORE
        _check(client)
        assert not _vacation(client, ann)["away"]
        fake.now = deadline
        _check(client)  # (or the referee's own loop did: the outcome below says)
        assert _view(client, match, bob)["result"]["winners"] == [1]


def test_a_restart_keeps_the_vacation(tmp_path: Path) -> None:
    fake = FakeClock(START)
    with running(tmp_path, wall_clock=fake) as client:
        ann, bob = _player(client, "Ann"), _player(client, "Bob")
        match = _game(client, ann, bob, ONE_DAY)
        away = _vacation(client, ann, action="start")
    fake.advance(5 * DAY)
    with running(tmp_path, wall_clock=fake) as client:
        assert _check(client) == 0
        assert _vacation(client, ann)["until_ms"] == away["until_ms"]
        view = _view(client, match, bob)
        assert view["result"] is None and view["clock"]["away"][0]["seat"] == 0


def test_a_game_begun_while_away_is_held_when_the_players_turn_comes(tmp_path: Path) -> None:
    fake = FakeClock(START)
    with running(tmp_path, wall_clock=fake) as client:
        ann, bob = _player(client, "Ann"), _player(client, "Bob")
        _vacation(client, ann, action="start")
        match = _game(client, ann, bob, ONE_DAY)  # she moved while away: allowed
        assert _view(client, match, bob)["clock"]["away"][0]["seat"] == 0
        fake.advance(3 * DAY)
        assert _check(client) == 0
        assert _vacation(client, ann)["away"]  # a move ends no vacation started by hand


def test_bad_vacation_requests_are_refused_and_change_nothing(tmp_path: Path) -> None:
    fake = FakeClock(START)
    with running(tmp_path, wall_clock=fake, clock=FakeClock()) as client:
        assert client.get(VACATION_ROUTE).status_code == 401  # no player
        ann = _player(client, "Ann")
        for body in ({}, {"action": "go"}, {"automatic": "no"}, {"action": 1}):
            refused = client.post(VACATION_ROUTE, json=body, headers=ann)
            assert refused.status_code == 400, body
            assert refused.json()["error"]["code"] == "bad_vacation"
        refused = client.post(VACATION_ROUTE, json={"action": "end"}, headers=ann)
        assert refused.json()["error"]["code"] == "not_on_vacation"
        assert not _vacation(client, ann)["away"]
        answers = [
            client.post(VACATION_ROUTE, json={"automatic": True}, headers=ann).status_code
            for _ in range(8)
        ]
        assert 429 in answers


def test_a_game_missed_when_the_vacation_began_is_held_before_its_deadline(
    tmp_path: Path,
) -> None:
    fake = FakeClock(START)
    with running(tmp_path, wall_clock=fake) as client:
        ann, bob = _player(client, "Ann"), _player(client, "Bob")
        match = _game(client, ann, bob, ONE_DAY)
        vacations = client.app.state.vacations  # type: ignore[attr-defined]
        # away, as a process that stopped before it held her games would leave her
        vacations.store.start(vacations.seats.holder(match, 0), fake.now)  # (not the loop's)
        assert "away" not in _view(client, match, bob)["clock"]
        deadline = _view(client, match, bob)["clock"]["deadline_ms"] / 1000
        fake.now = deadline - AUTO_BEFORE
        _check(client)  # (or the referee's own loop did: the outcome below says)
        assert _view(client, match, bob)["clock"]["away"][0]["seat"] == 0
        fake.now = deadline + DAY
        assert _check(client) == 0
