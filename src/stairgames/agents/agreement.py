"""How a computer player answers an offer to end the game by agreement (Stairs S7).

A computer accepts only a result that is no worse for it than the game's value
proven by the game's endgame solver, and declines otherwise (RULINGS S7, our
choice). Accepting the best result the game has (a win) needs no proof; any
other result is accepted only when the solver proves, within its budget, that
playing on from the position (the offerer to move, as after a decline) gives the
computer no more. Without a solver, or when the budget is not enough, it declines.
"""

from __future__ import annotations

from typing import Final

from stairgames.agents.evaluation import find_endgame_solver
from stairgames.core.game import AgreementOffer, State

ANSWER_NODES: Final = 1_000_000
"""The solver's budget for one answer, in positions (about a second compiled; an
answer is not timed, so a budget in positions keeps it repeatable)."""


def answer_offer(view: State, seat: int, offer: AgreementOffer) -> int:
    """``offer.accept`` or ``offer.decline`` for ``seat``, the player to answer in ``view``."""
    best = view.get_game().info().max_utility
    if offer.returns[seat] >= best:
        return offer.accept
    value = proven_value(view.without_agreement())
    if value is not None and offer.returns[seat] >= value[seat]:
        return offer.accept
    return offer.decline


def proven_value(state: State, *, nodes: int = ANSWER_NODES) -> tuple[float, ...] | None:
    """The returns of ``state`` under perfect play, proven by the game's endgame solver
    within ``nodes`` positions, or ``None`` (no solver, or not proven).

    The value is proven when an action is proven to give the player to move the best
    result the game has, or when every legal action is proven.
    """
    if state.is_terminal():
        return tuple(state.returns())
    make_solver = find_endgame_solver(state.get_game().name)
    if make_solver is None:
        return None
    mover = state.current_player()
    proven = make_solver().prove(state, nodes=nodes)
    best = state.get_game().info().max_utility
    winning = [returns for returns in proven.values() if returns[mover] >= best]
    if winning:
        return tuple(winning[0])
    if proven and len(proven) == len(state.legal_actions()):
        outcomes: list[list[float]] = sorted(proven.values(), key=lambda r: r[mover])
        return tuple(outcomes[-1])
    return None
