"""Stairs rules as a small pure core (rulebook ``stairs.en.txt``, rulings S1-S8).

The board is a tuple of 36 stacks, one per square, indexed ``rank * 6 + file``
with file ``a`` = 0 and rank ``1`` = 0 (S1); on a board of another size (S8, 3 to 8
squares a side) n² stacks indexed ``rank * n + file``, the size following from their
number (:attr:`Board.size`, :func:`geometry`). Each stack is a string of colours
from bottom to top, ``"L"`` light and ``"D"`` dark, empty when ``""``::

    rank 6  30 31 32 33 34 35
    ...
    rank 1   0  1  2  3  4  5
             a  b  c  d  e  f

Rules, with the rulings that settle them:

- S1: ``a1`` starts dark; a square starts dark when file + rank is even.
- S2: a move takes the top piece of a stack topped by your colour to one of the
  8 neighbours whose stack has exactly the same height (never onto an empty
  square); the piece ends one level higher.
- S3: only your movable pieces of minimal height (source height before the
  move) may move.
- S4: a player with no move passes; the game ends when neither can move.
- S5: greatest height H; more stacks of height H topped by your colour wins;
  on equal counts the player who made the most recent arrival at H loses.
- S6 (pie rule) and S7 (ending by agreement) live in :mod:`.game`: they are
  about seats and play, not about the board.
- S8: the same checkered start on an n×n board, one piece a square (dark has one
  more on odd sizes), light first, every other rule unchanged.

Functions here never mutate; they return new :class:`Board` values.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from collections.abc import Iterable
from typing import Final

from stairgames.i18n import N_, Text

LIGHT: Final = "L"
DARK: Final = "D"
COLOURS: Final = (LIGHT, DARK)

MIN_SIZE: Final = 3
"""S8: the smallest board, 3×3 (the option ``size``)."""
MAX_SIZE: Final = 8
"""S8: the largest board, 8×8 (files ``a``-``h``, ranks ``1``-``8``)."""
ALL_FILES: Final = "abcdefgh"
ALL_RANKS: Final = "12345678"

SIZE: Final = 6
"""The rulebook's board, 6×6 (the default of the option ``size``); the module
constants below are its values, :func:`geometry` gives those of any size."""
NUM_SQUARES: Final = SIZE * SIZE
PIECES_PER_COLOUR: Final = 18

FILES: Final = "abcdef"
RANKS: Final = "123456"

# (file step, rank step) in a fixed order: N, NE, E, SE, S, SW, W, NW.
DIRECTIONS: Final = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
NUM_DIRECTIONS: Final = len(DIRECTIONS)


@dataclasses.dataclass(frozen=True)
class Geometry:
    """Everything about a board of one size (S8): its squares, names and neighbours.

    >>> geometry(4).files, geometry(4).light_pieces, geometry(3).dark_pieces
    ('abcd', 8, 5)
    """

    size: int
    num_squares: int
    files: str
    ranks: str
    neighbours: tuple[tuple[int, ...], ...]
    """``neighbours[square][direction]``: the neighbouring square, or -1 off the board."""
    steps: tuple[tuple[tuple[int, int], ...], ...]
    """``steps[square]``: ``(step code, target)`` for each neighbour on the board."""
    light_pieces: int
    """S1, S8: one piece a square in the checkered start; light has the light squares."""
    dark_pieces: int
    """The dark squares (``a1`` among them): one more than light on odd sizes, where
    every corner is dark."""


def _neighbour_on(size: int, square: int, direction: int) -> int:
    file, rank = square % size, square // size
    df, dr = DIRECTIONS[direction]
    nf, nr = file + df, rank + dr
    if 0 <= nf < size and 0 <= nr < size:
        return nr * size + nf
    return -1


@functools.cache
def geometry(size: int) -> Geometry:
    """The board of ``size`` squares a side (S8); the caller checks the range."""
    assert MIN_SIZE <= size <= MAX_SIZE, f"no Stairs board of size {size}"
    squares = size * size
    neighbours = tuple(
        tuple(_neighbour_on(size, square, d) for d in range(NUM_DIRECTIONS))
        for square in range(squares)
    )
    steps = tuple(
        tuple(
            (source * NUM_DIRECTIONS + direction, target)
            for direction, target in enumerate(neighbours[source])
            if target >= 0
        )
        for source in range(squares)
    )
    return Geometry(
        size=size,
        num_squares=squares,
        files=ALL_FILES[:size],
        ranks=ALL_RANKS[:size],
        neighbours=neighbours,
        steps=steps,
        light_pieces=squares // 2,
        dark_pieces=squares - squares // 2,
    )


_BY_SQUARES: Final = {size * size: geometry(size) for size in range(MIN_SIZE, MAX_SIZE + 1)}
_STEPS_BY_SQUARES: Final = {squares: shape.steps for squares, shape in _BY_SQUARES.items()}
_NEIGHBOURS_BY_SQUARES: Final = {
    squares: shape.neighbours for squares, shape in _BY_SQUARES.items()
}
"""The geometry of a board from its number of stacks (a board knows its size so)."""


def square_index(file: int, rank: int, size: int = SIZE) -> int:
    return rank * size + file


def square_name(square: int, size: int = SIZE) -> str:
    """``square_name(0) == "a1"``; ``square_name(35) == "f6"``; ``square_name(15, 4) == "d4"``."""
    return ALL_FILES[square % size] + ALL_RANKS[square // size]


NEIGHBOURS: Final = geometry(SIZE).neighbours
"""``NEIGHBOURS[square][direction]`` on the 6×6 board: the neighbouring square, or -1
off the board (no wrap)."""


def direction_between(source: int, target: int, size: int = SIZE) -> int | None:
    """The direction index from ``source`` to an adjacent ``target``, else ``None``."""
    for direction, neighbour in enumerate(geometry(size).neighbours[source]):
        if neighbour == target:
            return direction
    return None


def initial_colour(square: int, size: int = SIZE) -> str:
    """S1: a square starts dark where file index + rank index is even (``a1`` is dark)."""
    return DARK if (square % size + square // size) % 2 == 0 else LIGHT


def opponent(colour: str) -> str:
    return DARK if colour == LIGHT else LIGHT


@dataclasses.dataclass(frozen=True, slots=True)
class Move:
    """A move of the top piece of ``source`` onto the neighbouring ``target``."""

    source: int
    target: int
    size: int = SIZE
    """The board's size (S8), which names the squares."""

    def __str__(self) -> str:
        return f"{square_name(self.source, self.size)}-{square_name(self.target, self.size)}"


