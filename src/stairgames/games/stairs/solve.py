"""Exact endgame solving for Stairs: who wins a position under perfect play.

Stairs has no chance and no hidden information, and once the first pieces have
climbed the lowest-first rule (S3) leaves few moves, so from the middle of a game
on the whole remaining tree can often be searched to the end. :class:`Solver`
does that: a depth-first win/loss search (a position is won for the colour to
move when some move leads to a position lost for the other) over a
:class:`Position` kept as bitboards and changed in place (make and unmake),
with a transposition table of proven results under Zobrist keys. It is about
twice as fast per position as the immutable :class:`rules.Board` and searches
the moves that leave the other colour the fewest replies first.

A search stops with :class:`UnsolvedError` when its node or time budget is spent;
every result proven until then stays in the table, so a later search of the same
game starts further on. Positions are solved for S5 exactly as
:func:`rules.verdict` scores them (tested against a plain search on
:class:`rules.Board` in ``tests/test_stairs_solve.py``).

Computer players use it through :class:`EndgameSolver` (the ``endgame_solver``
hook that :mod:`stairgames.games.stairs.evaluate` offers).
"""

from __future__ import annotations

import random
import time
from typing import Final

from stairgames.core.game import State
from stairgames.games.stairs import rules
from stairgames.games.stairs.notation import PASS

_N: Final = rules.NUM_SQUARES
_FULL: Final = (1 << _N) - 1
_FILE_A: Final = sum(1 << (rank * rules.SIZE) for rank in range(rules.SIZE))
_NOT_FILE_A: Final = _FULL & ~_FILE_A
_NOT_FILE_F: Final = _FULL & ~(_FILE_A << (rules.SIZE - 1))
_MAX_HEIGHT: Final = 2 * rules.PIECES_PER_COLOUR

_LIGHT, _DARK = 0, 1
_NOBODY: Final = 2
"""``Position.arrival`` before anybody has arrived at the greatest height."""

_NEIGHBOURS: Final = tuple(
    sum(1 << target for target in rules.NEIGHBOURS[square] if target >= 0) for square in range(_N)
)
"""The on-board neighbours of each square as a bitboard."""

_KEYS = random.Random(20261123)
_PIECE_KEYS: Final = tuple(
    tuple((_KEYS.getrandbits(64), _KEYS.getrandbits(64)) for _ in range(_MAX_HEIGHT))
    for _ in range(_N)
)
"""Zobrist keys: ``_PIECE_KEYS[square][level][colour]``."""
_DARK_TO_MOVE_KEY: Final = _KEYS.getrandbits(64)
_ARRIVAL_KEYS: Final = tuple(_KEYS.getrandbits(64) for _ in range(3))

_CHECK_EVERY: Final = 1024
"""Nodes between two looks at the clock."""


def _next_to(mask: int) -> int:
    """The squares next to any square of ``mask`` (a bitboard; no wrap at the edges)."""
    east = (mask << 1) & _NOT_FILE_A
    west = (mask >> 1) & _NOT_FILE_F
    row = mask | east | west
    return (east | west | (row << rules.SIZE) | (row >> rules.SIZE)) & _FULL


