"""Tic-tac-toe's evaluation for computer players: the lines still open to each mark."""

from __future__ import annotations

from stairgames.core.game import State
from stairgames.core.hooks import PlayerHooks
from tests.tictactoe.game import TicTacToeState
from tests.tictactoe.rules import LINES, MARKS


def evaluate(state: State, seat: int) -> float:
    """In [-1, 1]: the lines ``seat`` can still complete less the other seat's, over 8;
    a finished game's returns."""
    if not isinstance(state, TicTacToeState):
        raise TypeError(f"not a tic-tac-toe state: {state!r}")
    if state.is_terminal():
        return state.returns()[seat]
    mine, theirs = MARKS[seat], MARKS[1 - seat]
    open_to = {mark: 0 for mark in MARKS}
    for line in LINES:
        marks = {state.board[cell] for cell in line} - {""}
        for mark in MARKS:
            open_to[mark] += marks <= {mark}
    return (open_to[mine] - open_to[theirs]) / len(LINES)


HOOKS = PlayerHooks(evaluate=evaluate)
"""What tic-tac-toe offers computer players."""
