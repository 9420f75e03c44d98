"""27 position text: ``format_position`` and ``parse_position`` round-trip.

The fields from field 0 (white's end) to the far end separated by ``/``; each
field is its stack from bottom to top in ``R`` (red), ``G`` (grey), ``W``
(white) and ``B`` (black). Then a space and the colour to move, ``W`` or
``B``. The initial position::

    RWWWWWWWWW/G/G/G/G/G/G/G/RBBBBBBBBB W

A text is refused when its form is wrong or when the position is impossible:
discs other than the 27 of the game (2 red, 7 grey, 9 white, 9 black), a field
whose bottom disc is not a red or grey base, more fields than the 9 of the
start, or a red or grey disc where the variant never lets it go.
"""

from __future__ import annotations

from stairgames.core.errors import InvalidPositionError
from stairgames.games.twenty_seven.rules import (
    BLACK,
    COLOUR_NAMES,
    DISC_COUNTS,
    DISCS,
    GREY,
    INITIAL_FIELDS,
    PLAYER_COLOURS,
    RED,
    WHITE,
    Line,
    Variant,
)
from stairgames.i18n import N_, Text

INITIAL_POSITION = "RWWWWWWWWW/G/G/G/G/G/G/G/RBBBBBBBBB W"


def format_position(line: Line) -> str:
    return f"{'/'.join(line.fields)} {line.to_move}"


def parse_position(text: str, variant: Variant) -> Line:
    """Read a position text, checking its form and that it is possible in ``variant``.

    :raises InvalidPositionError: with what is wrong and where.
    """
    if not isinstance(text, str):
        raise InvalidPositionError(
            message_id=N_("a position is text, got {text!r}"), arguments={"text": text}
        )
    parts = text.split()
    if len(parts) != 2:
        raise InvalidPositionError(
            message_id=N_(
                "position {text!r} must have 2 space-separated parts (the line, the "
                "colour to move), found {found}"
            ),
            arguments={"text": text, "found": len(parts)},
        )
    line_text, to_move = parts
    fields = _parse_fields(text, line_text)
    if to_move not in PLAYER_COLOURS:
        raise InvalidPositionError(
            message_id=N_("position {text!r}: the colour to move must be W or B, not {to_move!r}"),
            arguments={"text": text, "to_move": to_move},
        )
    line = Line(fields, to_move)
    _check_discs(text, line)
    _check_bases(text, line)
    _check_variant(text, line, variant)
    return line


def _parse_fields(text: str, line_text: str) -> tuple[str, ...]:
    fields = tuple(line_text.split("/"))
    if len(fields) > INITIAL_FIELDS:
        raise InvalidPositionError(
            message_id=N_(
                "position {text!r} has {found} fields; the line starts with "
                "{INITIAL_FIELDS} and never grows"
            ),
            arguments={"text": text, "found": len(fields), "INITIAL_FIELDS": INITIAL_FIELDS},
        )
    for number, stack in enumerate(fields):
        if not stack:
            raise InvalidPositionError(
                message_id=N_(
                    "position {text!r}: field {number} is empty; every field keeps its base "
                    "disc until it leaves the line"
                ),
                arguments={"text": text, "number": number},
            )
        wrong = [disc for disc in stack if disc not in DISCS]
        if wrong:
            raise InvalidPositionError(
                message_id=N_(
                    "position {text!r}: field {number} holds {field!r}; write a stack from "
                    "bottom to top in R (red), G (grey), W (white) and B (black)"
                ),
                arguments={"text": text, "number": number, "field": wrong[0]},
            )
    return fields


def _check_discs(text: str, line: Line) -> None:
    for disc, expected in DISC_COUNTS.items():
        found = line.count(disc)
        if found != expected:
            raise InvalidPositionError(
                message_id=N_(
                    "position {text!r} has {found} {colour} discs; the game has {expected} "
                    "(27 in all: 2 red, 7 grey, 9 white, 9 black)"
                ),
                arguments={
                    "text": text,
                    "found": found,
                    "colour": Text(COLOUR_NAMES[disc]),
                    "expected": expected,
                },
            )


def _check_bases(text: str, line: Line) -> None:
    last = len(line.fields) - 1
    for number, stack in enumerate(line.fields):
        base = stack[0]
        if base in (WHITE, BLACK):
            raise InvalidPositionError(
                message_id=N_(
                    "position {text!r}: field {number} has a {base} disc at the bottom; a "
                    "field's bottom disc is its red or grey base, and a field whose base has "
                    "moved has left the line"
                ),
                arguments={"text": text, "number": number, "base": Text(COLOUR_NAMES[base])},
            )
        if base == RED and number not in (0, last):
            raise InvalidPositionError(
                message_id=N_(
                    "position {text!r}: field {number} has a red base but is not at an end of"
                    " the line; the red fields start at the ends and fields never change "
                    "order"
                ),
                arguments={"text": text, "number": number},
            )


def _check_variant(text: str, line: Line, variant: Variant) -> None:
    """Red discs stay put outside the expert game, grey ones in the basic game.

    With both ends red-based, the two red discs are bases; in the basic game, with
    no grey disc above a base, the 7 grey discs are the 7 middle bases, so the line
    has its 9 fields.
    """
    if variant == "expert":
        return
    fields = line.fields
    if len(fields) < 2 or fields[0][0] != RED or fields[-1][0] != RED:
        raise InvalidPositionError(
            message_id=N_(
                "position {text!r}: in the {variant} game the red discs never move, so "
                "both ends of the line are red fields"
            ),
            arguments={"text": text, "variant": variant},
        )
    if variant == "basic":
        for number, stack in enumerate(fields):
            if GREY in stack[1:]:
                raise InvalidPositionError(
                    message_id=N_(
                        "position {text!r}: field {number} carries a grey disc, which only the "
                        "advanced and expert games allow"
                    ),
                    arguments={"text": text, "number": number},
                )
