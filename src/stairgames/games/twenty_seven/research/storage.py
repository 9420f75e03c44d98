"""A solved table of 27 in its folder: what was solved, and 2 bits a position, on disk.

The folder holds:

- ``meta.json``: what was solved (size, root, counts, time, the root's result once
  known);
- ``codes.bin``: the 2-bit codes, memory-mapped;
- ``keys.bin`` (hashed tables only): the rank held by each slot of ``codes.bin``.

A table indexed directly by rank holds every arrangement of the discs (unreachable
ones too) and needs no keys. A hashed table has a slot per position reached (8 bytes
of key besides the 2 bits) and grows (:func:`grow_table`) as the search goes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import numpy as np

from stairgames.core.errors import InvalidOptionError
from stairgames.core.solvers import write_json
from stairgames.games.twenty_seven import rules
from stairgames.games.twenty_seven.research import endgame_kernel as kernel
from stairgames.games.twenty_seven.research.reduced import (
    Size,
    compiled_kernel,
    initial_line,
    line_from_text,
    position_text,
)
from stairgames.i18n import N_

FORMAT: Final = 1
"""The version of the folder's layout (``meta.json``'s ``format``)."""
GAME_TAG: Final = "twenty_seven"
FIRST_SLOTS: Final = 1 << 12
"""The slots a new hashed table starts with (it doubles as it fills)."""


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
            compiled_kernel().value_of(
                self.codes, self.keys, kernel.line_array(line), self.size.discs
            )
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


def grow_table(table: Table) -> Table:
    """The hashed table with twice the slots (its files replaced)."""
    slots = 2 * int(table.meta["slots"])
    folder = table.folder
    staging = folder / "grow"
    staging.mkdir(exist_ok=True)
    codes, keys = _new_files(staging, slots, True)
    compiled_kernel().rehash(table.codes, table.keys, codes, keys)
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


__all__ = [
    "FORMAT",
    "GAME_TAG",
    "Table",
    "create_table",
    "grow_table",
    "open_table",
    "table_folder",
    "tables_in",
]
