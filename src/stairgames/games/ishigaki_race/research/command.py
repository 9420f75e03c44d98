"""Ishigaki Race's part of ``stairgames solve``: the max^n solution of one wall and
player count, kept where the ``perfect`` player finds it.

``stairgames solve ishigaki_race --players 4 --crumbling-wall`` solves the race for
that many ninjas (:mod:`.maxn`: every seat maximising its own chance of winning),
prints each seat's chance of winning from the start, the sweeps it took to settle and
the time, and saves the table in the output folder (by default
:func:`.solutions.cache_dir`, where players look). The game's options say which wall
(``--goal``, ``--crumbling-wall``, ``--crumbling-squares``). Two and three players are
solved on demand anyway; four take seconds to a minute.
"""

from __future__ import annotations

import argparse
import time

from stairgames.core.solvers import SolveCommand, SolveRequest
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
    solved = maxn.compute(board, players)
    path = solutions.save(solved, request.out)
    chances = "  ".join(f"{chance:.2%}" for chance in solved.start_chances())
    print(_("Chances of winning by place in turn order: {chances}").format(chances=chances))
    print(_("Settled after {sweeps} sweeps of the race").format(sweeps=solved.sweeps))
    print(
        _("Saved to {path}; took {seconds} s").format(
            path=path, seconds=f"{time.perf_counter() - started:.2f}"
        )
    )
    return 0


SOLVE_COMMAND = SolveCommand(add_arguments=_add_arguments, run=_run)
"""What ``stairgames solve ishigaki_race`` runs."""
