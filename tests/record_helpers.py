"""Records of whole random games, for the tests of reviews and replays."""

from __future__ import annotations

import random
from typing import TypeVar

import stairgames
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.game import State
from stairgames.core.record import GameRecord, make_record

S = TypeVar("S", bound=State)


def play_random(state: S, seed: int) -> S:
    """``state`` played to the end by uniformly random moves (chance by its odds)."""
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def random_record(name: str, seed: int, **options: object) -> GameRecord:
    """The full record of a game of uniformly random moves (chance by its odds)."""
    return make_record(play_random(stairgames.load(name, **options).new_initial_state(), seed))
