"""27 rules as a small pure core (rulebook ``twenty_seven.en.txt``, rulings T1-T7).

The line is a tuple of fields from the first player's end (field 0) to the far
end. Each field is its stack as a string from bottom to top: ``R`` red, ``G``
grey, ``W`` white, ``B`` black. Every field keeps its base disc at the bottom
(a field leaves the line when its base moves away), so the line never grows and
no field is ever empty. The initial line (T1)::

    field   0  1  2  3  4  5  6  7  8
            W                       B   (9 discs each, on the red bases)
            R  G  G  G  G  G  G  G  R

Rules, with the rulings that settle them:

- T1: 9 fields; white starts on field 0 and moves towards the far end (higher
  numbers), black starts on field 8 and moves towards field 0.
- T2: your stacks are the stacks topped by your colour, anywhere on the line.
  With N of them you move the top k >= 1 discs of one of them exactly N fields
  towards your target; opponent discs in the moved part go along.
- T3: no move passes the end of the line (so a stack on its target never moves).
- T4: a player who cannot move passes; the game ends when neither can move.
- T5: each player scores the discs on their target field above its base disc.
- T6 (advanced): a grey base disc may move with the stack on it; its field then
  leaves the line. A bare grey disc is nobody's stack.
- T7 (expert): red base discs move like grey ones; each player's target is
  whatever field is last at their far end.

Functions here never mutate; they return new :class:`Line` values.
"""

from __future__ import annotations

import dataclasses
from typing import Final, Literal

from stairgames.i18n import N_, Text

RED: Final = "R"
GREY: Final = "G"
WHITE: Final = "W"
BLACK: Final = "B"
DISCS: Final = (RED, GREY, WHITE, BLACK)
PLAYER_COLOURS: Final = (WHITE, BLACK)
COLOUR_NAMES: Final = {WHITE: N_("white"), BLACK: N_("black"), RED: N_("red"), GREY: N_("grey")}
VARIANT_NAMES: Final = (N_("basic"), N_("advanced"), N_("expert"))
"""The variants' names, marked for translation."""


def colour_text(colour: str) -> Text:
    """A disc colour's name for players in any language."""
    return Text(COLOUR_NAMES[colour])


DISC_COUNTS: Final = {RED: 2, GREY: 7, WHITE: 9, BLACK: 9}
"""The 27 discs of the game (components)."""
NUM_DISCS: Final = 27
INITIAL_FIELDS: Final = 9
"""T1: red, 7 grey, red."""

Variant = Literal["basic", "advanced", "expert"]
VARIANTS: Final[tuple[Variant, ...]] = ("basic", "advanced", "expert")


def opponent(colour: str) -> str:
    return BLACK if colour == WHITE else WHITE


@dataclasses.dataclass(frozen=True, slots=True)
class Move:
    """Move the top ``count`` discs of field ``field`` (numbered in the line as it is now)."""

    field: int
    count: int

    def __str__(self) -> str:
        return f"{self.field}:{self.count}"


@dataclasses.dataclass(frozen=True, slots=True)
class Line:
    """The whole position: the fields from field 0 to the far end, and the colour to move."""

    fields: tuple[str, ...]
    to_move: str

    def top(self, field: int) -> str:
        return self.fields[field][-1]

    def count(self, disc: str) -> int:
        return sum(stack.count(disc) for stack in self.fields)

    def __len__(self) -> int:
        return len(self.fields)


def initial_line() -> Line:
    """T1: nine white discs on the red disc at field 0, nine black on the red at field 8."""
    fields = (RED + WHITE * 9, *([GREY] * 7), RED + BLACK * 9)
    return Line(fields, WHITE)


def direction(colour: str) -> int:
    """T1: white moves towards higher field numbers, black towards field 0."""
    return 1 if colour == WHITE else -1


def target_field(line: Line, colour: str) -> int:
    """T5/T7: the field at the far end of ``colour``'s way (the last field for white)."""
    return len(line.fields) - 1 if colour == WHITE else 0


def stack_count(line: Line, colour: str) -> int:
    """T2: the number of stacks topped by ``colour``, anywhere on the line: the distance.

    >>> stack_count(Line(("RWWB", "GW", "G", "RBW"), WHITE), WHITE)
    2
    """
    return sum(1 for stack in line.fields if stack[-1] == colour)


def movable_depth(stack: str, variant: Variant) -> int:
    """How many discs of ``stack`` may move together (its base only where the variant says).

    Basic: every disc above the base. Advanced (T6): the grey base too. Expert
    (T7): the red base too.
    """
    base = stack[0]
    if variant == "expert" or (variant == "advanced" and base == GREY):
        return len(stack)
    return len(stack) - 1


def movable_stacks(
    fields: tuple[str, ...], colour: str, variant: Variant
) -> tuple[int, list[tuple[int, int]]]:
    """T2 + T3 (+ T6/T7): the step of ``colour``'s moves (+N fields for white, -N for
    black, with N its stacks) and ``(field, depth)`` for every stack of ``colour`` that may
    move, by field: a move takes its top 1 to ``depth`` discs (``depth >= 1``).

    The core of :func:`legal_moves`, :func:`has_move` and the engine's playouts, on the
    fields alone and with no :class:`Move` made.

    >>> movable_stacks(("RWWB", "GW", "G", "RBW"), WHITE, "basic")
    (2, [(1, 1)])
    """
    tops = [stack[-1] for stack in fields]
    distance = tops.count(colour)
    size = len(fields)
    # T3: the destination, field + step, must stay on the line.
    if colour == WHITE:
        step, sources = distance, range(size - distance)
    else:
        step, sources = -distance, range(distance, size)
    every_base_moves = variant == "expert"
    grey_bases_move = variant == "advanced"
    stacks = []
    for field in sources:
        if tops[field] == colour:
            stack = fields[field]
            if every_base_moves or (grey_bases_move and stack[0] == GREY):
                stacks.append((field, len(stack)))
            else:
                stacks.append((field, len(stack) - 1))
    return step, stacks


