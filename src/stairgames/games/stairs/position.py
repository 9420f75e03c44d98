"""Stairs position text: ``format_position`` and ``parse_position`` round-trip.

The ranks from the last (6 on the rulebook's board) down to 1 separated by ``/``; in
each rank the squares from file a to the last separated by ``,`` (as many squares a
rank as there are ranks: the board's size, S8, is the number of ranks); each square
is its stack from bottom to top in ``L`` and ``D``, or ``.`` when empty. Then a space
and the colour to move, then a space and the colour that made the most recent arrival
at the greatest height, or ``-``. The initial position::

    L,D,L,D,L,D/D,L,D,L,D,L/L,D,L,D,L,D/D,L,D,L,D,L/L,D,L,D,L,D/D,L,D,L,D,L L -

Two more fields follow when they differ from their defaults (written only then,
so the text of an ordinary position stays short):

- the seat that plays light, ``0`` (the default) or ``1`` after a ``swap`` (S6);
- what is pending, ``-`` (the default) or a ``+``-joined list of: ``swap`` (the
  second player may swap now, S6), ``offer`` (an offer to end by agreement awaits
  the other player's answer, S7), ``declined`` (the player to move had an offer
  declined this turn and must move before offering again, S7), ``agreed`` (the
  players agreed to end the game here: it is over, scored by S5, S7).

A 4×4 board (option ``size=4``) at the start::

    L,D,L,D/D,L,D,L/L,D,L,D/D,L,D,L L -

and a 3×3 one (dark has five pieces, light four)::

    D,L,D/L,D,L/D,L,D L -

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
    MAX_SIZE,
    MIN_SIZE,
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
    size = board.size
    ranks = []
    for rank in reversed(range(size)):
        squares = [board.stacks[square_index(f, rank, size)] or "." for f in range(size)]
        ranks.append(",".join(squares))
    arrival = board.last_arrival or "-"
    fields = ["/".join(ranks), board.to_move, arrival, str(position.light_seat)]
    fields.append(position.pending.text())
    while len(fields) > 3 and fields[-1] == _DEFAULT_FIELDS[len(fields) - 4]:
        fields.pop()
    return " ".join(fields)


_DEFAULT_FIELDS = ("0", "-")
"""The defaults of the two optional fields: seat 0 plays light, nothing pending."""


def parse_position(text: str, size: int = SIZE) -> PositionText:
    """Read a position text of a board of ``size`` squares a side (S8), checking its
    form and that the position is possible.

    :raises InvalidPositionError: with what is wrong and where (a board of another
        size included).
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
    stacks = _parse_board(text, board_text, size)
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


def position_options(text: str) -> dict[str, str]:
    """The options a position text says itself: the board size its ranks draw (S8),
    ``{"size": "5"}``, or nothing when the text draws no board of 3 to 8 squares a
    side (reading it then says what is wrong); ``pie_rule`` when a swap is pending.
    The registry's ``position_options``."""
    fields = text.split()
    size = board_size_of(fields[0]) if fields else None
    options = {} if size is None else {"size": str(size)}
    if len(fields) > 4 and "swap" in fields[4].split("+"):
        options["pie_rule"] = "true"  # a pending swap is played with the pie rule (S6)
    return options


def board_size_of(board_text: str) -> int | None:
    """The size of the board a position's board field draws (S8): its number of ranks,
    when every rank has that many squares and it is a size from 3 to 8, else ``None``."""
    ranks = board_text.split("/")
    found = len(ranks)
    if MIN_SIZE <= found <= MAX_SIZE and all(len(r.split(",")) == found for r in ranks):
        return found
    return None


def _parse_board(text: str, board_text: str, size: int) -> tuple[str, ...]:
    ranks = board_text.split("/")
    drawn = board_size_of(board_text)
    if drawn is not None and drawn != size:
        raise InvalidPositionError(
            message_id=N_(
                "position {text!r} is a {found}×{found} board, but this game is played on "
                "{size}×{size} (option size={size})"
            ),
            arguments={"text": text, "found": drawn, "size": size},
        )
    if len(ranks) != size:
        raise InvalidPositionError(
            message_id=N_(
                "position {text!r} must have {size} ranks separated by '/', found {found}"
            ),
            arguments={"text": text, "size": size, "found": len(ranks)},
        )
    stacks = [""] * (size * size)
    for row, rank_text in enumerate(ranks):
        rank = size - 1 - row
        squares = rank_text.split(",")
        if len(squares) != size:
            raise InvalidPositionError(
                message_id=N_(
                    "position {text!r}: rank {rank} must have {size} squares separated by "
                    "',', found {found}"
                ),
                arguments={"text": text, "rank": rank + 1, "size": size, "found": len(squares)},
            )
        for file, square_text in enumerate(squares):
            square = square_index(file, rank, size)
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
                        "square": square_name(square, size),
                        "square_text": square_text,
                    },
                )
            stacks[square] = square_text
    return tuple(stacks)


def _check_possible(text: str, board: Board) -> None:
    shape = board.geometry
    size = shape.size
    for colour in COLOURS:
        count = board.count(colour)
        expected = shape.light_pieces if colour == LIGHT else shape.dark_pieces
        if count != expected:
            name = Text("light" if colour == LIGHT else "dark")
            raise InvalidPositionError(
                message_id=N_(
                    "position {text!r} has {count} {name} pieces; there are always "
                    "{expected} on a {size}×{size} board (one a square at the start)"
                ),
                arguments={
                    "text": text,
                    "count": count,
                    "name": name,
                    "expected": expected,
                    "size": size,
                },
            )
    for square, stack in enumerate(board.stacks):
        if stack and stack[0] != initial_colour(square, size):
            raise InvalidPositionError(
                message_id=N_(
                    "position {text!r}: the bottom piece of {square} must be {colour} (pieces"
                    " never move onto an empty square, so a square keeps its starting piece "
                    "at the bottom)"
                ),
                arguments={
                    "text": text,
                    "square": square_name(square, size),
                    "colour": initial_colour(square, size),
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
