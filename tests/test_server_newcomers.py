"""What new players ran into (issue 27), on the server: undo with nothing to take back, a
declined offer and a refused takeback said to the players, a resignation at a table of
three or more, a rematch offered rather than imposed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.server_helpers import (
    JSON,
    connect,
    error_reply,
    new_match,
    receive_until,
    running,
    seat_get,
    state_at_rest,
    token_of,
)


def test_undo_is_not_offered_before_a_person_at_this_screen_has_moved(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["computer:random", "human"])
        dark = token_of(created, 1)
        with connect(client, f"/ws/matches/{created['match']}?token={dark}") as ws:
            view = receive_until(ws, lambda m: m["type"] == "state" and m["to_act"] == 1)
            assert len(view["history"]) == 1  # the computer (light) moved first
            assert not view["can_undo"]
            ws.send_json({"type": "move", "move": view["legal"][0], "event": view["event"]})
            again = receive_until(ws, lambda m: m["type"] == "state" and m["to_act"] == 1)
            assert again["can_undo"]


def test_the_view_says_who_made_the_last_move_so_a_decline_is_told(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "human"], agreement=True)
        light, dark = token_of(created, 0), token_of(created, 1)
        with (
            connect(client, f"/ws/matches/{created['match']}?token={light}") as ws0,
            connect(client, f"/ws/matches/{created['match']}?token={dark}") as ws1,
        ):
            view = state_at_rest(ws0)
            state_at_rest(ws1)
            ws0.send_json({"type": "move", "move": view["legal"][0], "event": view["event"]})
            view = receive_until(ws1, lambda m: m["type"] == "state" and m["to_act"] == 1)
            assert "offer" in view["legal"]
            ws1.send_json({"type": "move", "move": "offer", "event": view["event"]})
            view = receive_until(ws0, lambda m: m["type"] == "state" and m["offer"])
            ws0.send_json({"type": "move", "move": "decline", "event": view["event"]})
            declined = receive_until(ws1, lambda m: m["type"] == "state" and not m["offer"])
    assert declined["last_move"] == "decline" and declined["last_mover"] == 0


def test_the_asker_of_a_takeback_is_told_it_was_refused(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "online"])
        match = created["match"]
        friend = client.post(f"/api/matches/{match}/join", headers=JSON).json()["token"]
        light = token_of(created, 0)
        with (
            connect(client, f"/ws/matches/{match}?token={light}") as ws0,
            connect(client, f"/ws/matches/{match}?token={friend}") as ws1,
        ):
            view = state_at_rest(ws0)
            state_at_rest(ws1)
            ws0.send_json({"type": "move", "move": view["legal"][0], "event": view["event"]})
            moved = receive_until(ws0, lambda m: m["type"] == "state" and m["history"])
            assert moved["takeback_refused"] is None
            ws0.send_json({"type": "takeback", "event": moved["event"]})
            asked = receive_until(ws0, lambda m: m["type"] == "state" and m["takeback"])
            assert asked["takeback"] == {"by": 0}
            ws1.send_json({"type": "takeback_answer", "accept": False, "event": asked["event"]})
            refused = receive_until(
                ws0, lambda m: m["type"] == "state" and m["event"] > asked["event"]
            )
            assert refused["takeback"] is None and refused["takeback_refused"] == {"by": 0}


def ishigaki_table(client: Any) -> tuple[dict[str, Any], str, str]:
    created = new_match(client, "ishigaki_race", ["human", "online", "computer:easy"], players=3)
    friend = client.post(f"/api/matches/{created['match']}/join", headers=JSON).json()["token"]
    return created, token_of(created, 0), friend


def test_a_resignation_at_a_table_of_three_leaves_a_computer_and_the_game_goes_on(
    tmp_path: Path,
) -> None:
    with running(tmp_path) as client:
        created, red, blue = ishigaki_table(client)
        match = created["match"]
        with connect(client, f"/ws/matches/{match}?token={red}") as ws:
            view = state_at_rest(ws)
            ws.send_json({"type": "resign", "event": view["event"]})
            left = receive_until(ws, lambda m: m["type"] == "state" and m["left"])
            assert left["result"] is None and left["left"] == [0]
            assert left["you"] is None  # the one who left watches
            assert left["seats"][0]["kind"] == "computer"
            assert left["seats"][0]["level"] == "easy"  # the table's computers' level
            ws.send_json({"type": "resign"})
            assert error_reply(ws)["error"]["code"] == "resigned"
        friend = seat_get(client, f"/api/matches/{match}?token={blue}").json()
        assert friend["you"] == 1 and friend["left"] == [0] and friend["result"] is None
    # the event log replays the same after a restart
    with running(tmp_path) as client:
        again = seat_get(client, f"/api/matches/{match}?token={blue}").json()
        assert again["left"] == [0] and again["seats"][0]["kind"] == "computer"
        assert again["seats"][0]["level"] == "easy" and again["result"] is None


@pytest.mark.slow
def test_a_resignation_with_two_seats_still_ends_the_game(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "ishigaki_race", ["human", "online"])
        friend = client.post(f"/api/matches/{created['match']}/join", headers=JSON).json()
        with connect(client, f"/ws/matches/{created['match']}?token={friend['token']}") as ws:
            view = state_at_rest(ws)
            ws.send_json({"type": "resign", "event": view["event"]})
            over = receive_until(ws, lambda m: m["type"] == "state" and m["result"])
    assert over["result"]["winners"] == [0] and over["left"] == []


def test_a_rematch_is_offered_and_made_once_every_person_accepts(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "online"])
        match = created["match"]
        friend = client.post(f"/api/matches/{match}/join", headers=JSON).json()["token"]
        light = token_of(created, 0)
        with (
            connect(client, f"/ws/matches/{match}?token={light}") as ws0,
            connect(client, f"/ws/matches/{match}?token={friend}") as ws1,
            connect(client, f"/ws/matches/{match}") as watcher,
        ):
            view = state_at_rest(ws0)
            ws0.send_json({"type": "resign", "event": view["event"]})
            over = receive_until(ws1, lambda m: m["type"] == "state" and m["result"])
            ws0.send_json({"type": "rematch"})
            offered = receive_until(ws1, lambda m: m["type"] == "state" and m["rematch_asked"])
            assert offered["rematch_asked"] == [0] and offered["rematch"] is None
            ws1.send_json({"type": "rematch_decline"})
            declined = receive_until(
                ws0, lambda m: m["type"] == "state" and m["event"] > offered["event"]
            )
            assert declined["rematch_asked"] == [] and declined["rematch"] is None
            ws0.send_json({"type": "rematch"})
            receive_until(ws1, lambda m: m["type"] == "state" and m["rematch_asked"] == [0])
            ws1.send_json({"type": "rematch"})
            made = receive_until(watcher, lambda m: m["type"] == "state" and m["rematch"])
        assert over["event"] < made["event"]
        assert made["rematch_asked"] == [0, 1]
        again = made["rematch"]
        assert seat_get(client, f"/api/matches/{again}?token={light}").json()["you"] == 1
        assert seat_get(client, f"/api/matches/{again}?token={friend}").json()["you"] == 0


def test_the_stairs_view_says_why_each_piece_of_the_mover_cannot_move() -> None:
    import stairgames
    from stairgames.games.stairs.view.board import board_view

    state = stairgames.load("stairs").new_initial_state()
    assert board_view(state, None)["stuck"] == {}  # every light piece may move
    for move in ("b1-c2", "f2-e2"):
        state.apply_move(move)
    stuck = board_view(state, None)["stuck"]
    assert stuck["c2"]["id"].startswith("no stack next to {square} is {height} high")
    assert stuck["c2"]["args"] == {"square": "c2", "height": 2}
    state = stairgames.load("stairs").new_initial_state()
    for move in ("b1-b2", "a1-a2"):
        state.apply_move(move)
    # b2 (light, height 2) could climb onto a2, but a lower light piece can move: S3,
    # in the words of the engine's refusal of that move
    assert board_view(state, None)["stuck"] == {
        "b2": {
            "id": "you must move one of your lowest movable pieces (height {lowest}), "
            "not the one at height {height}",
            "args": {"lowest": 1, "height": 2},
        }
    }


def test_the_twenty_seven_view_says_why_a_field_cannot_move() -> None:
    import stairgames
    from stairgames.games.twenty_seven.view.board import board_view

    state = stairgames.load("twenty_seven").new_initial_state()
    for move in ("0:1", "8:1", "0:2", "7:1", "2:1", "8:1"):
        state.apply_move(move)
    stuck = board_view(state, None)["stuck"]
    assert list(stuck) == ["5"]
    assert stuck["5"]["id"].endswith("which would pass the end of the line (T3)")
    assert stuck["5"]["args"] == {"colour": {"id": "white"}, "distance": 4}
