"""Every registered game, with every option set it declares, through the shared protocol."""

from __future__ import annotations

import pytest

import stairgames
from stairgames.core.registry import get_spec
from stairgames.core.testing import check_game

CASES = [
    pytest.param(name, options, id=f"{name}-{options}")
    for name in stairgames.game_names()
    for options in get_spec(name).option_sets
]


@pytest.mark.parametrize(("name", "options"), CASES)
def test_protocol_conformance(name, options):
    check_game(stairgames.load(name, **options), games=3, seed=7)


@pytest.mark.parametrize(("name", "options"), CASES)
def test_game_info_is_consistent(name, options):
    game = stairgames.load(name, **options)
    info = game.info()
    assert info.name == name == game.name
    assert info.min_players <= info.num_players <= info.max_players
    assert len(info.seat_names) >= info.num_players
    assert info.min_utility <= info.max_utility
    assert info.max_game_length > 0


@pytest.mark.parametrize("name", stairgames.game_names())
def test_every_game_renders_for_the_terminal(name):
    spec = get_spec(name)
    state = stairgames.load(name).new_initial_state()
    plain = spec.render(state, colour=False, viewer=None)
    assert plain and "\x1b[" not in plain
    assert spec.render(state, colour=True, viewer=0)
