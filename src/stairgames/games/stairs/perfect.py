"""Perfect play of Stairs on the solved boards (S8): the ``perfect_play`` hook.

3×3 and 4×4 are solved from the start in a fraction of a second by the compiled
exact search (:mod:`.anysize`), so their values are solved on demand, move by move,
with one table of proven positions kept for the whole game (no table ships with the
package). Larger boards are refused: 5×5 is solved from the start (every first move,
40 processor minutes, ``docs/analysis.md``), but valuing every move of a position in
its opening takes the search minutes a move; 6×6 and larger are out of its reach.

Every legal action is valued through the engine, so the pie rule (S6: ``swap``) and
ending by agreement (S7: ``offer``, ``accept``, ``decline``) get their true values
too: after an action the position is solved, and the seat that wins follows from the
colour each seat plays (:meth:`StairsState.seat_of`); a state where ``swap`` or the
answer to an offer is legal is valued by the best of its actions for the seat to act.
An offer is worth what playing on is worth to the offerer, or less: the other player
accepts only when the position as it stands wins for it, and declines otherwise.
"""

from __future__ import annotations

from typing import Final

from stairgames.core.errors import InvalidOptionError
from stairgames.core.game import Game, State
from stairgames.games.stairs.anysize import BoardSolver
from stairgames.games.stairs.game import StairsGame, StairsState
from stairgames.i18n import N_

SOLVED_SIZES: Final = (3, 4)
"""The board sizes the ``perfect`` player plays (solved on demand)."""


class StairsPerfectPlay:
    """The solved values of one Stairs game (its options); see the module."""

    def __init__(self, game: StairsGame) -> None:
        self.game = game
        self.solver = BoardSolver(game.options.size)

    def action_values(self, state: State) -> dict[int, list[float]]:
        """Each legal action of ``state`` with the returns it leads to under perfect play."""
        stairs = self._own(state)
        return {action: self.value(_child(stairs, action)) for action in stairs.legal_actions()}

    def value(self, state: StairsState) -> list[float]:
        """The returns of ``state`` under perfect play."""
        if state.is_terminal():
            return state.returns()
        if state.swap_pending() or state.offer_pending():
            # the seat to act takes its best action: swap or not, accept or decline
            seat = state.current_player()
            values = self.action_values(state)
            return max(values.values(), key=lambda returns: returns[seat])
        # an offer of the player to move (S7) is worth no more than playing on: the
        # other player accepts only a result that wins for it, so it is left out
        board = state.board
        mover_wins = self.solver.wins(board)
        winning_colour = board.to_move if mover_wins else _other(board.to_move)
        return _returns(state.seat_of(winning_colour))

    def principal_variation(self, state: State, *, limit: int = 200) -> list[int]:
        """A perfect game from ``state``: at each turn the first legal action (in id
        order, so moves before an offer) that keeps the best value for the seat to act."""
        current = self._own(state).clone()
        line: list[int] = []
        while not current.is_terminal() and len(line) < limit:
            seat = current.current_player()
            values = self.action_values(current)
            best = max(returns[seat] for returns in values.values())
            action = next(action for action, returns in values.items() if returns[seat] == best)
            current.apply_action(action)
            line.append(action)
        return line

    def _own(self, state: State) -> StairsState:
        """``state`` as a Stairs state of this board size (any options: players search
        the same position without agreement, :meth:`State.without_agreement`)."""
        if not isinstance(state, StairsState) or state.board.size != self.solver.size:
            raise InvalidOptionError(
                message_id=N_("the perfect play of {game} was given a state of {other}"),
                arguments={"game": repr(self.game), "other": repr(state.get_game())},
            )
        return state


def perfect_play(game: Game) -> StairsPerfectPlay:
    """The ``perfect_play`` hook of Stairs (:class:`stairgames.core.hooks.PerfectPlay`).

    :raises InvalidOptionError: a board size that is not solved.
    """
    assert isinstance(game, StairsGame)
    size = game.options.size
    if size not in SOLVED_SIZES:
        raise InvalidOptionError(
            message_id=N_(
                "Stairs is solved for perfect play on 3×3 and 4×4 boards only, not "
                "{size}×{size}: on 5×5 valuing every move of an opening position takes the "
                "exact search minutes a move, and larger boards are out of its reach "
                "(docs/analysis.md)"
            ),
            arguments={"size": size},
        )
    return StairsPerfectPlay(game)


def _child(state: StairsState, action: int) -> StairsState:
    child = state.clone()
    child.apply_action(action)
    return child


def _other(colour: str) -> str:
    return "D" if colour == "L" else "L"


def _returns(winner: int) -> list[float]:
    return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]


__all__ = ["SOLVED_SIZES", "StairsPerfectPlay", "perfect_play"]
