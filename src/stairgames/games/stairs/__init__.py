"""Stairs (Kanare Kato): 2 players, a 6×6 board, climb one level with every move.

The option ``size`` plays on a board of 3×3 to 8×8 squares (S8).

>>> import stairgames
>>> state = stairgames.load("stairs").new_initial_state()
>>> state.apply_move("d3-c4")
127
>>> state.position()
'L,D,L,D,L,D/D,L,D,L,D,L/L,D,LL,D,L,D/D,L,D,.,D,L/L,D,L,D,L,D/D,L,D,L,D,L D L'
"""

from stairgames.core.registry import GameSpec, MoveWord, register
from stairgames.games.stairs.game import StairsGame, StairsOptions, StairsState
from stairgames.games.stairs.notation import PASS, SWAP
from stairgames.games.stairs.position import INITIAL_POSITION, position_options
from stairgames.games.stairs.rules import DARK, LIGHT, Board, Move
from stairgames.games.stairs.view.board import WEB_ASSETS, board_view
from stairgames.games.stairs.view.terminal import render_board, render_terminal
from stairgames.i18n import N_

__all__ = [
    "DARK",
    "INITIAL_POSITION",
    "LIGHT",
    "PASS",
    "SWAP",
    "Board",
    "Move",
    "StairsGame",
    "StairsOptions",
    "StairsState",
    "render_board",
]


register(
    GameSpec(
        name="stairs",
        title=N_("Stairs"),
        game_class=StairsGame,
        options_class=StairsOptions,
        render=render_terminal,
        summary=N_(
            "2 players, 6×6 board (or 3×3 to 8×8): stack your piece one level higher each move."
        ),
        help=N_(
            "Moves: c3-d4 moves your piece from c3 onto the stack on d4 (files from a,\n"
            "ranks from 1); pass when you cannot move; swap (pie rule) takes over the first\n"
            "move. The board is 6×6, or 3×3 to 8×8 with the option size (--size 4).\n"
            "The board shows each square's top colour and height (L2: light on a stack of\n"
            "2); * marks the stacks at the greatest height."
        ),
        option_sets=(
            {},
            {"pie_rule": True},
            {"pie_rule": True, "agreement": False},
            {"size": 4},
            {"size": 7, "pie_rule": True},
        ),
        rules_summary=(
            N_("Each player has 18 pieces on a checkered 6×6 board."),
            N_(
                "A move takes the top piece of a stack your colour tops onto a neighbouring "
                "stack (8 directions) of exactly the same height: it climbs one level."
            ),
            N_(
                "Only your lowest movable pieces may move. Who cannot move passes; the game "
                "ends when neither can move."
            ),
            N_(
                "At the greatest height, more stacks topped by your colour win; on equal counts "
                "whoever arrived there last loses."
            ),
        ),
        play_minutes=(20, 20),
        player_hooks="stairgames.games.stairs.play.evaluate:HOOKS",
        assessor="stairgames.games.stairs.play.review:ASSESSOR",
        puzzles="stairgames.games.stairs.play.puzzles:KIT",
        web_view=board_view,
        web_assets=WEB_ASSETS,
        browser_messages="stairgames.games.stairs.view.messages:BROWSER_MESSAGES",
        accessible="stairgames.games.stairs.view.accessible:ACCESSIBLE",
        listing_order=0,
        move_words=(
            MoveWord("pass", N_("Pass"), forced=N_("You have no legal move: you must pass.")),
            MoveWord("swap", N_("Swap colours")),
            MoveWord("offer", N_("Offer to end by agreement"), control=True, note=True),
            MoveWord("accept", N_("Accept the offer"), note=True),
            MoveWord(
                "decline",
                N_("Decline the offer"),
                note=True,
                told=(
                    N_("You declined the offer to end by agreement."),
                    N_("{name} declined the offer to end by agreement."),
                ),
            ),
        ),
        observation_tensor="stairgames.games.stairs.play.tensor:TENSOR",
        position_options=position_options,
        rating_options=("size",),
        solver="stairgames.games.stairs.research.command:SOLVE_COMMAND",
        trainer="stairgames.games.stairs.research.learn.command:TRAIN_COMMAND",
    )
)
