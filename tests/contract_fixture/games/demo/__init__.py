"""The demo game's registration: it may import its engine and view."""

from tests.contract_fixture.games.demo import game
from tests.contract_fixture.games.demo.view import board

__all__ = ["board", "game"]
