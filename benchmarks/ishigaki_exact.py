"""Exact winning chances in two-player Ishigaki Race, computed, not sampled.

``.venv/bin/python -m benchmarks.ishigaki_exact``

By value iteration
(``stairgames.games.ishigaki_race.research.value_iteration``), for the plain and the
crumbling wall: perfect play's value for the first player; each level (perfect play
with a share of random decisions, ``LEVELS`` in the game's ``evaluate.py``) against
the one below it and against ``random``; and the ceiling, the best possible reply to
``random`` (a player that knows its opponent plays at random). Each figure is
averaged over who starts. No games are played, so there is no confidence interval.
"""

from __future__ import annotations

import itertools
import time

from stairgames.games.ishigaki_race.play.evaluate import LEVELS
from stairgames.games.ishigaki_race.research.value_iteration import policy_values, solve
from stairgames.games.ishigaki_race.rules import Board, choose_start, initial_race

BOARDS = {"plain": Board(), "crumbling": Board(crumbling=frozenset({5, 9, 13, 17}))}
NOISE = {"random": 1.0} | {
    level: float(spec.partition("noise=")[2] or 0.0) for level, spec in LEVELS.items()
}


def main() -> None:
    print("| wall | player | opponent | player wins |")
    print("|---|---|---|---:|")
    for wall, board in BOARDS.items():
        started = time.perf_counter()
        perfect = solve(board, 2)
        seconds = time.perf_counter() - started
        first = perfect.value(choose_start(initial_race(2, None), 0))[0]
        print(f"| {wall} | perfect play, moving first | perfect play | {first:.2%} |")
        pairs = dict.fromkeys([*itertools.pairwise(NOISE), *(("random", lvl) for lvl in LEVELS)])
        for weaker, stronger in pairs:
            chances = policy_values(board, 2, (NOISE[stronger], NOISE[weaker]), perfect)
            share = chances.value(initial_race(2, None))[0]
            print(f"| {wall} | {stronger} | {weaker} | {share:.2%} |")
        ceiling = policy_values(board, 2, (0.0, 1.0)).value(initial_race(2, None))[0]
        print(f"| {wall} | best reply to random | random | {ceiling:.2%} |")
        print(f"| {wall} | (solved in {seconds:.2f} s, {len(perfect.index)} turn starts) | | |")


if __name__ == "__main__":
    main()
