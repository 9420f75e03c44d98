"""How far from the end the exact Stairs solver proves results: its reach by ply.

    .venv/bin/python -m benchmarks.stairs_reach [--size 6] [--games 10] [--seconds 60] \\
        [--plot docs/figures/stairs_reach.png]

Plays ``--games`` uniformly random games (seeds 0, 1, ...) and walks each back from
its end one ply at a time, solving every position with a fresh table (the compiled
6×6 solver :mod:`stairgames.games.stairs.research.endgame` on 6×6, the compiled search of any
size :mod:`stairgames.games.stairs.research.anysize` on other sizes) within a budget of
``--seconds`` of processor time (turned into positions at the speed measured first);
a game stops at its first position not proven within the budget (an earlier position
holds the later one in its tree). Prints, for each ply (from the start) and for
each number of plies left, the share of positions proven within 1, 10 and
``--seconds`` seconds, the positions the hardest proven one took, and the seconds
the whole run took; ``--plot`` draws the shares by ply (matplotlib, the
``analysis`` extra).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from stairgames.games.stairs import rules
from stairgames.games.stairs.research import anysize
from stairgames.games.stairs.research import endgame as solve

LIMITS = (1.0, 10.0)
"""Seconds of the first two columns; the last is ``--seconds``."""


@dataclasses.dataclass(frozen=True)
class Proof:
    game: int
    ply: int
    """Plies (moves and passes) from the start."""
    left: int
    """Plies left in the random game."""
    nodes: int | None
    """Positions the proof took, ``None`` when not proven within the budget."""
    seconds: float


def prover(size: int) -> Callable[[rules.Board, int], int | None]:
    """``prove(board, nodes)``: the positions a fresh solver takes to prove ``board``,
    or ``None`` beyond ``nodes``."""

    def on_6x6(board: rules.Board, nodes: int) -> int | None:
        solver = solve.Solver()
        try:
            solver.wins(solve.Position(board), nodes=nodes)
        except solve.UnsolvedError:
            return None
        return solver.nodes

    def on_any(board: rules.Board, nodes: int) -> int | None:
        solver = anysize.BoardSolver(size)
        try:
            solver.wins(board, nodes=nodes)
        except anysize.UnsolvedError:
            return None
        return solver.nodes

    return on_6x6 if size == rules.SIZE else on_any


def speed(prove: Callable[[rules.Board, int], int | None], size: int) -> float:
    """Positions a processor second, measured on a few mid-game positions."""
    rng = random.Random(12345)
    nodes = 0
    started = time.process_time()
    while time.process_time() - started < 3.0:
        boards = anysize.random_game_boards(size, rng)
        found = prove(boards[len(boards) // 3], 2_000_000)
        nodes += 2_000_000 if found is None else found
    return nodes / (time.process_time() - started)


def reach(size: int, games: int, seconds: float) -> tuple[list[Proof], float]:
    prove = prover(size)
    prove(anysize.random_game_boards(size, random.Random(0))[-3], 1000)  # compile or load first
    per_second = speed(prove, size)
    budget = int(seconds * per_second)
    proofs = []
    for game in range(games):
        boards = anysize.random_game_boards(size, random.Random(game))
        for ply in range(len(boards) - 2, 0, -1):
            started = time.process_time()
            nodes = prove(boards[ply], budget)
            spent = time.process_time() - started
            proofs.append(Proof(game, ply, len(boards) - 1 - ply, nodes, spent))
            if nodes is None:
                break
        print(
            f"  game {game}: {len(boards) - 1} plies, proven back to ply {ply + (nodes is None)}",
            file=sys.stderr,
            flush=True,
        )
    return proofs, per_second


def within(proof: Proof, seconds: float, per_second: float) -> bool:
    """Proven within ``seconds`` of processor time (at the measured speed)."""
    return proof.nodes is not None and proof.nodes <= seconds * per_second


def table(proofs: list[Proof], key: str, limits: tuple[float, ...], per_second: float) -> None:
    """Shares proven within each limit, by ``key`` (``ply`` or ``left``); positions
    before a game's first unproven one count as unproven too."""
    games = {proof.game for proof in proofs}
    first_failed = {
        g: max((p.ply for p in proofs if p.game == g and p.nodes is None), default=0) for g in games
    }
    by: dict[int, list[Proof | None]] = {}
    for proof in proofs:
        by.setdefault(getattr(proof, key), []).append(proof)
    if key == "ply":  # the earlier plies of a game that stopped count as unproven
        for failed in first_failed.values():
            for ply in range(1, failed):
                by.setdefault(ply, []).append(None)
    heads = " | ".join(f"≤ {limit:g} s" for limit in limits)
    name = "ply" if key == "ply" else "plies left"
    print(f"\n| {name} | positions | {heads} | positions of the hardest proven |")
    print("|" + "---|" * (3 + len(limits)))
    for value in sorted(by):
        rows = by[value]
        shares = " | ".join(f"{share(rows, limit, per_second):.0%}" for limit in limits)
        hardest = max((p.nodes for p in rows if p is not None and p.nodes is not None), default=0)
        print(f"| {value} | {len(rows)} | {shares} | {hardest:,} |")


