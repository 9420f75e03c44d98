"""What a game offers puzzles (``stairgames.puzzles``), as typed data.

A game's registration (:class:`stairgames.core.registry.GameSpec`) may name, in
``puzzles``, a :class:`PuzzleKit` by a lazy ``"module:attribute"`` reference (a
``play/puzzles.py``): the themes a puzzle of the game may have, with their names for
players, the function that finds them in a puzzle's position and solution, and the
options puzzles are made with. A game without a kit has no puzzles (City of Stairs:
its hands are hidden, so no position is seen whole by the solver).

The shared code (:mod:`stairgames.puzzles`) proves the puzzles with the game's exact
means (its assessor) and adds the themes every game shares (:data:`COMMON_THEMES`, from
the length of the proven win); the kit adds what only the game knows.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, Final

from stairgames.core.game import State
from stairgames.i18n import N_

ThemeFinder = Callable[[State, tuple[int, ...]], tuple[str, ...]]
"""``themes(state, solution_actions)``: the game's theme ids of a puzzle that starts at
``state`` (the solver to move) and whose main line is ``solution_actions`` (the solver's
best moves and the defender's replies, alternating, from ``state``)."""

COMMON_THEMES: Final[Mapping[str, str]] = {
    "win_in_one": N_("Win in one"),
    "short_win": N_("Short win"),
    "long_win": N_("Long win"),
}
"""Themes of the length of a proven win in a game without chance, found by the shared
code: the win ends the game on the solver's move (``win_in_one``), within
:data:`SHORT_WIN` plies (``short_win``), or in :data:`LONG_WIN` plies or more
(``long_win``)."""
SHORT_WIN: Final = 5
LONG_WIN: Final = 9


@dataclasses.dataclass(frozen=True)
class PuzzleKit:
    """What a game offers puzzles."""

    names: Mapping[str, str]
    """The game's theme ids, each with its name for players (an English message id)."""
    themes: ThemeFinder
    """The game's themes of a puzzle (ids of :attr:`names`)."""
    option_sets: tuple[dict[str, Any], ...] = ({},)
    """The options the generator's self-play makes puzzles with (each in turn)."""
    about: str = ""
    """What the game's puzzles are, in a sentence for players (an English message id)."""

    def __post_init__(self) -> None:
        shared = set(self.names) & set(COMMON_THEMES)
        if shared:
            raise ValueError(f"theme ids shared with the common themes: {sorted(shared)}")

    def all_names(self) -> dict[str, str]:
        """Every theme id a puzzle of the game may have (the common ones first), each
        with its name."""
        return {**COMMON_THEMES, **self.names}


__all__ = ["COMMON_THEMES", "LONG_WIN", "SHORT_WIN", "PuzzleKit", "ThemeFinder"]
