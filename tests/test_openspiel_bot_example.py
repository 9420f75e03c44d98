"""examples/openspiel_bot.py: OpenSpiel's MCTSBot chooses legal moves for a seat from
what the seat knows, in every game (issue 53). The example is imported and its chooser
run for a few moves of each game, each time on the state rebuilt from the seat's view as
a game stream sends it (``history`` as the seat knows it), as the bot does on a server."""

from __future__ import annotations

import dataclasses
import importlib.util
import random
from pathlib import Path
from types import ModuleType

import pytest

import stairgames
from stairgames.bot_client import seat_state

pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install stairgames[rl])")

ROOT = Path(stairgames.__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "openspiel_bot.py"
MOVES = 4
"""The moves each seat's chooser makes in each game."""


def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("openspiel_bot", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", stairgames.game_names())
def test_the_mcts_bot_chooses_legal_moves_from_the_seat_view(name: str) -> None:
    choose = example().mcts_chooser(simulations=10)
    rng = random.Random(5)
    state = stairgames.load(name).new_initial_state()
    options = dataclasses.asdict(state.get_game().options)
    chosen = 0
    while chosen < MOVES and not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        seat = state.current_player()
        view = {
            "game": name,
            "options": options,
            "you": seat,
            "history": state.history_strings(seat),
        }
        known = seat_state(view, rng)
        action = choose(known, seat, rng)
        assert action in known.legal_actions()
        move = known.action_to_string(action)
        assert move in [state.action_to_string(a) for a in state.legal_actions()]
        state.apply_move(move)
        chosen += 1
    assert chosen == MOVES
