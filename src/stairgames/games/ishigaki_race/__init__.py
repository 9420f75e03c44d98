"""Ishigaki Race (いしがき・れえす): 2-4 ninjas race up a castle wall with one or two dice.

After the rulebook ``ishigaki_race.ja.txt`` and rulings I1-I9: climb by a table
on one die or on two rising dice, slip on a falling pair, knock the leaders
down with doubles, finish the goal round, roll off, and optionally play on the
crumbling wall.

>>> import stairgames
>>> state = stairgames.load("ishigaki_race", players=3, first_player=1).new_initial_state()
>>> state.position()
'race ninjas=0,0,0 turn=blue dice=-'
>>> state.apply_move("die:4"), state.apply_move("stop")
(4, 0)
>>> state.position()
'race ninjas=0,2,0 turn=yellow dice=-'
"""

from stairgames.core.registry import GameSpec, MoveWord, register
from stairgames.games.ishigaki_race.game import (
    IshigakiRaceGame,
    IshigakiRaceOptions,
    IshigakiRaceState,
    max_game_length,
)
from stairgames.games.ishigaki_race.notation import ROLL, STOP
from stairgames.games.ishigaki_race.position import SEAT_NAMES
from stairgames.games.ishigaki_race.rules import Board, Phase, Race, climb_steps, rolloff_score
from stairgames.games.ishigaki_race.view.board import WEB_ASSETS, board_view, narrate_moves
from stairgames.games.ishigaki_race.view.narrate import narrate
from stairgames.games.ishigaki_race.view.terminal import render_race, render_terminal
from stairgames.i18n import N_

__all__ = [
    "ROLL",
    "SEAT_NAMES",
    "STOP",
    "Board",
    "IshigakiRaceGame",
    "IshigakiRaceOptions",
    "IshigakiRaceState",
    "Phase",
    "Race",
    "climb_steps",
    "max_game_length",
    "narrate",
    "render_race",
    "rolloff_score",
]


register(
    GameSpec(
        name="ishigaki_race",
        title=N_("Ishigaki Race"),
        game_class=IshigakiRaceGame,
        options_class=IshigakiRaceOptions,
        render=render_terminal,
        summary=N_("2-4 ninjas climb a castle wall: one die, or risk a second."),
        help=N_(
            "Moves: stop keeps the one die; roll rolls the second (higher: climb on the\n"
            "sum; lower: slip 1 step; doubles: the highest ninjas fall 3). The wall lies on\n"
            "its side: start (step 0) at the left, the goal at the right."
        ),
        aliases=("ishigaki", "ishigakirace"),
        narrate=narrate,
        option_sets=tuple(
            {"players": players, "crumbling_wall": crumbling}
            for players in (2, 3, 4)
            for crumbling in (False, True)
        ),
        rules_summary=(
            N_(
                "On your turn roll one die, then stop there or roll the second die; the ninja "
                "who climbs the wall first wins."
            ),
            N_(
                "One die, or a higher second die: climb by the total (1-3: 1 step, 4-6: 2, "
                "7-8: 3, 9: 4, 10: 5, 11: 6). A lower second die: slip 1 step. Doubles: the "
                "highest ninjas fall 3 steps."
            ),
            N_(
                "Once a ninja reaches the goal, everyone else plays one more turn; several "
                "ninjas on the goal roll off, and the highest roll wins."
            ),
            N_("Crumbling wall (an option): a ninja that stops on a −2 step drops 2 steps."),
        ),
        play_minutes=(10, 15),
        realtime_default=(3, 5),
        narrate_moves=narrate_moves,
        player_hooks="stairgames.games.ishigaki_race.play.evaluate:HOOKS",
        assessor="stairgames.games.ishigaki_race.play.review:ASSESSOR",
        puzzles="stairgames.games.ishigaki_race.play.puzzles:KIT",
        solver="stairgames.games.ishigaki_race.research.command:SOLVE_COMMAND",
        web_view=board_view,
        web_assets=WEB_ASSETS,
        browser_messages="stairgames.games.ishigaki_race.view.messages:BROWSER_MESSAGES",
        accessible="stairgames.games.ishigaki_race.view.accessible:ACCESSIBLE",
        listing_order=2,
        move_words=(
            MoveWord("stop", N_("Stop"), button=False),
            MoveWord("roll", N_("Roll the second die"), button=False),
            MoveWord("die:{number}", N_("Die {number}"), button=False),
            MoveWord("start:{seat}", N_("{seat} starts"), button=False),
        ),
        observation_tensor="stairgames.games.ishigaki_race.play.tensor:TENSOR",
    )
)
