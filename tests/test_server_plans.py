"""Planned replies in correspondence (issue 54): stored, checked, played by the server the
moment the opponent's move matches, cancelled on any other, and seen by nobody else."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from stairgames.server.people.players import COOKIE
from stairgames.server.play.plans import MOST_LINES
from tests.server_helpers import JSON, FakeClock, connect, receive_until, running, seat_get

ONE_DAY = {"kind": "correspondence", "days": 1}


def _player(client: Any, name: str) -> dict[str, str]:
    _made, secret = client.app.state.players.create(name)
    return {**JSON, "cookie": f"{COOKIE}={secret}"}


def _game(
    client: Any, ann: dict[str, str], bob: dict[str, str], control: Any = ONE_DAY
) -> tuple[str, str, str]:
    """A game of stairs of Ann (light) and Bob, each past a first move: Ann to move. The
    match and each seat's token."""
    body = {"game": "stairs", "seats": ["human", "online"], "time_control": control}
    made = client.post("/api/matches", json=body, headers=ann)
    assert made.status_code == 200, made.text
    match = str(made.json()["match"])
    joined = client.post(f"/api/matches/{match}/join", headers=bob)
    tokens = (str(made.json()["seats"][0]["token"]), str(joined.json()["token"]))
    for token in tokens:
        _move(client, match, token, None)
    return match, *tokens


def _move(client: Any, match: str, token: str, move: str | None) -> dict[str, Any]:
    """Play ``move`` (``None``: the first legal) by ``token``'s seat; the view after."""
    with connect(client, f"/ws/matches/{match}?token={token}") as ws:
        view = receive_until(ws, lambda m: m["type"] == "state")
        played = view["legal"][0] if move is None else move
        ws.send_json({"type": "move", "move": played, "event": view["event"]})
        return receive_until(ws, lambda m, seen=view["event"]: m.get("event", -1) > seen)


def _lines(client: Any, match: str, *moves: int) -> list[str]:
    """A line from the match's position: the ``moves``-th legal move of whoever is to
    move, each in turn."""
    state = client.app.state.hub.service.get(match).state.clone()
    line = []
    for index in moves:
        action = state.legal_actions()[index]
        line.append(state.action_to_string(action))
        state.apply_action(action)
    return line


def _plans(client: Any, match: str, headers: dict[str, str], **request: Any) -> Any:
    url = f"/api/matches/{match}/plans"
    if "lines" in request:
        return client.put(url, json=request, headers=headers)
    if request.get("delete"):
        return client.delete(url, headers=headers)
    return client.get(url, headers=headers)


def _kept(answer: dict[str, Any]) -> dict[str, Any]:
    """The plans an answer says are kept (its lines and ply)."""
    return {"lines": answer["lines"], "ply": answer["ply"]}


def _history(client: Any, match: str, headers: dict[str, str]) -> list[str]:
    view = seat_get(client, f"/api/matches/{match}", headers=headers).json()
    history: list[str] = view["history"]
    return history


