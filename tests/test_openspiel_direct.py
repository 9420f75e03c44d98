"""Issue 56: OpenSpiel's ``MCTSBot`` searches our engine directly
(``stairgames.interop.openspiel_direct``), without pyspiel's round trip, and plays the
very same searches as through the pyspiel bridge: with the same seeds, the same
simulations and the same moves, in every game (chance included)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")

from open_spiel.python.algorithms import mcts

from stairgames.bench.players_openspiel import bot_move, load_for_play
from stairgames.interop import openspiel as bridge
from stairgames.interop.openspiel_direct import DirectState, direct_game


def searched(game: object, plies: int, seed: int) -> list[tuple[int, int]]:
    """(action, simulations) of a small bot's searches along one game, chance drawn
    by a generator of ``seed``."""
    evaluator = mcts.RandomRolloutEvaluator(1, random_state=np.random.RandomState(seed))
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=40,
        evaluator=evaluator,
        random_state=np.random.RandomState(seed + 1),
        solve=True,
    )
    rng = np.random.RandomState(seed + 2)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    moves: list[tuple[int, int]] = []
    while len(moves) < plies and not state.is_terminal():
        if state.is_chance_node():
            actions, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=chances)))
            continue
        action, ran = bot_move(bot, state)
        moves.append((action, ran))
        state.apply_action(action)
    return moves


@pytest.mark.parametrize("name", ["stairs", "twenty_seven", "ishigaki_race"])
def test_the_bot_searches_the_same_directly_as_through_pyspiel(name: str) -> None:
    through_pyspiel = searched(load_for_play(name, "pyspiel"), 4, seed=7)
    direct = searched(load_for_play(name, "direct"), 4, seed=7)
    assert direct == through_pyspiel and len(direct) == 4


def test_a_direct_state_takes_numpy_actions_and_clones_apart() -> None:
    game = direct_game(bridge.load_game("stairs"))
    state = game.new_initial_state()
    assert isinstance(state, DirectState) and game.num_players() == 2
    assert game.max_utility() == 1.0 and game.get_type().short_name.endswith("stairs")
    copy = state.clone()
    action = np.int64(state.legal_actions()[0])
    state.apply_action(action)  # numpy's ints, as OpenSpiel's rollouts draw them
    assert state.inner.history() == [int(action)] and copy.inner.history() == []
    assert state.action_to_string(0, action) == state.inner.action_to_string(int(action), 0)
