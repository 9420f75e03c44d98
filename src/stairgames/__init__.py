"""stairgames: rules engines, computer players and analysis for four climbing games.

>>> import stairgames
>>> game = stairgames.load("stairs")
>>> state = game.new_initial_state()
>>> state.current_player()
0
"""

from stairgames.core import (
    CHANCE,
    TERMINAL,
    Game,
    GameInfo,
    IllegalMoveError,
    InvalidOptionError,
    InvalidPositionError,
    InvalidRecordError,
    Outcome,
    StairgamesError,
    State,
    game_names,
    list_games,
    load,
)

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "GameInfo",
    "IllegalMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "InvalidRecordError",
    "Outcome",
    "StairgamesError",
    "State",
    "__version__",
    "game_names",
    "list_games",
    "load",
]
