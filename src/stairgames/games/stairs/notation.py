"""Stairs move notation: ``c3-d4`` (from, to), ``pass``, ``swap``, and the agreement
actions ``offer``, ``accept`` and ``decline`` (S7).

Actions are integers: ``source * 8 + direction`` for a move (directions N, NE,
E, SE, S, SW, W, NW; squares numbered ``rank * size + file``), then pass, swap,
offer, accept and decline. Their ids depend on the board's size (S8):
:func:`action_codes` gives them; the module constants :data:`PASS` to
:data:`NUM_ACTIONS` are those of the 6×6 board.

>>> codes = action_codes(4)
>>> codes.pass_action, codes.format_action(codes.swap), codes.format_action(0)
(128, 'swap', 'a1-a2')
"""

from __future__ import annotations

import dataclasses
import functools
import re
from typing import Final

from stairgames.core.errors import IllegalMoveError
from stairgames.games.stairs.rules import (
    NUM_DIRECTIONS,
    SIZE,
    Move,
    direction_between,
    geometry,
    square_name,
)
from stairgames.i18n import N_

WORD_NAMES: Final = ("pass", "swap", "offer", "accept", "decline")
"""The actions written as words, in the order of their ids after the moves."""


@dataclasses.dataclass(frozen=True)
class ActionCodes:
    """The action ids and their texts on a board of one size (S8)."""

    size: int
    pass_action: int
    """S4: the only action of a player with no move (``size * size * 8``)."""
    swap: int
    """S6: the second player takes over the first move."""
    offer: int
    """S7: offer to end the game by agreement; the other player answers."""
    accept: int
    """S7: accept the offer; the game ends and the position is scored by S5."""
    decline: int
    """S7: decline the offer; the player who offered moves on."""
    num_actions: int
    neighbours: tuple[tuple[int, ...], ...]
    """The board's :attr:`~.rules.Geometry.neighbours`, to decode a move action."""
    words: dict[int, str]
    """The actions written as words."""
    texts: tuple[str | None, ...]
    """The notation of every action id (``None``: the id names no move)."""
    by_word: dict[str, int]
    move_pattern: re.Pattern[str]

    def encode_move(self, move: Move) -> int:
        direction = direction_between(move.source, move.target, self.size)
        assert direction is not None, "squares must be adjacent"
        return move.source * NUM_DIRECTIONS + direction

    def decode_move(self, action: int) -> Move | None:
        """The move of a move action, ``None`` for the words or an off-board target."""
        if not 0 <= action < self.pass_action:
            return None
        source, direction = divmod(action, NUM_DIRECTIONS)
        target = geometry(self.size).neighbours[source][direction]
        return None if target < 0 else Move(source, target, self.size)

    def format_action(self, action: int) -> str:
        text = self.texts[action] if 0 <= action < self.num_actions else None
        if text is None:
            raise IllegalMoveError(
                message_id=N_("{action} is not a Stairs action"),
                arguments={"action": action},
            )
        return text

    def action_from_text(self, normalised: str) -> int | None:
        """The action written in normalised notation, ``None`` when it names none (such
        as two squares that are not neighbours); legality is not checked."""
        if normalised in self.by_word:
            return self.by_word[normalised]
        squares = self._squares(normalised)
        if squares is None:
            return None
        source, target = squares
        direction = direction_between(source, target, self.size)
        return None if direction is None else source * NUM_DIRECTIONS + direction

    def parse_move_text(self, text: str) -> Move | str:
        """The move written in ``text``, or one of the words (``"pass"``, ``"swap"``,
        ``"offer"``, ``"accept"``, ``"decline"``); legality is not checked.

        :raises IllegalMoveError: the text is not in the notation (or names a square
            off this board).
        """
        cleaned = normalise(text)
        if cleaned in self.by_word:
            return cleaned
        squares = self._squares(cleaned)
        if squares is None:
            shape = geometry(self.size)
            raise IllegalMoveError(
                message_id=N_(
                    "malformed move {text!r}: write a move as from-to squares like c3-d4 "
                    "(files {files}, ranks {ranks}), or pass, swap, offer, accept or decline"
                ),
                arguments={
                    "text": text,
                    "files": f"{shape.files[0]}-{shape.files[-1]}",
                    "ranks": f"{shape.ranks[0]}-{shape.ranks[-1]}",
                },
            )
        return Move(*squares, self.size)

    def _squares(self, normalised: str) -> tuple[int, int] | None:
        match = self.move_pattern.match(normalised)
        if match is None:
            return None
        shape = geometry(self.size)
        sf, sr, tf, tr = match.groups()
        source = shape.ranks.index(sr) * self.size + shape.files.index(sf)
        target = shape.ranks.index(tr) * self.size + shape.files.index(tf)
        return source, target


@functools.cache
def action_codes(size: int = SIZE) -> ActionCodes:
    """The action ids and texts of the board of ``size`` squares a side (S8)."""
    shape = geometry(size)
    first_word = shape.num_squares * NUM_DIRECTIONS
    words = {first_word + i: word for i, word in enumerate(WORD_NAMES)}
    num_actions = first_word + len(WORD_NAMES)

    def spelled(action: int) -> str | None:
        if action in words:
            return words[action]
        source, direction = divmod(action, NUM_DIRECTIONS)
        target = shape.neighbours[source][direction]
        if target < 0:
            return None
        return f"{square_name(source, size)}-{square_name(target, size)}"

    square = f"([a-{shape.files[-1]}])([1-{shape.ranks[-1]}])"
    return ActionCodes(
        size=size,
        pass_action=first_word,
        swap=first_word + 1,
        offer=first_word + 2,
        accept=first_word + 3,
        decline=first_word + 4,
        num_actions=num_actions,
        neighbours=shape.neighbours,
        words=words,
        texts=tuple(spelled(action) for action in range(num_actions)),
        by_word={word: action for action, word in words.items()},
        move_pattern=re.compile(f"^{square}-{square}$"),
    )


_SIX: Final = action_codes(SIZE)

PASS: Final = _SIX.pass_action
SWAP: Final = _SIX.swap
OFFER: Final = _SIX.offer
"""S7: offer to end the game by agreement; the other player answers."""
ACCEPT: Final = _SIX.accept
"""S7: accept the offer; the game ends and the position is scored by S5."""
DECLINE: Final = _SIX.decline
"""S7: decline the offer; the player who offered moves on."""
NUM_ACTIONS: Final = _SIX.num_actions

WORDS: Final = _SIX.words
"""The actions written as words (6×6 ids)."""


def encode_move(move: Move) -> int:
    return action_codes(move.size).encode_move(move)


def decode_move(action: int, size: int = SIZE) -> Move | None:
    """The move of a move action, ``None`` for pass, swap or an off-board target."""
    return action_codes(size).decode_move(action)


def format_action(action: int, size: int = SIZE) -> str:
    return action_codes(size).format_action(action)


def action_from_text(normalised: str, size: int = SIZE) -> int | None:
    """The action written in normalised notation, ``None`` when it names none (such as
    two squares that are not neighbours); legality is not checked."""
    return action_codes(size).action_from_text(normalised)


def normalise(text: str) -> str:
    """Lower case without spaces: ``" C3 - D4 "`` reads as ``c3-d4``."""
    return "".join(text.split()).lower()


def parse_move_text(text: str, size: int = SIZE) -> Move | str:
    """The move written in ``text``, or one of the words (``"pass"``, ``"swap"``,
    ``"offer"``, ``"accept"``, ``"decline"``); legality is not checked.

    :raises IllegalMoveError: the text is not in the notation.
    """
    return action_codes(size).parse_move_text(text)
