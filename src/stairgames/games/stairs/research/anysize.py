"""Stairs solved exactly on a board of any size (S8), with the compiled search.

:class:`BoardSolver` is the win/loss search of :mod:`.exact` compiled with numba
(:mod:`.endgame_kernel`, the engine of every size): the board as bitboards changed
in place, a transposition table of proven positions keyed by the stacks (up to the
board's symmetries), the colour to move and the last arrival at the greatest height,
and the moves that leave the other colour the fewest replies searched first (ties
broken by the guided playouts' policy).
:func:`solve_start` solves a board from the
start (every first move of light, so that all winning ones are listed), without the
pie rule; :func:`solve_pie_rule` solves the game with the pie rule (S6) through the
engine's own swap.

>>> result = solve_start(3)
>>> result.winner, len(result.winning_first_moves)
('L', 12)
"""

from __future__ import annotations

import dataclasses
import functools
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final

import numpy as np

from stairgames.games.stairs import rules
from stairgames.games.stairs.game import StairsGame, StairsOptions, StairsState, max_game_length
from stairgames.games.stairs.notation import parse_move_text
from stairgames.games.stairs.research import endgame_kernel as kernel
from stairgames.games.stairs.research.endgame_kernel import Array
from stairgames.games.stairs.rules import DARK, LIGHT, Board

DEFAULT_TABLE_BITS: Final = 22
"""A table of 4 million slots (some 40 MB): enough for 4×4 from the start."""


def random_game_boards(size: int, rng: random.Random) -> list[Board]:
    """The boards of a uniformly random game on ``size`` from the start to the end
    (where solvers are tested and their reach is measured)."""
    board = rules.initial_board(size)
    boards = [board]
    while not rules.is_over(board):
        steps = rules.lowest_steps(board, board.to_move)
        if steps:
            board = rules.apply_move(board, rules.step_move(rng.choice(steps), size))
        else:
            board = rules.pass_turn(board)
        boards.append(board)
    return boards


class UnsolvedError(Exception):
    """The search spent its node budget before proving the position (or was stopped)."""


_NO_LIMIT: Final = 1 << 61
"""The node limit of a search without one (more positions than any search expands)."""
_STOP_COUNT: Final = 1 << 62
"""The count :meth:`BoardSolver.stop` gives the search: past :data:`_NO_LIMIT`, and
far from overflowing as the search adds to it."""


def position_array(board: Board) -> Array:
    """The compiled search's array of ``board`` (the layout of :mod:`.endgame_kernel`),
    with the keys of all eight symmetries."""
    return kernel.position_array(board, _constants(board.size))


@functools.cache
def _constants(size: int, symmetries: int = kernel.NUM_SYMMETRIES) -> kernel.Constants:
    """The constants of ``size`` for this solver: its own Zobrist keys and a two-way
    table (``kernel.store``)."""
    return kernel.constants(size, symmetries=symmetries, table_ways=2, key_set=kernel.ANY_SIZE_KEYS)


class BoardSolver:
    """Win/loss search to the end of the game on one board size, with a table of proven
    positions kept between calls (``2 ** table_bits`` slots, 10 bytes each).

    ``symmetric=False`` keys the table on the board as it is, not up to its
    rotations and reflections (for comparisons).
    """

    def __init__(
        self, size: int, *, table_bits: int = DEFAULT_TABLE_BITS, symmetric: bool = True
    ) -> None:
        self.size = size
        self.constants = _constants(size, kernel.NUM_SYMMETRIES if symmetric else 1)
        self.keys, self.proven = kernel.table(table_bits, ways=2)
        self.nodes = 0
        """Positions expanded (not found in the table) since the solver was made."""
        rows = max_game_length(size) + 2
        self._stack: Array = np.empty((rows, 2 * kernel.MAX_MOVES), dtype=np.int64)
        self._counter: Array = np.zeros(1, dtype=np.int64)
        self._stopping = False

    def searching(self) -> int:
        """Positions expanded so far, the search under way included (read from another
        thread while :meth:`wins` runs)."""
        return self.nodes + (0 if self._stopping else int(self._counter[0]))

    def stop(self) -> None:
        """Stops the search under way (from another thread): its compiled loop never
        returns to Python on its own, so this raises the count of positions it reads
        past its limit, and :meth:`wins` raises :exc:`UnsolvedError`. Call it until the
        search has returned: the search may write its own count over it once."""
        self._stopping = True
        self._counter[0] = _STOP_COUNT

    def wins(self, board: Board, *, nodes: int | None = None) -> bool:
        """Whether the colour to move on ``board`` wins under perfect play.

        :raises UnsolvedError: after ``nodes`` more positions without a proof (what was
            proven stays in the table, so a later call goes on from there).
        """
        assert board.size == self.size, f"a {board.size}×{board.size} board, not {self.size}"
        if not board.climbed():
            return self._wins_at_start(board, nodes)
        return self._search(position_array(board), nodes)

    def _search(self, s: Array, nodes: int | None) -> bool:
        if self._stopping:
            raise UnsolvedError
        self._counter[0] = 0
        limit = _NO_LIMIT if nodes is None else nodes
        result = kernel.search(
            s,
            self.constants,
            self.keys,
            self.proven,
            self._counter,
            limit,
            self._stack,
            0,
        )
        if self._stopping:
            raise UnsolvedError
        self.nodes += int(self._counter[0])
        self._counter[0] = 0  # counted in nodes (:meth:`searching`)
        if result == kernel.UNSOLVED:
            raise UnsolvedError
        return bool(result == kernel.WIN)

    def _wins_at_start(self, board: Board, nodes: int | None) -> bool:
        """The start (nobody has climbed, S5 names no winner yet): light wins when a
        first move leaves dark a lost position."""
        spent = self.nodes
        for move in rules.legal_moves(board, board.to_move):
            budget = None if nodes is None else max(0, nodes - (self.nodes - spent))
            if not self.wins(rules.apply_move(board, move), nodes=budget):
                return True
        return False


