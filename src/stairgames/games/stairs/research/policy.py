"""The move policy of Stairs' guided playouts, fitted on moves the endgame solver proved.

Uniformly random playouts value a Stairs position by what random play makes of it.
The guided playouts (``mcts:guided=1``, :func:`.endgame_kernel.guided_rollout`) draw
each move with probability proportional to ``exp(w · features)``, the features of
:func:`.endgame_kernel.move_features` (a move covering a stack of the other colour,
what it leaves on the source, its peers around source and target, the edge). The
weights ``w`` are fitted here:

1. positions are taken from recorded games (``benchmarks/results``' checkpoint lines
   with ``moves``; one ply drawn per game between ``--first-ply`` and ``--last-ply``),
   and every move of each is proven won or lost by the exact endgame solver within
   ``--nodes`` positions (positions with a move out of reach are left out);
2. the positions with both winning and losing moves are split (a fifth held out), and
   a conditional logit (one softmax over each position's moves) is fitted by gradient
   descent to put its probability on the winning moves;
3. the weights are printed with the probability they and uniform play put on the
   winning moves, on the positions fitted and on those held out.

::

    python -m stairgames.games.stairs.research.policy \\
        benchmarks/results/strength-*stairs*.jsonl.gz [--positions 1100] [--nodes 300000]

The shipped :data:`.endgame_kernel.POLICY` and what it measured are in ``docs/agents.md``.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from stairgames.games.stairs.game import StairsState
from stairgames.games.stairs.notation import PASS
from stairgames.games.stairs.research import endgame_kernel as kernel
from stairgames.games.stairs.research import turning

Matrix = npt.NDArray[np.float64]

CONSTANTS: Final = kernel.endgame_constants()
"""The 6×6 board's constants for the compiled engine."""
HELD_OUT: Final = 0.2
"""The share of the positions held out of the fit."""


@dataclasses.dataclass(frozen=True)
class LabelledPosition:
    """A position and whether each of its moves wins for the colour to move."""

    moves: tuple[str, ...]
    """The game's moves up to the position."""
    winning: dict[str, bool]
    """Each move of the position (its notation): proven to win (``True``) or lose."""

    def informative(self) -> bool:
        """Whether some moves win and some lose (only such positions tell moves apart)."""
        return len(set(self.winning.values())) == 2


def feature_rows(state: StairsState, moves: Sequence[str]) -> Matrix:
    """The features of each move of ``moves`` in ``state`` (one row a move)."""
    s = kernel.position_array(state.board, CONSTANTS)
    rows = np.zeros((len(moves), kernel.NUM_FEATURES))
    out = np.zeros(kernel.NUM_FEATURES, dtype=np.int64)
    for row, move in enumerate(moves):
        kernel.move_features(s, CONSTANTS, kernel.kernel_move(state.string_to_action(move)), out)
        rows[row] = out
    return rows


def label(state: StairsState, nodes: int) -> dict[str, bool] | None:
    """Whether each move of ``state`` wins for the colour to move, each proven by a
    fresh solver within ``nodes`` positions; ``None`` when one is out of reach."""
    values = turning.move_values(state, state.current_player(), nodes)
    if any(value == turning.OPEN for value, _ in values.values()):
        return None
    return {move: value == turning.WON for move, (value, _) in values.items()}


def labelled_positions(
    records: Iterable[dict[str, Any]],
    *,
    rng: random.Random,
    nodes: int,
    first_ply: int,
    last_ply: int,
) -> Iterator[LabelledPosition]:
    """One position of each game of ``records`` (a ply drawn from ``first_ply`` to
    ``last_ply``), where it has two moves or more and all of them are proven."""
    for record in records:
        moves: list[str] = record["moves"]
        if len(moves) <= first_ply:
            continue
        ply = rng.randint(first_ply, min(last_ply, len(moves) - 1))
        state = turning.replay(moves[:ply])[-1]
        if state.is_terminal() or PASS in state.legal_actions():
            continue
        if len(state.legal_actions()) < 2:
            continue
        winning = label(state, nodes)
        if winning is not None:
            yield LabelledPosition(tuple(moves[:ply]), winning)


