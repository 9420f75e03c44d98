"""27 by retrograde analysis: tables of exact results, solved bottom-up, on disk.

Every move of 27 goes forward and lands exactly, so no position repeats
(``rules.progress``) and the game graph has no cycles: each position's result follows
from its children's. :func:`solve` gives every position reachable from a root (the
start, or any basic position) its result for the colour to move, win, draw or loss
(T5), children first, with the compiled search of :mod:`.retrograde_kernel` (2 bits a
position, positions ranked by a perfect hash; a black-to-move position is stored as
its mirror), and keeps the table in a folder:

- ``meta.json``: what was solved (size, root, counts, time, the root's result once
  known);
- ``codes.bin``: the 2-bit codes, memory-mapped;
- ``keys.bin`` (hashed tables only): the rank held by each slot of ``codes.bin``.

A table indexed directly by rank holds every arrangement of the discs (unreachable
ones too) and needs no keys; it is used while it fits the memory allowed. Otherwise
the table is hashed: a slot per position reached (8 bytes of key besides the 2 bits),
grown as the search goes. Only exact results are ever written, so the table on disk
is a checkpoint at any moment: :func:`solve` stops after a budget of positions (or
when interrupted) and goes on from the table when called again.

Reduced games (:class:`Size`: fewer fields and fewer discs of each colour, the same
rules) measure how the state space grows; ``docs/analysis.md`` has the figures.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import math
import signal
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final, TextIO

import numpy as np

from stairgames.core.errors import (
    IllegalMoveError,
    InvalidOptionError,
    InvalidPositionError,
    StairgamesError,
)
from stairgames.core.game import Game, State
from stairgames.core.solvers import SolveCommand, SolveRequest, solved_dir, write_json
from stairgames.games.twenty_seven import rules
from stairgames.games.twenty_seven.game import TwentySevenGame, TwentySevenState
from stairgames.games.twenty_seven.notation import decode_move, parse_move_text
from stairgames.games.twenty_seven.research import endgame_kernel as kernel
from stairgames.i18n import N_, _

FORMAT: Final = 1
"""The version of the folder's layout (``meta.json``'s ``format``)."""
GAME_TAG: Final = "twenty_seven"
FIRST_SLOTS: Final = 1 << 12
"""The slots a new hashed table starts with (it doubles as it fills)."""
MOST_FILLED: Final = 0.6
"""A hashed table grows before more than this share of its slots is in use."""
SLACK: Final = 1024
"""Slots a hashed table keeps free beyond a search's budget."""
DEFAULT_MEMORY: Final = 8 << 30
"""The most bytes a table may take by default (``--memory``)."""
SAVE_EVERY: Final = 30.0
"""Seconds between writes of the table to disk (its pages are written at the end and
on interruption too)."""


@dataclasses.dataclass(frozen=True)
class Size:
    """A basic 27 of ``fields`` fields (red, grey ones, red) and ``discs`` discs of each
    player's colour, white's on field 0 and black's on the last field: the real game
    is 9 and 9."""

    fields: int = rules.INITIAL_FIELDS
    discs: int = 9

    def __post_init__(self) -> None:
        if not 2 <= self.fields <= rules.INITIAL_FIELDS or not 1 <= self.discs <= 9:
            raise InvalidOptionError(
                message_id=N_(
                    "a reduced 27 has 2 to 9 fields and 1 to 9 discs of each colour, "
                    "not {fields} fields and {discs} discs"
                ),
                arguments={"fields": self.fields, "discs": self.discs},
            )

    @property
    def full(self) -> bool:
        return self == Size()

    @property
    def positions(self) -> int:
        """White-to-move arrangements (a black-to-move one is stored as its mirror):
        the ranks of a direct table."""
        discs = 2 * self.discs
        return math.comb(discs, self.discs) * math.comb(discs + self.fields - 1, self.fields - 1)

    @property
    def direct_bytes(self) -> int:
        """The bytes of a table with 2 bits for every rank."""
        return (self.positions + 3) // 4

    def name(self) -> str:
        return "basic" if self.full else f"basic-{self.fields}-fields-{self.discs}-discs"


