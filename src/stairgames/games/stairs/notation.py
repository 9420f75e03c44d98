"""Stairs move notation: ``c3-d4`` (from, to), ``pass``, ``swap``, and the agreement
actions ``offer``, ``accept`` and ``decline`` (S7).

Actions are integers: ``source * 8 + direction`` for a move (directions N, NE,
E, SE, S, SW, W, NW), then :data:`PASS`, :data:`SWAP`, :data:`OFFER`,
:data:`ACCEPT` and :data:`DECLINE`.
"""

from __future__ import annotations

import re
from typing import Final

from stairgames.core.errors import IllegalMoveError
from stairgames.games.stairs.rules import (
    FILES,
    NEIGHBOURS,
    NUM_DIRECTIONS,
    NUM_SQUARES,
    RANKS,
    Move,
    direction_between,
    square_name,
)
from stairgames.i18n import N_

PASS: Final = NUM_SQUARES * NUM_DIRECTIONS
SWAP: Final = PASS + 1
OFFER: Final = SWAP + 1
"""S7: offer to end the game by agreement; the other player answers."""
ACCEPT: Final = OFFER + 1
"""S7: accept the offer; the game ends and the position is scored by S5."""
DECLINE: Final = ACCEPT + 1
"""S7: decline the offer; the player who offered moves on."""
NUM_ACTIONS: Final = DECLINE + 1

WORDS: Final = {PASS: "pass", SWAP: "swap", OFFER: "offer", ACCEPT: "accept", DECLINE: "decline"}
"""The actions written as words."""

_MOVE_RE = re.compile(r"^([a-f])([1-6])-([a-f])([1-6])$")


def encode_move(move: Move) -> int:
    direction = direction_between(move.source, move.target)
    assert direction is not None, "squares must be adjacent"
    return move.source * NUM_DIRECTIONS + direction


def decode_move(action: int) -> Move | None:
    """The move of a move action, ``None`` for pass, swap or an off-board target."""
    if not 0 <= action < PASS:
        return None
    source, direction = divmod(action, NUM_DIRECTIONS)
    target = NEIGHBOURS[source][direction]
    return None if target < 0 else Move(source, target)


def _spelled(action: int) -> str | None:
    if action in WORDS:
        return WORDS[action]
    move = decode_move(action)
    if move is None:
        return None
    return f"{square_name(move.source)}-{square_name(move.target)}"


_TEXTS: Final = tuple(_spelled(action) for action in range(NUM_ACTIONS))
"""The notation of every action id, spelled once (``None``: the id names no move)."""


def format_action(action: int) -> str:
    text = _TEXTS[action] if 0 <= action < NUM_ACTIONS else None
    if text is None:
        raise IllegalMoveError(
            message_id=N_("{action} is not a Stairs action"),
            arguments={"action": action},
        )
    return text


_ACTIONS_BY_WORD: Final = {word: action for action, word in WORDS.items()}


def action_from_text(normalised: str) -> int | None:
    """The action written in normalised notation, ``None`` when it names none (such as
    two squares that are not neighbours); legality is not checked."""
    if normalised in _ACTIONS_BY_WORD:
        return _ACTIONS_BY_WORD[normalised]
    match = _MOVE_RE.match(normalised)
    if match is None:
        return None
    sf, sr, tf, tr = match.groups()
    source = RANKS.index(sr) * 6 + FILES.index(sf)
    target = RANKS.index(tr) * 6 + FILES.index(tf)
    direction = direction_between(source, target)
    return None if direction is None else source * NUM_DIRECTIONS + direction


def normalise(text: str) -> str:
    """Lower case without spaces: ``" C3 - D4 "`` reads as ``c3-d4``."""
    return "".join(text.split()).lower()


def parse_move_text(text: str) -> Move | str:
    """The move written in ``text``, or one of the words (``"pass"``, ``"swap"``,
    ``"offer"``, ``"accept"``, ``"decline"``); legality is not checked.

    :raises IllegalMoveError: the text is not in the notation.
    """
    cleaned = normalise(text)
    if cleaned in WORDS.values():
        return cleaned
    match = _MOVE_RE.match(cleaned)
    if match is None:
        raise IllegalMoveError(
            message_id=N_(
                "malformed move {text!r}: write a move as from-to squares like c3-d4 "
                "(files a-f, ranks 1-6), or pass, swap, offer, accept or decline"
            ),
            arguments={"text": text},
        )
    sf, sr, tf, tr = match.groups()
    source = RANKS.index(sr) * 6 + FILES.index(sf)
    target = RANKS.index(tr) * 6 + FILES.index(tf)
    return Move(source, target)
