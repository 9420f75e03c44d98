"""The ``perfect`` player: refuses what is not solved, plays a best solved move."""

from __future__ import annotations

import pytest

import stairgames
from stairgames.agents import make_agent
from stairgames.core.errors import InvalidOptionError


def test_perfect_player_refuses_a_game_without_solver() -> None:
    with pytest.raises(InvalidOptionError, match="city_of_stairs has no solver"):
        make_agent("perfect", 0, game=stairgames.load("city_of_stairs"))


def test_perfect_player_has_no_settings() -> None:
    with pytest.raises(InvalidOptionError, match="unknown setting"):
        make_agent("perfect:time=1", 0)
