"""Perfect play of Stairs on the solved boards (S8): the ``perfect_play`` hook.

3×3 and 4×4 are solved from the start in a fraction of a second by the compiled
exact search (:mod:`.anysize`), so their values are solved on demand, move by move,
with one table of proven positions kept for the whole game (no table ships with the
package). 5×5 is solved from the start by ``stairgames solve stairs --size 5
--try-larger`` (every first move, some 40 processor minutes, ``docs/analysis.md``),
which keeps the value of each first move in ``solved_dir()/stairs/stairs-5.json``:
once that record is there the player reads the first moves' values from it and
solves later positions on demand, with a table of 670 MB (minutes a move in the
opening, where a reply's proof runs to hundreds of millions of positions; seconds from
the middle game on). Without the record 5×5 is refused with the command that makes
it; 6×6 and larger are out of the search's reach.

Every legal action is valued through the engine, so the pie rule (S6: ``swap``) and
ending by agreement (S7: ``offer``, ``accept``, ``decline``) get their true values
too: after an action the position is solved, and the seat that wins follows from the
colour each seat plays (:meth:`StairsState.seat_of`); a state where ``swap`` or the
answer to an offer is legal is valued by the best of its actions for the seat to act.
An offer is worth what playing on is worth to the offerer, or less: the other player
accepts only when the position as it stands wins for it, and declines otherwise.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from stairgames.core.errors import InvalidOptionError
from stairgames.core.game import Game, State
from stairgames.core.solvers import solved_dir
from stairgames.games.stairs import rules
from stairgames.games.stairs.game import StairsGame, StairsState
from stairgames.games.stairs.research.anysize import BoardSolver, part_table_bits
from stairgames.games.stairs.rules import Board
from stairgames.i18n import N_

SOLVED_SIZES: Final = (3, 4)
"""The board sizes the ``perfect`` player plays (solved on demand)."""
RECORDED_SIZES: Final = (5,)
"""The board sizes it plays once ``stairgames solve stairs`` has recorded their first
moves' values."""


class StairsPerfectPlay:
    """The solved values of one Stairs game (its options); see the module.

    ``opening``: the colour that wins the position after each first move, where a
    solve record gives it (the positions are not searched again); ``solver``: the search
    to use (default: one with the table of :func:`part_table_bits`)."""

    def __init__(
        self,
        game: StairsGame,
        opening: Mapping[Board, str] | None = None,
        *,
        solver: BoardSolver | None = None,
    ) -> None:
        self.game = game
        size = game.options.size
        self.solver = solver or BoardSolver(size, table_bits=part_table_bits(size))
        self.opening: Mapping[Board, str] = opening or {}

    def action_values(self, state: State) -> dict[int, list[float]]:
        """Each legal action of ``state`` with the returns it leads to under perfect play."""
        stairs = self._own(state)
        return {action: self.value(_child(stairs, action)) for action in stairs.legal_actions()}

    def value(self, state: StairsState) -> list[float]:
        """The returns of ``state`` under perfect play."""
        if state.is_terminal():
            return state.returns()
        if state.swap_pending() and state.board in self.opening:
            # the second player takes the colour that wins (S6; Stairs has no draws)
            return _returns(state.current_player())
        if state.swap_pending() or state.offer_pending():
            # the seat to act takes its best action: swap or not, accept or decline
            seat = state.current_player()
            values = self.action_values(state)
            return max(values.values(), key=lambda returns: returns[seat])
        # an offer of the player to move (S7) is worth no more than playing on: the
        # other player accepts only a result that wins for it, so it is left out
        board = state.board
        winning_colour = self.opening.get(board)
        if winning_colour is None:
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
    if size in RECORDED_SIZES:
        return StairsPerfectPlay(game, recorded_opening(size))
    if size not in SOLVED_SIZES:
        raise InvalidOptionError(
            message_id=N_(
                "Stairs is solved for perfect play on boards of 3×3 to 5×5 only, not "
                "{size}×{size}: larger boards are out of the exact search's reach "
                "(docs/analysis.md)"
            ),
            arguments={"size": size},
        )
    return StairsPerfectPlay(game)


def record_path(size: int) -> Path:
    """Where ``stairgames solve stairs --size SIZE`` keeps its result by default."""
    return solved_dir() / "stairs" / f"stairs-{size}.json"


def recorded_opening(size: int) -> dict[Board, str]:
    """The colour that wins after each first move of light, from the solve record.

    :raises InvalidOptionError: no record (the message names the command that makes
        it), or one that does not give every first move a winner.
    """
    path = record_path(size)
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        winners = {move: winner for move, winner in record["first_moves"]}
    except FileNotFoundError as error:
        raise InvalidOptionError(
            message_id=N_(
                "perfect play of {size}×{size} Stairs reads the value of each first move "
                "from {path}, which is not there yet; make it once (some 40 minutes of one "
                "core) with `stairgames solve stairs --size {size} --try-larger --jobs N`"
            ),
            arguments={"size": size, "path": str(path)},
        ) from error
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise _not_a_record(path, str(error)) from error
    start = rules.initial_board(size)
    opening = {}
    for move in rules.legal_moves(start, rules.LIGHT):
        winner = winners.get(str(move))
        if winner not in (rules.LIGHT, rules.DARK) or record.get("pie_rule"):
            raise _not_a_record(path, f"no winner after {move}")
        opening[rules.apply_move(start, move)] = winner
    return opening


def _not_a_record(path: Path, error: str) -> InvalidOptionError:
    return InvalidOptionError(
        message_id=N_("{path} is not a Stairs solve record ({error}); solve again"),
        arguments={"path": str(path), "error": error},
    )


def _child(state: StairsState, action: int) -> StairsState:
    child = state.clone()
    child.apply_action(action)
    return child


def _other(colour: str) -> str:
    return "D" if colour == "L" else "L"


def _returns(winner: int) -> list[float]:
    return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]


__all__ = [
    "RECORDED_SIZES",
    "SOLVED_SIZES",
    "StairsPerfectPlay",
    "perfect_play",
    "record_path",
    "recorded_opening",
]
