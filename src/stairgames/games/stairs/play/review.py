"""What Stairs offers the review of a game: exact values where the search proves them.

Every board size (S8) is valued by the compiled exact search of :mod:`..research.anysize`
through :class:`~stairgames.games.stairs.play.perfect.StairsPerfectPlay`, so the pie rule
(S6) and ending by agreement (S7) are valued as the ``perfect`` player values them:

- 3×3 and 4×4 are solved on demand from any position, with no budget (4×4 from the
  start takes well under a second): every number of their review is exact;
- 5×5 reads the first moves' values from the record of ``stairgames solve stairs
  --size 5 --try-larger`` where it is on disk, and proves later positions within the
  review's budget per move;
- 6×6 and larger prove what the budget allows: the endgame, some 15-20 plies from the
  end of a 6×6 game (``docs/analysis.md``).

Unproven positions are left to the review's search. Stairs has no draws: a share is 1
for a win, 0 for a loss.
"""

from __future__ import annotations

import time
from typing import Final

from stairgames.core.assess import Assessor, Thresholds
from stairgames.core.endgame import Clock, prove_actions
from stairgames.core.errors import InvalidOptionError
from stairgames.core.game import Game, State
from stairgames.games.stairs.game import StairsGame, StairsState
from stairgames.games.stairs.play.perfect import (
    RECORDED_SIZES,
    SOLVED_SIZES,
    StairsPerfectPlay,
    recorded_opening,
)
from stairgames.games.stairs.research.anysize import BoardSolver, UnsolvedError, part_table_bits
from stairgames.games.stairs.rules import Board

THRESHOLDS: Final = Thresholds(inaccuracy=0.05, mistake=0.10, blunder=0.20)
"""A win given away is a loss of 1: a blunder; estimates are marked from 5 points of
winning chance."""


class BudgetedSolver(BoardSolver):
    """The compiled exact search with a budget of positions for all the searches of one
    valuation (:class:`StairsPerfectPlay` values a pie-rule or agreement position by
    several): :attr:`stop_at` is the count of :attr:`nodes` at which every search stops
    (``None``: no budget)."""

    stop_at: int | None = None

    def wins(self, board: Board, *, nodes: int | None = None) -> bool:
        if self.stop_at is not None:
            left = self.stop_at - self.nodes
            if left <= 0:
                raise UnsolvedError
            nodes = left if nodes is None else min(nodes, left)
        return super().wins(board, nodes=nodes)


class StairsExact:
    """The exact values of one Stairs game, each position proven within a budget of
    positions (none on 3×3 and 4×4)."""

    def __init__(self, game: StairsGame) -> None:
        size = game.options.size
        self.unbounded = size in SOLVED_SIZES
        opening: dict[Board, str] = {}
        if size in RECORDED_SIZES:
            try:
                opening = recorded_opening(size)
            except InvalidOptionError:
                opening = {}
        self.solver = BudgetedSolver(size, table_bits=min(part_table_bits(size), 22))
        self.perfect = StairsPerfectPlay(game, opening, solver=self.solver)
        self.clock = Clock()

    def action_values(
        self, state: State, *, nodes: int | None, deadline: float | None
    ) -> dict[int, list[float]]:
        assert isinstance(state, StairsState)
        if self.unbounded:
            self.solver.stop_at = None
            values = self.perfect.action_values(state)
            return {action: _shares(returns) for action, returns in values.items()}
        seat = state.current_player()
        found: dict[int, list[float]] = {}
        spent = self.solver.nodes

        def result_after(action: int, budget: int) -> int | None:
            started = time.perf_counter()
            limit = self.clock.budget(budget, deadline, started)
            if limit <= 0:
                return None
            before = self.solver.nodes
            self.solver.stop_at = before + limit
            child = state.clone()
            child.apply_action(action)
            try:
                returns = self.perfect.value(child)
            except UnsolvedError:
                return None
            finally:
                self.clock.measure(self.solver.nodes - before, time.perf_counter() - started)
            found[action] = returns
            return 1 if returns[seat] > 0 else -1

        prove_actions(
            state.legal_actions(),
            result_after,
            searched=lambda: self.solver.nodes - spent,
            nodes=nodes,
            deadline=deadline,
        )
        return {action: _shares(returns) for action, returns in found.items()}


def _shares(returns: list[float]) -> list[float]:
    return [(value + 1.0) / 2.0 for value in returns]


def exact(game: Game) -> StairsExact:
    """The ``exact`` field of :data:`ASSESSOR`."""
    assert isinstance(game, StairsGame)
    return StairsExact(game)


ASSESSOR: Final = Assessor(thresholds=THRESHOLDS, exact=exact)
"""What Stairs offers the review (its registration names it)."""

__all__ = ["ASSESSOR", "THRESHOLDS", "BudgetedSolver", "StairsExact", "exact"]
