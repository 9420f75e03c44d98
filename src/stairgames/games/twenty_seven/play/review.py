"""What 27 offers the review of a game: the solved tables, then the endgame solver.

A position is valued exactly from the tables ``stairgames solve twenty_seven`` keeps
(:mod:`..research.table_play`: the basic game, every position reachable from a solved
root) where they hold it, else by the exact endgame solver (:mod:`..research.endgame`,
every variant) within the review's budget per move: it proves the last moves of a game,
and single moves that lose by force earlier. Unproven positions are left to the review's
search. A share is 1 for a win, a half for a draw (T5), 0 for a loss.
"""

from __future__ import annotations

from typing import Final

from stairgames.core.assess import Assessor, Thresholds
from stairgames.core.errors import StairgamesError
from stairgames.core.game import Game, State
from stairgames.games.twenty_seven.game import TwentySevenGame
from stairgames.games.twenty_seven.research.endgame import EndgameSolver
from stairgames.games.twenty_seven.research.table_play import (
    TablePerfectPlay,
    UnsolvedPositionError,
    perfect_play,
)

THRESHOLDS: Final = Thresholds(inaccuracy=0.05, mistake=0.10, blunder=0.20)
"""A won game given away for a draw loses a half, for a loss 1: both are blunders."""


class TwentySevenExact:
    """The exact values of one game of 27: tables where they are, the endgame solver
    elsewhere."""

    def __init__(self, game: TwentySevenGame) -> None:
        self.tables: TablePerfectPlay | None
        try:
            self.tables = perfect_play(game)
        except StairgamesError:
            self.tables = None  # another variant, or no table on disk
        self.endgame = EndgameSolver()

    def action_values(
        self, state: State, *, nodes: int | None, deadline: float | None
    ) -> dict[int, list[float]]:
        if self.tables is not None:
            try:
                return _shares(self.tables.action_values(state))
            except UnsolvedPositionError:
                pass
        return _shares(self.endgame.prove(state, nodes=nodes, deadline=deadline))


def _shares(values: dict[int, list[float]]) -> dict[int, list[float]]:
    return {action: [(r + 1.0) / 2.0 for r in returns] for action, returns in values.items()}


def exact(game: Game) -> TwentySevenExact:
    """The ``exact`` field of :data:`ASSESSOR`."""
    assert isinstance(game, TwentySevenGame)
    return TwentySevenExact(game)


ASSESSOR: Final = Assessor(thresholds=THRESHOLDS, exact=exact)
"""What 27 offers the review (its registration names it)."""

__all__ = ["ASSESSOR", "THRESHOLDS", "TwentySevenExact", "exact"]