LEAF_NODES: Final = 2_000_000
"""The positions :func:`prove` lets the bounded search spend on a leaf of its tree."""

_INFINITE: Final = 1 << 62


@dataclasses.dataclass(eq=False, slots=True)
class _ProofNode:
    """A position of :func:`prove`'s tree, with its proof numbers from the side of the
    colour to move: ``proof``, how many leaves at least must be proven to show that it
    wins; ``disproof``, to show that it loses (0: shown; :data:`_INFINITE`: cannot be)."""

    board: Board
    proof: int = 1
    disproof: int = 1
    children: list[_ProofNode] | None = None


def prove(
    solver: BoardSolver,
    board: Board,
    *,
    leaf_nodes: int = LEAF_NODES,
    progress: Callable[[int, int, int], None] | None = None,
) -> bool:
    """Whether the colour to move on ``board`` (after the first move) wins, as
    :meth:`BoardSolver.wins` answers it, but for positions too deep for its depth-first
    search alone: a proof-number search over the first plies picks the leaf most
    likely to settle the root (PN², Breuker 1999), and the solver's bounded search
    (``leaf_nodes`` positions) tries each leaf; a leaf it cannot settle in that budget
    is expanded. A depth-first search can sink hours into one reply that fails while
    another wins at once; this one keeps every reply in view. Every result comes
    from the solver's exact search, so the answer is the same; only the work differs.
    Measured, it is the slower one where the depth-first search does not sink: about
    twice the positions on 5×5 positions three plies from the start
    (``benchmarks/stairs_pn.py``), more than the 490 million positions of 5×5 after
    ``b1-b2``; so the solve command does not use it (``docs/analysis.md``).

    ``progress(tree_nodes, root_proof, root_disproof)`` is called after each expansion.
    """
    root = _ProofNode(board)
    _try_leaf(solver, root, leaf_nodes)
    tree_nodes = 1
    while root.proof and root.disproof:
        path = _most_proving_path(root)
        leaf = path[-1]
        leaf.children = [_ProofNode(child) for child in _child_boards(leaf.board)]
        tree_nodes += len(leaf.children)
        for child in leaf.children:
            _try_leaf(solver, child, leaf_nodes)
            if child.disproof == 0:
                break  # a reply that loses for the other colour: the leaf is won
        for node in reversed(path):
            _update(node)
        if progress is not None:
            progress(tree_nodes, root.proof, root.disproof)
    return root.proof == 0


def _try_leaf(solver: BoardSolver, node: _ProofNode, leaf_nodes: int) -> None:
    """Settle ``node`` by the bounded search, or give it proof numbers by its moves
    (one of them must win; all of them must lose)."""
    try:
        wins = solver.wins(node.board, nodes=leaf_nodes)
    except UnsolvedError:
        node.proof = 1
        node.disproof = max(1, len(rules.legal_moves(node.board, node.board.to_move)))
        return
    node.proof, node.disproof = (0, _INFINITE) if wins else (_INFINITE, 0)


