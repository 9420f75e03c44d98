"""What the learned evaluation knows of a position, set against random playouts: the
estimators of :mod:`..playout_signal` with the network among them.

On positions of recorded games whose every move the endgame solver proves
(:func:`..policy.sampled_positions`), each move's position is valued by ``net`` (the
network's chance that the mover wins it) and by ``uniform:N`` (the share of ``N``
random playouts it wins), and each estimator is scored by the share of (winning,
losing) move pairs it orders rightly and of positions whose most valued move wins
(:func:`..playout_signal.score`)::

    python -m stairgames.games.stairs.research.learn.signal \\
        benchmarks/results/strength-*stairs*.jsonl.gz [--positions 400] [--weights W.npz]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from stairgames.core import uct
from stairgames.games.stairs.research import endgame_kernel as ek
from stairgames.games.stairs.research import playout_signal, policy
from stairgames.games.stairs.research.learn import kernel, net


def net_estimate(weights: kernel.Weights) -> playout_signal.Estimate:
    """The ``net`` estimator: the network's chance that ``colour`` wins the position."""

    def value(s: ek.Array, colour: int) -> float:
        mover = kernel.mover_value(s, playout_signal.CONSTANTS, weights)
        return mover if int(s[ek.TO_MOVE]) == colour else 1.0 - mover

    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    policy.add_sample_arguments(parser, positions=400)
    parser.add_argument("--playouts", type=int, default=8, help="N of uniform:N and 8N")
    parser.add_argument("--weights", type=Path, help="a network's .npz (default: shipped)")
    args = parser.parse_args(argv)
    weights = net.load(args.weights) if args.weights else net.shipped()
    positions = policy.sampled_positions(args)
    uct.seed(args.seed)
    n = args.playouts
    estimators = [
        (f"uniform:{n}", playout_signal.playout_share(n, guided=False)),
        (f"uniform:{8 * n}", playout_signal.playout_share(8 * n, guided=False)),
        ("net", net_estimate(weights)),
    ]
    print(f"{len(positions)} positions labelled (plies {args.first_ply}-{args.last_ply})")
    print("| estimator | positions | pairs ordered | best move wins |")
    print("|---|---:|---:|---:|")
    for name, estimate in estimators:
        result = playout_signal.score(name, positions, estimate)
        print(f"| {name} | {result.positions} | {result.pairs:.3f} | {result.best:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
