"""Tic-tac-toe's move notation: the cell a mark goes on, ``a1`` to ``c3`` (files a-c from
the left, ranks 1-3 from the bottom); action ``3 * (rank - 1) + file``."""

from __future__ import annotations

from tests.tictactoe.rules import SIZE

FILES = "abc"


def cell_name(cell: int) -> str:
    """``0`` as ``"a1"``, ``8`` as ``"c3"``."""
    return f"{FILES[cell % SIZE]}{cell // SIZE + 1}"


def parse_cell(text: str) -> int | None:
    """``"b2"`` as ``4``; ``None`` for text that names no cell."""
    if len(text) != 2 or text[0] not in FILES or text[1] not in "123":
        return None
    return (int(text[1]) - 1) * SIZE + FILES.index(text[0])
