"""Stairs drawing data for the browser (``web/board.js`` draws it).

Stairs hides nothing, so every viewer gets the same board:

>>> import stairgames
>>> view = board_view(stairgames.load("stairs").new_initial_state(), None)
>>> view["squares"][0], view["to_move"], view["peak"]
({'name': 'a1', 'stack': 'D', 'height': 1, 'top': 'D'}, 'L', 1)
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

from stairgames.core.game import State
from stairgames.games.stairs.rules import Board, square_name, stuck_pieces
from stairgames.i18n import text_json

WEB_ASSETS: Traversable = files("stairgames.games.stairs.view")
"""The folder holding ``board.js``."""


def board_view(state: State, viewer: int | None) -> dict[str, Any]:
    """The board as JSON-ready data: its size (S8), files and ranks, every square (``a1``
    first, row-major by rank) with its stack from bottom to top, height and top colour
    (``None`` when empty), the colour to move, the seat playing light (1 after a
    pie-rule swap), the greatest height, and ``stuck``: for each square whose piece of
    the colour to move cannot move, why (the engine's sentence, as
    :func:`stairgames.i18n.text_json` gives it).
    ``viewer`` is unused: nothing in Stairs is hidden."""
    del viewer
    from stairgames.games.stairs.game import StairsState

    if not isinstance(state, StairsState):
        raise TypeError(f"a Stairs state is needed, not {type(state).__name__}")
    board = state.board
    shape = board.geometry
    squares = [
        {
            "name": square_name(square, shape.size),
            "stack": board.stacks[square],
            "height": board.height(square),
            "top": board.top(square),
        }
        for square in range(shape.num_squares)
    ]
    return {
        "size": shape.size,
        "files": shape.files,
        "ranks": shape.ranks,
        "squares": squares,
        "to_move": board.to_move,
        "light_seat": state.seat_of("L"),
        "peak": board.max_height(),
        "stuck": stuck_reasons(board) if not state.is_terminal() else {},
    }


def stuck_reasons(board: Board) -> dict[str, Any]:
    """Why each piece of the colour to move that cannot move cannot (by square name)."""
    return {
        square_name(square, board.size): text_json(reason)
        for square, reason in stuck_pieces(board, board.to_move).items()
    }
