"""Exact endgame solving for 27: the result of a position under perfect play.

27 has no chance and no hidden information, and a game lasts some 20 moves, so from
the middle of a game on the rest of it can be searched to the end. :class:`Solver`
runs an alpha-beta search over the three results (win, draw, loss; T5) with a table
of proven bounds kept for the whole game, compiled with numba
(:mod:`stairgames.games.twenty_seven.research.endgame_kernel`, about 1.5 million positions a
second). It solves every variant (T6, T7) exactly as :mod:`.rules` plays it (tested
against a plain search over :class:`rules.Line` in ``tests/test_twenty_seven_solve.py``).

Computer players use it through :class:`EndgameSolver` (the ``endgame_solver`` hook
that :mod:`stairgames.games.twenty_seven.play.evaluate` offers).
"""

from __future__ import annotations

import time
from typing import Final

import numpy as np

from stairgames.core.endgame import Clock, commit_memory, prove_actions
from stairgames.core.game import State
from stairgames.games.twenty_seven import rules
from stairgames.games.twenty_seven.game import (
    TwentySevenGame,
    TwentySevenOptions,
    TwentySevenState,
)
from stairgames.games.twenty_seven.notation import decode_move
from stairgames.games.twenty_seven.research import endgame_kernel as kernel
from stairgames.games.twenty_seven.research import opening
from stairgames.games.twenty_seven.research.endgame_kernel import Array


class UnsolvedError(Exception):
    """The search ran out of its node or time budget before proving the position."""


class Solver:
    """Results of 27 lines under perfect play, with a table of proven bounds.

    The table (``2 ** table_bits`` slots, the newest result replacing an older one in
    its slot) persists between calls, so solving the positions of one game one after
    another reuses work. A deadline becomes a node budget at the speed measured so far
    (:class:`stairgames.core.endgame.Clock`).
    """

    def __init__(self, table_bits: int = 20) -> None:
        self.keys: Array = np.zeros(1 << table_bits, dtype=np.int64)
        self.bounds = np.zeros((1 << table_bits, 2), dtype=np.int8)
        self.nodes = 0
        self.clock = Clock()
        self._counter: Array = np.zeros(1, dtype=np.int64)

    def result(
        self,
        line: rules.Line,
        variant: rules.Variant,
        *,
        nodes: int | None = None,
        deadline: float | None = None,
    ) -> int:
        """1, 0 or -1: whether the colour to move in ``line`` wins, draws or loses it
        under perfect play.

        Raises :class:`UnsolvedError` after ``nodes`` new positions or at ``deadline``
        (a :func:`time.perf_counter` time).
        """
        started = time.perf_counter()
        self._counter[0] = 0
        found = kernel.negamax(
            kernel.line_array(line),
            -1,
            1,
            kernel.VARIANT_CODES[variant],
            self.keys,
            self.bounds,
            self._counter,
            self.clock.budget(nodes, deadline, started),
        )
        self.nodes = int(self._counter[0])
        self.clock.measure(self.nodes, time.perf_counter() - started)
        if found == kernel.UNSOLVED:
            raise UnsolvedError
        return found

    def commit_memory(self) -> None:
        """:func:`stairgames.core.endgame.commit_memory` for the table."""
        commit_memory(self.keys, self.bounds)


class EndgameSolver:
    """Solves the positions of a game as it goes on, keeping what it proved (the
    ``endgame_solver`` hook that :mod:`stairgames.games.twenty_seven.play.evaluate` offers)."""

    def __init__(self) -> None:
        self.solver = Solver()
        self.solver.commit_memory()
        self.nodes = 0
        """Positions searched by the last :meth:`prove`."""

    def prove(
        self, state: State, *, nodes: int | None = None, deadline: float | None = None
    ) -> dict[int, list[float]]:
        """The actions of ``state`` proven so far, each with the returns it leads to.

        The actions are tried in passes (:func:`stairgames.core.endgame.prove_actions`),
        the moves carrying the most discs first, until one proves a win for the seat
        to move (it is the last one added), all are proven, or ``nodes`` (in all) or
        ``deadline`` is reached. A position of the opening book (:mod:`.opening`) is
        answered with what the book proved, without searching.
        """
        assert isinstance(state, TwentySevenState)
        self.nodes = 0
        if state.is_terminal():
            return {}
        seat = state.current_player()
        known = opening.proven_results(state)
        if known is not None:  # proven offline with far more positions than a move has
            return {action: _returns(seat, result) for action, result in known.items()}
        line, variant = state.line, state.variant

        def result_after(action: int, budget: int) -> int | None:
            try:
                return -self._counted(_after(line, action), variant, budget, deadline)
            except UnsolvedError:
                return None

        results = prove_actions(
            _root_order(state.legal_actions()),
            result_after,
            searched=lambda: self.nodes,
            nodes=nodes,
            deadline=deadline,
        )
        return {action: _returns(seat, result) for action, result in results.items()}

    def solve(
        self, state: State, *, nodes: int | None = None, deadline: float | None = None
    ) -> tuple[list[float], int | None] | None:
        """The returns of ``state`` under perfect play and an action that keeps them
        (``None`` once the game is over), or ``None`` when :meth:`prove` does not
        decide it."""
        if state.is_terminal():
            return state.returns(), None
        proven = self.prove(state, nodes=nodes, deadline=deadline)
        seat = state.current_player()
        best = max(proven, key=lambda action: proven[action][seat], default=None)
        if best is not None and (
            proven[best][seat] > 0 or len(proven) == len(state.legal_actions())
        ):
            return proven[best], best
        return None

    def _counted(
        self, line: rules.Line, variant: rules.Variant, nodes: int, deadline: float | None
    ) -> int:
        try:
            return self.solver.result(line, variant, nodes=nodes, deadline=deadline)
        finally:
            self.nodes += self.solver.nodes


def _after(line: rules.Line, action: int) -> rules.Line:
    move = decode_move(action)
    return rules.pass_turn(line) if move is None else rules.apply_move(line, move)


def _root_order(legal: list[int]) -> list[int]:
    """The moves carrying the most discs first (they score the most on arrival), as the
    search below orders them."""
    return sorted(legal, key=lambda action: (-(action % rules.NUM_DISCS), action))


def _returns(seat: int, result: int) -> list[float]:
    """The returns by seat when the seat to move gets ``result`` (1, 0 or -1)."""
    return [float(result), float(-result)] if seat == 0 else [float(-result), float(result)]


WARM_UP_POSITION: Final = "RB/GWW/GWB/G/GBBBB/GWWB/GBWWBWW/G/R W"
"""A late position (white to move, 8 moves) whose proof calls every compiled function
that a player's move calls."""


def warm_up() -> None:
    """Compile (the first time on a machine) or load every compiled function that a
    player's move calls, by proving :data:`WARM_UP_POSITION` (the variant is an argument
    of the same compiled code; a fraction of a second once compiled); recorded, so
    that ``kernel.KERNEL.cold()`` is false from then on."""
    game = TwentySevenGame(TwentySevenOptions())
    EndgameSolver().prove(game.state_from_position(WARM_UP_POSITION))
    kernel.KERNEL.warmed()


__all__ = ["EndgameSolver", "Solver", "UnsolvedError", "warm_up"]
