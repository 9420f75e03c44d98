"""Exact endgame solving for Stairs: who wins a position under perfect play.

Stairs has no chance and no hidden information, and once the first pieces have
climbed the lowest-first rule (S3) leaves few moves, so from the middle of a game
on the whole remaining tree can often be searched to the end. :class:`Solver`
does that: a depth-first win/loss search (a position is won for the colour to
move when some move leads to a position lost for the other) over a
:class:`Position` kept as bitboards and changed in place (make and unmake),
with a transposition table of proven results under Zobrist keys, searching the
moves that leave the other colour the fewest replies first (ties broken by the guided
playouts' policy). The search is
compiled with numba (:mod:`stairgames.games.stairs.research.endgame_kernel`): 1.5-2 million
positions a second, some 20 times the same search in plain Python.

A search stops with :class:`UnsolvedError` when its node or time budget is spent;
every result proven until then stays in the table, so a later search of the same
game starts further on. Positions are solved for S5 exactly as
:func:`rules.verdict` scores them (tested against a plain search on
:class:`rules.Board` in ``tests/test_stairs_solve.py``).

Computer players use it through :class:`EndgameSolver` (the ``endgame_solver``
hook that :mod:`stairgames.games.stairs.play.evaluate` offers).
"""

from __future__ import annotations

import time
from typing import Final

import numpy as np

from stairgames.core.endgame import Clock, commit_memory, prove_actions
from stairgames.core.game import State
from stairgames.games.stairs import rules
from stairgames.games.stairs.game import MAX_GAME_LENGTH, StairsGame, StairsOptions, StairsState
from stairgames.games.stairs.notation import PASS
from stairgames.games.stairs.research import endgame_kernel as kernel
from stairgames.games.stairs.research.endgame_kernel import Array

_STACK_ROWS: Final = MAX_GAME_LENGTH + 1
"""Rows of move room for the search: one a ply, however far from the end it starts."""


_CONSTANTS: Final = kernel.endgame_constants()
"""The 6×6 board's constants for the compiled search (one symmetry, a one-way table)."""


class Position:
    """A Stairs board as bitboards, changed in place by :meth:`make` and :meth:`unmake`.

    Colours are 0 (light) and 1 (dark). ``levels[h]`` has a bit for every square
    whose stack is ``h`` high; ``tops[c]`` for every stack topped by colour ``c``;
    ``pieces[square]`` has bit ``i`` set when the piece at level ``i`` is dark. The
    numbers live in one array, :attr:`array` (:mod:`stairgames.games.stairs.research.endgame_kernel`
    gives its layout), which the compiled search changes in place.
    """

    __slots__ = ("array",)

    def __init__(self, board: rules.Board) -> None:
        assert len(board.stacks) == rules.NUM_SQUARES, "the solver knows the 6×6 board only"
        self.array: Array = kernel.position_array(board, _CONSTANTS)

    @property
    def heights(self) -> list[int]:
        return self._slice(kernel.HEIGHTS, rules.NUM_SQUARES)

    @property
    def pieces(self) -> list[int]:
        return self._slice(kernel.PIECES, rules.NUM_SQUARES)

    @property
    def levels(self) -> list[int]:
        return self._slice(kernel.LEVELS, 2 * rules.PIECES_PER_COLOUR + 2)

    @property
    def tops(self) -> list[int]:
        return self._slice(kernel.TOPS, 2)

    @property
    def peak(self) -> int:
        return int(self.array[kernel.PEAK])

    @property
    def arrival(self) -> int:
        """The colour that last arrived at the greatest height (2 before anybody did)."""
        return int(self.array[kernel.ARRIVAL])

    @property
    def to_move(self) -> int:
        return int(self.array[kernel.TO_MOVE])

    def pass_turn(self) -> None:
        """The other colour to move (S4); passing twice gives the position back."""
        self.array[kernel.TO_MOVE] ^= 1

    def _slice(self, start: int, length: int) -> list[int]:
        return [int(value) for value in self.array[start : start + length]]

    def table_key(self) -> int:
        """A Zobrist key of the whole position (stacks, colour to move, last arrival)."""
        return kernel.table_key(self.array, _CONSTANTS)

    def moves(self, colour: int) -> list[tuple[int, int]]:
        """S2 + S3: (source, target) of ``colour``'s lowest movable pieces, in square order."""
        found = np.empty(kernel.MAX_MOVES, dtype=np.int64)
        count = kernel.moves(self.array, _CONSTANTS, colour, found)
        return [(int(move) >> 6, int(move) & 63) for move in found[:count]]

    def can_move(self, colour: int) -> bool:
        return kernel.count_moves(self.array, _CONSTANTS, colour) > 0

    def make(self, source: int, target: int) -> int:
        """Move the top piece of ``source`` onto ``target``; what :meth:`unmake` needs back."""
        return kernel.make(self.array, _CONSTANTS, source, target)

    def unmake(self, source: int, target: int, undo: int) -> None:
        """Take back :meth:`make` ``(source, target)``, which returned ``undo``."""
        kernel.unmake(self.array, _CONSTANTS, source, target, undo)

    def winner(self) -> int:
        """S5 as the board stands (once somebody has climbed): the winning colour."""
        return kernel.winner(self.array)


