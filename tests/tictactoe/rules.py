"""Tic-tac-toe's rules: a 3×3 board, X first, three in a row wins, a full board draws.

The board is a tuple of nine cells, ``a1`` (index 0) to ``c3`` (index 8), row by row
from the bottom: ``"X"``, ``"O"`` or ``""``.
"""

from __future__ import annotations

from typing import Final

SIZE: Final = 3
MARKS: Final = ("X", "O")
"""The mark of each seat: seat 0 plays X and moves first."""
LINES: Final = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)
"""The eight lines of three cells."""

Board = tuple[str, ...]
EMPTY_BOARD: Final[Board] = ("",) * (SIZE * SIZE)


def winner(board: Board) -> str | None:
    """The mark with three in a row, if any."""
    for a, b, c in LINES:
        if board[a] and board[a] == board[b] == board[c]:
            return board[a]
    return None


def is_over(board: Board) -> bool:
    """Whether the game has ended: three in a row, or no empty cell."""
    return winner(board) is not None or all(board)


def empty_cells(board: Board) -> list[int]:
    """The cells a mark may go on, in order (none once the game is over)."""
    if is_over(board):
        return []
    return [cell for cell, mark in enumerate(board) if not mark]


def to_move(board: Board, first: int = 0) -> int:
    """The seat to move: ``first`` when both have placed as many marks."""
    return first if board.count("X") == board.count("O") else 1 - first


def place(board: Board, cell: int, first: int = 0) -> Board:
    """``board`` with the mover's mark on ``cell`` (``first``: the seat that began)."""
    return (*board[:cell], MARKS[to_move(board, first)], *board[cell + 1 :])