def training_rows(positions: Iterable[LabelledPosition]) -> list[tuple[Matrix, Matrix]]:
    """Each informative position's feature rows and its moves' labels (1.0 a winning move)."""
    rows = []
    for position in positions:
        if not position.informative():
            continue
        state = turning.replay(list(position.moves))[-1]
        moves = list(position.winning)
        won = np.array([1.0 if position.winning[move] else 0.0 for move in moves])
        rows.append((feature_rows(state, moves), won))
    return rows


def _shares(weights: Matrix, features: Matrix) -> Matrix:
    """The policy's probability of each move (a softmax of the scores)."""
    scores = features @ weights
    scores -= scores.max()
    weight = np.exp(scores)
    result: Matrix = weight / weight.sum()
    return result


def winning_mass(weights: Matrix, rows: Sequence[tuple[Matrix, Matrix]]) -> float:
    """The mean probability the policy puts on the winning moves of each position."""
    if not rows:
        return 0.0
    return float(np.mean([(_shares(weights, features) * won).sum() for features, won in rows]))


def fit(rows: Sequence[tuple[Matrix, Matrix]], *, steps: int = 400, rate: float = 0.5) -> Matrix:
    """The weights that maximise the log-probability of drawing a winning move,
    averaged over the positions (gradient ascent from zero: uniform play)."""
    weights = np.zeros(kernel.NUM_FEATURES)
    for _ in range(steps):
        gradient = np.zeros(kernel.NUM_FEATURES)
        for features, won in rows:
            shares = _shares(weights, features)
            on_winning = shares * won
            mass = on_winning.sum()
            gradient += on_winning @ features / mass - shares @ features
        weights += rate * gradient / max(len(rows), 1)
    return weights


def add_sample_arguments(parser: argparse.ArgumentParser, *, positions: int) -> None:
    """The arguments choosing the labelled positions of :func:`sampled_positions`."""
    parser.add_argument("files", nargs="+", type=Path, help="checkpoint lines with moves")
    parser.add_argument("--positions", type=int, default=positions, help="labelled positions")
    parser.add_argument("--nodes", type=int, default=300_000, help="solver positions a move")
    parser.add_argument("--first-ply", type=int, default=10)
    parser.add_argument("--last-ply", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1)


def sampled_positions(args: argparse.Namespace) -> list[LabelledPosition]:
    """Up to ``args.positions`` labelled positions of the games in ``args.files``, in an
    order drawn with ``args.seed`` (:func:`add_sample_arguments`)."""
    rng = random.Random(args.seed)
    records = list(turning.game_records(sorted(args.files), all_games=True))
    rng.shuffle(records)
    found = labelled_positions(
        records, rng=rng, nodes=args.nodes, first_ply=args.first_ply, last_ply=args.last_ply
    )
    return [position for _, position in zip(range(args.positions), found, strict=False)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_sample_arguments(parser, positions=1100)
    args = parser.parse_args(argv)
    positions = sampled_positions(args)
    rows = training_rows(positions)
    held = int(len(rows) * HELD_OUT)
    fitted, kept = rows[held:], rows[:held]
    weights = fit(fitted)
    uniform = np.zeros(kernel.NUM_FEATURES)
    print(f"{len(positions)} positions labelled, {len(rows)} with winning and losing moves")
    for name, part in (("fitted", fitted), ("held out", kept)):
        print(
            f"{name}: {len(part)} positions, winning moves drawn {winning_mass(weights, part):.3f}"
            f" (uniform {winning_mass(uniform, part):.3f})"
        )
    print("POLICY = [" + ", ".join(f"{weight:.2f}" for weight in weights) + "]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
