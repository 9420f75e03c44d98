"""Stairs position text: ``format_position`` and ``parse_position`` round-trip.

The ranks from 6 down to 1 separated by ``/``; in each rank the six squares
from file a to f separated by ``,``; each square is its stack from bottom to
top in ``L`` and ``D``, or ``.`` when empty. Then a space and the colour to
move, then a space and the colour that made the most recent arrival at the
greatest height, or ``-``. The initial position::

    L,D,L,D,L,D/D,L,D,L,D,L/L,D,L,D,L,D/D,L,D,L,D,L/L,D,L,D,L,D/D,L,D,L,D,L L -

Two more fields follow when they differ from their defaults (written only then,
so the text of an ordinary position stays short):

- the seat that plays light, ``0`` (the default) or ``1`` after a ``swap`` (S6);
- what is pending, ``-`` (the default) or a ``+``-joined list of: ``swap`` (the
  second player may swap now, S6), ``offer`` (an offer to end by agreement awaits
  the other player's answer, S7), ``declined`` (the player to move had an offer
  declined this turn and must move before offering again, S7), ``agreed`` (the
  players agreed to end the game here: it is over, scored by S5, S7).

For example, after ``d3-c4`` in a game with the pie rule the second player may
swap: ``... D L 0 swap``; after the swap, seat 1 plays light: ``... D L 1``.
"""

from __future__ import annotations

import dataclasses
from typing import Final, Literal, cast

from stairgames.core.errors import InvalidPositionError
from stairgames.games.stairs.rules import (
    COLOURS,
    DARK,
    LIGHT,
    NUM_SQUARES,
    PIECES_PER_COLOUR,
    SIZE,
    Board,
    initial_colour,
    square_index,
    square_name,
)
from stairgames.i18n import N_, Text

AgreementStage = Literal["offer", "declined", "agreed"]
"""Where an agreement to end the game stands (S7)."""


@dataclasses.dataclass(frozen=True)
class Pending:
    """What waits for an answer besides the next move (S6, S7)."""

    swap: bool = False
    """S6: the second player may swap colours now."""
    agreement: AgreementStage | None = None
    """S7: ``"offer"``: an offer awaits the answer of the player not to move;
    ``"declined"``: the player to move had its offer declined this turn;
    ``"agreed"``: the offer was accepted and the game is over."""

    def text(self) -> str:
        words = (["swap"] if self.swap else []) + ([self.agreement] if self.agreement else [])
        return "+".join(words) or "-"


NOTHING_PENDING: Final = Pending()


@dataclasses.dataclass(frozen=True)
class PositionText:
    """Everything the position text holds: the board, who plays light, what is pending."""

    board: Board
    light_seat: int = 0
    pending: Pending = NOTHING_PENDING


INITIAL_POSITION = "L,D,L,D,L,D/D,L,D,L,D,L/L,D,L,D,L,D/D,L,D,L,D,L/L,D,L,D,L,D/D,L,D,L,D,L L -"


def format_position(position: Board | PositionText) -> str:
    """The text of a position (a bare board: seat 0 light, nothing pending)."""
    if isinstance(position, Board):
        position = PositionText(position)
    board = position.board
    ranks = []
    for rank in reversed(range(SIZE)):
        squares = [board.stacks[square_index(f, rank)] or "." for f in range(SIZE)]
        ranks.append(",".join(squares))
    arrival = board.last_arrival or "-"
    fields = ["/".join(ranks), board.to_move, arrival, str(position.light_seat)]
    fields.append(position.pending.text())
    while len(fields) > 3 and fields[-1] == _DEFAULT_FIELDS[len(fields) - 4]:
        fields.pop()
    return " ".join(fields)


_DEFAULT_FIELDS = ("0", "-")
"""The defaults of the two optional fields: seat 0 plays light, nothing pending."""


def parse_position(text: str) -> PositionText:
    """Read a position text, checking its form and that the position is possible.

    :raises InvalidPositionError: with what is wrong and where.
    """
    fields = text.split()
    if not 3 <= len(fields) <= 5:
        raise InvalidPositionError(
            message_id=N_(
                "position {text!r} must have 3 to 5 space-separated fields (board, colour to "
                "move, last arrival, then maybe the seat playing light and what is pending), "
                "found {found}"
            ),
            arguments={"text": text, "found": len(fields)},
        )
    fields += _DEFAULT_FIELDS[len(fields) - 3 :]
    board_text, to_move, arrival, light_text, pending_text = fields
    stacks = _parse_board(text, board_text)
    if to_move not in COLOURS:
        raise InvalidPositionError(
            message_id=N_("position {text!r}: colour to move must be L or D, not {to_move!r}"),
            arguments={"text": text, "to_move": to_move},
        )
    if arrival not in (*COLOURS, "-"):
        raise InvalidPositionError(
            message_id=N_("position {text!r}: last arrival must be L, D or -, not {arrival!r}"),
            arguments={"text": text, "arrival": arrival},
        )
    board = Board(stacks, to_move, None if arrival == "-" else arrival)
    _check_possible(text, board)
    if light_text not in ("0", "1"):
        raise InvalidPositionError(
            message_id=N_(
                "position {text!r}: the seat playing light must be 0 or 1, not {light_text!r}"
            ),
            arguments={"text": text, "light_text": light_text},
        )
    position = PositionText(board, int(light_text), _parse_pending(text, pending_text))
    _check_pending_possible(text, position)
    return position


