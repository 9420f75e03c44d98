"""The moves a seat may queue while its opponent thinks (``Match.premoves``, issue 54's
premove): every move legal for it after some reply, each named once (issue 55: a move's
CPU), which holds because the games that offer premoves name an action alike in every
position."""

from __future__ import annotations

import random

import pytest

import stairgames
from stairgames.core.registry import game_names
from stairgames.server.base.store import EventRecord, MatchRecord, SeatRecord
from stairgames.server.play.match import Match


def premove_games() -> list[str]:
    """The games a match lists premoves in: two seats, no chance, no hidden cards."""
    found = []
    for name in game_names():
        game = stairgames.load(name)
        info = game.info()
        if game.num_players() == 2 and not info.chance and not info.hidden_information:
            found.append(name)
    return found


def test_there_are_games_with_premoves() -> None:
    assert premove_games()


@pytest.mark.parametrize("game", premove_games())
def test_an_action_is_named_alike_in_every_position(game: str) -> None:
    rng = random.Random(55)
    names: dict[int, set[str]] = {}
    for _ in range(6):
        state = stairgames.load(game).new_initial_state()
        while not state.is_terminal():
            seat = state.current_player()
            for action in state.legal_actions():
                names.setdefault(action, set()).add(state.action_to_string(action, seat))
            state.apply_action(rng.choice(state.legal_actions()))
    assert names
    assert {action: found for action, found in names.items() if len(found) > 1} == {}


def every_reply_move(match: Match, viewer: int) -> list[str]:
    """The premoves by their definition: each move legal for ``viewer`` after each reply,
    named in that position."""
    found = set()
    for action in match.state.legal_actions():
        after = match.state.clone()
        after.apply_action(action)
        if not after.is_terminal() and after.current_player() == viewer:
            found |= {after.action_to_string(mine, viewer) for mine in after.legal_actions()}
    return sorted(found)


@pytest.mark.parametrize("game", premove_games())
def test_the_premoves_are_every_move_legal_after_some_reply(game: str) -> None:
    rng = random.Random(54)
    state = stairgames.load(game).new_initial_state()
    events: list[EventRecord] = []
    seats = (SeatRecord(0, "human", None, None), SeatRecord(1, "human", None, None))
    checked = 0
    while not state.is_terminal() and len(events) < 30:
        action = rng.choice(state.legal_actions())
        move = {"move": state.action_to_string(action)}
        events.append(EventRecord(len(events) + 1, "move", state.current_player(), move))
        state.apply_action(action)
        match = Match(MatchRecord("m", game, {}, 1, None, seats, tuple(events)))
        to_act = match.to_act()
        if to_act is None:
            continue
        viewer = 1 - to_act
        assert match.premoves(viewer) == every_reply_move(match, viewer)
        assert match.premoves(to_act) == []  # its own turn: its legal moves, not these
        checked += 1
    assert checked
