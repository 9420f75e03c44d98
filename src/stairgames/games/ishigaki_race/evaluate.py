"""A heuristic value of an Ishigaki Race position for computer players."""

from __future__ import annotations

from stairgames.core.game import State


def evaluate(state: State, seat: int) -> float:
    """In [-1, 1] from ``seat``'s side: the result once the game is over (1 for the winner,
    -1 for the others); before, how far ``seat`` stands above (or below) the best of the
    others, over the height of the wall."""
    from stairgames.games.ishigaki_race.game import IshigakiRaceState

    assert isinstance(state, IshigakiRaceState)
    if state.is_terminal():
        return 1.0 if state.race.winner == seat else -1.0
    heights = state.heights()
    others = max(h for s, h in enumerate(heights) if s != seat)
    return (heights[seat] - others) / state.board.goal
