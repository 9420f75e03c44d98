"""The games' observation tensors (``tensor.py`` in each game's package): fixed shapes,
bounds, the seat's point of view, and loaded only when asked for."""

from __future__ import annotations

import random

import numpy as np
import pytest

import stairgames
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.registry import get_spec, observation_tensor
from tests.test_hooks import run_python

GAMES_AND_OPTIONS = [
    pytest.param(name, options, id=f"{name}-{options}")
    for name in stairgames.game_names()
    for options in get_spec(name).option_sets
]


@pytest.mark.parametrize(("name", "options"), GAMES_AND_OPTIONS)
def test_tensors_have_their_fixed_shape_at_every_node_of_a_game(name, options):
    game = stairgames.load(name, **options)
    tensor = observation_tensor(name)
    assert tensor is not None
    shape = tensor.shape(game)
    assert sum(size for _, size in tensor.layout(game)) == shape[0]
    rng = random.Random(7)
    state = game.new_initial_state()
    while True:
        for seat in range(game.num_players()):
            encoded = tensor.encode(state, seat)
            assert encoded.shape == shape
            assert encoded.dtype == np.float32
            assert np.all((encoded >= 0) & (encoded <= 1))
            if tensor.information_state is not None:
                info_state = tensor.information_state.encode(state, seat)
                assert info_state.shape == tensor.information_state.shape(game)
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    if tensor.image is not None:
        picture = tensor.image(state)
        assert picture.dtype == np.uint8
        assert picture.shape[2] == 3


def test_stairs_tensor_is_from_the_seats_point_of_view_and_follows_a_swap():
    game = stairgames.load("stairs", pie_rule=True)
    state = game.new_initial_state()
    tensor = observation_tensor("stairs")
    assert tensor is not None
    state.apply_move("d3-c4")
    before = [tensor.encode(state, seat) for seat in (0, 1)]
    # each seat sees its own pieces in the "mine" planes: the two views are mirror images
    assert np.array_equal(before[0][:36], before[1][36:72])
    state.apply_move("swap")
    after = [tensor.encode(state, seat) for seat in (0, 1)]
    assert np.array_equal(after[0][:72], before[1][:72])  # seat 0 now plays dark
    assert after[0][76].max() == 0.0 and after[1][76].min() == 1.0  # plays_light


def test_ishigaki_tensor_lists_the_seat_itself_first():
    game = stairgames.load("ishigaki_race", players=3, first_player=0)
    state = game.state_from_position("race ninjas=5,2,0 turn=red dice=-")
    tensor = observation_tensor("ishigaki_race")
    assert tensor is not None
    width = 21
    for seat, own_step in enumerate((5, 2, 0)):
        encoded = tensor.encode(state, seat)
        assert encoded[own_step] == 1.0
        assert encoded[width + (2, 0, 5)[seat]] == 1.0  # the next seat in turn order


def test_loading_a_game_imports_no_tensor_code():
    modules = run_python(
        """
        import sys, stairgames
        for name in stairgames.game_names():
            stairgames.load(name).new_initial_state()
        print(sorted(m for m in sys.modules if m.endswith(".tensor")))
        """
    )
    assert modules.strip() == "[]"
