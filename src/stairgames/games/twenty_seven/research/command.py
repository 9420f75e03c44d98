"""27's part of ``stairgames solve``: the retrograde solver (:mod:`.retrograde`) run from
the command line, with a progress bar and a report of the result.

``stairgames solve twenty_seven --variant basic`` solves the whole basic game (about
19 GB and days of one core); ``--fields`` and ``--discs`` solve a reduced game,
``--from`` and ``--after`` the game from one position on, and ``--resume`` goes on
from a table an earlier run left (Ctrl-C saves it).
"""

from __future__ import annotations

import argparse
from typing import Final, TextIO

from stairgames.core.errors import InvalidOptionError
from stairgames.core.progress import ProgressLine, bar
from stairgames.core.solvers import SolveCommand, SolveRequest
from stairgames.games.twenty_seven import rules
from stairgames.games.twenty_seven.game import TwentySevenGame
from stairgames.games.twenty_seven.research.reduced import (
    Size,
    initial_line,
    line_from_text,
    play_moves,
)
from stairgames.games.twenty_seven.research.retrograde import (
    DEFAULT_MEMORY,
    Progress,
    ProgressCallback,
    solve,
)
from stairgames.games.twenty_seven.research.storage import Table
from stairgames.i18n import N_, _


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--fields", type=int, default=rules.INITIAL_FIELDS, help=_("a reduced game: fields (2-9)")
    )
    parser.add_argument(
        "--discs", type=int, default=9, help=_("a reduced game: discs of each colour (1-9)")
    )
    parser.add_argument(
        "--from",
        dest="from_position",
        metavar="POSITION",
        help=_("solve from this position (its text) instead of the start"),
    )
    parser.add_argument(
        "--after", metavar="MOVES", default="", help=_("solve from the start after these moves")
    )
    parser.add_argument(
        "--proof-only",
        action="store_true",
        help=_(
            "prove the root's value only (a position's other moves are skipped once one "
            "wins); the perfect player needs the complete table"
        ),
    )
    parser.add_argument(
        "--memory",
        type=float,
        default=DEFAULT_MEMORY / 2**30,
        metavar="GIB",
        help=_("the most memory (and disk) the table may take, in GiB"),
    )
    parser.add_argument(
        "--stop-after",
        type=int,
        metavar="N",
        help=_("stop (resumable) once N positions are solved in this run"),
    )


def _run_command(request: SolveRequest) -> int:
    game = request.game
    assert isinstance(game, TwentySevenGame)
    if game.variant != "basic":
        raise InvalidOptionError(
            message_id=N_(
                "the retrograde solver covers the basic game only (fields leave the line in the "
                "{variant} game); use --variant basic"
            ),
            arguments={"variant": game.variant},
        )
    arguments = request.arguments
    if arguments.jobs != 1 or arguments.ray_address:
        raise InvalidOptionError(
            message_id=N_(
                "the 27 solver runs in one process (its parts would share one table); "
                "leave out --jobs and --ray-address"
            )
        )
    size = Size(arguments.fields, arguments.discs)
    root = initial_line(size)
    if arguments.from_position:
        root = line_from_text(arguments.from_position)
    root = play_moves(root, arguments.after)
    table = solve(
        request.out,
        size,
        root,
        complete=not arguments.proof_only,
        resume=request.resume,
        memory=int(arguments.memory * 2**30),
        stop_after=arguments.stop_after,
        progress=_progress_bar(request.stderr),
    )
    if request.stderr.isatty():
        request.stderr.write("\n")  # below the progress bar
    return _report(table)


def _progress_bar(stream: TextIO) -> ProgressCallback:
    """The progress of a solve on ``stream``: a bar of the share searched, the positions
    stored, their rate and the seconds (in a log, every 10 s of solving)."""
    progress = ProgressLine(stream)
    shown = [0.0]

    def show(solved: Progress) -> None:
        line = _("[{bar}] {share} of the tree  {stored} positions  {rate}/s  {seconds} s").format(
            bar=bar(solved.share, 1),
            share=f"{100 * solved.share:5.1f}%",
            stored=f"{solved.stored:,}",
            rate=f"{solved.stored / max(solved.seconds, 1e-9):,.0f}",
            seconds=f"{solved.seconds:.0f}",
        )
        due = solved.seconds - shown[0] >= 10 or solved.share >= 1
        progress.show(line, due=due)
        if due:
            shown[0] = solved.seconds

    return show


RESULT_TEXTS: Final = {1: N_("white wins"), 0: N_("draw"), -1: N_("black wins")}


def _report(table: Table) -> int:
    meta = table.meta
    facts = {
        "fields": meta["fields"],
        "discs": meta["discs"],
        "root": meta["root"],
        "stored": f"{meta['stored']:,}",
        "folder": str(table.folder),
        "seconds": f"{meta['seconds']:.1f}",
    }
    if meta["result"] is not None:
        white = meta["result"] if meta["root"].endswith(rules.WHITE) else -meta["result"]
        facts["result"] = _(RESULT_TEXTS[white])
        print(
            _(
                "27, basic, {fields} fields, {discs} discs of each colour, from {root}: "
                "{result} under perfect play.\n{stored} positions in {folder} ({seconds} s)."
            ).format(**facts)
        )
        return 0
    if meta["stopped"] == "memory":
        print(
            _(
                "Stopped: the table needs more than the memory allowed (--memory); {stored} "
                "positions are saved in {folder}: go on with --resume and a larger --memory."
            ).format(**facts)
        )
        return 1
    print(
        _(
            "Stopped: {stored} positions are saved in {folder} ({seconds} s); the same command "
            "with --resume goes on."
        ).format(**facts)
    )
    return 130 if meta["stopped"] == "interrupted" else 0


SOLVE_COMMAND: Final = SolveCommand(add_arguments=_add_arguments, run=_run_command)
"""27's part of ``stairgames solve``."""