def legal_moves(line: Line, colour: str, variant: Variant) -> list[Move]:
    """T2 + T3 (+ T6/T7): every move of ``colour``, sorted by field, then by count."""
    _, stacks = movable_stacks(line.fields, colour, variant)
    return [Move(field, count) for field, depth in stacks for count in range(1, depth + 1)]


def has_move(line: Line, colour: str, variant: Variant) -> bool:
    return bool(movable_stacks(line.fields, colour, variant)[1])


def destination(line: Line, move: Move) -> int:
    """The field a move lands on, numbered in the line before the move."""
    return move.field + direction(line.to_move) * stack_count(line, line.to_move)


def apply_move(line: Line, move: Move) -> Line:
    """Move the top ``move.count`` discs of ``move.field``; the other colour moves next.

    The caller guarantees legality. A field whose every disc moved (its base
    included, T6/T7) leaves the line.
    """
    fields = move_discs(line.fields, move.field, move.count, destination(line, move))
    return Line(fields, opponent(line.to_move))


def move_discs(fields: tuple[str, ...], field: int, count: int, target: int) -> tuple[str, ...]:
    """The fields after the top ``count`` discs of ``field`` go onto ``target`` (both
    numbered before the move); a field whose every disc moved leaves the line. The core of
    :func:`apply_move`, on the fields alone; the caller guarantees legality."""
    source_stack = fields[field]
    cut = len(source_stack) - count
    result = list(fields)
    result[target] += source_stack[cut:]
    if cut:
        result[field] = source_stack[:cut]
    else:
        del result[field]
    return tuple(result)


def pass_turn(line: Line) -> Line:
    """T4: the player to move has no move; the other colour moves next."""
    return dataclasses.replace(line, to_move=opponent(line.to_move))


def is_over(line: Line, variant: Variant) -> bool:
    """T4: the game ends when neither player can move."""
    return not has_move(line, WHITE, variant) and not has_move(line, BLACK, variant)


def score(line: Line, colour: str) -> int:
    """T5: the discs on ``colour``'s target field above its base, of any colour."""
    return len(line.fields[target_field(line, colour)]) - 1


def field_key(stack: str) -> int:
    """The key of a field in :func:`progress`: +height when white is on top, -height when
    black is, 0 otherwise (a bare base, or a carried grey or red disc on top)."""
    top = stack[-1]
    if top == WHITE:
        return len(stack)
    if top == BLACK:
        return -len(stack)
    return 0


def progress(line: Line) -> tuple[int, ...]:
    """A value that every move strictly raises, so that no position ever repeats.

    The line's length, negated (fields only ever leave), then the keys of the fields
    from the far end (white's target) back to field 0. While the length stays, a move
    changes two fields, and the one nearer the far end gains: a white move lands on it
    (white ends on top, the stack grows) and a black move takes from it (black was on
    top, the stack shrinks, whatever is left on top). Passes change nothing.
    """
    return (-len(line.fields), *(field_key(stack) for stack in reversed(line.fields)))


def why_illegal(line: Line, colour: str, move: Move, variant: Variant) -> Text:
    """A sentence saying why ``move`` is not legal for ``colour`` (for people to read;
    ``str()`` of it is the English)."""
    size = len(line.fields)
    if not 0 <= move.field < size:
        return Text(
            N_("there is no field {field}; the line has fields 0 to {last}"),
            {"field": move.field, "last": size - 1},
        )
    stack = line.fields[move.field]
    if stack[-1] != colour:
        return Text(
            N_("field {field} is topped by {top}, not by {colour}"),
            {"field": move.field, "top": colour_text(stack[-1]), "colour": colour_text(colour)},
        )
    depth = movable_depth(stack, variant)
    if move.count < 1:
        return Text(N_("move at least one disc"))
    if move.count > depth:
        return Text(
            N_("field {field} has only {depth} movable discs ({why})"),
            {"field": move.field, "depth": depth, "why": _base_sentence(stack, variant)},
        )
    distance = stack_count(line, colour)
    target = move.field + direction(colour) * distance
    if not 0 <= target < size:
        return Text(
            N_(
                "{colour} has {distance} stacks, so the move must go exactly {distance} fields, "
                "which would pass the end of the line (T3)"
            ),
            {"colour": colour_text(colour), "distance": distance},
        )
    return Text(N_("it is not legal here"))


def _base_sentence(stack: str, variant: Variant) -> Text:
    arguments = {"base": colour_text(stack[0]), "variant": Text(variant)}
    if movable_depth(stack, variant) == len(stack):
        return Text(N_("the {base} base moves with the stack in the {variant} game"), arguments)
    return Text(N_("the {base} base disc stays in the {variant} game"), arguments)