class Position:
    """A Stairs board as bitboards, changed in place by :meth:`make` and :meth:`unmake`.

    Colours are 0 (light) and 1 (dark). ``levels[h]`` has a bit for every square
    whose stack is ``h`` high; ``tops[c]`` for every stack topped by colour ``c``;
    ``pieces[square]`` has bit ``i`` set when the piece at level ``i`` is dark.
    """

    __slots__ = ("arrival", "heights", "key", "levels", "peak", "pieces", "to_move", "tops")

    def __init__(self, board: rules.Board) -> None:
        self.heights = [len(stack) for stack in board.stacks]
        self.pieces = [
            sum(1 << level for level, piece in enumerate(stack) if piece == rules.DARK)
            for stack in board.stacks
        ]
        self.levels = [0] * (_MAX_HEIGHT + 2)
        self.tops = [0, 0]
        self.key = 0
        for square, height in enumerate(self.heights):
            self.levels[height] |= 1 << square
            for level in range(height):
                self.key ^= _PIECE_KEYS[square][level][(self.pieces[square] >> level) & 1]
            if height:
                self.tops[(self.pieces[square] >> (height - 1)) & 1] |= 1 << square
        self.to_move = _LIGHT if board.to_move == rules.LIGHT else _DARK
        self.arrival = {None: _NOBODY, rules.LIGHT: _LIGHT, rules.DARK: _DARK}[board.last_arrival]
        self.peak = max(self.heights)

    def table_key(self) -> int:
        """A Zobrist key of the whole position (stacks, colour to move, last arrival)."""
        key = self.key ^ _ARRIVAL_KEYS[self.arrival]
        return key ^ _DARK_TO_MOVE_KEY if self.to_move else key

    def moves(self, colour: int) -> list[tuple[int, int]]:
        """S2 + S3: (source, target) of ``colour``'s lowest movable pieces, in square order."""
        own = self.tops[colour]
        levels = self.levels
        for height in range(1, self.peak + 1):
            level = levels[height]
            sources = own & level
            if sources:
                sources &= _next_to(level)
            if not sources:
                continue
            found = []
            while sources:
                bit = sources & -sources
                sources ^= bit
                source = bit.bit_length() - 1
                targets = _NEIGHBOURS[source] & level
                while targets:
                    target_bit = targets & -targets
                    targets ^= target_bit
                    found.append((source, target_bit.bit_length() - 1))
            return found
        return []

    def can_move(self, colour: int) -> bool:
        own = self.tops[colour]
        levels = self.levels
        for height in range(1, self.peak + 1):
            sources = own & levels[height]
            if sources and sources & _next_to(levels[height]):
                return True
        return False

    def make(self, source: int, target: int) -> tuple[int, int]:
        """Move the top piece of ``source`` onto ``target``; what :meth:`unmake` needs back."""
        undo = (self.peak, self.arrival)
        heights, pieces, levels, tops = self.heights, self.pieces, self.levels, self.tops
        height = heights[source]
        colour = (pieces[source] >> (height - 1)) & 1
        source_bit, target_bit = 1 << source, 1 << target
        self.key ^= _PIECE_KEYS[source][height - 1][colour] ^ _PIECE_KEYS[target][height][colour]
        pieces[source] &= ~(1 << (height - 1))
        heights[source] = height - 1
        levels[height] ^= source_bit
        levels[height - 1] |= source_bit
        tops[colour] ^= source_bit
        if height > 1:
            tops[(pieces[source] >> (height - 2)) & 1] |= source_bit
        tops[(pieces[target] >> (height - 1)) & 1] ^= target_bit
        tops[colour] |= target_bit
        pieces[target] |= colour << height
        heights[target] = height + 1
        levels[height] ^= target_bit
        levels[height + 1] |= target_bit
        if height + 1 >= self.peak:
            self.peak = height + 1
            self.arrival = colour
        self.to_move ^= 1
        return undo

    def unmake(self, source: int, target: int, undo: tuple[int, int]) -> None:
        """Take back :meth:`make` ``(source, target)``, which returned ``undo``."""
        heights, pieces, levels, tops = self.heights, self.pieces, self.levels, self.tops
        self.to_move ^= 1
        self.peak, self.arrival = undo
        height = heights[target] - 1
        colour = (pieces[target] >> height) & 1
        source_bit, target_bit = 1 << source, 1 << target
        pieces[target] &= ~(1 << height)
        heights[target] = height
        levels[height + 1] ^= target_bit
        levels[height] |= target_bit
        tops[colour] ^= target_bit
        tops[(pieces[target] >> (height - 1)) & 1] |= target_bit
        if height > 1:
            tops[(pieces[source] >> (height - 2)) & 1] ^= source_bit
        tops[colour] |= source_bit
        pieces[source] |= colour << (height - 1)
        heights[source] = height
        levels[height - 1] ^= source_bit
        levels[height] |= source_bit
        self.key ^= _PIECE_KEYS[source][height - 1][colour] ^ _PIECE_KEYS[target][height][colour]

    def winner(self) -> int:
        """S5 as the board stands (once somebody has climbed): the winning colour."""
        at_peak = self.levels[self.peak]
        light = (at_peak & self.tops[_LIGHT]).bit_count()
        dark = (at_peak & self.tops[_DARK]).bit_count()
        if not light or not dark:
            return _LIGHT if light else _DARK
        if light != dark:
            return _LIGHT if light > dark else _DARK
        return 1 - self.arrival


class UnsolvedError(Exception):
    """The search ran out of its node or time budget before proving the position."""


class Solver:
    """Win/loss search to the end of the game, with a table of proven positions.

    The table (Zobrist key -> whether the colour to move wins) persists between
    calls, so solving the positions of one game one after another reuses work.
    It is cleared when it grows past ``max_table`` entries.
    """

    def __init__(self, max_table: int = 2_000_000) -> None:
        self.table: dict[int, bool] = {}
        self.max_table = max_table
        self.nodes = 0
        self._limit = 0
        self._deadline = float("inf")

    def wins(
        self, position: Position, *, nodes: int | None = None, deadline: float | None = None
    ) -> bool:
        """Whether the colour to move in ``position`` wins it under perfect play.

        Raises :class:`UnsolvedError` after ``nodes`` new positions or at ``deadline``
        (a :func:`time.perf_counter` time); ``position`` is left as it was either way.
        """
        if len(self.table) > self.max_table:
            self.table.clear()
        self.nodes = 0
        self._limit = nodes if nodes is not None else 1 << 62
        self._deadline = deadline if deadline is not None else float("inf")
        return self._wins(position)

    def _wins(self, position: Position) -> bool:
        key = position.table_key()
        known = self.table.get(key)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self._limit or (
            self.nodes % _CHECK_EVERY == 0 and time.perf_counter() > self._deadline
        ):
            raise UnsolvedError
        colour = position.to_move
        moves = position.moves(colour)
        if not moves:
            if not position.can_move(1 - colour):
                won = position.winner() == colour
            else:
                position.to_move ^= 1
                try:
                    won = not self._wins(position)
                finally:
                    position.to_move ^= 1
        else:
            won = False
            for source, target in _ordered(position, moves, colour):
                undo = position.make(source, target)
                try:
                    lost = not self._wins(position)
                finally:
                    position.unmake(source, target, undo)
                if lost:
                    won = True
                    break
        self.table[key] = won
        return won


