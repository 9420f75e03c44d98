"""Tic-tac-toe in the browser: the board view that ``board.js`` draws."""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

from stairgames.core.game import State
from tests.tictactoe.game import TicTacToeState
from tests.tictactoe.notation import cell_name

WEB_ASSETS: Traversable = files("tests.tictactoe.view")
"""The folder holding ``board.js``."""


def board_view(state: State, viewer: int | None) -> dict[str, Any]:
    """Every cell by name with its mark (``""`` when empty), and the mark to move
    (``None`` once the game is over); the same for every viewer."""
    del viewer
    if not isinstance(state, TicTacToeState):
        raise TypeError(f"not a tic-tac-toe state: {state!r}")
    player = state.current_player()
    return {
        "cells": [{"name": cell_name(cell), "mark": mark} for cell, mark in enumerate(state.board)],
        "to_move": None if state.is_terminal() else "XO"[player],
    }
