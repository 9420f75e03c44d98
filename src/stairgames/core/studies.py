"""What a game offers ``stairgames analyze GAME``: a study of many games.

A game with a study names it in its registration
(:attr:`stairgames.core.registry.GameSpec.study`, a ``"module:attribute"`` reference to
an object satisfying :class:`Study`). A game never imports the players, the statistics
or the plotting code; the caller (:mod:`stairgames.analysis.command`) hands them over:
a :class:`PlayerFactory` that makes computer players from their text form, a
:class:`Statistics` and a :class:`Plots`. The study's tasks and its :meth:`Study.play`
(bound to the factory with :func:`functools.partial`) must be picklable, since they
may run in other processes or on a Ray cluster.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from stairgames.core.game import Game, State

Interval = tuple[float, float, float]
"""``(value, low, high)``."""


class StudyPlayer(Protocol):
    """A computer player as a study uses it."""

    def prepare(self, game: Game) -> None: ...

    def act(self, state: State) -> int: ...


class PlayerFactory(Protocol):
    """``players(kind, seat, seed)``: a computer player from its text form (``"random"``,
    ``"hard"``, ``"mcts:time=0.5"``).

    :raises InvalidOptionError: an unknown kind or setting.
    """

    def __call__(self, kind: str, seat: int, seed: int | None = None) -> StudyPlayer: ...


class Statistics(Protocol):
    """The intervals a study's summary reports (:mod:`stairgames.analysis.statistics`)."""

    def mean_interval(self, values: Sequence[float]) -> Interval:
        """The mean of ``values`` and its t interval."""
        ...

    def share_interval(self, share: float, trials: int) -> Interval:
        """A share of ``trials`` with Wilson's interval."""
        ...


class Plots(Protocol):
    """The figures a study draws (:mod:`stairgames.analysis.plots`); each returns the
    path it saved."""

    def interval_panels(
        self,
        path: Path,
        *,
        title: str,
        panels: Sequence[tuple[str, Sequence[str], Sequence[Interval], float | None]],
        xlabel: str,
        ylabel: str,
    ) -> Path: ...

    def interval_series(
        self,
        path: Path,
        *,
        title: str,
        series: Mapping[str, Mapping[str, Interval]],
        xlabel: str,
        ylabel: str,
    ) -> Path: ...

    def distributions(
        self,
        path: Path,
        *,
        title: str,
        series: Mapping[str, Mapping[int, int]],
        xlabel: str,
        ylabel: str,
    ) -> Path: ...


class Study(Protocol):
    """A game's study: tasks, each one game played and recorded, then a summary of the
    records as tables and figures."""

    @property
    def default_player(self) -> str:
        """The player of every seat unless another is asked for."""
        ...

    def tasks(
        self,
        seats: Sequence[int],
        games: int,
        *,
        players: PlayerFactory,
        player: str,
        cards: str | None,
        seed: int,
    ) -> Sequence[Any]:
        """``games`` games for each player count in ``seats`` (``cards``: a card-set
        file, for games that take one), checked before any is played.

        :raises InvalidOptionError: bad arguments, an unknown player, a refused file.
        """
        ...

    def play(self, task: Any, *, players: PlayerFactory) -> dict[str, Any]:
        """Play one task's game; its record, JSON-ready."""
        ...

    def summarise(
        self, records: Sequence[dict[str, Any]], statistics: Statistics
    ) -> dict[str, Any]:
        """The records' figures, JSON-ready."""
        ...

    def format_summary(self, summary: dict[str, Any], *, player: str, cards: str | None) -> str:
        """The summary as text tables."""
        ...

    def plot_summary(self, summary: dict[str, Any], directory: Path, plots: Plots) -> list[Path]:
        """The summary's figures, saved under ``directory``."""
        ...
