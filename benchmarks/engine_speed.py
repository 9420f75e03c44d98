"""Random games through the protocol against the naive reading of the rules, as a table.

Run from the repository root with ``python -m benchmarks.engine_speed [--repeats N]
[--seconds S]`` (``make bench-engines``).

For each game, each repeat plays random games for ``S`` seconds of CPU time through
the protocol (``clone`` of the initial state, then ``is_terminal``,
``legal_actions``, ``apply_action`` to the end, then ``returns``) and for ``S``
seconds with the naive reading of the same rules (:mod:`stairgames.bench.naive`, checked
against the engines by ``tests/test_naive_readings.py``), in alternating order. A
repeat's ratio is its protocol games per second over its naive games per second;
the table gives the median of each and the median ratio with its range. Ratios
taken in one run are what holds on a noisy shared machine; the games per second
do not. Time is the process's CPU time, which counts less of other programs'
load than the wall clock does.

Stairs is played without ending by agreement (``agreement=False``), the game the
naive reading knows: with it, random players offer, accept and decline.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import stairgames
from stairgames.bench.naive import NaiveGame, NaiveStairs, NaiveTwentySeven, naive_random_game
from stairgames.core.game import State

ROWS: tuple[tuple[str, dict[str, Any], Callable[[], NaiveGame]], ...] = (
    ("stairs", {"agreement": False}, NaiveStairs),
    ("twenty_seven", {"variant": "basic"}, lambda: NaiveTwentySeven("basic")),
    ("twenty_seven", {"variant": "advanced"}, lambda: NaiveTwentySeven("advanced")),
    ("twenty_seven", {"variant": "expert"}, lambda: NaiveTwentySeven("expert")),
)


def protocol_random_game(initial: State, rng: random.Random) -> list[float]:
    """One random game from a clone of ``initial`` through the protocol; its returns."""
    state = initial.clone()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state.returns()


def games_per_second(play: Callable[[random.Random], int], seconds: float, seed: int) -> float:
    """Games per second of CPU time in about ``seconds``; ``play`` plays some games (one,
    or a batch) and says how many."""
    rng = random.Random(seed)
    games = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        games += play(rng)
    return games / elapsed


def measure(
    name: str,
    options: dict[str, Any],
    make_naive: Callable[[], NaiveGame],
    repeats: int,
    seconds: float,
) -> dict[str, Any]:
    initial = stairgames.load(name, **options).new_initial_state()

    def protocol(rng: random.Random) -> int:
        protocol_random_game(initial, rng)
        return 1

    def naive(rng: random.Random) -> int:
        naive_random_game(make_naive(), rng)
        return 1

    protocol_rates, naive_rates, ratios = [], [], []
    for repeat in range(repeats):
        order = (protocol, naive) if repeat % 2 == 0 else (naive, protocol)
        rates = {play: games_per_second(play, seconds, seed=repeat) for play in order}
        protocol_rates.append(rates[protocol])
        naive_rates.append(rates[naive])
        ratios.append(rates[protocol] / rates[naive])
    return {
        "game": name,
        "options": ", ".join(f"{k}={v}" for k, v in options.items()),
        "protocol": statistics.median(protocol_rates),
        "naive": statistics.median(naive_rates),
        "ratio": statistics.median(ratios),
        "low": min(ratios),
        "high": max(ratios),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeats", type=int, default=7, help="repeats per game (odd)")
    parser.add_argument("--seconds", type=float, default=0.5, help="CPU seconds per side")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    args = parser.parse_args(argv)
    print(
        f"Python {sys.version.split()[0]}, {args.repeats} repeats of {args.seconds:g} CPU s "
        "per side; medians"
    )
    print("| game | options | protocol games/s | naive games/s | ratio | range |")
    print("|---|---|---:|---:|---:|---|")
    for name, options, make_naive in ROWS:
        if args.game and name not in args.game:
            continue
        row = measure(name, options, make_naive, args.repeats, args.seconds)
        print(
            f"| {row['game']} | {row['options']} | {row['protocol']:,.0f} | "
            f"{row['naive']:,.0f} | {row['ratio']:.2f}x | {row['low']:.2f}-{row['high']:.2f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
