"""A heuristic value of a 27 position for computer players."""

from __future__ import annotations

from stairgames.core.game import State
from stairgames.games.twenty_seven.rules import BLACK, NUM_DISCS, WHITE, score


def evaluate(state: State, seat: int) -> float:
    """In [-1, 1]: the final result when the game is over, else the score difference so far
    (discs on each target, T5) over the 27 discs, from ``seat``'s side."""
    from stairgames.games.twenty_seven.game import TwentySevenState

    assert isinstance(state, TwentySevenState)
    if state.is_terminal():
        return state.returns()[seat]
    line = state.line
    mine, theirs = (WHITE, BLACK) if seat == 0 else (BLACK, WHITE)
    return (score(line, mine) - score(line, theirs)) / NUM_DISCS