def _ordered(
    position: Position, moves: list[tuple[int, int]], colour: int
) -> list[tuple[int, int]]:
    """The moves that leave the other colour the fewest replies first.

    Like a proof-number search's preference for narrow subtrees: a win is found
    soonest where the other side has least to try (ordering this way solved
    twice as many positions 14 plies into random games within 150,000 nodes as
    covering the other colour first, and in less time).
    """
    if len(moves) < 2:
        return moves
    other = 1 - colour
    scored = []
    for source, target in moves:
        undo = position.make(source, target)
        replies = len(position.moves(other))
        position.unmake(source, target, undo)
        scored.append((replies, source, target))
    scored.sort()
    return [(source, target) for _, source, target in scored]


FIRST_BUDGET: Final = 256
"""Positions each root action may search in the first pass of :meth:`EndgameSolver.prove`
(four times as many in each later pass)."""


class EndgameSolver:
    """Solves the positions of a game as it goes on, keeping what it proved (the
    ``endgame_solver`` hook that :mod:`stairgames.games.stairs.evaluate` offers players)."""

    def __init__(self) -> None:
        self.solver = Solver()
        self.nodes = 0
        """Positions searched by the last :meth:`prove`."""

    def prove(
        self, state: State, *, nodes: int | None = None, deadline: float | None = None
    ) -> dict[int, list[float]]:
        """The actions of ``state`` proven so far, each with the returns it leads to.

        The actions are tried in passes, the most promising first (fewest
        replies), each pass giving every unproven action four times the positions
        of the last (from :data:`FIRST_BUDGET`), until an action proves a win for
        the seat to move (it is the last one added), all are proven, or ``nodes``
        (in all) or ``deadline`` is reached. So even where the whole position is
        out of reach, moves that lose by force are found and can be avoided. A
        ``swap`` (pie rule) is outside the solver: nothing is proven while it is
        available, nor before anybody has climbed (S5 names no winner there).
        """
        from stairgames.games.stairs.game import StairsState

        assert isinstance(state, StairsState)
        self.nodes = 0
        proven: dict[int, list[float]] = {}
        board = state.board
        legal = [] if state.is_terminal() else state.legal_actions()
        if not legal or board.max_height() < 2 or any(action > PASS for action in legal):
            return proven
        seat = state.current_player()
        position = Position(board)
        order = _root_order(position, legal)
        per_action = FIRST_BUDGET
        while len(proven) < len(order):
            for action in order:
                if action in proven:
                    continue
                budget = per_action if nodes is None else min(per_action, nodes - self.nodes)
                if budget <= 0:
                    return proven
                try:
                    won = self._mover_wins_after(position, action, budget, deadline)
                except UnsolvedError:
                    if deadline is not None and time.perf_counter() > deadline:
                        return proven
                    continue
                proven[action] = _returns(seat, won)
                if won:
                    return proven
            per_action *= 4
        return proven

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
        if proven and len(proven) == len(state.legal_actions()):
            return next(iter(proven.values())), None
        return None

    def _mover_wins_after(
        self, position: Position, action: int, nodes: int, deadline: float | None
    ) -> bool:
        """Whether the colour to move in ``position`` wins by playing ``action``."""
        if action == PASS:
            position.to_move ^= 1
            try:
                return not self._counted(position, nodes, deadline)
            finally:
                position.to_move ^= 1
        move = rules.step_move(action)
        undo = position.make(move.source, move.target)
        try:
            return not self._counted(position, nodes, deadline)
        finally:
            position.unmake(move.source, move.target, undo)

    def _counted(self, position: Position, nodes: int, deadline: float | None) -> bool:
        try:
            return self.solver.wins(position, nodes=nodes, deadline=deadline)
        finally:
            self.nodes += self.solver.nodes


def _root_order(position: Position, legal: list[int]) -> list[int]:
    """The actions of the root in the solver's order (fewest replies first)."""
    if legal == [PASS]:
        return legal
    moves = [(move.source, move.target) for move in map(rules.step_move, legal)]
    action_of = dict(zip(moves, legal, strict=True))
    return [action_of[move] for move in _ordered(position, moves, position.to_move)]


def _returns(seat: int, won: bool) -> list[float]:
    winner = seat if won else 1 - seat
    return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]


__all__ = ["EndgameSolver", "Position", "Solver", "UnsolvedError"]
