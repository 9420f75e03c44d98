"""Tic-tac-toe on the shared protocol: the game, its options and its state."""

from __future__ import annotations

import dataclasses
from typing import Literal, Self

from stairgames.core.game import TERMINAL, Game, GameInfo, Outcome, State
from stairgames.core.options import option
from tests.tictactoe import notation, position, rules


@dataclasses.dataclass(frozen=True)
class TicTacToeOptions:
    """Tic-tac-toe's options: who starts, and misère (three in a row loses). Their
    labels are message ids of no catalog but "Who starts", which the shared catalog
    translates (a test game's words are not extracted)."""

    opening: Literal["X", "O"] = option("X", label="Who starts", summary="{value} starts")
    """The mark that moves first."""
    misere: bool = option(False, label="Misère (three in a row loses)", summary="misère")
    """Three in a row loses instead of winning."""


class TicTacToeGame(Game):
    """Two players, X and O, on a 3×3 board."""

    name = "tictactoe"

    def __init__(self, options: TicTacToeOptions | None = None) -> None:
        super().__init__(options or TicTacToeOptions())

    def info(self) -> GameInfo:
        return GameInfo(
            name=self.name,
            title="Tic-tac-toe",
            num_players=2,
            min_players=2,
            max_players=2,
            chance=False,
            hidden_information=False,
            num_distinct_actions=rules.SIZE * rules.SIZE,
            max_chance_outcomes=0,
            max_game_length=rules.SIZE * rules.SIZE,
            min_utility=-1.0,
            max_utility=1.0,
            zero_sum=True,
            seat_names=rules.MARKS,
        )

    def new_initial_state(self) -> TicTacToeState:
        return TicTacToeState(self, rules.EMPTY_BOARD)

    def state_from_position(self, text: str) -> TicTacToeState:
        return TicTacToeState(self, position.parse_position(text))


class TicTacToeState(State):
    """A board and, from its counts, the mover."""

    _notation_depends_on_state = False

    def __init__(self, game: TicTacToeGame, board: rules.Board) -> None:
        super().__init__(game)
        self.board = board
        options: TicTacToeOptions = game.options
        self._first = rules.MARKS.index(options.opening)
        self._misere = options.misere

    def _current_player(self) -> int:
        return TERMINAL if rules.is_over(self.board) else rules.to_move(self.board, self._first)

    def _legal_actions(self) -> list[int]:
        return rules.empty_cells(self.board)

    def _apply_action(self, action: int) -> None:
        self.board = rules.place(self.board, action, self._first)

    def _action_to_string(self, action: int) -> str:
        return notation.cell_name(action)

    def _action_from_text(self, normalised: str) -> int | None:
        return notation.parse_cell(normalised)

    def _returns(self) -> list[float]:
        mark = rules.winner(self.board)
        if mark is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self._winner(mark) == 0 else [-1.0, 1.0]

    def _winner(self, mark: str) -> int:
        """The seat that wins when ``mark`` has three in a row (misère: the other)."""
        seat = rules.MARKS.index(mark)
        return 1 - seat if self._misere else seat

    def _copy_into(self, other: Self) -> None:
        other.board = self.board
        other._first, other._misere = self._first, self._misere

    def position(self) -> str:
        return position.format_position(self.board)

    def observation_string(self, player: int) -> str:
        self._check_seat(player)
        return self.position()

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        mark = rules.winner(self.board)
        returns = tuple(self._returns())
        if mark is None:
            return Outcome(returns=returns, reason="a full board: a draw", winners=())
        seat = self._winner(mark)
        return Outcome(returns=returns, reason=f"three {mark} in a row", winners=(seat,))
