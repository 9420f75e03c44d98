"""Stairs on the shared protocol: seats, the pie rule (S6) and ending by agreement (S7).

Seat 0 is the first player, light at the start; seat 1 the second. With the
pie rule, right after seat 0's first move seat 1 may ``swap``: colours are
exchanged (seat 0 now plays dark) and seat 0 moves next. Seats stay seats;
only the colour each seat plays changes.

Ending by agreement (S7) is played with actions: the player to move may
``offer`` (once a piece has climbed, and not while it must pass); the other
player then has only ``accept`` (the game ends, scored by S5) and ``decline``
(the offerer moves on, and may not offer again before its move).
"""

from __future__ import annotations

import dataclasses
from typing import Self

from stairgames.core.errors import IllegalMoveError, InvalidOptionError, InvalidPositionError
from stairgames.core.game import TERMINAL, AgreementOffer, Game, GameInfo, Outcome, State
from stairgames.core.options import option
from stairgames.games.stairs import rules
from stairgames.games.stairs.notation import ActionCodes, action_codes, normalise
from stairgames.games.stairs.position import (
    NOTHING_PENDING,
    Pending,
    PositionText,
    format_position,
    parse_position,
)
from stairgames.games.stairs.rules import DARK, LIGHT, Board
from stairgames.i18n import N_, Text


def max_moves(size: int = rules.SIZE) -> int:
    """A move raises one piece by one level; on the 6×6 board the level sum starts at 36
    and is at most 1 + 2 + ... + 36 = 666 (all pieces in one stack), so there are at
    most 630 moves; on a board of n² squares, n²(n² + 1)/2 - n²."""
    squares = size * size
    return squares * (squares + 1) // 2 - squares


def max_turns(size: int = rules.SIZE) -> int:
    """Moves, passes and the swap: a pass is followed by a move of the other player, so
    passes never outnumber moves; one swap at most."""
    return 2 * max_moves(size) + 1


def max_game_length(size: int = rules.SIZE) -> int:
    """Each turn may be preceded by one declined offer (``offer``, ``decline``: after a
    decline the offerer must play before offering again), and one accepted offer ends
    the game."""
    return 3 * max_turns(size) + 2


MAX_MOVES = max_moves()
"""The most moves of a game on the 6×6 board: 630."""

MAX_TURNS = max_turns()

MAX_GAME_LENGTH = max_game_length()

SEAT_NAMES = ("light", "dark")


@dataclasses.dataclass(frozen=True)
class StairsOptions:
    """Options of Stairs."""

    pie_rule: bool = option(
        False,
        label=N_("Pie rule (the second player may swap colours)"),
        help=N_("After the first move, the second player may swap colours instead of moving."),
        summary=N_("pie rule: {value}"),
    )
    """S6: after the first move the second player may swap colours."""
    agreement: bool = option(
        True,
        label=N_("Offer to end by agreement"),
        help=N_("Players may offer to end the game; off, the game has moves of play only."),
        summary=N_("offers to end: {value}"),
    )
    """S7: players may offer to end the game by agreement (``offer``, ``accept``,
    ``decline``). Off, the game has moves of play only (research use, fast search)."""
    size: int = option(
        rules.SIZE,
        label=N_("Board size (3 to 8 squares a side)"),
        summary=N_("{value}×{value} board"),
        minimum=rules.MIN_SIZE,
        maximum=rules.MAX_SIZE,
    )
    """S8: squares a side, from 3 to 8 (the rulebook's board is 6×6): the same
    checkered start with one piece a square, light first, every other rule unchanged."""

    def __post_init__(self) -> None:
        if (
            isinstance(self.size, bool)
            or not isinstance(self.size, int)
            or not rules.MIN_SIZE <= self.size <= rules.MAX_SIZE
        ):
            raise InvalidOptionError(
                message_id=N_(
                    "the Stairs board is {minimum} to {maximum} squares a side, got size={size}"
                ),
                arguments={"minimum": rules.MIN_SIZE, "maximum": rules.MAX_SIZE, "size": self.size},
            )