def _most_proving_path(root: _ProofNode) -> list[_ProofNode]:
    """From the root to the leaf to expand: at each position the reply whose disproof
    (the other colour's losing) is cheapest, the one that sets the position's proof."""
    path = [root]
    while path[-1].children is not None:
        children = path[-1].children
        path.append(min(children, key=lambda child: child.disproof))
    return path


def _update(node: _ProofNode) -> None:
    """The proof numbers of ``node`` from its children's (negamax: a position is won
    when some reply loses for the other colour, lost when every reply wins for it);
    a settled position forgets its children."""
    assert node.children is not None
    node.proof = min(child.disproof for child in node.children)
    node.disproof = min(_INFINITE, sum(child.proof for child in node.children))
    if node.proof == 0 or node.disproof == 0:
        node.children = None


def _child_boards(board: Board) -> list[Board]:
    """The positions after each legal move of the colour to move, or after its pass."""
    moves = rules.legal_moves(board, board.to_move)
    if not moves:
        return [rules.pass_turn(board)]
    return [rules.apply_move(board, move) for move in moves]


def after_action(board: Board, action: int) -> Board:
    """``board`` after the move or pass ``action`` (its action id on this size)."""
    if action == 8 * board.geometry.num_squares:
        return rules.pass_turn(board)
    return rules.apply_move(board, rules.step_move(action, board.size))


@dataclasses.dataclass(frozen=True)
class StartValue:
    """The game from the start of one board size under perfect play."""

    size: int
    pie_rule: bool
    winner: str
    """Without the pie rule: the colour that wins (``"L"``, light moves first, or
    ``"D"``). With it: ``"first"`` or ``"second"`` (player)."""
    winning_first_moves: tuple[str, ...]
    """Light's first moves that win (without the pie rule), or the first player's
    first moves after which it wins (with it)."""
    first_moves: tuple[tuple[str, str], ...]
    """Each first move of light with the colour that wins the position after it (dark
    to move)."""
    nodes: int
    """Positions the search expanded."""
    seconds: float
    """Processor seconds of the search."""


Progress = Callable[[str, int, str], None]
"""``progress(move, nodes, winner)``: called after each first move is solved."""


def first_move_values(
    solver: BoardSolver, *, progress: Progress | None = None
) -> Iterator[tuple[str, str]]:
    """Each first move of light on ``solver``'s board with the colour that wins after it."""
    board = rules.initial_board(solver.size)
    for move in rules.legal_moves(board, LIGHT):
        after = rules.apply_move(board, move)
        winner = DARK if solver.wins(after) else LIGHT
        if progress is not None:
            progress(str(move), solver.nodes, winner)
        yield str(move), winner


def first_move_classes(size: int) -> list[tuple[str, ...]]:
    """Light's first moves on the ``size``×``size`` board, grouped by the board's
    symmetries: the positions after the moves of one group are rotations or reflections
    of each other (every rule is the same under them), so they have one value. Groups
    in the order of their first moves, moves in legal-move order (5×5: 72 moves, 10
    groups)."""
    board = rules.initial_board(size)
    squares = size * size
    groups: dict[tuple[str, ...], list[str]] = {}
    for move in rules.legal_moves(board, LIGHT):
        stacks = rules.apply_move(board, move).stacks
        canonical = min(
            tuple(stacks[kernel.image_of(size, symmetry, square)] for square in range(squares))
            for symmetry in range(kernel.NUM_SYMMETRIES)
        )
        groups.setdefault(canonical, []).append(str(move))
    return [tuple(moves) for moves in groups.values()]


def part_table_bits(size: int) -> int:
    """The table of one part of :func:`solve_start_in_parts`: 40 MB up to 4×4, 670 MB
    for 5×5 (a part there searches hundreds of millions of positions)."""
    return DEFAULT_TABLE_BITS if size <= 4 else 26


@dataclasses.dataclass(frozen=True)
class PartValue:
    """One part of a board solved in parts: a group of symmetric first moves of light
    (:func:`first_move_classes`) and the colour that wins after each of them."""

    moves: tuple[str, ...]
    winner: str
    nodes: int
    """Positions the part's search expanded."""
    seconds: float
    """Processor seconds of the part."""


def first_move_class_value(task: tuple[int, tuple[str, ...]]) -> PartValue:
    """One independent part of solving a board from the start: ``(size, moves)``, a
    group of symmetric first moves, solved by the depth-first search after the first of
    them with a table of its own (so parts can run in other processes or on other
    machines). The depth-first search, not :func:`prove`: on the positions measured
    (``benchmarks/stairs_pn.py``, and 5×5 after ``b1-b2``) it searched about half the
    positions the proof-number search did."""
    size, moves = task
    started = time.process_time()
    board = rules.initial_board(size)
    move = parse_move_text(moves[0], size)
    assert isinstance(move, rules.Move), moves[0]
    solver = BoardSolver(size, table_bits=part_table_bits(size))
    winner = DARK if solver.wins(rules.apply_move(board, move)) else LIGHT
    return PartValue(moves, winner, solver.nodes, time.process_time() - started)


