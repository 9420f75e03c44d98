"""Tic-tac-toe in the terminal: the board with its files and ranks."""

from __future__ import annotations

from stairgames.core.game import State
from tests.tictactoe.game import TicTacToeState
from tests.tictactoe.notation import FILES
from tests.tictactoe.rules import SIZE


def render_terminal(state: State, *, colour: bool, viewer: int | None) -> str:
    """The board, rank 3 at the top (nothing is hidden: ``viewer`` changes nothing, and
    the drawing has no colours)."""
    del colour, viewer
    if not isinstance(state, TicTacToeState):
        raise TypeError(f"not a tic-tac-toe state: {state!r}")
    lines = []
    for rank in reversed(range(SIZE)):
        cells = state.board[rank * SIZE : (rank + 1) * SIZE]
        lines.append(f"{rank + 1} " + " ".join(mark or "." for mark in cells))
    lines.append("  " + " ".join(FILES))
    return "\n".join(lines)
