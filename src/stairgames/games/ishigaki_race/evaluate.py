"""How good an Ishigaki Race position is, for computer players, and the levels.

With two players the value is exact: ``2·P(win) − 1`` under perfect play, from the
game solved by value iteration (:mod:`stairgames.games.ishigaki_race.solve`, about a
second once per board and process). So the ``greedy`` player, which tries ``stop``
and ``roll`` and averages the dice, plays perfectly. With three or four players,
and for a position not reachable from the start, the value is a heuristic: how
far ``seat`` stands above (or below) the best of the others, over the height of
the wall.

The levels (:data:`LEVELS`) are the perfect (or heuristic) player with some of
its decisions taken at random: the exact winning chances of each against the one
below are in ``docs/rules/ishigaki_race.md`` ("Perfect play").
"""

from __future__ import annotations

from typing import Final

from stairgames.core.game import State
from stairgames.games.ishigaki_race.solve import MAX_SOLVED_PLAYERS, solve

LEVELS: Final = {
    "easy": "greedy:noise=0.6",
    "medium": "greedy:noise=0.3",
    "hard": "greedy:noise=0.1",
    "expert": "greedy",
}
"""Share of decisions (stop or roll) taken at random at each level; ``expert`` none.
Random playouts are a poor guide in this race (``mcts`` lost to ``greedy``), so no
level searches."""


def evaluate(state: State, seat: int) -> float:
    """In [-1, 1] from ``seat``'s side: the result once the game is over (1 for the winner,
    -1 for the others); before, ``2·P(win) − 1`` under perfect play with two players,
    else the height heuristic."""
    from stairgames.games.ishigaki_race.game import IshigakiRaceState

    assert isinstance(state, IshigakiRaceState)
    if state.is_terminal():
        return 1.0 if state.race.winner == seat else -1.0
    if state.race.players <= MAX_SOLVED_PLAYERS:
        try:
            return 2.0 * solve(state.board, state.race.players).value(state.race)[seat] - 1.0
        except KeyError:
            pass
    return height_lead(state, seat)


def height_lead(state: State, seat: int) -> float:
    """How far ``seat`` stands above (or below) the best of the others, over the goal's
    height: the heuristic for three and four players."""
    from stairgames.games.ishigaki_race.game import IshigakiRaceState

    assert isinstance(state, IshigakiRaceState)
    heights = state.heights()
    others = max(h for s, h in enumerate(heights) if s != seat)
    return (heights[seat] - others) / state.board.goal
