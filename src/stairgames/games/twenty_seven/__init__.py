"""27 (Laurent Escoffier): 2 players move stacks of discs along a line of fields.

Basic, advanced (grey bases move with their stack) and expert (red bases too)
variants, after the rulebook ``twenty_seven.en.txt`` and rulings T1-T7.

>>> import stairgames
>>> state = stairgames.load("twenty_seven").new_initial_state()
>>> state.apply_move("0:3")
2
>>> state.position()
'RWWWWWW/GWWW/G/G/G/G/G/G/RBBBBBBBBB B'
"""

from stairgames.core.registry import GameSpec, MoveWord, register
from stairgames.games.twenty_seven.game import (
    MAX_GAME_LENGTH,
    TwentySevenGame,
    TwentySevenOptions,
    TwentySevenState,
)
from stairgames.games.twenty_seven.notation import PASS
from stairgames.games.twenty_seven.position import INITIAL_POSITION
from stairgames.games.twenty_seven.rules import BLACK, GREY, RED, WHITE, Line, Move
from stairgames.games.twenty_seven.view.board import WEB_ASSETS, board_view
from stairgames.games.twenty_seven.view.narrate import narrate
from stairgames.games.twenty_seven.view.terminal import render_line, render_terminal
from stairgames.i18n import N_

__all__ = [
    "BLACK",
    "GREY",
    "INITIAL_POSITION",
    "MAX_GAME_LENGTH",
    "PASS",
    "RED",
    "WHITE",
    "Line",
    "Move",
    "TwentySevenGame",
    "TwentySevenOptions",
    "TwentySevenState",
    "render_line",
]


register(
    GameSpec(
        name="twenty_seven",
        title=N_("27"),
        game_class=TwentySevenGame,
        options_class=TwentySevenOptions,
        render=render_terminal,
        summary=N_("2 players, a line of 9 fields: move stacks exactly as far as you have stacks."),
        help=N_(
            "Moves: F:K moves the top K discs of field F (fields numbered from 0 at white's\n"
            "end of the line as it is now); pass when you cannot move. A move goes as many\n"
            "fields as you have stacks (your colour on top)."
        ),
        aliases=("27", "twentyseven"),
        narrate=narrate,
        option_sets=({"variant": "basic"}, {"variant": "advanced"}, {"variant": "expert"}),
        rules_summary=(
            N_("27 discs on a line of 9 fields: 9 white, 9 black, 7 grey and 2 red bases."),
            N_(
                "Your stacks are the stacks your colour tops. Move the top discs of one of them "
                "exactly as many fields as you have stacks, towards your far end."
            ),
            N_(
                "Who cannot move passes; the game ends when neither can move. You score the "
                "discs on your target field above its base."
            ),
        ),
        play_minutes=(10, 20),
        player_hooks="stairgames.games.twenty_seven.play.evaluate:HOOKS",
        assessor="stairgames.games.twenty_seven.play.review:ASSESSOR",
        puzzles="stairgames.games.twenty_seven.play.puzzles:KIT",
        web_view=board_view,
        web_assets=WEB_ASSETS,
        browser_messages="stairgames.games.twenty_seven.view.messages:BROWSER_MESSAGES",
        accessible="stairgames.games.twenty_seven.view.accessible:ACCESSIBLE",
        listing_order=1,
        move_words=(
            MoveWord("pass", N_("Pass"), forced=N_("You have no legal move: you must pass.")),
        ),
        observation_tensor="stairgames.games.twenty_seven.play.tensor:TENSOR",
        solver="stairgames.games.twenty_seven.research.command:SOLVE_COMMAND",
        rating_options=("variant",),
    )
)
