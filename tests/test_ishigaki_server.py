"""Ishigaki Race on the web server: 3 and 4 seats, people at one screen, a friend online
and computer levels, played to the end over the WebSocket."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest

import stairgames
from tests.server_helpers import JSON, connect, new_match, running, token_of


def choose(view: dict[str, Any]) -> str:
    """A person's decision: roll the second die on a low first die, stop otherwise."""
    return "roll" if view["board"]["dice"][0] <= 2 else "stop"


def next_settled_state(ws: Any, after: int) -> dict[str, Any]:
    """The first state past event ``after`` with no computer thinking."""
    for _ in range(200):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == "presence":  # who is connected changed: no view
            continue
        assert message["type"] == "state", message
        # a computer that gave no move leaves the match waiting: say why, not wait on
        assert message.get("computer_error") is None, message["computer_error"]
        if message["event"] > after and not message["thinking"]:
            return message
    raise AssertionError("the match did not move on")


def play_to_the_end(sockets: dict[int, Any], first: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Each seat held here sends its decision on its own socket when it is to act; the
    first socket watches. Returns the last state and the moves sent."""
    watcher = sockets[min(sockets)]
    view, sent = first, 0
    while view["result"] is None:
        seat = view["to_act"]
        if seat in sockets:
            move = choose(view)
            sockets[seat].send_json({"type": "move", "move": move, "event": view["event"]})
            sent += 1
        view = next_settled_state(watcher, view["event"])
        assert sent < 2000, "a game this long is not plausible"
    return view, sent


@pytest.mark.parametrize(
    ("seats", "options"),
    [
        (["human", "computer:easy", "online"], {"players": 3}),
        (["human", "human", "computer:medium", "online"], {"players": 4, "crumbling_wall": True}),
    ],
    ids=["3-seats", "4-seats"],
)
@pytest.mark.slow
def test_ishigaki_with_a_mix_of_seats_is_played_to_the_end(
    tmp_path: Path, seats: list[str], options: dict[str, Any]
) -> None:
    with running(tmp_path, messages_per_second=1000.0, message_burst=1000.0) as client:
        created = new_match(client, "ishigaki_race", seats, **options)
        match = created["match"]
        joined = client.post(f"/api/matches/{match}/join", headers=JSON).json()
        tokens = {s: token_of(created, s) for s, kind in enumerate(seats) if kind == "human"}
        tokens[joined["seat"]] = joined["token"]
        with contextlib.ExitStack() as stack:
            sockets = {
                seat: stack.enter_context(connect(client, f"/ws/matches/{match}?token={token}"))
                for seat, token in sorted(tokens.items())
            }
            first = next_settled_state(sockets[min(sockets)], -1)
            last, sent = play_to_the_end(sockets, first)
        record = client.get(f"/api/matches/{match}/record").json()
    assert sent > 0
    board = last["board"]
    assert board["phase"] == "over" and last["result"]["winners"] == [board["winner"]]
    assert board["ninjas"][board["winner"]]["step"] == board["goal"]
    assert any(move.startswith("die:") for move in last["history"])
    assert [n["seat"] for n in board["ninjas"]] == list(range(len(seats)))
    # the record, seed included once over, replays the game the server played
    game = stairgames.load("ishigaki_race", **record["options"])
    state = game.new_initial_state()
    for move in record["moves"]:
        state.apply_move(move)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (board["winner"],)


def test_the_games_listing_gives_the_seat_counts(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        games = {g["name"]: g for g in client.get("/api/games").json()}
    assert (games["ishigaki_race"]["min_players"], games["ishigaki_race"]["max_players"]) == (2, 4)
    assert games["ishigaki_race"]["web"] is True
    assert (games["stairs"]["min_players"], games["stairs"]["max_players"]) == (2, 2)
