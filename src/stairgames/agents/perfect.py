"""The ``perfect`` player: plays a move of greatest solved value, where a game is solved.

It reads the game's solved values (:attr:`stairgames.core.hooks.PlayerHooks.perfect_play`):
every legal action with the returns it leads to under perfect play, and takes one whose
return for its seat is greatest, ties broken at random with its own generator. A game
(or option set) without solved values is refused when the player is prepared, with the
game's reason (``docs/analysis.md`` says what is solved and how to solve more).
"""

from __future__ import annotations

from stairgames.agents.base import Agent, Settings, check_settings, register_agent
from stairgames.core.errors import InvalidOptionError
from stairgames.core.game import Game, State
from stairgames.core.hooks import PerfectPlay
from stairgames.core.registry import player_hooks
from stairgames.i18n import N_

_EPSILON = 1e-9


def perfect_play_of(game: Game) -> PerfectPlay:
    """The solved values of ``game``.

    :raises InvalidOptionError: the game offers none, or not for these options.
    """
    factory = player_hooks(game.name).perfect_play
    if factory is None:
        raise InvalidOptionError(
            message_id=N_("the perfect player needs a solved game, and {game} has no solver"),
            arguments={"game": game.name},
        )
    return factory(game)


class PerfectAgent(Agent):
    name = "perfect"

    def __init__(self, seat: int, *, seed: int | None = None) -> None:
        super().__init__(seat, seed=seed)
        self._solved: tuple[Game, PerfectPlay] | None = None

    def check_game(self, game: Game) -> None:
        self._solved_values(game)

    def step(self, state: State) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        values = self._solved_values(state.get_game()).action_values(state)
        best = max(values[action][self.seat] for action in legal)
        return self.rng.choice(
            [action for action in legal if values[action][self.seat] > best - _EPSILON]
        )

    def _solved_values(self, game: Game) -> PerfectPlay:
        if self._solved is None or self._solved[0] != game:
            self._solved = (game, perfect_play_of(game))
        return self._solved[1]


def _make(seat: int, seed: int | None, settings: Settings) -> Agent:
    check_settings("perfect", settings, {})
    return PerfectAgent(seat, seed=seed)


register_agent("perfect", _make)
