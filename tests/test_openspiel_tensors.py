"""Observation and information-state tensors through the OpenSpiel bridge: the games' own
tensors, flattened, with OpenSpiel's shapes."""

from __future__ import annotations

import random

import numpy as np
import pytest

import stairgames
from stairgames.core.registry import get_spec, observation_tensor
from tests.rl_helpers import city_twins

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


@pytest.mark.parametrize(("name", "options"), GAMES_AND_OPTIONS)
def test_observation_tensor_through_the_bridge_is_the_games_tensor(name, options):
    game = bridge.load_game(name, **options)
    tensor = observation_tensor(name)
    assert tensor is not None
    assert game.get_type().provides_observation_tensor
    assert tuple(game.observation_tensor_shape()) == tensor.shape(game.ours)
    hidden = game.ours.info().hidden_information
    assert game.get_type().provides_information_state_tensor == hidden
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        player = state.current_player()
        ours = tensor.encode(state.inner, player).ravel()
        assert np.array_equal(np.array(state.observation_tensor(player)), ours)
        if hidden:
            assert tensor.information_state is not None
            info_state = tensor.information_state.encode(state.inner, player)
            assert np.array_equal(np.array(state.information_state_tensor(player)), info_state)
            assert len(info_state) == game.information_state_tensor_shape()[0]
        state.apply_action(rng.choice(state.legal_actions()))


def test_bridge_tensors_hide_another_seats_departure_card():
    state, twin = city_twins(3, seed=8)
    game = bridge.load_game("city_of_stairs", players=3, first_player=0)
    spiel = [game.new_initial_state(), game.new_initial_state()]
    for target, source in zip(spiel, (state, twin), strict=True):
        for action in source.history():
            target.apply_action(action)
    for seat in range(3):
        same = seat != 1
        for kind in ("observation_tensor", "information_state_tensor"):
            first, second = (np.array(getattr(s, kind)(seat)) for s in spiel)
            assert np.array_equal(first, second) == same
