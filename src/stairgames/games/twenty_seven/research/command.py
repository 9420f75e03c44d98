"""27's part of ``stairgames solve``: the retrograde solver (:mod:`.retrograde`) run from
the command line, with a progress bar and a report of the result.

``stairgames solve twenty_seven --variant basic`` solves the whole basic game (about
19 GB and days of one core); ``--fields`` and ``--discs`` solve a reduced game,
``--from`` and ``--after`` the game from one position on, and ``--resume`` goes on
from a table an earlier run left (Ctrl-C saves it). The progress line counts the
positions stored, the unit of work that moves from the first chunk on: from the start
of a size, of about as many as the measured share of its arrangements
(:func:`expected_positions`), with the time left; from another position, whose reach
is not known before it is searched, the count, its rate, the time and the table's size.
"""

from __future__ import annotations

import argparse
from typing import Final

from stairgames.core.errors import InvalidOptionError
from stairgames.core.progress import Meter, byte_text
from stairgames.core.solvers import SolveCommand, SolveRequest, report
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
    expected = expected_positions(size, root, complete=not arguments.proof_only)
    meter = Meter(request.stderr, _("positions"), total=expected, approximate=True)
    table = solve(
        request.out,
        size,
        root,
        complete=not arguments.proof_only,
        resume=request.resume,
        memory=int(arguments.memory * 2**30),
        stop_after=arguments.stop_after,
        progress=_progress_bar(meter),
    )
    meter.end()  # what follows goes below the progress line
    return _report(table)


REACHABLE_SHARE: Final = 0.64
"""The share of a size's arrangements (:attr:`.reduced.Size.positions`) that the complete
solve from the start stores: 51 %, 59 %, 63 % and 64 % with 3 to 6 discs a colour
(``docs/analysis.md``), growing toward the real game's."""
PROOF_SHARE: Final = 0.39
"""The share of what the complete solve stores that a proof stores (38–39 % with 4 to 6
discs)."""


def expected_positions(size: Size, root: rules.Line, complete: bool) -> int | None:
    """About how many positions the solve of ``root`` stores, where that can be told:
    from the start of its size, the measured share of the arrangements
    (:data:`REACHABLE_SHARE`, :data:`PROOF_SHARE`); None from any other position (what
    it reaches is not known before it is searched)."""
    if root != initial_line(size):
        return None
    share = REACHABLE_SHARE if complete else REACHABLE_SHARE * PROOF_SHARE
    return max(1, round(share * size.positions))


def _progress_bar(meter: Meter) -> ProgressCallback:
    """The progress of a solve on ``meter``: the positions stored (of about as many as
    it expects, where known, with a bar and the time left), their rate, the time and
    the table's size (in a log, every 10 s of solving)."""

    def show(solved: Progress) -> None:
        if meter.total is not None and solved.stored >= meter.total:
            meter.total = None  # more than expected: the count goes on without a bar
        table = _("table {size}").format(size=byte_text(solved.table_bytes))
        meter.update(solved.stored, detail=table, last=solved.share >= 1)

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
        report(
            _(
                "27, basic, {fields} fields, {discs} discs of each colour, from {root}: "
                "{result} under perfect play.\n{stored} positions in {folder} ({seconds} s)."
            ).format(**facts)
        )
        return 0
    if meta["stopped"] == "memory":
        report(
            _(
                "Stopped: the table needs more than the memory allowed (--memory); {stored} "
                "positions are saved in {folder}: go on with --resume and a larger --memory."
            ).format(**facts)
        )
        return 1
    report(
        _(
            "Stopped: {stored} positions are saved in {folder} ({seconds} s); the same command "
            "with --resume goes on."
        ).format(**facts)
    )
    return 130 if meta["stopped"] == "interrupted" else 0


SOLVE_COMMAND: Final = SolveCommand(add_arguments=_add_arguments, run=_run_command)
"""27's part of ``stairgames solve``."""
