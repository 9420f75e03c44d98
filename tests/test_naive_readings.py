"""The naive readings in ``benchmarks/naive.py`` agree with the engines on random games:
same moves offered at every step, same end, same returns. Without this, the speed
ratio of ``benchmarks/engine_speed.py`` would compare different games."""

from __future__ import annotations

import random

import pytest

import stairgames
from stairgames.bench.naive import NaiveGame, NaiveStairs, NaiveTwentySeven
from stairgames.core.game import State


def play_both(state: State, naive: NaiveGame, rng: random.Random) -> int:
    """Play one random game on both, checking agreement at every step; its length."""
    plies = 0
    while True:
        assert naive.is_terminal() == state.is_terminal(), state.position()
        offered = sorted(state.action_to_string(a) for a in state.legal_actions())
        assert sorted(naive.legal_moves()) == offered, state.position()
        if state.is_terminal():
            break
        move = rng.choice(offered)
        naive.apply(move)
        state.apply_move(move)
        plies += 1
    assert naive.returns() == state.returns(), state.position()
    return plies


def test_naive_stairs_agrees_with_the_engine_on_random_games() -> None:
    game = stairgames.load("stairs", agreement=False)
    rng = random.Random(18)
    lengths = [play_both(game.new_initial_state(), NaiveStairs(), rng) for _ in range(60)]
    assert min(lengths) > 20


@pytest.mark.parametrize("variant", ["basic", "advanced", "expert"])
def test_naive_twenty_seven_agrees_with_the_engine_on_random_games(variant: str) -> None:
    game = stairgames.load("twenty_seven", variant=variant)
    rng = random.Random(27)
    lengths = [
        play_both(game.new_initial_state(), NaiveTwentySeven(variant), rng) for _ in range(150)
    ]
    assert min(lengths) > 5