MEASURED_PART_POSITIONS: Final = {
    5: {
        "b1-b2": 491_514_359,
        "b1-c2": 564_759_462,
        "b1-c1": 192_804_143,
        "b1-a1": 61_899_242,
        "b1-a2": 504_464_730,
        "c2-c3": 304_217_176,
        "c2-d3": 199_360_974,
        "c2-d2": 114_530_604,
        "c2-d1": 91_515_519,
        "c2-c1": 28_722_077,
    }
}
"""The positions each part of a board took when it was solved (``docs/analysis.md``),
by the first move of its group: the search is deterministic, so a run takes as many
again, and its progress can say how much is left."""


def measured_positions(size: int, moves: tuple[str, ...]) -> int | None:
    """The positions the part ``moves`` of ``size`` took when it was solved, if known
    (:data:`MEASURED_PART_POSITIONS`)."""
    return MEASURED_PART_POSITIONS.get(size, {}).get(moves[0])


WATCH_EVERY: Final = 0.5
"""Seconds between two looks at a part searched by :func:`watched_part`."""


def watched_part(
    size: int, moves: tuple[str, ...], watch: Callable[[int], None], every: float = WATCH_EVERY
) -> PartValue:
    """:func:`first_move_class_value` of ``(size, moves)`` in this process, its search in
    a thread of its own, so that this thread stays free: every ``every`` seconds
    ``watch(positions)`` hears how many positions it has searched, and Ctrl-C (or any
    exception in ``watch``) stops the search at once, the exception going on. (The
    compiled search never returns to Python until it ends, so a signal would wait for
    it where it ran in this thread.)"""
    started = time.process_time()
    board = rules.initial_board(size)
    move = parse_move_text(moves[0], size)
    assert isinstance(move, rules.Move), moves[0]
    solver = BoardSolver(size, table_bits=part_table_bits(size))
    outcome: list[bool | BaseException] = []

    def search() -> None:
        try:
            outcome.append(solver.wins(rules.apply_move(board, move)))
        except BaseException as error:  # handed to the caller's thread
            outcome.append(error)

    searcher = threading.Thread(target=search, name=f"stairs-part-{moves[0]}", daemon=True)
    searcher.start()
    try:
        while searcher.is_alive():
            searcher.join(every)
            watch(solver.searching())
    except BaseException:
        while searcher.is_alive():  # the search may write its count over the stop once
            solver.stop()
            searcher.join(every / 10)
        raise
    seconds = time.process_time() - started  # this process's: the search's thread included
    found = outcome[0]
    if isinstance(found, BaseException):
        raise found
    return PartValue(moves, DARK if found else LIGHT, solver.nodes, seconds)


def solve_start_in_parts(
    size: int,
    map_tasks: Callable[..., list[Any]],
    *,
    done: Sequence[PartValue] = (),
    on_part: Callable[[PartValue], None] | None = None,
) -> StartValue:
    """Solve the ``size``×``size`` start without the pie rule, one part a group of
    symmetric first moves (:func:`first_move_classes`), the parts solved by
    ``map_tasks(function, tasks, on_result=...)`` (e.g. over processes or a Ray
    cluster). Parts in ``done`` are not solved again (a run that goes on), and
    ``on_part`` hears of each part as it ends. Parts share no table, so the positions
    searched add up to more than :func:`solve_start`'s, but they spread over as many
    cores as there are groups. ``seconds`` is the parts' processor time."""
    known = {part.moves: part for part in done}
    todo = [moves for moves in first_move_classes(size) if moves not in known]

    def tell(index: int, part: PartValue) -> None:
        if on_part is not None:
            on_part(part)

    solved = map_tasks(first_move_class_value, [(size, moves) for moves in todo], on_result=tell)
    known.update((part.moves, part) for part in solved)
    return _start_value_of_parts(size, list(known.values()))


def _start_value_of_parts(size: int, parts: list[PartValue]) -> StartValue:
    """The board's value from its parts' (first moves in legal-move order)."""
    winner_of = {move: part.winner for part in parts for move in part.moves}
    order = [str(move) for move in rules.legal_moves(rules.initial_board(size), LIGHT)]
    winning = tuple(move for move in order if winner_of[move] == LIGHT)
    return StartValue(
        size=size,
        pie_rule=False,
        winner=LIGHT if winning else DARK,
        winning_first_moves=winning,
        first_moves=tuple((move, winner_of[move]) for move in order),
        nodes=sum(part.nodes for part in parts),
        seconds=sum(part.seconds for part in parts),
    )


