"""Stairs rules as a small pure core (rulebook ``stairs.en.txt``, rulings S1-S7).

The board is a tuple of 36 stacks, one per square, indexed ``rank * 6 + file``
with file ``a`` = 0 and rank ``1`` = 0 (S1). Each stack is a string of colours
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

Functions here never mutate; they return new :class:`Board` values.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Final

from stairgames.i18n import N_, Text

LIGHT: Final = "L"
DARK: Final = "D"
COLOURS: Final = (LIGHT, DARK)
SIZE: Final = 6
NUM_SQUARES: Final = SIZE * SIZE
PIECES_PER_COLOUR: Final = 18

FILES: Final = "abcdef"
RANKS: Final = "123456"

# (file step, rank step) in a fixed order: N, NE, E, SE, S, SW, W, NW.
DIRECTIONS: Final = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
NUM_DIRECTIONS: Final = len(DIRECTIONS)


def square_index(file: int, rank: int) -> int:
    return rank * SIZE + file


def square_name(square: int) -> str:
    """``square_name(0) == "a1"``; ``square_name(35) == "f6"``."""
    return FILES[square % SIZE] + RANKS[square // SIZE]


def _neighbour(square: int, direction: int) -> int:
    file, rank = square % SIZE, square // SIZE
    df, dr = DIRECTIONS[direction]
    nf, nr = file + df, rank + dr
    if 0 <= nf < SIZE and 0 <= nr < SIZE:
        return square_index(nf, nr)
    return -1


NEIGHBOURS: Final = tuple(
    tuple(_neighbour(square, d) for d in range(NUM_DIRECTIONS)) for square in range(NUM_SQUARES)
)
"""``NEIGHBOURS[square][direction]``: the neighbouring square, or -1 off the board (no wrap)."""


def direction_between(source: int, target: int) -> int | None:
    """The direction index from ``source`` to an adjacent ``target``, else ``None``."""
    for direction, neighbour in enumerate(NEIGHBOURS[source]):
        if neighbour == target:
            return direction
    return None


def initial_colour(square: int) -> str:
    """S1: a square starts dark where file index + rank index is even (``a1`` is dark)."""
    return DARK if (square % SIZE + square // SIZE) % 2 == 0 else LIGHT


def opponent(colour: str) -> str:
    return DARK if colour == LIGHT else LIGHT


@dataclasses.dataclass(frozen=True, slots=True)
class Move:
    """A move of the top piece of ``source`` onto the neighbouring ``target``."""

    source: int
    target: int

    def __str__(self) -> str:
        return f"{square_name(self.source)}-{square_name(self.target)}"


@dataclasses.dataclass(frozen=True, slots=True)
class Board:
    """The whole position: stacks, colour to move, and who last arrived at the top height."""

    stacks: tuple[str, ...]
    to_move: str
    last_arrival: str | None
    """Colour of the most recent arrival at the greatest height (S5), ``None`` before any."""

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


def initial_board() -> Board:
    """Checkered setup (S1), light to move, nobody has climbed yet."""
    return Board(tuple(initial_colour(sq) for sq in range(NUM_SQUARES)), LIGHT, None)


def movable_moves(board: Board, colour: str) -> list[Move]:
    """Every move of ``colour`` that S2 allows, ignoring the lowest-piece rule."""
    stacks = board.stacks
    moves = []
    for source in range(NUM_SQUARES):
        stack = stacks[source]
        if not stack or stack[-1] != colour:
            continue
        height = len(stack)
        for target in NEIGHBOURS[source]:
            if target >= 0 and len(stacks[target]) == height:
                moves.append(Move(source, target))
    return moves


_STEPS: Final = tuple(
    tuple(
        (source * NUM_DIRECTIONS + direction, target)
        for direction, target in enumerate(NEIGHBOURS[source])
        if target >= 0
    )
    for source in range(NUM_SQUARES)
)
"""``_STEPS[source]``: ``(step code, target)`` for each neighbour on the board, by direction."""


def lowest_steps(board: Board, colour: str) -> list[int]:
    """S2 + S3 as step codes ``source * 8 + direction``, ascending (the action encoding).

    Only moves whose source stack is of minimal height among ``colour``'s
    movable pieces are listed.
    """
    stacks = board.stacks
    heights = [len(stack) for stack in stacks]
    best = NUM_SQUARES + 1
    steps: list[int] = []
    for source, stack in enumerate(stacks):
        if stack[-1:] != colour:  # empty, or topped by the other colour
            continue
        height = heights[source]
        if height > best:
            continue
        for step, target in _STEPS[source]:
            if heights[target] == height:
                if height < best:
                    best = height
                    steps = []
                steps.append(step)
    return steps


def step_move(step: int) -> Move:
    """The move of a step code from :func:`lowest_steps`."""
    source, direction = divmod(step, NUM_DIRECTIONS)
    return Move(source, NEIGHBOURS[source][direction])


def legal_moves(board: Board, colour: str) -> list[Move]:
    """S2 + S3: the moves of ``colour`` whose source stack is of minimal height.

    Sorted by source square, then by direction (N, NE, E, SE, S, SW, W, NW).
    """
    return [step_move(step) for step in lowest_steps(board, colour)]


def has_move(board: Board, colour: str) -> bool:
    stacks = board.stacks
    for source in range(NUM_SQUARES):
        stack = stacks[source]
        if stack and stack[-1] == colour:
            height = len(stack)
            for target in NEIGHBOURS[source]:
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


def why_illegal(board: Board, colour: str, move: Move) -> Text:
    """A sentence saying why ``move`` is not legal for ``colour`` (for people to read;
    ``str()`` of it is the English)."""
    src, dst = square_name(move.source), square_name(move.target)
    top = board.top(move.source)
    if top is None:
        return Text(N_("{square} is empty"), {"square": src})
    if top != colour:
        return Text(N_("the piece on top of {square} is not yours"), {"square": src})
    if direction_between(move.source, move.target) is None:
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
