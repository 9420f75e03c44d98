"""Exact Stairs on small boards (S8): who wins from a position under perfect play.

A plain-Python win/loss search to the end of the game on a board of any size, for
the small boards whose whole game tree is within reach (3×3 and 4×4 from the start;
larger boards near their end). A position is won for the colour to move when some
legal move (or the forced pass, S4) leads to a position lost for the other colour; a
finished position is scored by S5 (:func:`rules.verdict`). Proven positions are kept
in a table keyed by the stacks, the colour to move and the last arrival at the
greatest height (everything S2-S5 read), so transpositions are searched once. It is
the reference of the compiled search of any size (:mod:`.anysize`, some 240 times
faster on 4×4) and of the 6×6 endgame solver (:mod:`.solve`).

>>> result = solve_start(3)
>>> result.winner, len(result.winning_first_moves), result.nodes
('L', 12, 1861)
"""

from __future__ import annotations

import dataclasses
import time
from typing import Final

from stairgames.games.stairs import rules
from stairgames.games.stairs.rules import DARK, LIGHT, Board

Key = tuple[tuple[str, ...], str, str | None]


class BudgetSpentError(Exception):
    """The search reached its node budget before proving the position."""


class ExactSolver:
    """Win/loss search to the end with a table of proven positions (kept between calls)."""

    def __init__(self, *, reverse_order: bool = False) -> None:
        self.reverse_order = reverse_order
        """Search each position's moves last first (a second search to check a result)."""
        self.table: dict[Key, bool] = {}
        """``(stacks, colour to move, last arrival)`` → whether the colour to move wins."""
        self.nodes = 0
        """Positions expanded (not found in the table) since the solver was made."""
        self._limit: int | None = None

    def wins(self, board: Board, *, nodes: int | None = None) -> bool:
        """Whether the colour to move on ``board`` wins under perfect play.

        :raises BudgetSpentError: after ``nodes`` more positions without a proof
            (what was proven stays in the table).
        """
        self._limit = None if nodes is None else self.nodes + nodes
        peak = board.max_height()
        return self._wins(board.stacks, board.to_move, board.last_arrival, peak)

    def _wins(self, stacks: tuple[str, ...], to_move: str, arrival: str | None, peak: int) -> bool:
        key = (stacks, to_move, arrival)
        known = self.table.get(key)
        if known is not None:
            return known
        if self._limit is not None and self.nodes >= self._limit:
            raise BudgetSpentError
        self.nodes += 1
        board = Board(stacks, to_move, arrival)
        other = DARK if to_move == LIGHT else LIGHT
        steps = rules.lowest_steps(board, to_move)
        if self.reverse_order:
            steps.reverse()
        if not steps:
            if rules.has_move(board, other):  # S4: pass
                won = not self._wins(stacks, other, arrival, peak)
            else:  # S4: neither can move; S5 decides
                verdict = rules.verdict(board)
                assert verdict is not None, "a finished game has a climbed piece"
                won = verdict.winner == to_move
        else:
            won = any(
                not self._after(stacks, step, to_move, other, arrival, peak) for step in steps
            )
        self.table[key] = won
        return won

    def _after(
        self,
        stacks: tuple[str, ...],
        step: int,
        mover: str,
        other: str,
        arrival: str | None,
        peak: int,
    ) -> bool:
        """Whether ``other`` wins after ``mover`` plays ``step``."""
        source, direction = divmod(step, rules.NUM_DIRECTIONS)
        target = _NEIGHBOURS[len(stacks)][source][direction]
        changed = list(stacks)
        changed[source] = stacks[source][:-1]
        landing = changed[target] = stacks[target] + mover
        height = len(landing)
        if height >= peak:
            return self._wins(tuple(changed), other, mover, height)
        return self._wins(tuple(changed), other, arrival, peak)


_NEIGHBOURS: Final = {
    size * size: rules.geometry(size).neighbours
    for size in range(rules.MIN_SIZE, rules.MAX_SIZE + 1)
}


@dataclasses.dataclass(frozen=True)
class StartValue:
    """The result of the game from the start of a board size under perfect play."""

    size: int
    winner: str
    """The colour that wins (``"L"`` or ``"D"``); light moves first (S8)."""
    winning_first_moves: tuple[str, ...]
    """Light's first moves that win (none when dark wins)."""
    nodes: int
    """Positions the search expanded."""
    seconds: float
    """Processor seconds the search took."""


def solve_start(size: int, *, nodes: int | None = None, reverse_order: bool = False) -> StartValue:
    """Solve the start of the ``size``×``size`` game (without the pie rule; with it the
    second player wins, choosing the colour that wins after the first move, S6).

    Every first move of light is searched, so the winning ones are all listed.

    :raises BudgetSpentError: the search needed more than ``nodes`` positions.
    """
    solver = ExactSolver(reverse_order=reverse_order)
    board = rules.initial_board(size)
    started = time.process_time()
    winning = []
    for move in rules.legal_moves(board, LIGHT):
        after = rules.apply_move(board, move)
        budget = None if nodes is None else max(0, nodes - solver.nodes)
        if not solver.wins(after, nodes=budget):
            winning.append(str(move))
    return StartValue(
        size=size,
        winner=LIGHT if winning else DARK,
        winning_first_moves=tuple(winning),
        nodes=solver.nodes,
        seconds=time.process_time() - started,
    )


__all__ = ["BudgetSpentError", "ExactSolver", "StartValue", "solve_start"]