class UnsolvedError(Exception):
    """The search ran out of its node or time budget before proving the position."""


class Solver:
    """Win/loss search to the end of the game, with a table of proven positions.

    The table (``2 ** table_bits`` slots of a Zobrist key and whether the colour to
    move wins, the newest result replacing an older one in its slot) persists
    between calls, so solving the positions of one game one after another reuses
    work. The search itself is compiled
    (:func:`stairgames.games.stairs.research.endgame_kernel.search`);
    since compiled code cannot look at the clock, a deadline becomes a node budget
    at the speed measured so far (:class:`stairgames.core.endgame.Clock`).
    """

    def __init__(self, table_bits: int = 22) -> None:
        self.keys, self.proven = kernel.table(table_bits, ways=1)
        self.nodes = 0
        self.clock = Clock()
        self._counter: Array = np.zeros(1, dtype=np.int64)
        self._stack: Array = np.empty((_STACK_ROWS, 2 * kernel.MAX_MOVES), dtype=np.int64)

    def wins(
        self, position: Position, *, nodes: int | None = None, deadline: float | None = None
    ) -> bool:
        """Whether the colour to move in ``position`` wins it under perfect play.

        Raises :class:`UnsolvedError` after ``nodes`` new positions or at ``deadline``
        (a :func:`time.perf_counter` time); ``position`` is left as it was either way.
        """
        return self.wins_array(position.array, nodes=nodes, deadline=deadline)

    def wins_array(
        self, s: Array, *, nodes: int | None = None, deadline: float | None = None
    ) -> bool:
        """:meth:`wins` of a position array of the compiled engine (the layout of
        :mod:`.endgame_kernel`, complete), such as the playouts and the tree search
        change in place."""
        started = time.perf_counter()
        limit = self.clock.budget(nodes, deadline, started)
        self._counter[0] = 0
        result = kernel.search(
            s,
            _CONSTANTS,
            self.keys,
            self.proven,
            self._counter,
            limit,
            self._stack,
            0,
        )
        self.nodes = int(self._counter[0])
        self.clock.measure(self.nodes, time.perf_counter() - started)
        if result == kernel.UNSOLVED:
            raise UnsolvedError
        return result == kernel.WIN

    def commit_memory(self) -> None:
        """:func:`stairgames.core.endgame.commit_memory` for the table."""
        commit_memory(self.keys, self.proven)


