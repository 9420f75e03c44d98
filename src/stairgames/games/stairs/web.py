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
from stairgames.games.stairs.rules import square_name

WEB_ASSETS: Traversable = files("stairgames.games.stairs") / "web"
"""The folder holding ``board.js``."""


def board_view(state: State, viewer: int | None) -> dict[str, Any]:
    """The board as JSON-ready data: its size (S8), files and ranks, every square (``a1``
    first, row-major by rank) with its stack from bottom to top, height and top colour
    (``None`` when empty), the colour to move, the seat playing light (1 after a
    pie-rule swap) and the greatest height.
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
    }
