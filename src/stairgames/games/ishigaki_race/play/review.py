"""What Ishigaki Race offers the review of a game: the max^n solution, exact.

Every decision (stop, or roll the second die) is valued from the solution of the
game's wall and player count (:mod:`..research.maxn_play`, the ``perfect`` player's):
each seat's chance of winning after either choice when every seat maximises its own
from there on (max^n; with two players, perfect play). Two and three players are
solved on demand (about a second); four are read from the table ``stairgames solve
ishigaki_race --players 4`` keeps, and reviewed by search until it is built. Every
number of a review is then exact: the chances of the solution, which for three or
four players assume that every seat plays for itself (``docs/analysis.md``).
"""

from __future__ import annotations

from typing import Final

from stairgames.core.assess import Assessor, Thresholds
from stairgames.core.game import Game, State
from stairgames.games.ishigaki_race.research.maxn_play import SolvedPlay, perfect_play

THRESHOLDS: Final = Thresholds(inaccuracy=0.02, mistake=0.05, blunder=0.10)
"""A choice between stopping and rolling moves the chance of winning by a few points at
most: 2 points are an inaccuracy, 5 a mistake, 10 a blunder."""


class IshigakiExact:
    """The solved chances of one game's wall and player count."""

    def __init__(self, game: Game) -> None:
        self.solved: SolvedPlay = perfect_play(game)

    def action_values(
        self, state: State, *, nodes: int | None, deadline: float | None
    ) -> dict[int, list[float]]:
        del nodes, deadline  # the table answers at once
        try:
            return self.solved.action_values(state)
        except ValueError:
            return {}


ASSESSOR: Final = Assessor(thresholds=THRESHOLDS, exact=IshigakiExact)
"""What Ishigaki Race offers the review (its registration names it)."""

__all__ = ["ASSESSOR", "THRESHOLDS", "IshigakiExact"]
