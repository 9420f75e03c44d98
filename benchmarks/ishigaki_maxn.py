"""Ishigaki Race for 2 to 4 players, every seat maximising its own chance (max^n).

``.venv/bin/python -m benchmarks.ishigaki_maxn [--plot docs/figures/ishigaki_win_by_seat.png]``

Solves the plain and the crumbling wall for 2, 3 and 4 players
(``stairgames.games.ishigaki_race.research.maxn``, without its disk cache, so every time is a
real solve), and prints: each place in turn order's chance of winning, with the
solve's time and memory; the roll table (own height × first die, the solved policy's
most frequent choice in the games it plays) with how often it agrees with the policy;
and, with ``--plot``, the chances as a bar chart. It prints how long it took.
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np

from stairgames.games.ishigaki_race.research import maxn
from stairgames.games.ishigaki_race.rules import Board

BOARDS = {"plain": Board(), "crumbling": Board(crumbling=frozenset({5, 9, 13, 17}))}
PLAYERS = (2, 3, 4)


def print_table(table: np.ndarray) -> None:
    print("| own height | die 1 | 2 | 3 | 4 | 5 | 6 |")
    print("|---:|---|---|---|---|---|---|")
    for height, row in enumerate(table):
        if (row >= 0).any():
            cells = ["roll" if c == 1 else "stop" if c == 0 else "" for c in row]
            print(f"| {height} | " + " | ".join(cells) + " |")


def plot(chances: dict[tuple[str, int], tuple[float, ...]], path: str) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as missing:
        raise SystemExit("--plot needs matplotlib: pip install 'stairgames[analysis]'") from missing
    figure, axes = plt.subplots(1, len(PLAYERS), figsize=(9, 3.2), sharey=True)
    for axis, players in zip(axes, PLAYERS, strict=True):
        places = np.arange(players)
        for offset, wall in ((-0.2, "plain"), (0.2, "crumbling")):
            shares = [100 * c for c in chances[(wall, players)]]
            axis.bar(places + offset, shares, width=0.4, label=f"{wall} wall")
        axis.axhline(100 / players, color="grey", linewidth=0.8, linestyle="--")
        axis.set_xticks(places, [f"{p + 1}." for p in places])
        axis.set_title(f"{players} players")
        axis.set_xlabel("place in turn order")
        axis.set_ylim(0, 60)
    axes[0].set_ylabel("chance of winning (%)")
    axes[0].legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=90)
    print(f"wrote {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plot", help="write the bar chart of chances here (PNG)")
    args = parser.parse_args()
    started = time.perf_counter()
    chances: dict[tuple[str, int], tuple[float, ...]] = {}
    solutions: dict[tuple[str, int], maxn.Solved] = {}
    print(
        "| wall | players | chance by place in turn order | sweeps "
        "| seconds (wall, CPU) | peak memory |"
    )
    print("|---|---:|---|---:|---:|---:|")
    for wall, board in BOARDS.items():
        for players in PLAYERS:
            cpu = time.process_time()
            solved = maxn.compute(board, players)
            cpu = time.process_time() - cpu
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            chances[(wall, players)] = solved.start_chances()
            solutions[(wall, players)] = solved
            shown = " / ".join(f"{100 * c:.2f} %" for c in solved.start_chances())
            settled = f"{solved.sweeps}" + (" (hysteresis)" if solved.hysteresis else "")
            print(
                f"| {wall} | {players} | {shown} | {settled} | "
                f"{solved.seconds:.1f}, {cpu:.1f} | {peak:.0f} MiB |"
            )
    for (wall, players), solved in solutions.items():
        table, weighted, counted = maxn.roll_table(solved)
        print(
            f"\nRoll table, {players} players, {wall} wall: reproduces the solved policy in "
            f"{100 * weighted:.1f} % of decisions in its games, "
            f"{100 * counted:.1f} % of reachable decisions"
        )
        if players == 3:
            print_table(table)
    if args.plot:
        plot(chances, args.plot)
    print(f"\ntook {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