def test_a_planned_reply_is_played_at_once_and_what_follows_is_kept(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        ann, bob = _player(client, "Ann"), _player(client, "Bob")
        match, light, _dark = _game(client, ann, bob)
        deep = _lines(client, match, 0, 0, 1, 1)
        other = _lines(client, match, 2, 0)
        stored = _plans(client, match, bob, lines=[deep, other])
        assert stored.status_code == 200, stored.text
        assert _kept(stored.json()) == {"lines": [deep, other], "ply": 2}
        assert _plans(client, match, bob).json()["lines"] == [deep, other]
        after = _move(client, match, light, deep[0])
        assert after["history"][-2:] == deep[:2]  # Bob's reply, at once, in the same view
        assert after["to_act"] == 0 and after["last_mover"] == 1
        assert _kept(_plans(client, match, bob).json()) == {"lines": [deep[2:]], "ply": 4}
        _move(client, match, light, deep[2])
        assert _history(client, match, bob)[-4:] == deep
        assert _kept(_plans(client, match, bob).json()) == {"lines": [], "ply": None}


def test_any_other_move_cancels_the_plans(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        ann, bob = _player(client, "Ann"), _player(client, "Bob")
        match, light, _dark = _game(client, ann, bob)
        planned = _lines(client, match, 0, 0)
        assert _plans(client, match, bob, lines=[planned]).status_code == 200
        unplanned = _lines(client, match, 1)[0]
        after = _move(client, match, light, unplanned)
        assert after["to_act"] == 1 and after["history"][-1] == unplanned
        assert _plans(client, match, bob).json()["lines"] == []


def test_plans_are_seen_by_nobody_else(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        ann, bob = _player(client, "Ann"), _player(client, "Bob")
        match, light, _dark = _game(client, ann, bob)

        def seen() -> list[Any]:
            views = [
                seat_get(client, f"/api/matches/{match}", headers=who).json() for who in (ann, {})
            ]
            for view in views:
                view["clock"].pop("now_ms")
            record = seat_get(client, f"/api/matches/{match}/record", headers=ann).json()
            replay = seat_get(client, f"/api/matches/{match}/replay", headers=ann).json()
            return [*views, record, replay]

        with connect(client, f"/ws/matches/{match}?token={light}") as ws:
            receive_until(ws, lambda m: m["type"] == "state")
            before = seen()
            planned = _lines(client, match, 0, 0)
            assert _plans(client, match, bob, lines=[planned]).status_code == 200
            assert seen() == before
            ws.send_json({"type": "sync"})
            told = receive_until(ws, lambda m: m["type"] in ("state", "error"))
        assert told["type"] == "state" and told["event"] == before[0]["event"]
        assert "plans" not in told and "plans" not in before[0]
        assert _plans(client, match, ann).json()["lines"] == []  # Ann's own: none
        assert _plans(client, match, {}).status_code == 403  # a spectator
        cy = _player(client, "Cy")  # a player holding no seat here
        assert _plans(client, match, cy).status_code == 403
        assert _plans(client, match, cy, lines=[planned]).status_code == 403
        assert _plans(client, match, cy, delete=True).status_code == 403
        assert _plans(client, match, bob).json()["lines"] == [planned]  # Bob's, untouched


@pytest.mark.parametrize(
    ("lines", "code"),
    [
        ([["x"]] * (MOST_LINES + 1), "too_many_plan_lines"),
        ([["b1-b2"]], "bad_plan_line"),
        ([[1, 2]], "bad_plan_line"),
        (["b1-b2"], "bad_plan_line"),
        ([["zz", "zz"]], "illegal_plan_move"),
    ],
)
def test_bad_lines_are_refused_and_nothing_is_stored(
    tmp_path: Path, lines: list[Any], code: str
) -> None:
    with running(tmp_path) as client:
        ann, bob = _player(client, "Ann"), _player(client, "Bob")
        match, _light, _dark = _game(client, ann, bob)
        good = _lines(client, match, 0, 0)
        assert _plans(client, match, bob, lines=[good]).status_code == 200
        refused = _plans(client, match, bob, lines=lines)
        assert refused.status_code == 400, refused.text
        assert refused.json()["error"]["code"] == code
        assert _plans(client, match, bob).json()["lines"] == [good]  # as they were


def test_lines_checked_against_the_position(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        ann, bob = _player(client, "Ann"), _player(client, "Bob")
        match, _light, _dark = _game(client, ann, bob)
        first = _lines(client, match, 0, 0)
        differently = [first[0], _lines(client, match, 0, 1)[1]]
        refused = _plans(client, match, bob, lines=[first, differently])
        assert refused.json()["error"]["code"] == "plan_two_replies"
        mine_first = [first[1], first[0]]  # Bob's move where Ann's comes
        refused = _plans(client, match, bob, lines=[mine_first])
        assert refused.json()["error"]["code"] == "illegal_plan_move"
        refused = _plans(client, match, ann, lines=[first])  # Ann is to move herself
        assert refused.status_code == 409
        assert refused.json()["error"]["code"] == "plans_not_now"
        assert _plans(client, match, bob).json()["lines"] == []
        assert _plans(client, match, bob, delete=True).json()["lines"] == []


def test_plans_only_in_correspondence_games_of_two_going_on(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        ann, bob = _player(client, "Ann"), _player(client, "Bob")
        quick, _light, _dark = _game(client, ann, bob, {"kind": "realtime", "minutes": 5})
        refused = _plans(client, match=quick, headers=bob, lines=[["a", "b"]])
        assert refused.json()["error"]["code"] == "plans_need_correspondence"
        body = {
            "game": "ishigaki_race",
            "options": {"players": 3},
            "seats": ["human", "online", "online"],
            "time_control": ONE_DAY,
        }
        three = client.post("/api/matches", json=body, headers=ann).json()["match"]
        refused = _plans(client, three, ann, lines=[["a", "b"]])
        assert refused.json()["error"]["code"] == "plans_need_two_players"
        match, light, _dark = _game(client, ann, bob)
        with connect(client, f"/ws/matches/{match}?token={light}") as ws:
            view = receive_until(ws, lambda m: m["type"] == "state")
            ws.send_json({"type": "resign", "event": view["event"]})
            receive_until(ws, lambda m: m.get("result") is not None)
        refused = _plans(client, match, bob, lines=[["a", "b"]])
        assert refused.json()["error"]["code"] == "game_over"


def test_plans_are_rate_limited(tmp_path: Path) -> None:
    with running(tmp_path, clock=FakeClock()) as client:
        ann, bob = _player(client, "Ann"), _player(client, "Bob")
        match, _light, _dark = _game(client, ann, bob)
        answers = [_plans(client, match, bob).status_code for _ in range(25)]
        assert answers[0] == 200 and answers[-1] == 429


def test_a_takeback_drops_the_plans_even_when_as_many_moves_are_made_again(
    tmp_path: Path,
) -> None:
    with running(tmp_path) as client:
        ann, bob = _player(client, "Ann"), _player(client, "Bob")
        match, light, dark = _game(client, ann, bob)
        planned = _lines(client, match, 0, 0)
        assert _plans(client, match, bob, lines=[planned]).status_code == 200
        with connect(client, f"/ws/matches/{match}?token={dark}") as ws:
            view = receive_until(ws, lambda m: m["type"] == "state")
            ws.send_json({"type": "takeback", "event": view["event"]})
            receive_until(ws, lambda m: m.get("takeback") is not None)
        with connect(client, f"/ws/matches/{match}?token={light}") as ws:
            view = receive_until(ws, lambda m: m["type"] == "state")
            ws.send_json({"type": "takeback_answer", "accept": True, "event": view["event"]})
            receive_until(ws, lambda m: m["type"] == "state" and m["to_act"] == 1)
        other = _lines(client, match, 1)[0]  # Bob plays another move in its place
        _move(client, match, dark, other)
        assert _kept(_plans(client, match, bob).json()) == {"lines": [], "ply": None}


def test_the_replies_to_pick_from_are_the_seats_own_moves_after_each_of_the_opponents(
    tmp_path: Path,
) -> None:
    with running(tmp_path) as client:
        ann, bob = _player(client, "Ann"), _player(client, "Bob")
        match, _light, _dark = _game(client, ann, bob)
        state = client.app.state.hub.service.get(match).state  # type: ignore[attr-defined]
        expected = {}
        for action in state.legal_actions():
            after = state.clone()
            after.apply_action(action)
            replies = [after.action_to_string(a) for a in after.legal_actions()]
            expected[state.action_to_string(action)] = replies
        assert _plans(client, match, bob).json()["choices"] == expected
        assert _plans(client, match, ann).json()["choices"] == {}  # Ann is to move