class StairsGame(Game):
    name = "stairs"
    options: StairsOptions

    @property
    def size(self) -> int:
        """Squares a side of this game's board (S8)."""
        return self.options.size

    @property
    def codes(self) -> ActionCodes:
        """The action ids and texts of this game's board size."""
        return action_codes(self.options.size)

    def info(self) -> GameInfo:
        return GameInfo(
            name=self.name,
            title="Stairs",
            num_players=2,
            min_players=2,
            max_players=2,
            chance=False,
            hidden_information=False,
            num_distinct_actions=self.codes.num_actions,
            max_chance_outcomes=0,
            max_game_length=max_game_length(self.options.size),
            min_utility=-1.0,
            max_utility=1.0,
            zero_sum=True,
            seat_names=SEAT_NAMES,
        )

    def new_initial_state(self) -> StairsState:
        return StairsState(self, rules.initial_board(self.options.size))

    def state_from_position(self, text: str) -> StairsState:
        """A state from a position text (see :mod:`.position`), checked against the
        options: a swap needs the pie rule, an offer needs ending by agreement.

        :raises InvalidPositionError: the text is malformed, impossible, or impossible
            with these options.
        """
        if not isinstance(text, str):
            raise InvalidPositionError(
                message_id=N_("a position is text, got {text!r}"),
                arguments={"text": text},
            )
        parsed = parse_position(text, self.options.size)
        self._check_options_allow(text, parsed)
        return StairsState(self, parsed.board, light_seat=parsed.light_seat, pending=parsed.pending)

    def _check_options_allow(self, text: str, parsed: PositionText) -> None:
        if not self.options.pie_rule and (parsed.light_seat == 1 or parsed.pending.swap):
            raise InvalidPositionError(
                message_id=N_(
                    "position {text!r} has a swap, but this game is played without the pie rule"
                ),
                arguments={"text": text},
            )
        if not self.options.agreement and parsed.pending.agreement is not None:
            raise InvalidPositionError(
                message_id=N_(
                    "position {text!r} has an offer, but this game is played without agreement"
                ),
                arguments={"text": text},
            )


