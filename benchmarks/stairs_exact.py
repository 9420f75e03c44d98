"""Stairs solved from the start on small boards (S8), as a table.

    .venv/bin/python -m benchmarks.stairs_exact [--sizes 3,4]

For each size: who wins under perfect play without the pie rule (light moves first),
light's winning first moves, the positions the exact search
(:mod:`stairgames.games.stairs.research.exact`) expanded and its processor seconds. Each size
is solved twice, the second time with every position's moves searched in reverse
order: the same winner from a different search is a check of the result.
"""

from __future__ import annotations

import argparse
import sys

from stairgames.games.stairs import rules
from stairgames.games.stairs.research import exact


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="3,4", help="board sizes, comma-separated")
    args = parser.parse_args(argv)
    print("| board | winner | light's winning first moves | positions | seconds | check |")
    print("|---|---|---|---|---|---|")
    for size in (int(part) for part in args.sizes.split(",")):
        result = exact.solve_start(size)
        check = exact.solve_start(size, reverse_order=True).winner
        winner = "light (first)" if result.winner == rules.LIGHT else "dark (second)"
        moves = " ".join(result.winning_first_moves) or "none"
        agrees = "same winner" if check == result.winner else f"DIFFERENT: {check}"
        print(
            f"| {size}×{size} | {winner} | {moves} | {result.nodes:,} | "
            f"{result.seconds:.2f} | {agrees} |"
        )
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