class EndgameSolver:
    """Solves the positions of a game as it goes on, keeping what it proved (the
    ``endgame_solver`` hook that :mod:`stairgames.games.stairs.play.evaluate` offers players)."""

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
        the most promising first (fewest replies), until an action proves a win for
        the seat to move (it is the last one added), all are proven, or ``nodes``
        (in all) or ``deadline`` is reached. So even where the whole position is
        out of reach, moves that lose by force are found and can be avoided. A
        ``swap`` (pie rule) is outside the solver: nothing is proven while it is
        available, nor before anybody has climbed (S5 names no winner there). The
        compiled search knows the 6×6 board only: on other sizes (S8) nothing is
        proven, and players search through the protocol.
        """
        assert isinstance(state, StairsState)
        self.nodes = 0
        state = state.without_agreement()  # the solver proves moves of play (S7 aside)
        board = state.board
        if board.size != rules.SIZE:
            return {}
        legal = [] if state.is_terminal() else state.legal_actions()
        if not legal or board.max_height() < 2 or any(action > PASS for action in legal):
            return {}
        seat = state.current_player()
        position = Position(board)

        def result_after(action: int, budget: int) -> int | None:
            try:
                return 1 if self._mover_wins_after(position, action, budget, deadline) else -1
            except UnsolvedError:
                return None

        results = prove_actions(
            self._root_order(position, legal),
            result_after,
            searched=lambda: self.nodes,
            nodes=nodes,
            deadline=deadline,
        )
        return {action: _returns(seat, result > 0) for action, result in results.items()}

    def solve(
        self, state: State, *, nodes: int | None = None, deadline: float | None = None
    ) -> tuple[list[float], int | None] | None:
        """The returns of ``state`` under perfect play and a winning action (``None``
        when every action loses), or ``None`` when :meth:`prove` does not decide it."""
        if state.is_terminal():
            return state.returns(), None
        proven = self.prove(state, nodes=nodes, deadline=deadline)
        seat = state.current_player()
        for action, returns in proven.items():
            if returns[seat] > 0:
                return returns, action
        if proven and len(proven) == len(state.without_agreement().legal_actions()):
            return next(iter(proven.values())), None
        return None

    def _mover_wins_after(
        self, position: Position, action: int, nodes: int, deadline: float | None
    ) -> bool:
        """Whether the colour to move in ``position`` wins by playing ``action``."""
        if action == PASS:
            position.pass_turn()
            try:
                return not self._counted(position, nodes, deadline)
            finally:
                position.pass_turn()
        move = rules.step_move(action)
        undo = position.make(move.source, move.target)
        try:
            return not self._counted(position, nodes, deadline)
        finally:
            position.unmake(move.source, move.target, undo)

    def _root_order(self, position: Position, legal: list[int]) -> list[int]:
        """The actions of the root in the solver's order (fewest replies first, ties by
        the playout policy: :func:`.endgame_kernel.order_moves`)."""
        if legal == [PASS]:
            return legal
        action_of = {}
        for action in legal:
            action_of[kernel.kernel_move(action)] = action
        found = np.array(sorted(action_of), dtype=np.int64)
        scores = np.empty(len(found), dtype=np.int64)
        table = self.solver.keys, self.solver.proven
        kernel.order_moves(position.array, _CONSTANTS, *table, found, scores, len(found))
        return [action_of[int(move)] for move in found]

    def _counted(self, position: Position, nodes: int, deadline: float | None) -> bool:
        try:
            return self.solver.wins(position, nodes=nodes, deadline=deadline)
        finally:
            self.nodes += self.solver.nodes


def _returns(seat: int, won: bool) -> list[float]:
    winner = seat if won else 1 - seat
    return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]


WARM_UP_POSITION: Final = (
    "LD,.,LDD,.,.,D/.,L,.,.,.,LLD/.,DL,LL,D,.,DL/DLL,.,DLD,.,DDD,./.,DLL,.,.,LL,./D,.,.,L,DD,L L D"
)
"""A late position (dark wins by e2-e1) whose proof calls every compiled function that
a player's move calls."""


def warm_up() -> None:
    """Compile (the first time on a machine) or load every compiled function that a
    player's move calls, by proving :data:`WARM_UP_POSITION` (a fraction of a second
    once compiled); recorded, so that ``kernel.KERNEL.cold()`` is false from then on."""
    state = StairsGame(StairsOptions()).state_from_position(WARM_UP_POSITION)
    EndgameSolver().prove(state)
    kernel.KERNEL.warmed()


__all__ = ["EndgameSolver", "Position", "Solver", "UnsolvedError", "warm_up"]