def solve_start(
    size: int,
    *,
    table_bits: int = DEFAULT_TABLE_BITS,
    symmetric: bool = True,
    progress: Progress | None = None,
) -> StartValue:
    """Solve the ``size``×``size`` game from the start without the pie rule."""
    started = time.process_time()
    solver = BoardSolver(size, table_bits=table_bits, symmetric=symmetric)
    values = tuple(first_move_values(solver, progress=progress))
    winning = tuple(move for move, winner in values if winner == LIGHT)
    return StartValue(
        size=size,
        pie_rule=False,
        winner=LIGHT if winning else DARK,
        winning_first_moves=winning,
        first_moves=values,
        nodes=solver.nodes,
        seconds=time.process_time() - started,
    )


def solve_pie_rule(size: int, *, table_bits: int = DEFAULT_TABLE_BITS) -> StartValue:
    """Solve the ``size``×``size`` game with the pie rule (S6), through the engine: for
    each first move the second player's every legal action, the ``swap`` among them,
    is tried on a state of the pie-rule game, and the position after it is solved;
    the seat that wins follows from the colour each seat plays there
    (:meth:`StairsState.colour_of`)."""
    started = time.process_time()
    solver = BoardSolver(size, table_bits=table_bits)
    game = StairsGame(StairsOptions(pie_rule=True, agreement=False, size=size))
    start = game.new_initial_state()
    first_moves = []
    winning = []
    for first in start.legal_actions():
        state = _child(start, first)
        seat_wins = second_seat_wins(solver, state)
        winner_after = DARK if solver.wins(state.board) else LIGHT
        first_moves.append((start.action_to_string(first), winner_after))
        if not seat_wins:
            winning.append(start.action_to_string(first))
    return StartValue(
        size=size,
        pie_rule=True,
        winner="first" if winning else "second",
        winning_first_moves=tuple(winning),
        first_moves=tuple(first_moves),
        nodes=solver.nodes,
        seconds=time.process_time() - started,
    )


def pie_rule_from(start: StartValue) -> StartValue:
    """The game with the pie rule (S6) from the solved game without it, for boards too
    big to search again: after a first move the second player may ``swap`` and take
    light, or play on as dark, so it wins whichever colour wins the position (Stairs
    has no draws), provided ``swap`` is legal there; that is checked on the engine's
    pie-rule state after every first move (:exc:`AssertionError` if not)."""
    assert not start.pie_rule
    game = StairsGame(StairsOptions(pie_rule=True, agreement=False, size=start.size))
    initial = game.new_initial_state()
    winner_of = dict(start.first_moves)
    first_moves = []
    for first in initial.legal_actions():
        state = _child(initial, first)
        actions = [state.action_to_string(action) for action in state.legal_actions()]
        assert "swap" in actions, f"no swap after {initial.action_to_string(first)}"
        first_moves.append(
            (initial.action_to_string(first), winner_of[initial.action_to_string(first)])
        )
    return StartValue(
        size=start.size,
        pie_rule=True,
        winner="second",
        winning_first_moves=(),
        first_moves=tuple(first_moves),
        nodes=start.nodes,
        seconds=start.seconds,
    )


def second_seat_wins(solver: BoardSolver, state: StairsState) -> bool:
    """Whether seat 1, to act after the first move of a pie-rule game, wins it: some
    legal action of the engine's (a move as dark, a pass, or ``swap``) leads to a
    state that seat 1 wins under perfect play."""
    assert state.current_player() == 1
    for action in state.legal_actions():
        child = _child(state, action)
        mover = child.board.to_move
        mover_wins = solver.wins(child.board)
        winning_colour = mover if mover_wins else rules.opponent(mover)
        if child.colour_of(1) == winning_colour:
            return True
    return False


def _child(state: StairsState, action: int) -> StairsState:
    child = state.clone()
    child.apply_action(action)
    return child


__all__ = [
    "BoardSolver",
    "PartValue",
    "StartValue",
    "UnsolvedError",
    "after_action",
    "first_move_class_value",
    "first_move_classes",
    "measured_positions",
    "pie_rule_from",
    "position_array",
    "prove",
    "second_seat_wins",
    "solve_pie_rule",
    "solve_start",
    "solve_start_in_parts",
    "watched_part",
]
