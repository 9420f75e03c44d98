"""Every registered game, with every option set it declares, through the shared protocol."""

from __future__ import annotations

import pytest

import stairgames
from stairgames.core.registry import get_spec
from stairgames.core.testing import check_game
from stairgames.games.twenty_seven import TwentySevenState

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


# ----- defects of issue 15: clones and repr ------------------------------------


def test_a_clone_of_27_does_not_share_its_moves_with_the_original():
    state = stairgames.load("twenty_seven").new_initial_state()
    assert isinstance(state, TwentySevenState)
    before = state.legal_actions()
    twin = state.clone()
    twin.moves().clear()
    assert state.legal_actions() == before and state.moves()


@pytest.mark.parametrize(("name", "options"), CASES)
def test_a_clone_shares_no_mutable_container_with_its_original(name, options):
    """Stairs shared its list of moves (``_steps_cache``) and 27 its ``_moves_cache``."""
    state = stairgames.load(name, **options).new_initial_state()
    for _ in range(6):
        if state.is_terminal():
            break
        state.legal_actions()
        twin = state.clone()
        originals = [v for v in vars(state).values() if isinstance(v, list | dict | set)]
        for value in vars(twin).values():
            if isinstance(value, list | dict | set):
                assert all(value is not original for original in originals), value
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[0][0] if outcomes else state.legal_actions()[-1])


@pytest.mark.parametrize(("name", "options"), CASES)
def test_repr_of_a_game_and_a_state_pastes_back(name, options):
    game = stairgames.load(name, **options)
    state = game.new_initial_state()
    assert eval(repr(game), {"stairgames": stairgames}) == game
    assert eval(repr(state), {"stairgames": stairgames}) == state
    assert repr(game).startswith(f"stairgames.load({name!r}")


def test_repr_names_the_options_that_differ_from_their_defaults():
    assert repr(stairgames.load("stairs", pie_rule=True)) == (
        "stairgames.load('stairs', pie_rule=True)"
    )
    assert repr(stairgames.load("stairs")) == "stairgames.load('stairs')"
