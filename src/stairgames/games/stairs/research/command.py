"""Stairs's part of ``stairgames solve``: a board solved from the start.

``stairgames solve stairs --size 4`` (add ``--pie-rule`` for the game with the pie
rule, S6) runs the compiled exact search (:mod:`.anysize`) over every first move,
prints who wins under perfect play, the winning first moves, the positions searched
and the time, and saves the result as JSON in the output folder
(``stairs-4.json``, ``stairs-4-pie.json``). Boards of 3×3 and 4×4 take well under a
second; 5×5 (a first-player win, ``docs/analysis.md``) takes 2.6 billion positions,
some 40 minutes of one core, and is tried only with ``--try-larger``; 6×6 and larger
are refused.

``--parts`` (and every 5×5 solve) splits the work into one part a group of symmetric
first moves (:func:`.anysize.first_move_classes`), each solved by the exact search
with a table of its own, in this process, over ``--jobs`` processes or on a Ray
cluster. Each part is kept in ``stairs-SIZE.parts.json`` as it ends, so an interrupted
run goes on with ``--resume``. With ``--pie-rule`` a 5×5 board's pie-rule game follows
from the parts (:func:`.anysize.pie_rule_from`).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import time
from pathlib import Path

from stairgames.core.errors import InvalidOptionError
from stairgames.core.progress import Meter, terminate_as_interrupt
from stairgames.core.solvers import (
    SolveCommand,
    SolveRequest,
    TaskMap,
    in_process,
    report_saved,
    write_json,
)
from stairgames.games.stairs.game import StairsGame
from stairgames.games.stairs.research import anysize
from stairgames.i18n import N_, _

LARGEST_SOLVED = 4
"""The largest board solved from the start without asking (in under a second)."""
LARGEST_TRIED = 5
"""The largest board ``--try-larger`` attempts (6×6 is far beyond one machine)."""


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--try-larger",
        action="store_true",
        help=_("solve a 5×5 board (2.6 billion positions, some 40 minutes of one core)"),
    )
    parser.add_argument(
        "--parts",
        action="store_true",
        help=_(
            "solve each group of symmetric first moves as an independent part, over --jobs "
            "processes or a Ray cluster (--ray-address), keeping each part as it ends "
            "(--resume goes on); with --pie-rule on 5×5 the pie-rule game follows from it; "
            "always on for 5×5"
        ),
    )


def _check_size(size: int, try_larger: bool) -> None:
    if size <= LARGEST_SOLVED or (size <= LARGEST_TRIED and try_larger):
        return
    if size <= LARGEST_TRIED:
        raise InvalidOptionError(
            message_id=N_(
                "solving every first move of a {size}×{size} board takes some 40 minutes "
                "of one core (2.6 billion positions); add --try-larger to run it"
            ),
            arguments={"size": size},
        )
    raise InvalidOptionError(
        message_id=N_(
            "a {size}×{size} board is far beyond one machine (docs/analysis.md); "
            "boards up to {largest}×{largest} can be solved, e.g. --size 4"
        ),
        arguments={"size": size, "largest": LARGEST_SOLVED},
    )


def _run(request: SolveRequest) -> int:
    game = request.game
    assert isinstance(game, StairsGame)
    size, pie_rule = game.options.size, game.options.pie_rule
    _check_size(size, request.arguments.try_larger)
    started = time.perf_counter()
    if pie_rule and size <= LARGEST_SOLVED:
        result = anysize.solve_pie_rule(size)
    elif request.arguments.parts or size > LARGEST_SOLVED:
        try:
            result = _solve_in_parts(request, size)
        except KeyboardInterrupt:  # Ctrl-C, or kill: run_tasks stops its workers
            print(
                _("Interrupted: the parts solved are kept; --resume goes on"),
                file=request.stderr,
            )
            return 130
        if pie_rule:
            _save(request, result)  # the game without the pie rule, as it was solved
            result = anysize.pie_rule_from(result)
    else:
        result = anysize.solve_start(size)
    seconds = time.perf_counter() - started
    print(_format(result))
    report_saved(_save(request, result), seconds)
    return 0


def _save(request: SolveRequest, result: anysize.StartValue) -> Path:
    """Keep ``result`` as JSON in the output folder (``stairs-SIZE[-pie].json``)."""
    request.out.mkdir(parents=True, exist_ok=True)
    path = request.out / f"stairs-{result.size}{'-pie' if result.pie_rule else ''}.json"
    write_json(path, dataclasses.asdict(result))
    return path


def _solve_in_parts(request: SolveRequest, size: int) -> anysize.StartValue:
    """The board solved in parts, each part kept in the record as it ends (the record
    of an earlier run taken up with ``--resume``, else started afresh), with a progress
    line of the positions searched (of those the parts took when measured, where
    known: :func:`.anysize.measured_positions`)."""
    record = request.out / f"stairs-{size}.parts.json"
    done = _read_parts(record) if request.resume else []
    request.out.mkdir(parents=True, exist_ok=True)
    _write_parts(record, done)
    groups = anysize.first_move_classes(size)
    kept = {part.moves for part in done}
    todo = [moves for moves in groups if moves not in kept]
    meter = Meter(request.stderr, _("positions"), total=_expected_positions(size, done, todo))
    meter.note(
        _(
            "{size}×{size}: {total} groups of symmetric first moves, {done} solved before; "
            "each part is kept in {path} as it ends"
        ).format(size=size, total=len(groups), done=len(done), path=record)
    )
    started = time.perf_counter()

    def searched() -> int:
        return sum(part.nodes for part in done)

    def keep(part: anysize.PartValue) -> None:
        done.append(part)
        _write_parts(record, done)
        line = _("[{done}/{total} parts, {elapsed} s] {part}").format(
            done=len(done),
            total=len(groups),
            elapsed=f"{time.perf_counter() - started:.0f}",
            part=_format_part(part),
        )
        meter.note(line)
        meter.update(searched(), detail=_parts_detail(len(done), len(groups)))

    meter.update(searched(), detail=_parts_detail(len(done), len(groups)))
    try:
        with meter.ticking():
            map_tasks: TaskMap = request.map_tasks
            if _one_job(request):
                with terminate_as_interrupt():
                    for moves in todo:
                        keep(_watched_part(size, moves, meter, searched(), len(done)))
                map_tasks = in_process  # every part is solved: the value follows
            return anysize.solve_start_in_parts(size, map_tasks, done=tuple(done), on_part=keep)
    finally:
        meter.end()


def _one_job(request: SolveRequest) -> bool:
    """Whether the parts are solved in this process (no ``--jobs`` above 1, no Ray)."""
    return request.arguments.jobs == 1 and not request.arguments.ray_address


def _watched_part(
    size: int, moves: tuple[str, ...], meter: Meter, before: int, solved: int
) -> anysize.PartValue:
    """The part ``moves`` solved here, its positions shown by ``meter`` as they are
    searched (after ``before`` of the parts already solved); Ctrl-C or SIGTERM stops it
    at once (:func:`.anysize.watched_part`)."""
    detail = _("part {number}: {move}").format(number=solved + 1, move=moves[0])

    def watch(positions: int) -> None:
        meter.update(before + positions, detail=detail)

    return anysize.watched_part(size, moves, watch)


def _parts_detail(solved: int, total: int) -> str:
    return _("{solved}/{total} parts").format(solved=solved, total=total)


def _expected_positions(
    size: int, done: list[anysize.PartValue], todo: list[tuple[str, ...]]
) -> int | None:
    """The positions the whole solve takes: those of the parts solved, and those the
    others took when measured (None where one of them was never measured)."""
    measured = [anysize.measured_positions(size, moves) for moves in todo]
    if any(positions is None for positions in measured):
        return None
    return sum(part.nodes for part in done) + sum(p for p in measured if p is not None)


def _read_parts(record: Path) -> list[anysize.PartValue]:
    """The parts kept in ``record`` (none when it does not exist yet)."""
    if not record.exists():
        return []
    try:
        rows = json.loads(record.read_text(encoding="utf-8"))
        return [
            anysize.PartValue(tuple(row["moves"]), row["winner"], row["nodes"], row["seconds"])
            for row in rows
        ]
    except (ValueError, KeyError, TypeError) as error:
        raise InvalidOptionError(
            message_id=N_("{path} is not a record of solved parts ({error}); remove it"),
            arguments={"path": str(record), "error": str(error)},
        ) from error


def _write_parts(record: Path, parts: list[anysize.PartValue]) -> None:
    """Replace ``record`` with ``parts`` at once (a run stopped mid-write loses nothing)."""
    write_json(record, [dataclasses.asdict(part) for part in parts])


def _format_part(part: anysize.PartValue) -> str:
    winner = _("light") if part.winner == "L" else _("dark")
    return _("{moves}: {winner} wins ({nodes} positions, {seconds} s)").format(
        moves=" ".join(part.moves),
        winner=winner,
        nodes=f"{part.nodes:,}",
        seconds=f"{part.seconds:.0f}",
    )


def _format(result: anysize.StartValue) -> str:
    winner = {
        "L": _("light (the first player)"),
        "D": _("dark (the second player)"),
        "first": _("the first player"),
        "second": _("the second player"),
    }[result.winner]
    rule = _("with the pie rule") if result.pie_rule else _("without the pie rule")
    lines = [
        _("{size}×{size} Stairs, {rule}: {winner} wins under perfect play").format(
            size=result.size, rule=rule, winner=winner
        ),
        _("winning first moves: {moves}").format(
            moves=" ".join(result.winning_first_moves) or _("none")
        ),
        _("positions searched: {nodes}").format(nodes=f"{result.nodes:,}"),
    ]
    return "\n".join(lines)


SOLVE_COMMAND = SolveCommand(add_arguments=_add_arguments, run=_run)
"""What ``stairgames solve stairs`` runs."""