@dataclasses.dataclass(frozen=True, slots=True)
class Board:
    """The whole position: stacks, colour to move, and who last arrived at the top height."""

    stacks: tuple[str, ...]
    to_move: str
    last_arrival: str | None
    """Colour of the most recent arrival at the greatest height (S5), ``None`` before any."""

    @property
    def geometry(self) -> Geometry:
        """The board's squares and neighbours (its size follows from its number of stacks).

        :raises KeyError: the board has no square number of stacks from 9 to 64.
        """
        return _BY_SQUARES[len(self.stacks)]

    @property
    def size(self) -> int:
        """Squares a side (S8)."""
        return self.geometry.size

    def climbed(self) -> bool:
        """Whether a piece has climbed (every move makes an arrival at the greatest height,
        so this is ``max_height() > 1`` without looking at the stacks)."""
        return self.last_arrival is not None

    def height(self, square: int) -> int:
        return len(self.stacks[square])

    def top(self, square: int) -> str | None:
        stack = self.stacks[square]
        return stack[-1] if stack else None

    def max_height(self) -> int:
        return max(map(len, self.stacks))

    def count(self, colour: str) -> int:
        return sum(stack.count(colour) for stack in self.stacks)


def initial_board(size: int = SIZE) -> Board:
    """Checkered setup (S1) on a board of ``size`` squares a side (S8), light to move,
    nobody has climbed yet."""
    squares = geometry(size).num_squares
    return Board(tuple(initial_colour(sq, size) for sq in range(squares)), LIGHT, None)


def movable_moves(board: Board, colour: str) -> list[Move]:
    """Every move of ``colour`` that S2 allows, ignoring the lowest-piece rule."""
    stacks = board.stacks
    shape = board.geometry
    moves = []
    for source in range(shape.num_squares):
        stack = stacks[source]
        if not stack or stack[-1] != colour:
            continue
        height = len(stack)
        for target in shape.neighbours[source]:
            if target >= 0 and len(stacks[target]) == height:
                moves.append(Move(source, target, shape.size))
    return moves


