"""The puzzle benchmark (``benchmarks/puzzles.py``, :mod:`stairgames.bench.puzzles`): the
generator's count of proven positions, the repeats' order, and the table made of them."""

from __future__ import annotations

import dataclasses
import random

import pytest

from stairgames.bench.puzzles import Repeat, conditions, describe, run, summarize, table
from stairgames.core.registry import puzzle_games
from stairgames.puzzles.generate import candidates, generate, self_play
from stairgames.puzzles.prove import prover_for


@pytest.mark.parametrize("game", puzzle_games())
def test_the_generator_counts_the_positions_the_exact_means_proved(game: str) -> None:
    whole = next(self_play(game, 1, seed=3))
    # the game's last positions only: its end is where the exact means prove the most
    played = [dataclasses.replace(whole, states=whole.states[-8:], plies=whole.plies[-8:])]
    tally = generate(game, played, rng=random.Random(3))
    tried = list(candidates(played[0], chance=False))[: tally.tried]
    proven = 0
    for state, _ply in tried:
        plain = state.without_agreement()
        proven += prover_for(plain.get_game()).values(plain) is not None
    assert tally.tried == len(tried) > 0
    assert tally.proven == proven
    assert tally.made <= tally.proven <= tally.tried


def repeat(game: str, index: int, made: int, seconds: float, tried: int = 10) -> Repeat:
    return Repeat(game, index, games=2, tried=tried, proven=tried - 2, made=made, seconds=seconds)


def test_repeats_go_round_the_games_with_the_same_seed() -> None:
    asked: list[tuple[str, int, int, int]] = []

    def fake(game: str, games: int, seed: int, index: int) -> Repeat:
        asked.append((game, games, seed, index))
        return repeat(game, index, made=1, seconds=1.0)

    done = run(["a", "b"], games=4, repeats=2, seed=9, measure_one=fake)
    assert asked == [("a", 4, 9, 0), ("b", 4, 9, 0), ("a", 4, 9, 1), ("b", 4, 9, 1)]
    assert [(one.game, one.repeat) for one in done] == [(g, i) for g, _, _, i in asked]
    with pytest.raises(ValueError):
        run(["a"], games=0, repeats=1, seed=0, measure_one=fake)


def test_the_table_sums_counts_and_gives_the_median_rate_with_its_range() -> None:
    repeats = [
        repeat("a", 0, made=3, seconds=3600.0, tried=10),
        repeat("b", 0, made=0, seconds=10.0, tried=0),
        repeat("a", 1, made=1, seconds=3600.0, tried=20),
        repeat("a", 2, made=2, seconds=1800.0, tried=30),
    ]
    first, second = summarize(repeats)
    assert (first.game, first.repeats, first.tried, first.proven, first.made) == (
        "a",
        3,
        60,
        54,
        6,
    )
    assert first.share_proven == pytest.approx(0.9)
    assert (first.per_hour_median, first.per_hour_min, first.per_hour_max) == (3.0, 1.0, 4.0)
    assert first.seconds_median == 3600.0
    assert second.share_proven == 0.0 and second.per_hour_median == 0.0
    lines = table([first, second])
    assert len(lines) == 4 and lines[0].count("|") == lines[2].count("|") == 9
    assert lines[2].startswith("| a | 3 | 60 | 54 | 90.0% | 6 | 3 [1, 4] |")


def test_the_conditions_give_the_load_and_the_cores() -> None:
    machine = conditions(sample_seconds=0.0)
    assert len(machine["load_average"]) == 3 and machine["cpus"] >= machine["usable_cpus"] >= 1
    assert f"{machine['cpus']} cores" in describe(machine)
