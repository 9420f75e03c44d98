"""The game protocol shared by every game and every player (OpenSpiel's vocabulary)."""

from stairgames.core.chance import sample_chance_outcome
from stairgames.core.errors import (
    IllegalMoveError,
    InvalidOptionError,
    InvalidPositionError,
    InvalidRecordError,
    StairgamesError,
)
from stairgames.core.game import CHANCE, TERMINAL, Game, GameInfo, Outcome, State
from stairgames.core.hooks import PlayerHooks, WarmUp
from stairgames.core.registry import (
    GameSpec,
    game_names,
    get_spec,
    list_games,
    load,
    load_with_text_options,
    player_hooks,
    register,
)

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Game",
    "GameInfo",
    "GameSpec",
    "IllegalMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "InvalidRecordError",
    "Outcome",
    "PlayerHooks",
    "StairgamesError",
    "State",
    "WarmUp",
    "game_names",
    "get_spec",
    "list_games",
    "load",
    "load_with_text_options",
    "player_hooks",
    "register",
    "sample_chance_outcome",
]
