"""Ishigaki Race's part of ``stairgames solve``: the max^n solution of one wall and
player count, kept where the ``perfect`` player finds it.

``stairgames solve ishigaki_race --players 4 --crumbling-wall`` solves the race for
that many ninjas (:mod:`.maxn`: every seat maximising its own chance of winning),
prints each seat's chance of winning from the start, the sweeps it took to settle and
the time, and saves the table in the output folder (by default
:func:`.solutions.cache_dir`, where players look). The game's options say which wall
(``--goal``, ``--crumbling-wall``, ``--crumbling-squares``). Two and three players are
solved on demand anyway; four take seconds to a minute, shown by a progress line of
the sweeps, the largest change of a chance in the last one, and (while it falls
steadily) the sweeps and time left until it is below the tolerance.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Final

from stairgames.core.progress import Meter
from stairgames.core.solvers import SolveCommand, SolveRequest, report_saved
from stairgames.games.ishigaki_race.research import maxn, solutions
from stairgames.i18n import _


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    del parser  # the game's own options (--players, --goal, --crumbling-wall) say it all


def _run(request: SolveRequest) -> int:
    board = request.game.board  # type: ignore[attr-defined]
    players = request.game.num_players()
    if request.resume and solutions.cached(board, players, request.out) is not None:
        print(_("Already solved in {folder}").format(folder=request.out))
        return 0
    started = time.perf_counter()
    meter = Meter(request.stderr, _("sweeps"))
    try:
        with meter.ticking():
            solved = maxn.compute(board, players, progress=_sweep_progress(meter))
    finally:
        meter.end()
    path = solutions.save(solved, request.out)
    chances = "  ".join(f"{chance:.2%}" for chance in solved.start_chances())
    print(_("Chances of winning by place in turn order: {chances}").format(chances=chances))
    print(_("Settled after {sweeps} sweeps of the race").format(sweeps=solved.sweeps))
    report_saved(path, time.perf_counter() - started)
    return 0


TREND: Final = 20
"""The sweeps over which the fall of the largest change is measured."""


def _sweep_progress(meter: Meter) -> maxn.SweepProgress:
    """Each sweep on ``meter``, with the largest change of a chance in it and, while the
    change falls steadily, the sweeps it takes to fall below :data:`.maxn.TOLERANCE`
    (from its fall over the last :data:`TREND` sweeps) as the total."""
    changes: list[float] = []

    def show(sweeps: int, change: float) -> None:
        changes.append(change)
        meter.total = _settled_after(sweeps, changes[-TREND - 1 :])
        detail = _("largest change {change}").format(change=f"{change:.1e}")
        meter.update(sweeps, detail=detail)

    return show


def _settled_after(sweeps: int, changes: list[float]) -> int | None:
    """The sweeps after which the change falls below the tolerance, if it goes on
    falling as it did over ``changes`` (the last ones, at the same rate a sweep); None
    while it does not fall."""
    if len(changes) < 2 or not 0 < changes[-1] < changes[0]:
        return None
    factor = (changes[-1] / changes[0]) ** (1 / (len(changes) - 1))
    if changes[-1] < maxn.TOLERANCE:
        return sweeps
    return sweeps + math.ceil(math.log(maxn.TOLERANCE / changes[-1]) / math.log(factor))


SOLVE_COMMAND = SolveCommand(add_arguments=_add_arguments, run=_run)
"""What ``stairgames solve ishigaki_race`` runs."""