def initial_line(size: Size) -> rules.Line:
    """T1 on ``size``: white's discs on the red field 0, black's on the last red field."""
    middle = (rules.GREY,) * (size.fields - 2)
    fields = (
        rules.RED + rules.WHITE * size.discs,
        *middle,
        rules.RED + rules.BLACK * size.discs,
    )
    return rules.Line(fields, rules.WHITE)


def check_line(line: rules.Line, size: Size) -> None:
    """Refuses a line that is not a basic line of ``size`` (its fields, bases and discs).

    :raises InvalidPositionError: saying what differs.
    """
    bases = [stack[0] for stack in line.fields]
    expected = [rules.RED, *([rules.GREY] * (size.fields - 2)), rules.RED]
    above = "".join(stack[1:] for stack in line.fields)
    if (
        bases != expected
        or set(above) - {rules.WHITE, rules.BLACK}
        or above.count(rules.WHITE) != size.discs
        or above.count(rules.BLACK) != size.discs
    ):
        raise InvalidPositionError(
            message_id=N_(
                "the solver takes basic lines of {fields} fields (red, grey, red bases) with "
                "{discs} white and {discs} black discs above them"
            ),
            arguments={"fields": size.fields, "discs": size.discs},
        )


def _kernel() -> types.ModuleType:
    """The compiled kernel, imported on first need (it loads numba)."""
    from stairgames.games.twenty_seven.research import retrograde_kernel

    return retrograde_kernel


def rank(line: rules.Line, size: Size) -> int:
    """The table rank of ``line`` (a black-to-move line ranks as its mirror)."""
    return int(_kernel().rank(kernel.line_array(line), size.discs))


def unrank(index: int, size: Size) -> rules.Line:
    """The white-to-move line of rank ``index`` (0 <= index < ``size.positions``)."""
    bases = np.array(
        [kernel.CODES[stack[0]] for stack in initial_line(size).fields], dtype=np.int64
    )
    s = np.zeros(kernel.SIZE, dtype=np.int64)
    _kernel().unrank(index, size.fields, size.discs, bases, s)
    return line_of(s)


def line_of(s: kernel.Array) -> rules.Line:
    """The :class:`rules.Line` of a line array."""
    letters = {code: letter for letter, code in kernel.CODES.items()}
    fields = tuple(
        "".join(letters[int(s[kernel.DISCS + f * kernel.LEVELS + i])] for i in range(height))
        for f, height in enumerate(s[kernel.HEIGHTS : kernel.HEIGHTS + int(s[kernel.FIELDS])])
    )
    return rules.Line(fields, rules.WHITE if s[kernel.TO_MOVE] == 0 else rules.BLACK)


def mirror(line: rules.Line) -> rules.Line:
    """The line seen from the other side: fields reversed, colours swapped (its value
    for the colour to move is the same)."""
    swap = {rules.WHITE: rules.BLACK, rules.BLACK: rules.WHITE}
    fields = tuple("".join(swap.get(d, d) for d in stack) for stack in reversed(line.fields))
    return rules.Line(fields, rules.opponent(line.to_move))


def position_text(line: rules.Line) -> str:
    """The position text of a line (the notation's, any size)."""
    return "/".join(line.fields) + " " + line.to_move


def line_from_text(text: str) -> rules.Line:
    """A line from its position text, any size (checked against a size by
    :func:`check_line`)."""
    parts = text.split()
    if len(parts) != 2 or parts[1] not in rules.PLAYER_COLOURS:
        raise InvalidPositionError(
            message_id=N_("a position is the fields separated by '/', a space, W or B: {text!r}"),
            arguments={"text": text},
        )
    return rules.Line(tuple(parts[0].split("/")), parts[1])


# ----- a table on disk ---------------------------------------------------------


