"""Ishigaki Race's part of ``stairgames solve``: the max^n solution of one wall and
player count, kept where the ``perfect`` player finds it.

``stairgames solve ishigaki_race --players 4 --crumbling-wall`` solves the race for
that many ninjas (:mod:`.maxn`: every seat maximising its own chance of winning),
prints each seat's chance of winning from the start and the time, and saves the
table in the output folder (by default :func:`.maxn.cache_dir`). Two and three
players are solved on demand anyway; four take seconds to a minute.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from stairgames.core.solvers import SolveCommand, SolveRequest, solved_dir
from stairgames.games.ishigaki_race import maxn
from stairgames.i18n import _


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    del parser  # the game's own options (--players, --crumbling-wall) say it all


def _run(request: SolveRequest) -> int:
    board = request.game.board  # type: ignore[attr-defined]
    players = request.game.num_players()
    if request.resume and maxn.cached(board, players) is not None:
        print(_("Already solved in {folder}").format(folder=maxn.cache_dir()))
        return 0
    started = time.perf_counter()
    solved = maxn.compute(board, players)
    path = maxn.save(solved, _folder(request))
    chances = "  ".join(f"{chance:.2%}" for chance in solved.start_chances())
    print(_("Chances of winning by place in turn order: {chances}").format(chances=chances))
    print(
        _("Saved to {path}; took {seconds} s").format(
            path=path, seconds=f"{time.perf_counter() - started:.2f}"
        )
    )
    return 0


def _folder(request: SolveRequest) -> Path:
    """``--out``, or where players look (:func:`.maxn.cache_dir`, which
    ``$STAIRGAMES_CACHE_DIR`` may move) when ``--out`` is the command's default."""
    if request.out == solved_dir() / "ishigaki_race":
        return maxn.cache_dir()
    return request.out


SOLVE_COMMAND = SolveCommand(add_arguments=_add_arguments, run=_run)
"""What ``stairgames solve ishigaki_race`` runs."""
