"""Sampling chance outcomes from a seedable generator passed in."""

from __future__ import annotations

import random

from stairgames.core.game import State


def sample_chance_outcome(state: State, rng: random.Random) -> int:
    """Draw one chance outcome of ``state`` with its probabilities, using ``rng`` only."""
    outcomes = state.chance_outcomes()
    if not outcomes:
        raise ValueError("not a chance node")
    roll = rng.random()
    cumulative = 0.0
    for action, probability in outcomes:
        cumulative += probability
        if roll < cumulative:
            return action
    return outcomes[-1][0]
