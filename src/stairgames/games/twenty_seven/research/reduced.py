"""Reduced basic games of 27 and their lines, as the retrograde solver counts them.

A :class:`Size` is a basic game with fewer fields and fewer discs of each colour (the
same rules); ``Size()`` is the real game. Each white-to-move arrangement of its discs
has a rank, from 0 to ``size.positions`` (:func:`rank`, :func:`unrank`: a perfect hash,
compiled in :mod:`.retrograde_kernel`); a black-to-move line ranks as its
:func:`mirror`. Lines are read and written as position texts of any size
(:func:`line_from_text`, :func:`position_text`), and :func:`play_moves` plays moves in
the notation on them.
"""

from __future__ import annotations

import dataclasses
import math
import types

import numpy as np

from stairgames.core.errors import IllegalMoveError, InvalidOptionError, InvalidPositionError
from stairgames.games.twenty_seven import rules
from stairgames.games.twenty_seven.notation import parse_move_text
from stairgames.games.twenty_seven.research import endgame_kernel as kernel
from stairgames.i18n import N_


@dataclasses.dataclass(frozen=True)
class Size:
    """A basic 27 of ``fields`` fields (red, grey ones, red) and ``discs`` discs of each
    player's colour, white's on field 0 and black's on the last field: the real game
    is 9 and 9."""

    fields: int = rules.INITIAL_FIELDS
    discs: int = 9

    def __post_init__(self) -> None:
        if not 2 <= self.fields <= rules.INITIAL_FIELDS or not 1 <= self.discs <= 9:
            raise InvalidOptionError(
                message_id=N_(
                    "a reduced 27 has 2 to 9 fields and 1 to 9 discs of each colour, "
                    "not {fields} fields and {discs} discs"
                ),
                arguments={"fields": self.fields, "discs": self.discs},
            )

    @property
    def full(self) -> bool:
        return self == Size()

    @property
    def positions(self) -> int:
        """White-to-move arrangements (a black-to-move one is stored as its mirror):
        the ranks of a direct table."""
        discs = 2 * self.discs
        return math.comb(discs, self.discs) * math.comb(discs + self.fields - 1, self.fields - 1)

    @property
    def direct_bytes(self) -> int:
        """The bytes of a table with 2 bits for every rank."""
        return (self.positions + 3) // 4

    def name(self) -> str:
        return "basic" if self.full else f"basic-{self.fields}-fields-{self.discs}-discs"


def initial_line(size: Size) -> rules.Line:
    """T1 on ``size``: white's discs on the red field 0, black's on the last red field."""
    middle = (rules.GREY,) * (size.fields - 2)
    fields = (
        rules.RED + rules.WHITE * size.discs,
        *middle,
        rules.RED + rules.BLACK * size.discs,
    )
    return rules.Line(fields, rules.WHITE)


def check_line(line: rules.Line, size: Size) -> None:
    """Refuses a line that is not a basic line of ``size`` (its fields, bases and discs).

    :raises InvalidPositionError: saying what differs.
    """
    bases = [stack[0] for stack in line.fields]
    expected = [rules.RED, *([rules.GREY] * (size.fields - 2)), rules.RED]
    above = "".join(stack[1:] for stack in line.fields)
    if (
        bases != expected
        or set(above) - {rules.WHITE, rules.BLACK}
        or above.count(rules.WHITE) != size.discs
        or above.count(rules.BLACK) != size.discs
    ):
        raise InvalidPositionError(
            message_id=N_(
                "the solver takes basic lines of {fields} fields (red, grey, red bases) with "
                "{discs} white and {discs} black discs above them"
            ),
            arguments={"fields": size.fields, "discs": size.discs},
        )


def compiled_kernel() -> types.ModuleType:
    """The compiled kernel (:mod:`.retrograde_kernel`), imported on first need (it loads
    numba)."""
    from stairgames.games.twenty_seven.research import retrograde_kernel

    return retrograde_kernel


def rank(line: rules.Line, size: Size) -> int:
    """The table rank of ``line`` (a black-to-move line ranks as its mirror)."""
    return int(compiled_kernel().rank(kernel.line_array(line), size.discs))


def unrank(index: int, size: Size) -> rules.Line:
    """The white-to-move line of rank ``index`` (0 <= index < ``size.positions``)."""
    bases = np.array(
        [kernel.CODES[stack[0]] for stack in initial_line(size).fields], dtype=np.int64
    )
    s = np.zeros(kernel.SIZE, dtype=np.int64)
    compiled_kernel().unrank(index, size.fields, size.discs, bases, s)
    return line_of(s)


def line_of(s: kernel.Array) -> rules.Line:
    """The :class:`rules.Line` of a line array."""
    letters = {code: letter for letter, code in kernel.CODES.items()}
    fields = tuple(
        "".join(letters[int(s[kernel.DISCS + f * kernel.LEVELS + i])] for i in range(height))
        for f, height in enumerate(s[kernel.HEIGHTS : kernel.HEIGHTS + int(s[kernel.FIELDS])])
    )
    return rules.Line(fields, rules.WHITE if s[kernel.TO_MOVE] == 0 else rules.BLACK)


def mirror(line: rules.Line) -> rules.Line:
    """The line seen from the other side: fields reversed, colours swapped (its value
    for the colour to move is the same)."""
    swap = {rules.WHITE: rules.BLACK, rules.BLACK: rules.WHITE}
    fields = tuple("".join(swap.get(d, d) for d in stack) for stack in reversed(line.fields))
    return rules.Line(fields, rules.opponent(line.to_move))


def position_text(line: rules.Line) -> str:
    """The position text of a line (the notation's, any size)."""
    return "/".join(line.fields) + " " + line.to_move


def line_from_text(text: str) -> rules.Line:
    """A line from its position text, any size (checked against a size by
    :func:`check_line`)."""
    parts = text.split()
    if len(parts) != 2 or parts[1] not in rules.PLAYER_COLOURS:
        raise InvalidPositionError(
            message_id=N_("a position is the fields separated by '/', a space, W or B: {text!r}"),
            arguments={"text": text},
        )
    return rules.Line(tuple(parts[0].split("/")), parts[1])


def play_moves(line: rules.Line, text: str) -> rules.Line:
    """``line`` after the moves of ``text`` (space-separated, in the notation; passes
    are played where the rules force them, T4).

    :raises IllegalMoveError: a move that is malformed or not legal there.
    """
    for word in text.split():
        while not rules.has_move(line, line.to_move, "basic") and not rules.is_over(line, "basic"):
            line = rules.pass_turn(line)
        parsed = parse_move_text(word)
        if parsed == "pass" and not rules.has_move(line, line.to_move, "basic"):
            line = rules.pass_turn(line)
            continue
        if isinstance(parsed, str) or parsed not in rules.legal_moves(line, line.to_move, "basic"):
            raise IllegalMoveError(
                message_id=N_("{move} is not legal in {position}"),
                arguments={"move": word, "position": position_text(line)},
            )
        line = rules.apply_move(line, parsed)
    return line


__all__ = [
    "Size",
    "check_line",
    "compiled_kernel",
    "initial_line",
    "line_from_text",
    "line_of",
    "mirror",
    "play_moves",
    "position_text",
    "rank",
    "unrank",
]