@dataclasses.dataclass
class Table:
    """A table in its folder: ``meta`` (what ``meta.json`` holds) and the codes (and
    keys) memory-mapped."""

    folder: Path
    meta: dict[str, Any]
    codes: np.ndarray[Any, np.dtype[np.uint8]]
    keys: np.ndarray[Any, np.dtype[np.int64]]

    @property
    def size(self) -> Size:
        return Size(self.meta["fields"], self.meta["discs"])

    @property
    def hashed(self) -> bool:
        return bool(self.keys.shape[0] > 0)

    @property
    def root(self) -> rules.Line:
        return line_from_text(self.meta["root"])

    @property
    def finished(self) -> bool:
        return bool(self.meta["result"] is not None)

    def code(self, line: rules.Line) -> int:
        """The stored code of ``line``: 0 unknown, else its result for the colour to
        move + 2."""
        return int(
            _kernel().value_of(self.codes, self.keys, kernel.line_array(line), self.size.discs)
        )

    def save(self) -> None:
        """Writes the codes (and keys) and ``meta.json`` to disk."""
        _flush(self.codes)
        _flush(self.keys)
        write_json(self.folder / "meta.json", self.meta)

    @property
    def bytes(self) -> int:
        return int(self.codes.nbytes + self.keys.nbytes)


def _mapped(path: Path, dtype: type[np.generic], length: int, mode: str) -> Any:
    """The file at ``path`` as an array of ``length`` items (memory-mapped; a numpy
    memmap, which the compiled code takes as it is)."""
    if length == 0:
        return np.zeros(0, dtype=dtype)
    return np.memmap(str(path), dtype=dtype, mode=mode, shape=(length,))  # type: ignore[call-overload]


def _flush(array: Any) -> None:
    if isinstance(array, np.memmap):
        array.flush()


