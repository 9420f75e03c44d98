"""What a game offers the review of a game (``stairgames review``, ``hint``), as typed data.

A game's registration (:class:`stairgames.core.registry.GameSpec`) may name, in
``assessor``, an :class:`Assessor` by a lazy ``"module:attribute"`` reference (a
``play/review.py``): the thresholds that mark a move, its exact means (solved tables,
endgame solvers) and the value of a position that needs no search. The shared review
engine (:mod:`stairgames.analysis.review`) reads these fields and searches where they
prove nothing; a game without an assessor is reviewed by search alone with
:data:`DEFAULT_ASSESSOR`.

Every value here is a *share*: for each seat a number from 0 to 1, its winning chance
(a draw counts a half) or, where ties are shared (City of Stairs), its expected share of
the win.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Final, Protocol

from stairgames.core.game import Game, State
from stairgames.i18n import N_

INACCURACY: Final = "inaccuracy"
MISTAKE: Final = "mistake"
BLUNDER: Final = "blunder"
MARKS: Final = (INACCURACY, MISTAKE, BLUNDER)
"""The marks of a move that loses, from the least to the worst."""


@dataclasses.dataclass(frozen=True)
class Thresholds:
    """The losses of share (before the move less after it) from which a move is marked.

    >>> Thresholds(0.05, 0.1, 0.2).mark(0.12)
    'mistake'
    """

    inaccuracy: float
    mistake: float
    blunder: float

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy <= self.mistake <= self.blunder <= 1:
            raise ValueError(f"thresholds must rise within (0, 1]: {self}")

    def mark(self, loss: float) -> str | None:
        """The mark of a move losing ``loss`` (``None``: below every threshold)."""
        if loss >= self.blunder:
            return BLUNDER
        if loss >= self.mistake:
            return MISTAKE
        if loss >= self.inaccuracy:
            return INACCURACY
        return None


class ExactValues(Protocol):
    """A game's exact values for the positions of one game (its options)."""

    def action_values(
        self, state: State, *, nodes: int | None, deadline: float | None
    ) -> dict[int, list[float]]:
        """The legal actions of ``state`` (a decision, not a chance node) proven within
        ``nodes`` positions or by ``deadline`` (a :func:`time.perf_counter` time; either
        may be ``None``, not both), each with every seat's share under perfect play
        (expected over the chance to come). It may stop at the first action proven to give
        the seat to move a share of 1; a solved table may ignore the budget."""
        ...


ExactFactory = Callable[[Game], ExactValues]
"""``exact(game)``: the exact values of ``game`` (its options).

:raises StairgamesError: nothing is exact for these options (the review then searches)."""

Settled = Callable[[State], list[float] | None]
"""``settled(state)``: every seat's share of ``state`` where it needs no search (the game
is over, or what is left is decided), else ``None``. It reads the whole state: the
review calls it on true states of finished games and on a seat's determinisations only."""


def scaled_shares(state: State) -> list[float] | None:
    """The default :data:`Settled`: at the end, the returns scaled from the game's utility
    range to 0-1 (a win 1, a loss 0, a draw a half in a two-player game); ``None`` before."""
    if not state.is_terminal():
        return None
    info = state.get_game().info()
    span = (info.max_utility - info.min_utility) or 1.0
    return [(value - info.min_utility) / span for value in state.returns()]


@dataclasses.dataclass(frozen=True)
class Assessor:
    """What a game offers the review; every field has a default."""

    thresholds: Thresholds = Thresholds(0.05, 0.10, 0.20)
    """From which loss of share a move is an inaccuracy, a mistake, a blunder."""
    exact: ExactFactory | None = None
    """The game's exact values (solved tables, endgame solvers), for the option sets it
    has them; ``None``: none."""
    settled: Settled = scaled_shares
    """Every seat's share of a state that needs no search; also where the review's
    search ends a playout."""
    measure: str = N_("winning chance")
    """What a share is called for players (an English message id)."""
    exploration: float = 1.0
    """The UCB exploration constant of the review's search."""


DEFAULT_ASSESSOR: Final = Assessor()
"""The assessor of a game that declares none: search alone, the default thresholds."""


__all__ = [
    "BLUNDER",
    "DEFAULT_ASSESSOR",
    "INACCURACY",
    "MARKS",
    "MISTAKE",
    "Assessor",
    "ExactFactory",
    "ExactValues",
    "Settled",
    "Thresholds",
    "scaled_shares",
]