class StairsState(State):
    """A Stairs game in progress."""

    _game: StairsGame
    _notation_depends_on_state = False

    def __init__(
        self,
        game: StairsGame,
        board: Board,
        *,
        light_seat: int = 0,
        pending: Pending = NOTHING_PENDING,
    ) -> None:
        super().__init__(game)
        self._codes = game.codes
        self._board = board
        self._light_seat = light_seat
        self._swap_pending = pending.swap
        self._agreement = pending.agreement
        self._steps_cache: tuple[int, ...] | None = None
        self._actions_cache: tuple[int, ...] | None = None
        self._peak: int | None = None
        """The board's greatest height, once known (kept up to date by each move)."""
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

    def swap_pending(self) -> bool:
        """Whether the second player may still ``swap`` (S6, right after the first move)."""
        return self._swap_pending

    def agreement_declined(self) -> bool:
        """Whether an offer was declined this turn (the offerer may not offer again
        before its move, S7)."""
        return self._agreement == "declined"

    def ended_by_agreement(self) -> bool:
        """Whether the game ended by an accepted offer (S7)."""
        return self._agreement == "agreed"

    def offer_pending(self) -> bool:
        """Whether an offer to end by agreement awaits the answer of the player to act."""
        return self._agreement == "offer"

    def _may_offer(self) -> bool:
        """S7: an offer needs the option, a climbed piece (S5 names a winner), a move to
        make (a player who must pass just passes), and no offer declined this turn."""
        return (
            self._game.options.agreement
            and self._agreement is None
            and self._board.climbed()
            and bool(self._lowest_moves())
        )

    def _lowest_moves(self) -> tuple[int, ...]:
        """The player to move's legal moves as step codes (= action ids), cached."""
        steps = self._steps_cache
        if steps is None:
            board = self._board
            steps = self._steps_cache = tuple(rules.lowest_steps(board, board.to_move))
        return steps

    # ----- protocol hooks -----------------------------------------------------

    def _current_player(self) -> int:
        player = self._player_cache
        if player is None:
            player = self._player_cache = self._compute_current_player()
        return player

    def _compute_current_player(self) -> int:
        if self._agreement == "agreed":
            return TERMINAL
        to_move = self._board.to_move
        mover = self._light_seat if to_move == LIGHT else 1 - self._light_seat
        if self._agreement == "offer":
            return 1 - mover
        if self._lowest_moves() or rules.has_move(self._board, rules.opponent(to_move)):
            return mover
        return TERMINAL

    def _legal_actions(self) -> list[int]:
        return list(self._legal_action_ids())

    def _legal_action_ids(self) -> tuple[int, ...]:
        """The legal actions, computed once per state (immutable: clones share them)."""
        actions = self._actions_cache
        if actions is None:
            actions = self._actions_cache = self._compute_legal_actions()
        return actions

    def _compute_legal_actions(self) -> tuple[int, ...]:
        codes = self._codes
        if self._agreement == "offer":
            return (codes.accept, codes.decline)
        steps = self._lowest_moves()
        if not steps:
            return (codes.pass_action,)  # S4: a player with no move passes
        if self._swap_pending:
            steps += (codes.swap,)
        if self._may_offer():
            steps += (codes.offer,)
        return steps

    def _apply_action(self, action: int) -> None:
        codes = self._codes
        if action < codes.pass_action:
            self._apply_turn(action)
        elif action == codes.offer:
            self._agreement = "offer"
        elif action == codes.decline:
            self._agreement = "declined"
        elif action == codes.accept:
            self._agreement = "agreed"
        else:
            self._apply_turn(action)
        self._player_cache = None
        self._actions_cache = None

    def _apply_turn(self, action: int) -> None:
        """A move, a pass or the swap: the turn passes, and the offer state is cleared."""
        board = self._board
        # S6: with the pie rule, a swap may follow the game's first move (no piece has
        # climbed before it)
        first_move = self._game.options.pie_rule and not board.climbed()
        codes = self._codes
        if action < codes.pass_action:
            source, direction = divmod(action, rules.NUM_DIRECTIONS)
            target = codes.neighbours[source][direction]
            peak = self._peak
            if peak is None:
                peak = board.max_height()
            board = self._board = rules.move_piece(board, source, target, peak)
            height = len(board.stacks[target])
            self._peak = height if height > peak else peak
        elif action == codes.swap:
            self._light_seat = 1 - self._light_seat
        else:
            self._board = rules.pass_turn(board)
        self._swap_pending = first_move
        self._agreement = None
        self._steps_cache = None

    def _action_to_string(self, action: int) -> str:
        return self._codes.format_action(action)

    def _normalise_move_text(self, text: str) -> str:
        return normalise(text)

    def _action_from_text(self, normalised: str) -> int | None:
        return self._codes.action_from_text(normalised)

    def _check_move_syntax(self, text: str) -> None:
        parsed = self._codes.parse_move_text(text)
        if self.is_terminal():
            return
        if isinstance(parsed, str):
            raise IllegalMoveError(
                message_id=N_("illegal move {text!r}: {reason}"),
                arguments={"text": parsed, "reason": self._why_word_illegal(parsed)},
            )
        if self._agreement == "offer":
            raise IllegalMoveError(
                message_id=N_(
                    "illegal move {text!r}: answer the offer to end the game first "
                    "(accept or decline)"
                ),
                arguments={"text": text},
            )
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

    def _why_word_illegal(self, word: str) -> Text:
        """Why ``pass``, ``swap``, ``offer``, ``accept`` or ``decline`` is illegal here."""
        if self._agreement == "offer":
            return Text(N_("answer the offer to end the game first (accept or decline)"))
        if word == "pass":
            return Text(
                N_(
                    "passing is allowed only with no move to make (S4); "
                    "you have {count} legal moves"
                ),
                {"count": len(self._lowest_moves())},
            )
        if word == "swap":
            return Text(
                N_(
                    "only the second player may swap, right after the first move, and only "
                    "with the pie rule"
                )
            )
        if word in ("accept", "decline"):
            return Text(N_("there is no offer to answer"))
        return self._why_no_offer()

    def _why_no_offer(self) -> Text:
        if not self._game.options.agreement:
            return Text(N_("this game is played without ending by agreement"))
        if self._agreement == "declined":
            return Text(N_("your offer was declined; make your move before offering again"))
        if not self._board.climbed():
            return Text(N_("no piece has climbed yet, so there is no winner to agree on (S5)"))
        return Text(N_("you have no move and must pass; offer on a turn with a move to make"))

    def _returns(self) -> list[float]:
        outcome = self.outcome()
        assert outcome is not None
        return list(outcome.returns)

    def _copy_into(self, other: Self) -> None:
        other._codes = self._codes
        other._board = self._board
        other._light_seat = self._light_seat
        other._swap_pending = self._swap_pending
        other._agreement = self._agreement
        other._steps_cache = self._steps_cache
        other._actions_cache = self._actions_cache
        other._peak = self._peak
        other._player_cache = self._player_cache

    # ----- agreement (S7) -----------------------------------------------------

    def agreement_offer(self) -> AgreementOffer | None:
        """The offer awaiting an answer: accepting ends the game scored by S5 now."""
        if self._agreement != "offer":
            return None
        verdict = self.verdict()
        assert verdict is not None, "an offer needs a climbed piece"
        return AgreementOffer(
            accept=self._codes.accept,
            decline=self._codes.decline,
            returns=self._returns_for(self.seat_of(verdict.winner)),
        )

    def offer_action(self) -> int:
        """``offer`` when the player to move may offer now (S7).

        :raises IllegalMoveError: why no offer may be made now.
        """
        if self._codes.offer in self.legal_actions():
            return self._codes.offer
        reason = self._why_word_illegal("offer") if not self.is_terminal() else None
        if reason is None:
            raise IllegalMoveError(message_id=N_("the game is already over"))
        raise IllegalMoveError(
            message_id=N_("illegal move {text!r}: {reason}"),
            arguments={"text": "offer", "reason": reason},
        )

    def without_agreement(self) -> StairsState:
        """This position in the same game played without agreement (``agreement=False``):
        what players search. A pending offer is dropped, as if declined."""
        game = StairsGame(dataclasses.replace(self._game.options, agreement=False))
        other = StairsState(
            game, self._board, light_seat=self._light_seat, pending=Pending(self._swap_pending)
        )
        codes = self._codes
        agreement_actions = (codes.offer, codes.accept, codes.decline)
        other._history = [a for a in self._history if a not in agreement_actions]
        return other

    @staticmethod
    def _returns_for(winner: int) -> tuple[float, float]:
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

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
        returns = self._returns_for(winner)
        text = verdict.text()
        if self.ended_by_agreement():
            text = Text(N_("{result} (game ended by agreement)"), {"result": text})
        return Outcome(
            returns=returns,
            reason=str(text),
            text=text,
            winners=(winner,),
            details={"decision": verdict.decision.value, "height": verdict.height},
        )

    # ----- text forms ---------------------------------------------------------

    def position(self) -> str:
        pending = Pending(self._swap_pending, self._agreement)
        return format_position(PositionText(self._board, self._light_seat, pending))

    def observation_string(self, player: int) -> str:
        """Stairs has no hidden information: the position and the colour ``player`` plays.

        :raises ValueError: ``player`` is not 0 or 1.
        """
        return f"{self.position()} you:{self.colour_of(player)}"
