"""OpenSpiel's Python algorithms on our engine directly, without pyspiel's round trip.

:mod:`stairgames.interop.openspiel` registers each game with pyspiel: every call an
OpenSpiel algorithm makes on a state (``clone``, ``legal_actions``, ``apply_action``...)
goes from Python into pyspiel's C++ and back into our Python engine. That is the price
any OpenSpiel algorithm pays on a Python game, and it made OpenSpiel's ``MCTSBot`` run
about a quarter slower on Stairs than it can (282 against 370 simulations a second on
the same positions: issue 56). A strength figure against that bot must give it its full
speed.

Our states already answer OpenSpiel's method names (``core/game.py`` uses its
vocabulary: ``current_player`` with chance -1 and terminal -4, ``legal_actions(player)``,
``chance_outcomes``, ``apply_action``, ``clone``, ``is_terminal``, ``returns``). So the
adapter is a game only: :class:`DirectGame` answers what ``MCTSBot`` asks of a game
(``get_type``, ``max_utility``, ``num_players``, ``new_initial_state``), and
:class:`DirectState` holds one of our states, passing each call straight to it, so
that the bot searches at our engine's speed.
"""

from __future__ import annotations

from typing import Any, SupportsInt

import pyspiel

from stairgames.core.game import CHANCE, TERMINAL, Game, State

assert int(pyspiel.PlayerId.CHANCE) == CHANCE and int(pyspiel.PlayerId.TERMINAL) == TERMINAL


class DirectState:
    """One of our states under OpenSpiel's method names, as its Python algorithms call
    them: the same calls on :attr:`inner`, the actions they draw with numpy
    (``np.int64``) taken as the ints our engine asks for, and ``action_to_string`` in
    OpenSpiel's order of arguments (player, action)."""

    __slots__ = ("inner",)

    def __init__(self, inner: State) -> None:
        self.inner = inner

    def clone(self) -> DirectState:
        return DirectState(self.inner.clone())

    def current_player(self) -> int:
        return self.inner.current_player()

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def is_chance_node(self) -> bool:
        return self.inner.is_chance_node()

    def legal_actions(self, player: int | None = None) -> list[int]:
        return self.inner.legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.inner.chance_outcomes()

    def apply_action(self, action: SupportsInt) -> None:
        self.inner.apply_action(int(action))

    def returns(self) -> list[float]:
        return self.inner.returns()

    def action_to_string(self, player: int, action: SupportsInt) -> str:
        return self.inner.action_to_string(int(action), player)

    def __str__(self) -> str:
        return str(self.inner)


class DirectGame:
    """One of our games as OpenSpiel's Python algorithms read a game: ``spiel_game`` (the
    bridge's pyspiel game of the same options) gives the type and the utilities, ``ours``
    the states."""

    def __init__(self, spiel_game: pyspiel.Game, ours: Game) -> None:
        self.spiel_game = spiel_game
        self.ours = ours

    def get_type(self) -> pyspiel.GameType:
        return self.spiel_game.get_type()

    def max_utility(self) -> float:
        return float(self.spiel_game.max_utility())

    def min_utility(self) -> float:
        return float(self.spiel_game.min_utility())

    def num_players(self) -> int:
        return int(self.ours.num_players())

    def num_distinct_actions(self) -> int:
        return int(self.spiel_game.num_distinct_actions())

    def new_initial_state(self) -> DirectState:
        return DirectState(self.ours.new_initial_state())

    def __getattr__(self, name: str) -> Any:
        """Anything else of the pyspiel game (its parameters, its name)."""
        return getattr(self.spiel_game, name)


def direct_game(spiel_game: pyspiel.Game) -> DirectGame:
    """The direct form of a game made by :func:`stairgames.interop.openspiel.load_game`."""
    ours = spiel_game.new_initial_state().inner.get_game()
    return DirectGame(spiel_game, ours)


__all__ = ["DirectGame", "DirectState", "direct_game"]
