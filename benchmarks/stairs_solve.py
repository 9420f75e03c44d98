"""How far the exact Stairs endgame solver reaches, as a table.

    .venv/bin/python -m benchmarks.stairs_solve [--games 30] [--nodes 2000000] [--seed 7]

For positions k plies into uniformly random games (k = 9, 12, ..., 21): the share
the solver (:mod:`stairgames.games.stairs.research.endgame`, a fresh table each) decides
within ``--nodes`` positions, the mean positions searched (an unsolved one counts
the whole budget), the mean seconds and positions per second. A position that
takes N positions takes about N / (positions per second) seconds, which tells
how far from the end a player with a given time per move can see exactly.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from stairgames.games.stairs import rules
from stairgames.games.stairs.research.anysize import random_game_boards
from stairgames.games.stairs.research.endgame import Position, Solver, UnsolvedError, warm_up

PLIES = (9, 12, 15, 18, 21)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--nodes", type=int, default=2_000_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    games = [random_game_boards(rules.SIZE, rng) for _ in range(args.games)]
    warm_up()  # compile (or load) the solver before anything is timed
    header = ("ply", "positions", "solved", "mean nodes", "mean s", "nodes/s")
    print("{:>4} {:>9} {:>8} {:>11} {:>8} {:>9}".format(*header))
    for ply in PLIES:
        boards = [boards[ply] for boards in games if ply < len(boards) - 1]
        solved = 0
        nodes = 0
        clock = time.perf_counter()
        for board in boards:
            solver = Solver()
            try:
                solver.wins(Position(board), nodes=args.nodes)
                solved += 1
                nodes += solver.nodes
            except UnsolvedError:
                nodes += args.nodes
        spent = time.perf_counter() - clock
        count = max(1, len(boards))
        print(
            f"{ply:>4} {len(boards):>9} {solved / count:>8.0%} {nodes / count:>11.0f} "
            f"{spent / count:>8.3f} {nodes / max(spent, 1e-9):>9.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
