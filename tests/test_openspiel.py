"""The OpenSpiel bridge: OpenSpiel's own random simulation test on every game and option set."""

from __future__ import annotations

import pytest

import stairgames
from stairgames.core.registry import get_spec

pyspiel = pytest.importorskip(
    "pyspiel",
    reason="open_spiel is not installed (pip install open_spiel; needs Python 3.11 wheels)",
)

from stairgames.interop import openspiel as bridge  # noqa: E402

GAMES_AND_OPTIONS = [
    pytest.param(name, options, id=f"{name}-{options}")
    for name in stairgames.game_names()
    for options in get_spec(name).option_sets
]


def test_every_game_is_registered_with_pyspiel():
    names = bridge.register_all()
    assert names == [f"stairgames_{name}" for name in stairgames.game_names()]
    registered = pyspiel.registered_names()
    assert all(name in registered for name in names)


@pytest.mark.parametrize(("name", "options"), GAMES_AND_OPTIONS)
def test_openspiel_random_sim_test(name, options):
    game = bridge.load_game(name, **options)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "options"), GAMES_AND_OPTIONS)
def test_parameters_reach_our_game(name, options):
    game = bridge.load_game(name, **options)
    ours = stairgames.load(name, **options)
    assert game.num_players() == ours.num_players()
    state = game.new_initial_state()
    assert state.inner.get_game().options == ours.options
    assert game.num_distinct_actions() == ours.info().num_distinct_actions


def test_loading_by_pyspiel_name_with_parameters():
    bridge.register_all()
    game = pyspiel.load_game("stairgames_stairs(pie_rule=True)")
    assert game.get_parameters() == {"pie_rule": True}
    state = game.new_initial_state()
    state.apply_action(state.string_to_action("d3-c4"))
    assert "swap" in [state.action_to_string(a) for a in state.legal_actions()]


def test_openspiel_mcts_bot_plays_on_a_bridged_game():
    from open_spiel.python.algorithms import mcts

    game = bridge.load_game("stairs")
    bot = mcts.MCTSBot(game, 2.0, 20, mcts.RandomRolloutEvaluator(1))
    state = game.new_initial_state()
    assert bot.step(state) in state.legal_actions()


def test_observation_strings_are_ours():
    game = bridge.load_game("stairs")
    state = game.new_initial_state()
    assert state.observation_string(1) == state.inner.observation_string(1)


@pytest.mark.skipif(
    "ishigaki_race" not in stairgames.game_names(), reason="needs a game with a tuple option"
)
@pytest.mark.parametrize("squares", [(5,), (5, 9, 13, 17)])
def test_tuple_options_survive_pyspiel_game_strings(squares):
    game = bridge.load_game("ishigaki_race", crumbling_wall=True, crumbling_squares=squares)
    again = pyspiel.load_game(str(game))
    assert again.new_initial_state().inner.get_game().options.crumbling_squares == squares
    pyspiel.random_sim_test(again, num_sims=1, serialize=True, verbose=False)
