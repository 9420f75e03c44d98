"""Stairs' part of ``stairgames train``: self-play games, then the network trained on them.

``stairgames train stairs --games 2000 --epochs 10 --seed 0 --out value.npz`` plays the
games (:mod:`.selfplay`; ``--iterations`` a move, ``--search-share`` of the search's value
in the labels), holds out the last ``--held-out``
share of them, trains (:mod:`.train`, JAX: ``--batch``, ``--learning-rate``), and saves
the weights with a JSON file beside them saying how they were made (:func:`.net.save`).
The weights shipped with the package were made this way (``docs/agents.md``).

``--policy VALUE.npz`` (``shipped``: the package's network) trains a policy head over
that network's hidden layers instead, on the same self-play's visit shares, and saves it
(``policy.npz``: :func:`.net.load_policy`); the value network is left as it is.
"""

from __future__ import annotations

import argparse
import datetime
import os
import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from stairgames.core.errors import InvalidOptionError
from stairgames.core.progress import Meter
from stairgames.core.training import TrainCommand, TrainRequest
from stairgames.games.stairs.research.learn import net, selfplay, train
from stairgames.games.stairs.research.learn.kernel import Weights
from stairgames.i18n import N_, _


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--iterations",
        type=int,
        default=selfplay.SelfPlay.iterations,
        metavar="N",
        help=_("the self-play search's iterations a move (default {n})").format(
            n=selfplay.SelfPlay.iterations
        ),
    )
    parser.add_argument(
        "--search-share",
        type=float,
        default=selfplay.SelfPlay.search_share,
        metavar="SHARE",
        help=_(
            "the share of the search's value in a searched position's label, the rest the "
            "game's result (default {share})"
        ).format(share=selfplay.SelfPlay.search_share),
    )
    parser.add_argument(
        "--batch",
        type=int,
        default=train.Training.batch,
        metavar="B",
        help=_("positions a training step (default {n})").format(n=train.Training.batch),
    )
    parser.add_argument(
        "--learning-rate",
        type=float,
        default=train.Training.learning_rate,
        metavar="R",
        help=_("Adam's step size (default {r})").format(r=train.Training.learning_rate),
    )
    parser.add_argument(
        "--policy",
        metavar="VALUE.npz",
        default=None,
        help=_(
            "train a policy head over the inputs and hidden layers of this value network "
            "('shipped': the package's) instead of a value network"
        ),
    )
    parser.add_argument(
        "--positions",
        metavar="FILE.npz",
        default=None,
        help=_(
            "keep the self-play positions in this file, or train on those it holds "
            "instead of playing"
        ),
    )
    parser.add_argument(
        "--held-out",
        type=float,
        default=0.1,
        metavar="SHARE",
        help=_("the share of the games kept out of training to measure it (default 0.1)"),
    )


def _check(request: TrainRequest) -> None:
    args = request.arguments
    for flag, value in (("--iterations", args.iterations), ("--batch", args.batch)):
        if value < 1:
            raise InvalidOptionError(
                message_id=N_("{flag} must be 1 or more, not {value}"),
                arguments={"flag": flag, "value": value},
            )
    if not 0.0 < args.learning_rate <= 1.0:
        raise InvalidOptionError(
            message_id=N_("--learning-rate must be above 0 and at most 1, not {value}"),
            arguments={"value": args.learning_rate},
        )
    if not 0.0 <= args.search_share <= 1.0:
        raise InvalidOptionError(
            message_id=N_("--search-share must be from 0 to 1, not {value}"),
            arguments={"value": args.search_share},
        )
    if not 0.0 <= args.held_out < 1.0:
        raise InvalidOptionError(
            message_id=N_("--held-out must be from 0 up to (not including) 1, not {value}"),
            arguments={"value": args.held_out},
        )
    if request.out.suffix != ".npz":
        raise InvalidOptionError(
            message_id=N_("--out must name a .npz file, not {path}"),
            arguments={"path": str(request.out)},
        )


def _trunk(named: str) -> Weights:
    """The value network named by ``--policy`` (``shipped``, or a ``.npz`` file)."""
    return net.shipped() if named == "shipped" else net.load(Path(named))


