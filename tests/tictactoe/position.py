"""Tic-tac-toe's position text: the ranks from 3 down to 1, ``/`` between them, ``.`` an
empty cell (``.../.X./...`` after X takes b2); the mover follows from the counts."""

from __future__ import annotations

from stairgames.core.errors import InvalidPositionError
from tests.tictactoe.rules import SIZE, Board, winner


def format_position(board: Board) -> str:
    """The position text of ``board``."""
    ranks = ["".join(mark or "." for mark in board[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)]
    return "/".join(reversed(ranks))


def parse_position(text: str) -> Board:
    """The board a position text describes.

    :raises InvalidPositionError: malformed, or counts no legal game reaches.
    """
    ranks = text.strip().split("/")
    if len(ranks) != SIZE or any(len(r) != SIZE or set(r) - set("XO.") for r in ranks):
        raise InvalidPositionError(f"not a tic-tac-toe position: {text!r}")
    board = tuple("" if c == "." else c for rank in reversed(ranks) for c in rank)
    if board.count("X") - board.count("O") not in (0, 1) or _both_won(board):
        raise InvalidPositionError(f"not a tic-tac-toe position: {text!r}")
    return board


def _both_won(board: Board) -> bool:
    """Whether the board has a line of each mark (no game gets there)."""
    mark = winner(board)
    if mark is None:
        return False
    other = "O" if mark == "X" else "X"
    return winner(tuple("" if m == mark else m for m in board)) == other
