"""What random play keeps of a Stairs position's value: estimates of each move's value
set against the moves the endgame solver proved.

A tree search that values its leaves by playouts tells good moves from bad only as far
as the playouts' results follow the true values. Here, on positions of recorded games
whose every move is proven won or lost (:func:`.policy.labelled_positions`), each move's
position is valued by

- ``uniform:N``: the share of ``N`` uniformly random playouts that the mover wins;
- ``guided:N``: the same with the guided playouts (:func:`.endgame_kernel.guided_rollout`);
- ``walk:K``: ``K`` uniformly random moves, then the exact solver (within ``--walk-nodes``
  positions; a playout where it runs out is played out at random and counted), ``N``
  times: how much of the value is left after ``K`` random moves.

and each estimator is scored on the positions with both winning and losing moves by
the share of (winning, losing) move pairs it orders rightly (ties count half; 0.5 is
no better than chance) and the share of positions where the move it values most wins.

::

    python -m stairgames.games.stairs.research.playout_signal \\
        benchmarks/results/strength-*stairs*.jsonl.gz [--positions 300] [--playouts 8]

What it measured is in ``docs/agents.md`` ("What random playouts know of a Stairs
position").
"""

from __future__ import annotations

import argparse
import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Final

import numpy as np

from stairgames.core import uct
from stairgames.games.stairs.research import endgame, policy, turning
from stairgames.games.stairs.research import endgame_kernel as kernel
from stairgames.games.stairs.research.endgame_kernel import Array

CONSTANTS: Final = kernel.endgame_constants()
"""The 6×6 board's constants for the compiled engine."""
TABLE_BITS: Final = 20
"""The walks' solver table: 2 ** 20 slots, kept over the whole run (results are exact,
so sharing them only saves work)."""

Estimate = Callable[[Array, int], float]
"""The share of its estimate's playouts that ``colour`` wins from a position array."""


@dataclasses.dataclass
class Walks:
    """The ``walk:K`` estimator's solver, and how its playouts went."""

    steps: int
    playouts: int
    nodes: int
    rng: random.Random
    solver: endgame.Solver = dataclasses.field(
        init=False, default_factory=lambda: endgame.Solver(TABLE_BITS)
    )
    unsolved: int = 0
    """Playouts whose end the solver did not reach within ``nodes`` (played out at random)."""
    searched: int = 0
    """Positions the solver searched, over every playout."""

    def share(self, s: Array, colour: int) -> float:
        found = np.empty(kernel.MAX_MOVES, dtype=np.int64)
        won = 0
        for _ in range(self.playouts):
            end = s.copy()
            count = kernel.tree_moves(end, CONSTANTS, found)
            for _ in range(self.steps):
                if count < 0:
                    break
                kernel.tree_play(
                    end, CONSTANTS, int(found[self.rng.randrange(count)]) if count else uct.PASS
                )
                count = kernel.tree_moves(end, CONSTANTS, found)
            won += self._winner(end, count, found) == colour
        return won / self.playouts

    def _winner(self, s: Array, count: int, found: Array) -> int:
        """The colour that wins ``s`` under perfect play (solved), or at the end of a
        random playout where the solver runs out."""
        if count < 0:
            return int(kernel.winner(s))
        kernel.complete(s, CONSTANTS)
        mover = int(s[kernel.TO_MOVE])
        try:
            wins = self.solver.wins_array(s, nodes=self.nodes)
        except endgame.UnsolvedError:
            self.unsolved += 1
            return int(kernel.rollout(s, CONSTANTS, found))
        finally:
            self.searched += self.solver.nodes
        return mover if wins else 1 - mover


def playout_share(playouts: int, *, guided: bool) -> Estimate:
    """The ``uniform:N`` or ``guided:N`` estimator."""
    rollout = kernel.guided_rollout if guided else kernel.rollout

    def share(s: Array, colour: int) -> float:
        found = np.empty(kernel.MAX_MOVES, dtype=np.int64)
        won = sum(rollout(s.copy(), CONSTANTS, found) == colour for _ in range(playouts))
        return float(won) / playouts

    return share


def move_estimates(position: policy.LabelledPosition, estimate: Estimate) -> dict[str, float]:
    """Each move of ``position`` valued by ``estimate`` for the colour that plays it."""
    state = turning.replay(list(position.moves))[-1]
    colour = int(kernel.position_array(state.board, CONSTANTS)[kernel.TO_MOVE])
    values = {}
    for move in position.winning:
        child = state.clone()
        child.apply_action(child.string_to_action(move))
        values[move] = estimate(kernel.position_array(child.board, CONSTANTS), colour)
    return values


def ordered_pairs(values: Mapping[str, float], winning: Mapping[str, bool]) -> tuple[float, int]:
    """How many (winning, losing) move pairs ``values`` orders rightly (a tie counts
    half), and how many pairs there are."""
    won = [values[move] for move, wins in winning.items() if wins]
    lost = [values[move] for move, wins in winning.items() if not wins]
    right = sum((w > v) + 0.5 * (w == v) for w in won for v in lost)
    return float(right), len(won) * len(lost)


def best_wins(values: Mapping[str, float], winning: Mapping[str, bool]) -> bool:
    """Whether the move ``values`` puts highest (the first such in move order) wins."""
    return winning[max(values, key=lambda move: values[move])]


@dataclasses.dataclass(frozen=True)
class Score:
    estimator: str
    positions: int
    pairs: float
    """The share of (winning, losing) move pairs ordered rightly."""
    best: float
    """The share of positions whose most valued move wins."""


def score(name: str, positions: Sequence[policy.LabelledPosition], estimate: Estimate) -> Score:
    """``estimate`` on the positions with both winning and losing moves."""
    right = total = 0.0
    best = 0
    informative = [position for position in positions if position.informative()]
    for position in informative:
        values = move_estimates(position, estimate)
        ordered, pairs = ordered_pairs(values, position.winning)
        right, total = right + ordered, total + pairs
        best += best_wins(values, position.winning)
    return Score(name, len(informative), right / max(total, 1), best / max(len(informative), 1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    policy.add_sample_arguments(parser, positions=300)
    parser.add_argument("--playouts", type=int, default=8, help="N of every estimator")
    parser.add_argument("--walks", default="0,1,2,4", help="K of the walk:K estimators")
    parser.add_argument("--walk-nodes", type=int, default=200_000)
    args = parser.parse_args(argv)
    positions = policy.sampled_positions(args)
    uct.seed(args.seed)
    n = args.playouts
    estimators: list[tuple[str, Estimate, Walks | None]] = [
        (f"uniform:{n}", playout_share(n, guided=False), None),
        (f"uniform:{8 * n}", playout_share(8 * n, guided=False), None),
        (f"guided:{n}", playout_share(n, guided=True), None),
    ]
    for steps in (int(k) for k in args.walks.split(",") if k):
        walker = Walks(steps, n, args.walk_nodes, random.Random(args.seed + steps))
        estimators.append((f"walk:{steps}", walker.share, walker))
    print(f"{len(positions)} positions labelled (plies {args.first_ply}-{args.last_ply})")
    print("| estimator | positions | pairs ordered | best move wins | solver positions a playout |")
    print("|---|---:|---:|---:|---:|")
    for name, estimate, walks in estimators:
        result = score(name, positions, estimate)
        cost = ""
        if walks is not None:
            playouts = max(1, sum(len(p.winning) for p in positions if p.informative()) * n)
            cost = f"{walks.searched / playouts:,.0f} ({walks.unsolved} unsolved)"
        print(f"| {name} | {result.positions} | {result.pairs:.3f} | {result.best:.3f} | {cost} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