def share(rows: list[Proof | None], limit: float, per_second: float) -> float:
    """The share of ``rows`` proven within ``limit`` seconds (``None``: not proven)."""
    proven = sum(1 for p in rows if p is not None and within(p, limit, per_second))
    return proven / len(rows)


def shares_by_ply(
    proofs: list[Proof], limits: tuple[float, ...], per_second: float
) -> dict[float, list[tuple[int, float]]]:
    """For each limit, ``(ply, share proven)`` over the plies of the games."""
    plies = range(1, max(p.ply for p in proofs) + 1)
    shares: dict[float, list[tuple[int, float]]] = {}
    games = sorted({p.game for p in proofs})
    by_game = {(p.game, p.ply): p for p in proofs}
    for limit in limits:
        points = []
        for ply in plies:
            present = [by_game.get((g, ply)) for g in games]
            # a game shorter than ``ply`` is over: left out; one not reached is unproven
            counted = [
                p
                for g, p in zip(games, present, strict=True)
                if p is not None or _reaches(proofs, g, ply)
            ]
            if counted:
                proven = sum(1 for p in counted if p is not None and within(p, limit, per_second))
                points.append((ply, proven / len(counted)))
        shares[limit] = points
    return shares


def _reaches(proofs: list[Proof], game: int, ply: int) -> bool:
    return any(p.game == game and p.ply > ply for p in proofs)


def plot(path: Path, size: int, shares: dict[float, list[tuple[int, float]]], games: int) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("--plot needs matplotlib: pip install 'stairgames[analysis]'")
    figure, axes = plt.subplots(figsize=(6.4, 3.6), dpi=100)
    for limit, points in shares.items():
        axes.plot(
            [p for p, _ in points],
            [100 * s for _, s in points],
            marker=".",
            label=f"proven within {limit:g} s",
        )
    axes.set_xlabel("ply of the game (moves and passes from the start)")
    axes.set_ylabel("positions proven (%)")
    axes.set_title(f"Stairs {size}×{size}: the exact solver's reach by ply ({games} random games)")
    axes.set_ylim(-3, 103)
    axes.grid(alpha=0.3)
    axes.legend(loc="lower right")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path)
    plt.close(figure)
    print(f"\n(figure written to {path})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=6)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=60.0, help="budget of one position")
    parser.add_argument("--plot", type=Path, help="draw the reach by ply into this PNG")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    proofs, per_second = reach(args.size, args.games, args.seconds)
    limits = (*[limit for limit in LIMITS if limit < args.seconds], args.seconds)
    print(
        f"Stairs {args.size}×{args.size}, {args.games} random games, "
        f"{per_second:,.0f} positions a processor second"
    )
    table(proofs, "ply", limits, per_second)
    table(proofs, "left", limits, per_second)
    if args.plot is not None:
        plot(args.plot, args.size, shares_by_ply(proofs, limits, per_second), args.games)
    print(f"\n({time.perf_counter() - started:.1f} s in all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
