"""Finding a game's evaluation function, for players that look ahead.

A game offers one through ``GameSpec.evaluate``; where the spec has none yet,
a module ``evaluate`` beside the game's rules with a function ``evaluate(state,
seat)`` is used. Without either, a state is worth its returns when the game is
over and 0 before (the terminal-returns fallback). Values are in [-1, 1].
"""

from __future__ import annotations

import functools
import importlib
import inspect
import random
from collections.abc import Callable
from typing import Protocol, cast

from stairgames.core.game import Game, State
from stairgames.core.registry import Evaluator, get_spec


def terminal_value(state: State, seat: int) -> float:
    """The fallback: the seat's return scaled into [-1, 1] at the end, 0 before."""
    if not state.is_terminal():
        return 0.0
    return scaled_return(state.get_game(), state.returns()[seat])


def scaled_return(game: Game, value: float) -> float:
    """A return mapped from the game's utility range onto [-1, 1]."""
    info = game.info()
    span = info.max_utility - info.min_utility
    if span <= 0:
        return 0.0
    return 2.0 * (value - info.min_utility) / span - 1.0


def _from_evaluate_module(game_name: str, name: str) -> Callable[..., object] | None:
    """The callable ``name`` of the module ``evaluate`` beside the game's rules, if any."""
    package = get_spec(game_name).game_class.__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.evaluate")
    except ModuleNotFoundError:
        return None
    found = getattr(module, name, None)
    return found if callable(found) else None


@functools.cache
def find_evaluator(game_name: str) -> Evaluator | None:
    """The game's own evaluation, or ``None`` when it has none."""
    spec = get_spec(game_name)
    if spec.evaluate is not None:
        return spec.evaluate
    found = _from_evaluate_module(game_name, "evaluate")
    return cast(Evaluator, found) if found is not None else None


Playout = Callable[[State, random.Random], list[float]]
"""``playout(state, rng) -> returns``: a game's own uniformly random playout to the end."""


@functools.cache
def find_playout(game_name: str) -> Playout | None:
    """A game's own playout (``playout`` in its ``evaluate`` module), or ``None``.

    A game may offer one when it can play random games to the end faster than
    through the protocol; it must play the same games as choosing
    ``rng.choice(state.legal_actions())`` (and sampling chance) at every step.
    """
    found = _from_evaluate_module(game_name, "playout")
    return cast(Playout, found) if found is not None else None


class RecordingPlayout(Protocol):
    """A game's own playout that can also list the (seat, action) pairs it plays."""

    def __call__(
        self, state: State, rng: random.Random, record: list[tuple[int, int]] | None = None
    ) -> list[float]: ...


@functools.cache
def find_recording_playout(game_name: str) -> RecordingPlayout | None:
    """The game's own playout when it takes a ``record`` list (for all-moves-as-first)."""
    found = find_playout(game_name)
    if found is None or "record" not in inspect.signature(found).parameters:
        return None
    return cast(RecordingPlayout, found)


class EndgameSolver(Protocol):
    """A game's exact solver for positions near the end (see :func:`find_endgame_solver`)."""

    nodes: int
    """Positions searched by the last :meth:`prove` (for benchmarks)."""

    def prove(
        self, state: State, *, nodes: int | None = None, deadline: float | None = None
    ) -> dict[int, list[float]]:
        """The actions of ``state`` proven within ``nodes`` positions or by ``deadline``,
        each with the returns it leads to under perfect play; it stops at the first
        action proven to win for the seat to move."""
        ...


@functools.cache
def find_endgame_solver(game_name: str) -> Callable[[], EndgameSolver] | None:
    """A game's exact endgame solver factory (``endgame_solver`` in its ``evaluate``
    module), or ``None``. A two-player game without chance or hidden information may
    offer one when it can search the rest of a game to the end faster than a player
    could through the protocol; one solver serves one player through one game, keeping
    what it proved."""
    found = _from_evaluate_module(game_name, "endgame_solver")
    return cast(Callable[[], EndgameSolver], found) if found is not None else None


def evaluator_for(game: Game) -> Evaluator:
    """An evaluation for ``game`` that knows the end: returns when over, heuristic before."""
    heuristic = find_evaluator(game.name)
    if heuristic is None:
        return terminal_value

    def evaluate(state: State, seat: int) -> float:
        if state.is_terminal():
            return scaled_return(state.get_game(), state.returns()[seat])
        return heuristic(state, seat)

    return evaluate
