"""Levels for people: ``easy``, ``medium``, ``hard``, ``expert``.

A level is a named player configuration. The defaults below hold for every
game, except that two-player games without chance or hidden information play
``expert`` with ``alphabeta``; a game may replace some of them (the ``levels`` field
of its :class:`stairgames.core.hooks.PlayerHooks`), e.g. ``{"expert":
"alphabeta:time=1.8"}``, where the arena measured that player stronger there.
``docs/agents.md`` lists the configuration of every level in every game with the
arena figures showing that each level beats the one below it. At ``expert`` a move
takes at most about 2 seconds.

A level resolves to its player when it is prepared for a game
(:meth:`stairgames.agents.Agent.prepare`), or else on its first move.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from stairgames.agents.base import (
    Agent,
    AgentFactory,
    Settings,
    check_settings,
    make_agent,
    register_agent,
)
from stairgames.agents.warming import BackgroundWarmUp, Launcher
from stairgames.core.game import Game, State
from stairgames.core.hooks import WarmUp
from stairgames.core.registry import player_hooks

LEVEL_NAMES = ("easy", "medium", "hard", "expert")

DEFAULT_LEVELS: Mapping[str, str] = {
    "easy": "greedy",
    "medium": "mcts:time=0.05",
    "hard": "mcts:time=0.25",
    "expert": "mcts:time=1.8",
}
"""The level configurations used where a game does not replace them."""

TWO_PLAYER_PERFECT_INFORMATION_LEVELS: Mapping[str, str] = {
    "expert": "alphabeta:time=1.8",
}
"""Replacements in two-player games without chance or hidden information (Stairs and
27 today), where ``alphabeta`` with the game's evaluation measured stronger than
``mcts`` at equal time (``docs/agents.md``)."""


def game_levels(game_name: str) -> Mapping[str, str]:
    """The levels a game replaces (``PlayerHooks.levels``), maybe none."""
    return player_hooks(game_name).levels


def stand_in_like(level: str, game_name: str) -> str | None:
    """The level that ``level``'s stand-in is about as strong as in ``game_name``: the
    player it plays while its compiled code is compiled in the background
    (:meth:`stairgames.agents.Agent.fallback`), measured by the game
    (``PlayerHooks.stand_ins``); ``None`` where it was not measured (or ``level`` is not
    a level)."""
    if level not in LEVEL_NAMES:
        return None
    return player_hooks(game_name).stand_ins.get(level)


def stand_in_band(level: str, game_name: str) -> tuple[str, str] | None:
    """The two levels that ``level``'s stand-in was measured between in ``game_name``
    (``PlayerHooks.stand_in_bands``): the level it beat and the level that beat it;
    ``None`` where it was not measured so (or ``level`` is not a level)."""
    if level not in LEVEL_NAMES:
        return None
    return player_hooks(game_name).stand_in_bands.get(level)


def level_player(level: str, game: Game) -> str:
    """The player text form that ``level`` stands for in ``game``.

    In order: the game's own levels; for two-player games without chance or
    hidden information, :data:`TWO_PLAYER_PERFECT_INFORMATION_LEVELS`; then
    :data:`DEFAULT_LEVELS`.
    """
    own = game_levels(game.name)
    if level in own:
        return own[level]
    info = game.info()
    if info.num_players == 2 and not info.chance and not info.hidden_information:
        return TWO_PLAYER_PERFECT_INFORMATION_LEVELS.get(level, DEFAULT_LEVELS[level])
    return DEFAULT_LEVELS[level]


class LevelAgent(Agent):
    """A level: the configured player for the game it is prepared for."""

    def __init__(self, level: str, seat: int, *, seed: int | None = None) -> None:
        super().__init__(seat, seed=seed)
        self.name = level
        self.level = level
        self.seed = seed
        self.inner: Agent | None = None
        self.inner_kind: str | None = None
        """The text form of :attr:`inner`."""

    def player_for(self, game: Game) -> Agent:
        """The player this level stands for in ``game`` (built once per game)."""
        kind = level_player(self.level, game)
        if self.inner is None or self.inner_kind != kind:
            self.inner = make_agent(kind, self.seat, self.seed)
            self.inner_kind = kind
        return self.inner

    def prepare(
        self,
        game: Game,
        *,
        on_compiling: Callable[[], None] | None = None,
        background: bool = False,
        launcher: Launcher | None = None,
    ) -> None:
        self.player_for(game).prepare(
            game, on_compiling=on_compiling, background=background, launcher=launcher
        )
        self.prepared_for = game

    @property
    def warming(self) -> BackgroundWarmUp | None:
        return None if self.inner is None else self.inner.warming

    @property
    def last_fallback(self) -> bool:
        return self.inner is not None and self.inner.last_fallback

    def fallback(self, game: Game) -> Agent | None:
        return self.player_for(game).fallback(game)

    def choose(self, view: State) -> int:
        self.ensure_prepared(view.get_game())
        assert self.inner is not None
        return self.inner.choose(view)

    def check_game(self, game: Game) -> None:
        self.player_for(game).check_game(game)

    def warm_ups(self, game: Game) -> list[WarmUp]:
        return self.player_for(game).warm_ups(game)

    def step(self, state: State) -> int:
        self.ensure_prepared(state.get_game())
        assert self.inner is not None
        return self.inner.step(state)

    def restart(self) -> None:
        if self.inner is not None:
            self.inner.restart()


def _factory(level: str) -> AgentFactory:
    def make(seat: int, seed: int | None, settings: Settings) -> Agent:
        check_settings(level, settings, {})
        return LevelAgent(level, seat, seed=seed)

    return make


for _level in LEVEL_NAMES:
    register_agent(_level, _factory(_level))