def lowest_steps(board: Board, colour: str) -> list[int]:
    """S2 + S3 as step codes ``source * 8 + direction``, ascending (the action encoding).

    Only moves whose source stack is of minimal height among ``colour``'s
    movable pieces are listed.
    """
    stacks = board.stacks
    heights = [len(stack) for stack in stacks]
    best = len(stacks) + 1
    all_steps = _STEPS_BY_SQUARES[len(stacks)]
    steps: list[int] = []
    for source, stack in enumerate(stacks):
        if stack[-1:] != colour:  # empty, or topped by the other colour
            continue
        height = heights[source]
        if height > best:
            continue
        for step, target in all_steps[source]:
            if heights[target] == height:
                if height < best:
                    best = height
                    steps = []
                steps.append(step)
    return steps


def step_move(step: int, size: int = SIZE) -> Move:
    """The move of a step code from :func:`lowest_steps` on a board of ``size``."""
    source, direction = divmod(step, NUM_DIRECTIONS)
    return Move(source, geometry(size).neighbours[source][direction], size)


def legal_moves(board: Board, colour: str) -> list[Move]:
    """S2 + S3: the moves of ``colour`` whose source stack is of minimal height.

    Sorted by source square, then by direction (N, NE, E, SE, S, SW, W, NW).
    """
    size = board.size
    return [step_move(step, size) for step in lowest_steps(board, colour)]


def has_move(board: Board, colour: str) -> bool:
    stacks = board.stacks
    neighbours = _NEIGHBOURS_BY_SQUARES[len(stacks)]
    for source, stack in enumerate(stacks):
        if stack and stack[-1] == colour:
            height = len(stack)
            for target in neighbours[source]:
                if target >= 0 and len(stacks[target]) == height:
                    return True
    return False


def apply_move(board: Board, move: Move) -> Board:
    """Move the top piece of ``move.source`` onto ``move.target``; the other colour moves next.

    The caller guarantees legality. Arriving at or above the greatest height
    makes the mover the most recent arrival at that height (S5).
    """
    return move_piece(board, move.source, move.target, board.max_height())


def move_piece(board: Board, source: int, target: int, peak: int) -> Board:
    """:func:`apply_move` from the squares alone (no :class:`Move` made), given the
    board's greatest height ``peak`` (which a caller playing many moves may keep)."""
    stacks = list(board.stacks)
    moving = stacks[source]
    piece = moving[-1]
    stacks[source] = moving[:-1]
    landing = stacks[target] + piece
    stacks[target] = landing
    arrival = piece if len(landing) >= peak else board.last_arrival
    return Board(tuple(stacks), DARK if board.to_move == LIGHT else LIGHT, arrival)


def pass_turn(board: Board) -> Board:
    """S4: the player to move has no move; the other colour moves next."""
    return dataclasses.replace(board, to_move=opponent(board.to_move))


def is_over(board: Board) -> bool:
    """S4: the game ends when neither player can move."""
    return not has_move(board, LIGHT) and not has_move(board, DARK)


class Decision(enum.Enum):
    """Which step of S5 decided the winner."""

    HEIGHT = "height"
    """Only the winner tops a stack of the greatest height."""
    COUNT = "count"
    """Both reached the greatest height; the winner tops more stacks there."""
    FIRST_ARRIVAL = "first arrival"
    """Equal counts at the greatest height; the winner reached that count first."""


@dataclasses.dataclass(frozen=True, slots=True)
class Verdict:
    """The S5 result of a board: the winning colour, the deciding step and the figures."""

    winner: str
    decision: Decision
    height: int
    light_count: int
    dark_count: int
    last_arrival: str | None

    def explain(self) -> str:
        """The decision in English."""
        return str(self.text())

    def text(self) -> Text:
        """The decision for players in any language (:func:`stairgames.i18n.localize`)."""
        arguments = {
            "height": self.height,
            "light": self.light_count,
            "dark": self.dark_count,
        }
        if self.decision is Decision.HEIGHT:
            message = {
                LIGHT: N_("Light wins: only they reached height {height}"),
                DARK: N_("Dark wins: only they reached height {height}"),
            }
        elif self.decision is Decision.COUNT:
            message = {
                LIGHT: N_(
                    "Light wins: more stacks at height {height} (light {light}, dark {dark})"
                ),
                DARK: N_("Dark wins: more stacks at height {height} (light {light}, dark {dark})"),
            }
        else:
            message = {
                LIGHT: N_(
                    "Light wins: equal stacks at height {height} (light {light}, dark {dark}), "
                    "and light got there first (dark made the last arrival)"
                ),
                DARK: N_(
                    "Dark wins: equal stacks at height {height} (light {light}, dark {dark}), "
                    "and dark got there first (light made the last arrival)"
                ),
            }
        return Text(message[self.winner], arguments)


