"""City of Stairs (Masaki Suga): 2-4 players build a 7×4 city, then stroll to the lighthouse.

>>> import stairgames
>>> game = stairgames.load("city_of_stairs", players=3, first_player=0)
>>> state = game.new_initial_state()
>>> state.chance_outcomes()[:2]
[(0, 0.07142857142857142), (1, 0.07142857142857142)]
>>> state.apply_move("draw P05")
4
>>> state.position().split()[:3]
['start=0', 'departures=-,-,-', 'stock=P05,-']
"""

import random

from stairgames.core.game import State
from stairgames.core.registry import GameSpec, OptionFile, register
from stairgames.games.city_of_stairs.cards import CardSet, CityCard, Icon, load_card_set
from stairgames.games.city_of_stairs.game import (
    CityOfStairsGame,
    CityOfStairsOptions,
    CityOfStairsState,
    max_game_length,
)
from stairgames.games.city_of_stairs.rules import Table
from stairgames.games.city_of_stairs.view.board import WEB_ASSETS, board_view
from stairgames.games.city_of_stairs.view.move_list import narrate_moves
from stairgames.games.city_of_stairs.view.terminal import narrate, render_terminal
from stairgames.i18n import N_

__all__ = [
    "CardSet",
    "CityCard",
    "CityOfStairsGame",
    "CityOfStairsOptions",
    "CityOfStairsState",
    "Icon",
    "Table",
    "load_card_set",
    "max_game_length",
    "narrate",
    "render_terminal",
]


def _resample_hidden(state: State, seat: int, rng: random.Random) -> State:
    """:meth:`CityOfStairsState.resample_hidden`: the departure cards hidden from
    ``seat`` dealt again (C8)."""
    assert isinstance(state, CityOfStairsState)
    return state.resample_hidden(seat, rng)


register(
    GameSpec(
        name="city_of_stairs",
        title=N_("City of Stairs"),
        game_class=CityOfStairsGame,
        options_class=CityOfStairsOptions,
        render=render_terminal,
        drawing="stairgames.games.city_of_stairs.view.terminal:plain_drawing",
        summary=N_(
            "2-4 players build a 7×4 city of stairs, then stroll through it to the lighthouse."
        ),
        help=N_(
            "Moves: P03@c2 puts stock card P03 on cell c2 (P and E in an empty cell show\n"
            "which stock card may go there); on a stroll nw (↖), ne (↗), turn (↺), or on\n"
            "(keep going past a ≈ you may ignore).\n"
            "Icons: ↖ ↗ everyone; R↖ red only; R≈ red may ignore ↖/↗; R↺ red turns around.\n"
            "•R •B •Y •G: the cards placed since your last turn, by red, blue, yellow, green.\n"
            "A card's left corner acts on a walker entering from the left (moving right),\n"
            "its right corner on one entering from the right. ~①~ are the seaside departures."
        ),
        aliases=("city", "cityofstairs", "kaidan_no_machi"),
        narrate=narrate,
        option_sets=({"players": 2}, {"players": 3}, {"players": 4}),
        rules_summary=(
            N_(
                "Build the city: on your turn put one of the two stock cards on a ringed cell, "
                "next to the seaside or a card; every row ends with exactly three stairs."
            ),
            N_(
                "Then each player strolls from the seaside card their departure card names, "
                "kept secret until then: ↖ or ↗ climbs a row, ↺ turns around, ≈ lets you "
                "ignore an arrow; a coloured icon is for that colour only, and a corner acts "
                "only on a walker entering from its side."
            ),
            N_(
                "Each experience turns up its diary card: 2 points for an interest of yours, 1 "
                "otherwise, 3 for the lighthouse. A stroll ends at the lighthouse, with five "
                "diary cards, or trapped."
            ),
        ),
        play_minutes=(20, 20),
        realtime_default=(10, 10),
        narrate_moves=narrate_moves,
        player_hooks="stairgames.games.city_of_stairs.play.evaluate:HOOKS",
        assessor="stairgames.games.city_of_stairs.play.review:ASSESSOR",
        resample_hidden=_resample_hidden,
        web_view=board_view,
        web_assets=WEB_ASSETS,
        browser_messages="stairgames.games.city_of_stairs.view.messages:BROWSER_MESSAGES",
        accessible="stairgames.games.city_of_stairs.view.accessible:ACCESSIBLE",
        listing_order=3,
        study="stairgames.games.city_of_stairs.research.balance:STUDY",
        option_files=(
            OptionFile(
                option="cards", parse="stairgames.games.city_of_stairs.cards:parse_card_set"
            ),
        ),
        observation_tensor="stairgames.games.city_of_stairs.play.tensor:TENSOR",
    )
)