def _parse_pending(text: str, pending_text: str) -> Pending:
    words = [] if pending_text == "-" else pending_text.split("+")
    agreement_words = ("offer", "declined", "agreed")
    if any(w not in ("swap", *agreement_words) for w in words) or len(set(words)) != len(words):
        raise InvalidPositionError(
            message_id=N_(
                "position {text!r}: what is pending must be '-' or a '+'-joined "
                "list of swap, offer, declined, agreed, not {pending_text!r}"
            ),
            arguments={"text": text, "pending_text": pending_text},
        )
    agreement = [w for w in words if w in agreement_words]
    if len(agreement) > 1:
        raise InvalidPositionError(
            message_id=N_(
                "position {text!r}: at most one of offer, declined, agreed, not {pending_text!r}"
            ),
            arguments={"text": text, "pending_text": pending_text},
        )
    found = cast(AgreementStage, agreement[0]) if agreement else None
    return Pending(swap="swap" in words, agreement=found)


def _check_pending_possible(text: str, position: PositionText) -> None:
    """S6: a swap is pending only right after the first move, before any swap; a swap
    happened only after a move. S7: offers only once a piece has climbed."""
    board, pending = position.board, position.pending
    heights = sorted(len(stack) for stack in board.stacks)
    one_move = board.to_move == DARK and heights == [0] + [1] * (len(heights) - 2) + [2]
    if pending.swap and not (one_move and position.light_seat == 0):
        raise InvalidPositionError(
            message_id=N_(
                "position {text!r}: a swap can be pending only right after light's first move"
            ),
            arguments={"text": text},
        )
    if position.light_seat == 1 and board.max_height() == 1:
        raise InvalidPositionError(
            message_id=N_(
                "position {text!r}: light is seat 1 only after a swap, which follows a move"
            ),
            arguments={"text": text},
        )
    if pending.agreement is not None and board.max_height() == 1:
        raise InvalidPositionError(
            message_id=N_(
                "position {text!r}: no offer to end by agreement before any piece has climbed"
            ),
            arguments={"text": text},
        )


def _parse_board(text: str, board_text: str) -> tuple[str, ...]:
    ranks = board_text.split("/")
    if len(ranks) != SIZE:
        raise InvalidPositionError(
            message_id=N_("position {text!r} must have 6 ranks separated by '/', found {found}"),
            arguments={"text": text, "found": len(ranks)},
        )
    stacks = [""] * NUM_SQUARES
    for row, rank_text in enumerate(ranks):
        rank = SIZE - 1 - row
        squares = rank_text.split(",")
        if len(squares) != SIZE:
            raise InvalidPositionError(
                message_id=N_(
                    "position {text!r}: rank {rank} must have 6 squares separated by ',', "
                    "found {found}"
                ),
                arguments={"text": text, "rank": rank + 1, "found": len(squares)},
            )
        for file, square_text in enumerate(squares):
            square = square_index(file, rank)
            if square_text == ".":
                continue
            if not square_text or any(c not in COLOURS for c in square_text):
                raise InvalidPositionError(
                    message_id=N_(
                        "position {text!r}: square {square} is {square_text!r}; write a stack as "
                        "L and D from bottom to top, or '.' when empty"
                    ),
                    arguments={
                        "text": text,
                        "square": square_name(square),
                        "square_text": square_text,
                    },
                )
            stacks[square] = square_text
    return tuple(stacks)


def _check_possible(text: str, board: Board) -> None:
    for colour in COLOURS:
        count = board.count(colour)
        if count != PIECES_PER_COLOUR:
            name = Text("light" if colour == LIGHT else "dark")
            raise InvalidPositionError(
                message_id=N_(
                    "position {text!r} has {count} {name} pieces; there are always 18 of each"
                ),
                arguments={"text": text, "count": count, "name": name},
            )
    for square, stack in enumerate(board.stacks):
        if stack and stack[0] != initial_colour(square):
            raise InvalidPositionError(
                message_id=N_(
                    "position {text!r}: the bottom piece of {square} must be {colour} (pieces"
                    " never move onto an empty square, so a square keeps its starting piece "
                    "at the bottom)"
                ),
                arguments={
                    "text": text,
                    "square": square_name(square),
                    "colour": initial_colour(square),
                },
            )
    peak = board.max_height()
    if peak == 1 and board.last_arrival is not None:
        raise InvalidPositionError(
            message_id=N_(
                "position {text!r}: no piece has climbed, so the last arrival must be '-'"
            ),
            arguments={"text": text},
        )
    if peak > 1:
        if board.last_arrival is None:
            raise InvalidPositionError(
                message_id=N_(
                    "position {text!r}: stacks reach height {peak}, so the last arrival at "
                    "that height must be L or D, not '-'"
                ),
                arguments={"text": text, "peak": peak},
            )
        if not any(len(s) == peak and s[-1] == board.last_arrival for s in board.stacks):
            raise InvalidPositionError(
                message_id=N_(
                    "position {text!r}: {arrival} is named as the last arrival at height "
                    "{peak} but tops no stack of that height"
                ),
                arguments={"text": text, "arrival": board.last_arrival, "peak": peak},
            )
    if peak == 1 and board.to_move == DARK:
        raise InvalidPositionError(
            message_id=N_("position {text!r}: dark cannot be to move before any piece has climbed"),
            arguments={"text": text},
        )
