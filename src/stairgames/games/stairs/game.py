"""Stairs on the shared protocol: seats, the pie rule (S6) and ending by agreement (S7).

Seat 0 is the first player, light at the start; seat 1 the second. With the
pie rule, right after seat 0's first move seat 1 may ``swap``: colours are
exchanged (seat 0 now plays dark) and seat 0 moves next. Seats stay seats;
only the colour each seat plays changes.
"""

from __future__ import annotations

import dataclasses
from typing import Self

from stairgames.core.errors import IllegalMoveError, InvalidPositionError
from stairgames.core.game import TERMINAL, Game, GameInfo, Outcome, State
from stairgames.games.stairs import rules
from stairgames.games.stairs.notation import (
    NUM_ACTIONS,
    PASS,
    SWAP,
    format_action,
    normalise,
    parse_move_text,
)
from stairgames.games.stairs.position import format_position, parse_position
from stairgames.games.stairs.rules import DARK, LIGHT, Board
from stairgames.i18n import N_, Text

MAX_MOVES = 630
"""A move raises one piece by one level; the level sum starts at 36 and is at most
1 + 2 + ... + 36 = 666 (all pieces in one stack), so there are at most 630 moves."""

MAX_GAME_LENGTH = 2 * MAX_MOVES + 1
"""A pass is followed by a move of the other player, so passes never outnumber moves;
one swap at most."""

SEAT_NAMES = ("light", "dark")


@dataclasses.dataclass(frozen=True)
class StairsOptions:
    """Options of Stairs."""

    pie_rule: bool = False
    """S6: after the first move the second player may swap colours."""


class StairsGame(Game):
    name = "stairs"
    options: StairsOptions

    def info(self) -> GameInfo:
        return GameInfo(
            name=self.name,
            title="Stairs",
            num_players=2,
            min_players=2,
            max_players=2,
            chance=False,
            hidden_information=False,
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=0,
            max_game_length=MAX_GAME_LENGTH,
            min_utility=-1.0,
            max_utility=1.0,
            zero_sum=True,
            seat_names=SEAT_NAMES,
        )

    def new_initial_state(self) -> StairsState:
        return StairsState(self, rules.initial_board(), pie_available=self.options.pie_rule)

    def state_from_position(self, text: str) -> StairsState:
        """A state from a position text: seat 0 plays light, and no swap is available."""
        if not isinstance(text, str):
            raise InvalidPositionError(
                message_id=N_("a position is text, got {text!r}"),
                arguments={"text": text},
            )
        return StairsState(self, parse_position(text), pie_available=False)


