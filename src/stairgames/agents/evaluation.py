"""A game's evaluation and its other hooks for players that look ahead.

A game offers them as typed fields of its registration (``GameSpec.player_hooks``,
:class:`stairgames.core.hooks.PlayerHooks`), loaded on a player's first need by
:func:`stairgames.core.registry.player_hooks`; the functions here read those fields.
Without an evaluation, a state is worth its returns when the game is over and 0
before (the terminal-returns fallback). Values are in [-1, 1].
"""

from __future__ import annotations

from collections.abc import Callable

from stairgames.core.game import Game, State
from stairgames.core.hooks import EndgameSolver, Evaluator, Playout
from stairgames.core.registry import player_hooks

__all__ = [
    "EndgameSolver",
    "Evaluator",
    "Playout",
    "book_move",
    "evaluator_for",
    "find_endgame_solver",
    "find_evaluator",
    "find_opening",
    "find_playout",
    "scaled_return",
    "terminal_value",
]


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


def find_evaluator(game_name: str) -> Evaluator | None:
    """The game's own evaluation (``PlayerHooks.evaluate``), or ``None`` when it has none."""
    return player_hooks(game_name).evaluate


def find_playout(game_name: str) -> Playout | None:
    """A game's own playout (``PlayerHooks.playout``), or ``None``.

    A game may offer one when it can play random games to the end faster than
    through the protocol; it must play the games of choosing
    ``rng.choice(state.legal_actions())`` (and sampling chance) at every step with
    the same probabilities (:data:`stairgames.core.hooks.Playout`).
    """
    return player_hooks(game_name).playout


def find_endgame_solver(game_name: str) -> Callable[[], EndgameSolver] | None:
    """A game's exact endgame solver factory (``PlayerHooks.endgame_solver``), or ``None``.

    A two-player game without chance or hidden information may offer one when it can
    search the rest of a game to the end faster than a player could through the
    protocol; one solver serves one player through one game, keeping what it proved."""
    return player_hooks(game_name).endgame_solver


def find_opening(game_name: str) -> Callable[[State], int | None] | None:
    """A game's opening book (``PlayerHooks.opening``: its move for a state it covers,
    ``None`` elsewhere), or ``None`` when the game has none."""
    return player_hooks(game_name).opening


def book_move(state: State, legal: list[int]) -> int | None:
    """The move of the game's opening book for ``state`` where the book covers it and
    the move is among ``legal``; else ``None`` (also for a game without a book)."""
    opening = find_opening(state.get_game().name)
    move = None if opening is None else opening(state)
    return move if move is not None and move in legal else None


def evaluator_for(game: Game, *, estimate: bool = False) -> Evaluator:
    """An evaluation for ``game`` that knows the end: returns when over, heuristic before.

    ``estimate``: the game's evaluation that runs no compiled code, where its own would
    run some for these options (``PlayerHooks.estimate``: what players play with while
    that code is compiled in the background)."""
    heuristic = find_evaluator(game.name)
    hook = player_hooks(game.name).estimate if estimate else None
    quick = hook(game) if hook is not None else None
    if quick is not None:
        heuristic = quick
    if heuristic is None:
        return terminal_value

    def evaluate(state: State, seat: int) -> float:
        if state.is_terminal():
            return scaled_return(state.get_game(), state.returns()[seat])
        return heuristic(state, seat)

    return evaluate
