"""Every level's stand-in is measured (issue 56): the player a level plays while its
compiled code is compiled in the background (its ``fallback``) is, in every game, the
player the game's measure was made with, and the game says how strong it is: a level it
is about as strong as (``PlayerHooks.stand_ins``) or two levels it is between
(``stand_in_bands``). Changing a level (or its fallback) fails here until its stand-in
is measured again and the table below follows the new player."""

from __future__ import annotations

import pytest

import stairgames
from stairgames.agents import LEVEL_NAMES, make_agent
from stairgames.agents.levels import stand_in_band, stand_in_like

MEASURED: dict[tuple[str, str], str] = {
    ("stairs", "medium"): "mcts:time=0.05,c=1.0,fast=0",
    ("stairs", "hard"): "mcts:time=0.25,c=0.5,fast=0",
    ("stairs", "expert"): "mcts:time=1.8,c=0.5,fast=0",
    ("twenty_seven", "medium"): "mcts:time=0.05,c=1.0,fast=0",
    ("twenty_seven", "hard"): "mcts:time=0.25,c=1.0,fast=0,book=1",
    ("twenty_seven", "expert"): "alphabeta:time=1.8,book=1",
}
"""The stand-ins measured, as they describe themselves (docs/research/
2026-12-05-stairs-levels-priors.md, "The stand-ins", and "Every other stand-in")."""


@pytest.mark.parametrize("name", stairgames.game_names())
@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_every_stand_in_is_the_player_measured_and_its_strength_is_said(
    name: str, level: str
) -> None:
    game = stairgames.load(name)
    fallback = make_agent(level, 0, seed=1).fallback(game)
    like, band = stand_in_like(level, name), stand_in_band(level, name)
    if fallback is None:  # nothing compiled: no stand-in, nothing to say
        assert (name, level) not in MEASURED and like is None and band is None
        return
    assert fallback.describe() == MEASURED[(name, level)]
    assert (like is None) != (band is None)  # one measure, said one way
    if band is not None:
        above, below = band
        assert LEVEL_NAMES.index(above) < LEVEL_NAMES.index(below)
    else:
        assert like in LEVEL_NAMES
