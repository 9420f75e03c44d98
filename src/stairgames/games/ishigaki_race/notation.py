"""Ishigaki Race actions and their notation.

A player's decision, after seeing a die, is one of two actions:

====== ======= ==========================================================
action text    meaning
====== ======= ==========================================================
0      ``stop``  keep the one die (in a turn or a roll-off roll)
1      ``roll``  roll the second die
====== ======= ==========================================================

Chance outcomes are numbered at each chance node on their own: a die showing
``k`` is action ``k`` (1-6), written ``die:k``; the draw of the start player
(I9) is action ``s``, the seat number (0-3), written ``start:s``. Text is read
without regard to case or spaces (``" Die : 4"`` reads as ``die:4``).
"""

from __future__ import annotations

import re
from typing import Final

from stairgames.core.errors import IllegalMoveError
from stairgames.i18n import N_

STOP: Final = 0
ROLL: Final = 1
NUM_ACTIONS: Final = 2
NUM_CHANCE_OUTCOMES: Final = 7
"""Die faces are actions 1-6 (0 is never a face); start seats are 0-3."""

DECISIONS: Final = {STOP: "stop", ROLL: "roll"}

_CHANCE_RE = re.compile(r"^(die|start):(\d+)$")


def normalise(text: str) -> str:
    """The canonical spelling: no spaces, lower case (``" Die : 4 "`` -> ``"die:4"``)."""
    return "".join(text.split()).lower()


def die_text(face: int) -> str:
    return f"die:{face}"


def start_text(seat: int) -> str:
    return f"start:{seat}"


def check_syntax(text: str) -> str:
    """The kind of action ``text`` names: ``"decision"``, ``"die"`` or ``"start"``.

    :raises IllegalMoveError: ``text`` is none of ``stop``, ``roll``, ``die:K``, ``start:S``.
    """
    cleaned = normalise(text)
    if cleaned in DECISIONS.values():
        return "decision"
    match = _CHANCE_RE.match(cleaned)
    if match is None:
        raise IllegalMoveError(
            message_id=N_(
                "malformed move {text!r}: type 'stop' (keep the die) or 'roll' (roll the "
                "second die)"
            ),
            arguments={"text": text},
        )
    return match.group(1)
