"""History strings formatted only when asked (games whose notation is the action's alone:
Stairs and 27) are the notation each action had when it was played, in every game,
clones included; and those games keep no move text while they play."""

from __future__ import annotations

import random

import pytest

import stairgames
from stairgames.core.game import State
from stairgames.core.registry import get_spec

CASES = [
    pytest.param(name, options, id=f"{name}-{options}")
    for name in stairgames.game_names()
    for options in get_spec(name).option_sets
]


def play_recording_texts(state: State, rng: random.Random) -> tuple[list[str], list[State]]:
    """Play to the end at random; the notation of each action just before it was applied,
    and a clone taken before each action."""
    texts, clones = [], []
    while not state.is_terminal():
        outcomes = state.chance_outcomes()
        if outcomes:
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        clones.append(state.clone())
        texts.append(state.action_to_string(action))
        state.apply_action(action)
    return texts, clones


@pytest.mark.parametrize(("name", "options"), CASES)
def test_history_strings_are_the_notation_of_each_action_when_it_was_played(name, options):
    game = stairgames.load(name, **options)
    rng = random.Random(18)
    for _ in range(4):
        state = game.new_initial_state()
        texts, clones = play_recording_texts(state, rng)
        assert state.history_strings() == texts
        for index, clone in enumerate(clones):
            assert clone.history_strings() == texts[:index]


@pytest.mark.parametrize(("name", "options"), CASES)
def test_a_game_formats_lazily_only_where_notation_ignores_the_state(name, options):
    """Where history strings are formatted lazily, every legal action reads the same in
    every state as in the initial one (else they would be wrong)."""
    game = stairgames.load(name, **options)
    state = game.new_initial_state()
    if state._notation_depends_on_state:
        return
    initial = game.new_initial_state()
    rng = random.Random(5)
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            for action in state.legal_actions():
                assert state.action_to_string(action) == initial.action_to_string(action)
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", ["stairs", "twenty_seven"])
def test_stairs_and_27_format_no_move_text_while_they_play(name):
    state = stairgames.load(name).new_initial_state()
    for _ in range(10):
        state.apply_action(state.legal_actions()[0])
    assert state._history_strings == []
    assert len(state.history_strings()) == 10
