"""27 move notation: ``F:K`` (move the top K discs of field F) and ``pass``.

Fields are numbered from 0 at the first player's (white's) end of the line as
it is now, so after a field leaves the line (advanced and expert games) the
fields beyond it are renumbered.

Actions are integers: ``field * MAX_COUNT + (count - 1)`` for a move, then
:data:`PASS`. The line never has more than :data:`MAX_FIELDS` fields and no
move carries more than :data:`MAX_COUNT` discs, so every action is below
:data:`NUM_ACTIONS`.
"""

from __future__ import annotations

import re
from typing import Final

from stairgames.core.errors import IllegalMoveError
from stairgames.games.twenty_seven.rules import INITIAL_FIELDS, NUM_DISCS, Move
from stairgames.i18n import N_

MAX_FIELDS: Final = INITIAL_FIELDS
MAX_COUNT: Final = NUM_DISCS
PASS: Final = MAX_FIELDS * MAX_COUNT
NUM_ACTIONS: Final = PASS + 1

_MOVE_RE = re.compile(r"^([0-9]+):([0-9]+)$")  # ASCII digits only


def encode_move(move: Move) -> int:
    """The action of a move.

    >>> encode_move(Move(0, 1)), encode_move(Move(2, 3))
    (0, 56)
    """
    return move.field * MAX_COUNT + move.count - 1


def decode_move(action: int) -> Move | None:
    """The move of a move action, ``None`` for :data:`PASS` or an out-of-range action."""
    if not 0 <= action < PASS:
        return None
    field, rest = divmod(action, MAX_COUNT)
    return Move(field, rest + 1)


def format_action(action: int) -> str:
    if type(action) is int and 0 <= action < NUM_ACTIONS:
        return _TEXTS[action]
    return _spelled(action)


def _spelled(action: int) -> str:
    if action == PASS:
        return "pass"
    move = decode_move(action)
    if move is None:
        raise IllegalMoveError(
            message_id=N_("{action} is not a 27 action"),
            arguments={"action": action},
        )
    return str(move)


_TEXTS: Final = tuple(_spelled(action) for action in range(NUM_ACTIONS))
"""The notation of every action id, spelled once (what :func:`format_action` reads)."""


def parse_move_text(text: str) -> Move | str:
    """The move written in ``text``, or ``"pass"``; legality is not checked.

    Spaces and case are ignored: ``" 3 : 2 "`` reads as ``3:2``, ``"PASS"`` as ``pass``.

    :raises IllegalMoveError: the text is not in the notation.
    """
    cleaned = "".join(text.split()).lower()
    if cleaned == "pass":
        return cleaned
    match = _MOVE_RE.match(cleaned)
    if match is None:
        raise IllegalMoveError(
            message_id=N_(
                "malformed move {text!r}: write a move as FIELD:COUNT like 0:3 (move the top "
                "3 discs of field 0), or 'pass'"
            ),
            arguments={"text": text},
        )
    field, count = (int(group) for group in match.groups())
    if count < 1:
        raise IllegalMoveError(
            message_id=N_("malformed move {text!r}: a move takes at least one disc"),
            arguments={"text": text},
        )
    return Move(field, count)


def normalise(text: str) -> str:
    """The canonical spelling of ``text`` when it parses, else ``text`` stripped.

    >>> normalise(" 03 : 2 "), normalise("PASS"), normalise("x")
    ('3:2', 'pass', 'x')
    """
    try:
        parsed = parse_move_text(text)
    except IllegalMoveError:
        return text.strip()
    return parsed if isinstance(parsed, str) else str(parsed)