class StairsState(State):
    """A Stairs game in progress."""

    _game: StairsGame

    def __init__(self, game: StairsGame, board: Board, *, pie_available: bool) -> None:
        super().__init__(game)
        self._board = board
        self._light_seat = 0
        self._swap_pending = False
        self._pie_available = pie_available
        self._agreed = False
        self._steps_cache: list[int] | None = None
        self._player_cache: int | None = None

    # ----- board access -------------------------------------------------------

    @property
    def board(self) -> Board:
        """The board as an immutable value."""
        return self._board

    def colour_of(self, seat: int) -> str:
        """The colour ``seat`` plays now (it changes after a ``swap``).

        :raises ValueError: ``seat`` is not 0 or 1.
        """
        self._check_seat(seat)
        return LIGHT if seat == self._light_seat else DARK

    def seat_name(self, seat: int) -> str:
        """``"light"`` or ``"dark"``: the colour ``seat`` plays now, for people to read."""
        return SEAT_NAMES[0] if self.colour_of(seat) == LIGHT else SEAT_NAMES[1]

    def seat_of(self, colour: str) -> int:
        return self._light_seat if colour == LIGHT else 1 - self._light_seat

    def swapped(self) -> bool:
        """Whether the colours were exchanged by the pie rule."""
        return self._light_seat == 1

    def ended_by_agreement(self) -> bool:
        return self._agreed

    def _lowest_moves(self) -> list[int]:
        """The player to move's legal moves as step codes (= action ids), cached."""
        if self._steps_cache is None:
            self._steps_cache = rules.lowest_steps(self._board, self._board.to_move)
        return self._steps_cache

    # ----- protocol hooks -----------------------------------------------------

    def _current_player(self) -> int:
        if self._player_cache is None:
            self._player_cache = self._compute_current_player()
        return self._player_cache

    def _compute_current_player(self) -> int:
        if self._agreed:
            return TERMINAL
        if self._lowest_moves() or rules.has_move(self._board, rules.opponent(self._board.to_move)):
            return self.seat_of(self._board.to_move)
        return TERMINAL

    def _legal_actions(self) -> list[int]:
        steps = self._lowest_moves()
        if not steps:
            return [PASS]
        if self._swap_pending:
            return [*steps, SWAP]
        return list(steps)

    def _apply_action(self, action: int) -> None:
        first_move = self._pie_available and not self._history
        if action == SWAP:
            self._light_seat = 1 - self._light_seat
        elif action == PASS:
            self._board = rules.pass_turn(self._board)
        else:
            self._board = rules.apply_move(self._board, rules.step_move(action))
        self._swap_pending = first_move
        self._steps_cache = None
        self._player_cache = None

    def _action_to_string(self, action: int) -> str:
        return format_action(action)

    def _normalise_move_text(self, text: str) -> str:
        return normalise(text)

    def _check_move_syntax(self, text: str) -> None:
        parsed = parse_move_text(text)
        if self.is_terminal():
            return
        if parsed == "pass":
            raise IllegalMoveError(
                message_id=N_(
                    "illegal move 'pass': passing is allowed only with no move to make (S4); "
                    "you have {count} legal moves"
                ),
                arguments={"count": len(self._lowest_moves())},
            )
        if parsed == "swap":
            raise IllegalMoveError(
                message_id=N_(
                    "illegal move 'swap': only the second player may swap, right after the "
                    "first move, and only with the pie rule"
                )
            )
        assert isinstance(parsed, rules.Move)
        if not self._lowest_moves():
            raise IllegalMoveError(
                message_id=N_("illegal move {text!r}: you have no move and must pass"),
                arguments={"text": text},
            )
        reason = rules.why_illegal(self._board, self._board.to_move, parsed)
        raise IllegalMoveError(
            message_id=N_("illegal move {text!r}: {reason}"),
            arguments={"text": text, "reason": reason},
        )

    def _returns(self) -> list[float]:
        outcome = self.outcome()
        assert outcome is not None
        return list(outcome.returns)

    def _copy_into(self, other: Self) -> None:
        other._board = self._board
        other._light_seat = self._light_seat
        other._swap_pending = self._swap_pending
        other._pie_available = self._pie_available
        other._agreed = self._agreed
        other._steps_cache = self._steps_cache
        other._player_cache = self._player_cache

    # ----- results ------------------------------------------------------------

    def verdict(self) -> rules.Verdict | None:
        """S5 applied to the board as it stands (useful before the end, too)."""
        return rules.verdict(self._board)

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        verdict = self.verdict()
        assert verdict is not None, "a finished game has a climbed piece"
        winner = self.seat_of(verdict.winner)
        returns = (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
        text = verdict.text()
        if self._agreed:
            text = Text(N_("{result} (game ended by agreement)"), {"result": text})
        return Outcome(
            returns=returns,
            reason=str(text),
            text=text,
            winners=(winner,),
            details={"decision": verdict.decision.value, "height": verdict.height},
        )

    def end_by_agreement(self) -> None:
        """S7: both players agree to stop; the position is scored by S5 as it stands.

        :raises IllegalMoveError: the game is already over, or no piece has climbed yet
            (S5 would have no winner).
        """
        if self.is_terminal():
            raise IllegalMoveError(message_id=N_("the game is already over"))
        if self.verdict() is None:
            raise IllegalMoveError(
                message_id=N_(
                    "cannot end by agreement before any piece has climbed: there is no winner yet"
                )
            )
        self._agreed = True
        self._player_cache = None

    # ----- text forms ---------------------------------------------------------

    def position(self) -> str:
        return format_position(self._board)

    def observation_string(self, player: int) -> str:
        """Stairs has no hidden information: the position and the colour ``player`` plays.

        :raises ValueError: ``player`` is not 0 or 1.
        """
        return f"{self.position()} you:{self.colour_of(player)}"

    def __str__(self) -> str:
        from stairgames.games.stairs.render import render_board

        return render_board(self, colour=False)
