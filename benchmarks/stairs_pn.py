"""Proof-number search over the bounded search (PN², :func:`anysize.prove`) against the
depth-first search alone (:meth:`anysize.BoardSolver.wins`), on the same positions.

    .venv/bin/python -m benchmarks.stairs_pn [--size 5] [--games 8] [--ply 12] \\
        [--leaf 200000] [--budget 100000000]

Plays ``--games`` uniformly random games (seeds 0, 1, ...) and takes each one's
position after ``--ply`` plies; each position is proven by both searches, each with a
fresh table of 2^24 slots (``--budget`` positions at most, so that a search that sinks
into one reply shows as "over"). Prints a table of positions searched and processor
seconds, the ratio of positions (depth-first / PN², above 1: PN² searched fewer)
with its median, and how long the run took. Positions are counted, not timed, so the
ratio does not depend on the machine's load.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from stairgames.games.stairs import rules
from stairgames.games.stairs.research import anysize

TABLE_BITS = 24


def depth_first(board: rules.Board, budget: int) -> tuple[bool | None, int, float]:
    """Who wins by the depth-first search: (mover wins or None if over budget, positions, s)."""
    solver = anysize.BoardSolver(board.size, table_bits=TABLE_BITS)
    started = time.process_time()
    try:
        wins: bool | None = solver.wins(board, nodes=budget)
    except anysize.UnsolvedError:
        wins = None
    return wins, solver.nodes, time.process_time() - started


def proof_number(board: rules.Board, leaf: int, budget: int) -> tuple[bool | None, int, float]:
    """The same by :func:`anysize.prove`, stopped once it passes ``budget`` positions."""
    solver = anysize.BoardSolver(board.size, table_bits=TABLE_BITS)
    started = time.process_time()

    def stop_over_budget(*_: int) -> None:
        if solver.nodes > budget:
            raise anysize.UnsolvedError

    try:
        wins: bool | None = anysize.prove(solver, board, leaf_nodes=leaf, progress=stop_over_budget)
    except anysize.UnsolvedError:
        wins = None
    return wins, solver.nodes, time.process_time() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--ply", type=int, default=12)
    parser.add_argument("--leaf", type=int, default=200_000)
    parser.add_argument("--budget", type=int, default=100_000_000)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    anysize.solve_start(3)  # compile (or load) the search before anything is timed
    print(
        f"{args.size}×{args.size}, positions after {args.ply} plies of random games, "
        f"PN² leaves of {args.leaf:,} positions:\n"
    )
    print("| game | mover wins | depth-first positions | s | PN² positions | s | ratio |")
    print("|---|---|---|---|---|---|---|")
    ratios = []
    for seed in range(args.games):
        boards = anysize.random_game_boards(args.size, random.Random(seed))
        board = boards[min(args.ply, len(boards) - 1)]
        dfs = depth_first(board, args.budget)
        pn = proof_number(board, args.leaf, args.budget)
        if dfs[0] is not None and pn[0] is not None:
            assert dfs[0] == pn[0], "the searches disagree"
        winner = next((str(r[0]) for r in (dfs, pn) if r[0] is not None), "over")
        ratio = dfs[1] / max(pn[1], 1)
        ratios.append(ratio)
        print(
            f"| {seed} | {winner} | {_count(dfs)} | {dfs[2]:.1f} | {_count(pn)} | {pn[2]:.1f} "
            f"| {ratio:.2f} |"
        )
        sys.stdout.flush()
    print(f"\nmedian ratio (depth-first / PN² positions): {statistics.median(ratios):.2f}")
    print(f"({time.perf_counter() - started:.1f} s in all)")
    return 0


def _count(result: tuple[bool | None, int, float]) -> str:
    return f"{result[1]:,}" if result[0] is not None else f"over {result[1]:,}"


if __name__ == "__main__":
    sys.exit(main())