def _run(request: TrainRequest) -> int:
    _check(request)
    train.require_jax()  # before the games, not after them
    args = request.arguments
    trunk = None if args.policy is None else _trunk(args.policy)
    settings = selfplay.SelfPlay(iterations=args.iterations, search_share=args.search_share)
    started = time.perf_counter()
    meter = Meter(request.stderr, _("games"), total=request.games)
    kept = None if args.positions is None else Path(args.positions)
    if kept is not None and kept.exists():
        positions = selfplay.load(kept)
    else:
        with meter.ticking():
            positions = selfplay.play(
                request.games,
                request.seed,
                settings,
                on_game=lambda done: meter.update(done, last=done == request.games),
            )
        if kept is not None:
            selfplay.save(kept, positions)
    played = time.perf_counter() - started
    played_games = int(positions.games.max()) + 1 if len(positions) else 0
    held = positions.games >= round(played_games * (1.0 - args.held_out))  # the last games
    if held.all():
        held[:] = False  # too few games to hold any out
    if trunk is not None:
        return _run_policy(request, trunk, positions, held, played)
    held_out = (positions.inputs[held], positions.labels[held]) if held.any() else None
    meter = Meter(request.stderr, _("epochs"), total=request.epochs)

    def told(epoch: train.Epoch) -> None:
        detail = _("loss {loss}").format(loss=f"{epoch.loss:.4f}")
        if epoch.held_out_loss is not None:
            detail += " " + _("held out {loss}, {right}% named").format(
                loss=f"{epoch.held_out_loss:.4f}", right=f"{100 * (epoch.held_out_right or 0):.1f}"
            )
        meter.update(epoch.number, detail=detail, last=epoch.number == request.epochs)

    began = time.perf_counter()
    weights, history = train.train(
        positions.inputs[~held],
        positions.labels[~held],
        seed=request.seed,
        settings=train.Training(
            epochs=request.epochs, batch=args.batch, learning_rate=args.learning_rate
        ),
        held_out=held_out,
        on_epoch=told,
    )
    trained = time.perf_counter() - began
    last = history[-1]
    about = {
        **_about(request, played, trained),
        "positions": int((~held).sum()),
        "held_out_positions": int(held.sum()),
        "proven_labels": int(positions.proven.sum()),
        "loss": round(last.loss, 4),
        "held_out_loss": None if last.held_out_loss is None else round(last.held_out_loss, 4),
        "held_out_right": None if last.held_out_right is None else round(last.held_out_right, 4),
    }
    told_path = net.save(request.out, weights, about)
    _print_done(request, len(positions), played, trained, told_path)
    return 0


def _run_policy(
    request: TrainRequest,
    trunk: Weights,
    positions: selfplay.Positions,
    held: npt.NDArray[np.bool_],
    played: float,
) -> int:
    """Trains and saves the policy head over ``trunk`` on the positions with a target."""
    args = request.arguments
    targeted = positions.moves[:, 0] >= 0

    def targets(rows: npt.NDArray[np.bool_]) -> train.PolicyTargets:
        return positions.inputs[rows], positions.moves[rows], positions.shares[rows]

    meter = Meter(request.stderr, _("epochs"), total=request.epochs)

    def told(epoch: train.PolicyEpoch) -> None:
        detail = _("loss {loss}").format(loss=f"{epoch.loss:.4f}")
        if epoch.held_out_loss is not None:
            detail += " " + _("held out {loss}, {right}% named").format(
                loss=f"{epoch.held_out_loss:.4f}", right=f"{100 * (epoch.held_out_top or 0):.1f}"
            )
        meter.update(epoch.number, detail=detail, last=epoch.number == request.epochs)

    began = time.perf_counter()
    kept_out = held & targeted
    policy, history = train.train_policy(
        trunk,
        targets(~held & targeted),
        seed=request.seed,
        settings=train.Training(
            epochs=request.epochs, batch=args.batch, learning_rate=args.learning_rate
        ),
        held_out=targets(kept_out) if kept_out.any() else None,
        on_epoch=told,
    )
    trained = time.perf_counter() - began
    last = history[-1]
    about = {
        **_about(request, played, trained),
        "policy_of": args.policy,
        "positions": int((~held & targeted).sum()),
        "held_out_positions": int(kept_out.sum()),
        "loss": round(last.loss, 4),
        "held_out_loss": None if last.held_out_loss is None else round(last.held_out_loss, 4),
        "held_out_top": None if last.held_out_top is None else round(last.held_out_top, 4),
    }
    told_path = net.save(request.out, policy, about, names=net.POLICY_NAMES)
    _print_done(request, len(positions), played, trained, told_path)
    return 0


def _about(request: TrainRequest, played: float, trained: float) -> dict[str, Any]:
    """What every saved file says of its run."""
    args = request.arguments
    return {
        "game": "stairs",
        "board": 6,
        "games": request.games,
        "epochs": request.epochs,
        "seed": request.seed,
        "iterations": args.iterations,
        "search_share": args.search_share,
        "batch": args.batch,
        "learning_rate": args.learning_rate,
        "self_play_seconds": round(played, 1),
        "training_seconds": round(trained, 1),
        "cpus": os.cpu_count(),
        "framework": "jax " + train.require_jax().__version__,
        "command": request.command,
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%MZ"),
    }


def _print_done(
    request: TrainRequest, positions: int, played: float, trained: float, told: Path
) -> None:
    print(
        _(
            "{games} games ({positions} positions) in {played} s, {epochs} epochs in {trained} s"
        ).format(
            games=request.games,
            positions=positions,
            played=f"{played:.0f}",
            epochs=request.epochs,
            trained=f"{trained:.0f}",
        )
    )
    print(_("Saved to {path} and {about}").format(path=request.out, about=told))


TRAIN_COMMAND = TrainCommand(add_arguments=_add_arguments, default_out="value.npz", run=_run)
"""What ``stairgames train stairs`` runs."""
