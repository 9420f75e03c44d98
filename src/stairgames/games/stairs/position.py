"""Stairs position text: ``format_position`` and ``parse_position`` round-trip.

The ranks from 6 down to 1 separated by ``/``; in each rank the six squares
from file a to f separated by ``,``; each square is its stack from bottom to
top in ``L`` and ``D``, or ``.`` when empty. Then a space and the colour to
move, then a space and the colour that made the most recent arrival at the
greatest height, or ``-``. The initial position::

    L,D,L,D,L,D/D,L,D,L,D,L/L,D,L,D,L,D/D,L,D,L,D,L/L,D,L,D,L,D/D,L,D,L,D,L L -
"""

from __future__ import annotations

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

INITIAL_POSITION = "L,D,L,D,L,D/D,L,D,L,D,L/L,D,L,D,L,D/D,L,D,L,D,L/L,D,L,D,L,D/D,L,D,L,D,L L -"


def format_position(board: Board) -> str:
    ranks = []
    for rank in reversed(range(SIZE)):
        squares = [board.stacks[square_index(f, rank)] or "." for f in range(SIZE)]
        ranks.append(",".join(squares))
    arrival = board.last_arrival or "-"
    return f"{'/'.join(ranks)} {board.to_move} {arrival}"


def parse_position(text: str) -> Board:
    """Read a position text, checking its form and that the position is possible.

    :raises InvalidPositionError: with what is wrong and where.
    """
    fields = text.split()
    if len(fields) != 3:
        raise InvalidPositionError(
            message_id=N_(
                "position {text!r} must have 3 space-separated fields (board, colour to "
                "move, last arrival), found {found}"
            ),
            arguments={"text": text, "found": len(fields)},
        )
    board_text, to_move, arrival = fields
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
    return board


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
