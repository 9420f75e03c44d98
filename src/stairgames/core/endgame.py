"""Proving a position's actions one by one with an exact solver, cheapest first.

Shared by the games that offer an exact endgame solver (the ``endgame_solver`` hook
of their ``evaluate`` module). :func:`prove_actions` gives every action of the
root a small budget, then four times as much to those still open, and so on, so
that within any budget the actions that are quick to decide are decided, and a
move that loses by force is found even where the whole position is out of reach.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final

import numpy.typing as npt

FIRST_BUDGET: Final = 256
"""Positions each root action may search in the first pass (four times as many in
each later pass)."""

WIN: Final = 1
"""The best result an action can have for the player making it."""


def prove_actions(
    order: list[int],
    result_after: Callable[[int, int], int | None],
    *,
    searched: Callable[[], int],
    nodes: int | None,
    deadline: float | None,
) -> dict[int, int]:
    """The actions of ``order`` proven, each with its exact result for the player
    making it (1 win, 0 draw, -1 loss).

    ``result_after(action, budget)`` searches at most ``budget`` positions and gives
    ``None`` when that was not enough; ``searched()`` says how many positions all
    searches so far took. Actions are tried in ``order`` (put the most promising
    first) in passes, until one wins (it is the last one added), all are proven, or
    ``nodes`` positions in all or the ``deadline`` (a :func:`time.perf_counter`
    time) are reached.
    """
    proven: dict[int, int] = {}
    per_action = FIRST_BUDGET
    while len(proven) < len(order):
        for action in order:
            if action in proven:
                continue
            budget = per_action if nodes is None else min(per_action, nodes - searched())
            if budget <= 0:
                return proven
            result = result_after(action, budget)
            if result is None:
                if deadline is not None and time.perf_counter() > deadline:
                    return proven
                continue
            proven[action] = result
            if result == WIN:
                return proven
        per_action *= 4
    return proven


INITIAL_SPEED: Final = 500_000
"""Positions a second assumed before a search has measured the speed (below what the
compiled solvers manage on a slow machine, so that a first deadline is kept)."""


class Clock:
    """A deadline turned into a node budget, for compiled searches (which cannot read
    the clock) at the speed measured in this solver's earlier searches."""

    def __init__(self) -> None:
        self.speed: float = INITIAL_SPEED
        """Positions a second, followed over the searches long enough to tell."""

    def budget(self, nodes: int | None, deadline: float | None, now: float) -> int:
        """The positions a search starting ``now`` may take: at most ``nodes``, and no
        more than fit before ``deadline`` (``None``: no limit of that kind)."""
        limit = (1 << 62) if nodes is None else nodes
        if deadline is not None:
            limit = min(limit, max(0, int((deadline - now) * self.speed)))
        return limit

    def measure(self, nodes: int, seconds: float) -> None:
        """Take in a search of ``nodes`` positions that took ``seconds``."""
        if nodes >= 2000 and seconds > 0:
            self.speed = 0.7 * self.speed + 0.3 * nodes / seconds


def commit_memory(*tables: npt.NDArray[Any]) -> None:
    """Write every page of ``tables`` once, their contents kept, so that the memory is
    the process's before a search runs: numpy hands out zeroed memory lazily, and the
    first search on a fresh table would pay for every page it touches (milliseconds a
    player's first move of a game cannot spare)."""
    for table in tables:
        table += 0