def open_table(folder: Path, *, writable: bool = False) -> Table:
    """The table in ``folder``.

    :raises InvalidOptionError: no table there, or one of another format.
    """
    try:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise InvalidOptionError(
            message_id=N_("no solved table of 27 in {folder}"), arguments={"folder": str(folder)}
        ) from error
    if meta.get("format") != FORMAT or meta.get("game") != GAME_TAG:
        raise InvalidOptionError(
            message_id=N_("{folder} holds a table of another kind or version"),
            arguments={"folder": str(folder)},
        )
    mode = "r+" if writable else "r"
    slots = int(meta["slots"])
    codes = _mapped(folder / "codes.bin", np.uint8, (slots + 3) // 4, mode)
    keys = _mapped(folder / "keys.bin", np.int64, slots if meta["hashed"] else 0, mode)
    return Table(folder, meta, codes, keys)


def _new_files(folder: Path, slots: int, hashed: bool) -> tuple[Any, Any]:
    """Creates zeroed (sparse) files for ``slots`` codes (and keys)."""
    for name, length in (("codes.bin", (slots + 3) // 4), ("keys.bin", slots * 8 * hashed)):
        with open(folder / name, "wb") as file:
            file.truncate(length)
    codes = _mapped(folder / "codes.bin", np.uint8, (slots + 3) // 4, "r+")
    keys = _mapped(folder / "keys.bin", np.int64, slots if hashed else 0, "r+")
    return codes, keys


def create_table(
    folder: Path,
    size: Size,
    root: rules.Line,
    *,
    complete: bool,
    memory: int,
    hashed: bool | None = None,
) -> Table:
    """A new, empty table in ``folder`` (created): ``hashed`` or not, or by default
    direct when it fits ``memory`` bytes, else hashed."""
    folder.mkdir(parents=True, exist_ok=True)
    if hashed is None:
        hashed = size.direct_bytes > memory
    slots = FIRST_SLOTS if hashed else size.positions
    codes, keys = _new_files(folder, slots, hashed)
    meta: dict[str, Any] = {
        "format": FORMAT,
        "game": GAME_TAG,
        "variant": "basic",
        "fields": size.fields,
        "discs": size.discs,
        "root": position_text(root),
        "complete": complete,
        "hashed": hashed,
        "slots": slots,
        "stored": 0,
        "finished_games": 0,
        "result": None,
        "seconds": 0.0,
        "share": 0.0,
        "stopped": None,
    }
    table = Table(folder, meta, codes, keys)
    table.save()
    return table


def _grow(table: Table) -> Table:
    """The hashed table with twice the slots (its files replaced)."""
    slots = 2 * int(table.meta["slots"])
    folder = table.folder
    staging = folder / "grow"
    staging.mkdir(exist_ok=True)
    codes, keys = _new_files(staging, slots, True)
    _kernel().rehash(table.codes, table.keys, codes, keys)
    _flush(codes)
    _flush(keys)
    del table.codes, table.keys
    for name in ("codes.bin", "keys.bin"):
        (staging / name).replace(folder / name)
    staging.rmdir()
    table.meta["slots"] = slots
    write_json(folder / "meta.json", table.meta)
    return open_table(folder, writable=True)


def table_folder(out: Path, size: Size, root: rules.Line) -> Path:
    """The folder of the table of ``root`` in ``out``: named after the size, and after
    the root when it is not the start."""
    name = size.name()
    if root != initial_line(size):
        digest = hashlib.sha256(position_text(root).encode()).hexdigest()[:12]
        name += f"-from-{digest}"
    return out / name


def tables_in(out: Path, size: Size) -> Iterator[Table]:
    """Every table of ``size`` in ``out`` (finished or not), read-only."""
    if not out.is_dir():
        return
    for folder in sorted(out.iterdir()):
        if (folder / "meta.json").is_file():
            try:
                table = open_table(folder)
            except InvalidOptionError:
                continue
            if table.size == size:
                yield table


# ----- solving -------------------------------------------------------------------


class TableExistsError(InvalidOptionError):
    """A table is already in the folder, and resuming was not asked for."""


@dataclasses.dataclass
class Progress:
    """How far a solve has got (what the progress bar shows)."""

    share: float
    """The share of the root's tree searched (an estimate: every move of a position
    counts as an equal share of it)."""
    stored: int
    """Positions in the table."""
    seconds: float
    """Seconds spent on this table, over every run."""


ProgressCallback = Callable[[Progress], None]


def solve(
    out: Path,
    size: Size = Size(),
    root: rules.Line | None = None,
    *,
    complete: bool = True,
    resume: bool = False,
    memory: int = DEFAULT_MEMORY,
    hashed: bool | None = None,
    chunk: int = 1 << 18,
    stop_after: int | None = None,
    progress: ProgressCallback | None = None,
) -> Table:
    """Solves ``root`` (the start of ``size`` by default) into its table in ``out``
    (:func:`table_folder`) and returns the table; ``meta["result"]`` is the root's
    result for its colour to move once solved, ``meta["stopped"]`` says why it stopped
    before (``"interrupted"``, ``"budget"``, ``"memory"``). ``memory``: the most bytes
    the table may take; ``hashed``: a hashed table (or not) whatever the memory.

    ``complete``: every position reachable from the root gets its result (else the
    search skips a position's other moves once one wins: a proof, over fewer
    positions). ``stop_after``: stop once this many positions are stored in this run
    (checked every ``chunk`` positions). Ctrl-C and SIGTERM stop it between two chunks,
    with the table saved; ``resume=True`` goes on from a table already there.

    :raises TableExistsError: a table is there and ``resume`` is false.
    """
    start = initial_line(size) if root is None else root
    check_line(start, size)
    folder = table_folder(out, size, start)
    if (folder / "meta.json").exists():
        if not resume:
            raise TableExistsError(
                message_id=N_(
                    "{folder} already holds a table: add --resume to go on with it, or remove "
                    "the folder to start again"
                ),
                arguments={"folder": str(folder)},
            )
        table = open_table(folder, writable=True)
    else:
        table = create_table(folder, size, start, complete=complete, memory=memory, hashed=hashed)
    if table.finished:
        return table
    with _stop_requests() as stop_requested:
        return _run(table, start, memory, chunk, stop_after, progress, stop_requested)


def _run(
    table: Table,
    start: rules.Line,
    memory: int,
    chunk: int,
    stop_after: int | None,
    progress: ProgressCallback | None,
    stop_requested: Callable[[], bool],
) -> Table:
    compiled = _kernel()
    meta = table.meta
    root = kernel.line_array(start)
    counts = np.zeros(2, dtype=np.int64)
    share = np.zeros(1, dtype=np.float64)
    stored_here = 0
    saved = time.perf_counter()
    meta["stopped"] = None
    while True:
        budget = chunk if stop_after is None else min(chunk, stop_after - stored_here)
        if table.hashed:
            while _room(meta) < min(budget, max(SLACK, meta["slots"] // 8)):
                if 2 * table.bytes > memory:
                    meta["stopped"] = "memory"
                    table.save()
                    return table
                table = _grow(table)
                meta = table.meta
            budget = min(budget, _room(meta))
        began = time.perf_counter()
        counts[:] = 0
        result = compiled.solve(
            root, table.size.discs, table.codes, table.keys, budget, meta["complete"], counts, share
        )
        meta["stored"] += int(counts[0])
        meta["finished_games"] += int(counts[1])
        meta["seconds"] += time.perf_counter() - began
        meta["share"] = float(share[0])
        stored_here += int(counts[0])
        if result == compiled.TOO_DEEP:
            raise StairgamesError(f"a game went deeper than {compiled.MAX_DEPTH} actions")
        if result != compiled.STOPPED:
            meta["result"] = int(result)
        if progress is not None:
            progress(Progress(meta["share"], meta["stored"], meta["seconds"]))
        if meta["result"] is not None:
            table.save()
            return table
        if stop_requested() or (stop_after is not None and stored_here >= stop_after):
            meta["stopped"] = "interrupted" if stop_requested() else "budget"
            table.save()
            return table
        if time.perf_counter() - saved > SAVE_EVERY:
            table.save()
            saved = time.perf_counter()


def _room(meta: dict[str, Any]) -> int:
    """How many more positions a hashed table takes before it must grow (less a margin:
    the search may store the finished games among a position's moves past its budget)."""
    return int(MOST_FILLED * meta["slots"]) - int(meta["stored"]) - SLACK


class _stop_requests:  # noqa: N801 (used as a function in ``with``)
    """Within it, Ctrl-C and SIGTERM (where this is the main thread) ask the solve to
    stop at the next chunk, instead of stopping the process at once."""

    def __init__(self) -> None:
        self.requested = False
        self.previous: dict[int, Any] = {}

    def __enter__(self) -> Callable[[], bool]:
        def request(signum: int, frame: object) -> None:
            del signum, frame
            self.requested = True

        try:
            for signum in (signal.SIGINT, signal.SIGTERM):
                self.previous[signum] = signal.signal(signum, request)
        except ValueError:  # not the main thread: signals stay as they are
            pass
        return lambda: self.requested

    def __exit__(self, *exc: object) -> None:
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)


def play_moves(line: rules.Line, text: str) -> rules.Line:
    """``line`` after the moves of ``text`` (space-separated, in the notation; passes
    are played where the rules force them, T4).

    :raises IllegalMoveError: a move that is malformed or not legal there.
    """
    for word in text.split():
        while not rules.has_move(line, line.to_move, "basic") and not rules.is_over(line, "basic"):
            line = rules.pass_turn(line)
        parsed = parse_move_text(word)
        if parsed == "pass" and not rules.has_move(line, line.to_move, "basic"):
            line = rules.pass_turn(line)
            continue
        if isinstance(parsed, str) or parsed not in rules.legal_moves(line, line.to_move, "basic"):
            raise IllegalMoveError(
                message_id=N_("{move} is not legal in {position}"),
                arguments={"move": word, "position": position_text(line)},
            )
        line = rules.apply_move(line, parsed)
    return line


# ----- the perfect player ----------------------------------------------------------


class UnsolvedPositionError(StairgamesError):
    """A position outside every solved table."""


def white_result_at_end(line: rules.Line) -> int:
    """T5 at the end of a game: 1 when white scores more, -1 less, 0 equal."""
    white, black = rules.score(line, rules.WHITE), rules.score(line, rules.BLACK)
    return (white > black) - (white < black)


class TablePerfectPlay:
    """The ``perfect_play`` of 27's basic game, read from solved tables (the whole game
    from its start, or the positions reachable from a solved root: ``--from``).

    A state is covered when each of its moves leads to a position a table holds (or a
    finished game); :meth:`action_values` refuses any other with
    :class:`UnsolvedPositionError`, saying how to solve it. The values are win, draw or
    loss (the tables keep 2 bits a position, not the score).
    """

    def __init__(self, tables: list[Table]) -> None:
        self.tables = tables

    def result(self, line: rules.Line) -> int | None:
        """The result of ``line`` for its colour to move (-1, 0, 1) under perfect play,
        ``None`` when no table holds it."""
        if rules.is_over(line, "basic"):
            white = white_result_at_end(line)
            return white if line.to_move == rules.WHITE else -white
        for table in self.tables:
            code = table.code(line)
            if code:
                return code - 2
        return None

    def action_values(self, state: State) -> dict[int, list[float]]:
        assert isinstance(state, TwentySevenState)
        seat = state.current_player()
        values: dict[int, list[float]] = {}
        for action in state.legal_actions():
            move = decode_move(action)
            line = state.line
            child = rules.pass_turn(line) if move is None else rules.apply_move(line, move)
            reply = self.result(child)
            if reply is None:
                raise UnsolvedPositionError(
                    message_id=N_(
                        "the position {position} is outside the solved tables of 27; solve "
                        'it with: stairgames solve twenty_seven --variant basic --from "{position}"'
                    ),
                    arguments={"position": state.position()},
                )
            mine = float(-reply)
            values[action] = [mine, -mine] if seat == 0 else [-mine, mine]
        return values

    def principal_variation(self, state: State, *, limit: int = 200) -> list[int]:
        """A perfect game from ``state``: at each step the first legal action of the
        greatest value for the colour to move."""
        line: list[int] = []
        current = state.clone()
        while not current.is_terminal() and len(line) < limit:
            values = self.action_values(current)
            seat = current.current_player()
            action = max(values, key=lambda a: (values[a][seat], -a))
            line.append(action)
            current.apply_action(action)
        return line


def perfect_play(game: Game) -> TablePerfectPlay:
    """The ``perfect_play`` hook of 27: the solved tables of the basic game in
    :func:`stairgames.core.solvers.solved_dir` (``twenty_seven/``).

    :raises InvalidOptionError: another variant, or no table on disk.
    """
    assert isinstance(game, TwentySevenGame)
    if game.variant != "basic":
        raise InvalidOptionError(
            message_id=N_(
                "27 is solved only in its basic variant (bases never move there); the {variant} "
                "game has no solved table"
            ),
            arguments={"variant": game.variant},
        )
    folder = solved_dir() / GAME_TAG
    tables = list(tables_in(folder, Size()))
    if not tables:
        raise InvalidOptionError(
            message_id=N_(
                "no solved table of 27 (basic) in {folder}: run `stairgames solve twenty_seven "
                "--variant basic` first (the whole game needs about 19 GB and days of one core; "
                '--from "POSITION" solves the game from one position on)'
            ),
            arguments={"folder": str(folder)},
        )
    return TablePerfectPlay(tables)


# ----- stairgames solve twenty_seven ------------------------------------------------


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
    live = stream.isatty()
    shown = [0.0]

    def show(progress: Progress) -> None:
        width = 30
        filled = min(width, int(width * progress.share))
        line = _("[{bar}] {share} of the tree  {stored} positions  {rate}/s  {seconds} s").format(
            bar="#" * filled + "." * (width - filled),
            share=f"{100 * progress.share:5.1f}%",
            stored=f"{progress.stored:,}",
            rate=f"{progress.stored / max(progress.seconds, 1e-9):,.0f}",
            seconds=f"{progress.seconds:.0f}",
        )
        if live:
            stream.write("\r" + line)
        elif progress.seconds - shown[0] >= 10 or progress.share >= 1:
            stream.write(line + "\n")
            shown[0] = progress.seconds
        stream.flush()

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