def verdict(board: Board) -> Verdict | None:
    """S5 applied to ``board`` as it stands; ``None`` when nobody has climbed yet (no winner)."""
    peak = board.max_height()
    light = sum(1 for s in board.stacks if len(s) == peak and s[-1] == LIGHT)
    dark = sum(1 for s in board.stacks if len(s) == peak and s[-1] == DARK)
    if light == 0 or dark == 0:
        return Verdict(
            LIGHT if dark == 0 else DARK, Decision.HEIGHT, peak, light, dark, board.last_arrival
        )
    if light != dark:
        return Verdict(
            LIGHT if light > dark else DARK, Decision.COUNT, peak, light, dark, board.last_arrival
        )
    if board.last_arrival is None:
        return None
    return Verdict(
        opponent(board.last_arrival), Decision.FIRST_ARRIVAL, peak, light, dark, board.last_arrival
    )


def why_stuck(board: Board, colour: str, square: int) -> Text | None:
    """Why the piece of ``colour`` on top of ``square`` cannot move now (``None``: it can,
    or it is not ``colour``'s): no stack next to it of its own height (S2), or a lower
    piece of ``colour`` can move (S3, :func:`why_illegal`'s words)."""
    return stuck_pieces(board, colour, [square]).get(square)


def stuck_pieces(
    board: Board, colour: str, squares: Iterable[int] | None = None
) -> dict[int, Text]:
    """:func:`why_stuck` of each of ``squares`` (``None``: every square) whose piece
    cannot move, the board's moves listed once for all of them (a view asks of every
    square after every move)."""
    first_moves: dict[int, Move] = {}
    for move in movable_moves(board, colour):
        first_moves.setdefault(move.source, move)
    free = {move.source for move in legal_moves(board, colour)}
    reasons: dict[int, Text] = {}
    for square in range(board.geometry.num_squares) if squares is None else squares:
        if board.top(square) != colour or square in free:
            continue
        first = first_moves.get(square)
        reasons[square] = (
            _no_stack_of_its_height(board, square)
            if first is None
            else why_illegal(board, colour, first)
        )
    return reasons


def _no_stack_of_its_height(board: Board, square: int) -> Text:
    return Text(
        N_(
            "no stack next to {square} is {height} high; a piece must move onto a "
            "stack of its own height"
        ),
        {"square": square_name(square, board.size), "height": board.height(square)},
    )


def why_illegal(board: Board, colour: str, move: Move) -> Text:
    """A sentence saying why ``move`` is not legal for ``colour`` (for people to read;
    ``str()`` of it is the English)."""
    size = board.size
    src, dst = square_name(move.source, size), square_name(move.target, size)
    top = board.top(move.source)
    if top is None:
        return Text(N_("{square} is empty"), {"square": src})
    if top != colour:
        return Text(N_("the piece on top of {square} is not yours"), {"square": src})
    if direction_between(move.source, move.target, size) is None:
        return Text(N_("{target} is not next to {source}"), {"target": dst, "source": src})
    height, target_height = board.height(move.source), board.height(move.target)
    if target_height == 0:
        return Text(
            N_("{square} is empty, and pieces never move onto an empty square"), {"square": dst}
        )
    if target_height != height:
        return Text(
            N_(
                "the stack on {source} is {height} high but the one on {target} is "
                "{target_height} high; a piece must move onto a stack of its own height"
            ),
            {"source": src, "height": height, "target": dst, "target_height": target_height},
        )
    lowest = legal_moves(board, colour)
    if lowest and len(board.stacks[lowest[0].source]) < height:
        return Text(
            N_(
                "you must move one of your lowest movable pieces (height {lowest}), "
                "not the one at height {height}"
            ),
            {"lowest": board.height(lowest[0].source), "height": height},
        )
    return Text(N_("it is not legal here"))
