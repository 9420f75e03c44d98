"""27 on the shared protocol: seats, variants, passing (T4), scores (T5) and the length bound.

Seat 0 is the first player and plays white, starting on field 0; seat 1 plays
black. Positions never repeat in any variant (every move raises
:func:`rules.progress`; see ``docs/rules/twenty_seven.md``), so the game needs no
repetition rule, and the same fact bounds the length of a game.
"""

from __future__ import annotations

import dataclasses
from math import comb
from typing import Final, Literal, Self

from stairgames.core.errors import IllegalMoveError, InvalidOptionError
from stairgames.core.game import TERMINAL, Game, GameInfo, Outcome, State
from stairgames.games.twenty_seven import rules
from stairgames.games.twenty_seven.notation import (
    NUM_ACTIONS,
    PASS,
    decode_move,
    encode_move,
    format_action,
    normalise,
    parse_move_text,
)
from stairgames.games.twenty_seven.position import format_position, parse_position
from stairgames.games.twenty_seven.rules import BLACK, WHITE, Line, Variant
from stairgames.i18n import N_, Text

SEAT_NAMES: Final = ("white", "black")
SEAT_COLOURS: Final = (WHITE, BLACK)


LINE_SIZES: Final[dict[Variant, tuple[int, ...]]] = {
    "basic": (9,),
    "advanced": tuple(range(2, 10)),
    "expert": tuple(range(1, 10)),
}
"""How many fields the line may have: the reds stay outside the expert game."""


def count_key_vectors(fields: int, above: int) -> int:
    """How many values the field keys of :func:`rules.progress` can take on a line of
    ``fields`` fields with ``above`` discs above the bases.

    A key is 0, or +h or -h for a field topped by a player, whose height h counts its
    base and h - 1 >= 1 discs above it. Choose the j player-topped fields, their
    colours, and j positive numbers of discs summing to at most ``above``:
    C(fields, j) * 2**j * C(above, j).
    """
    return sum(comb(fields, j) * 2**j * comb(above, j) for j in range(fields + 1))


def max_game_length(variant: Variant) -> int:
    """A proven bound on the number of actions in a game of ``variant``.

    Every move strictly raises :func:`rules.progress` (the line's length, negated, then
    the field keys read from the far end), so no value repeats and a game has fewer
    moves than there are values. A pass is legal only when the other player has a move,
    which comes next, so passes never outnumber moves.
    """
    values = sum(count_key_vectors(n, rules.NUM_DISCS - n) for n in LINE_SIZES[variant])
    return 2 * (values - 1)


MAX_GAME_LENGTH: Final = {variant: max_game_length(variant) for variant in rules.VARIANTS}
"""826,885,544 (basic), 1,220,448,238 (advanced), 1,220,448,344 (expert)."""


@dataclasses.dataclass(frozen=True)
class TwentySevenOptions:
    """Options of 27."""

    variant: Literal["basic", "advanced", "expert"] = "basic"
    """``basic``; ``advanced``: grey bases move with their stack (T6);
    ``expert``: red bases too (T7)."""

    def __post_init__(self) -> None:
        if self.variant not in rules.VARIANTS:
            allowed = ", ".join(repr(v) for v in rules.VARIANTS)
            raise InvalidOptionError(
                message_id=N_("option 'variant' must be one of {allowed}, got {variant!r}"),
                arguments={"allowed": allowed, "variant": self.variant},
            )


class TwentySevenGame(Game):
    name = "twenty_seven"
    options: TwentySevenOptions

    @property
    def variant(self) -> Variant:
        return self.options.variant

    def info(self) -> GameInfo:
        return GameInfo(
            name=self.name,
            title="27",
            num_players=2,
            min_players=2,
            max_players=2,
            chance=False,
            hidden_information=False,
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=0,
            max_game_length=MAX_GAME_LENGTH[self.variant],
            min_utility=-1.0,
            max_utility=1.0,
            zero_sum=True,
            seat_names=SEAT_NAMES,
        )

    def new_initial_state(self) -> TwentySevenState:
        return TwentySevenState(self, rules.initial_line())

    def state_from_position(self, text: str) -> TwentySevenState:
        return TwentySevenState(self, parse_position(text, self.variant))


class TwentySevenState(State):
    """A game of 27 in progress."""

    _game: TwentySevenGame

    def __init__(self, game: TwentySevenGame, line: Line) -> None:
        super().__init__(game)
        self._line = line
        self._moves_cache: tuple[rules.Move, ...] | None = None
        self._player_cache: int | None = None

    # ----- access -------------------------------------------------------------

    @property
    def line(self) -> Line:
        """The line as an immutable value."""
        return self._line

    @property
    def variant(self) -> Variant:
        return self._game.variant

    @staticmethod
    def colour_of(seat: int) -> str:
        """The colour ``seat`` plays: ``W`` for seat 0, ``B`` for seat 1."""
        return SEAT_COLOURS[seat]

    @staticmethod
    def seat_of(colour: str) -> int:
        return SEAT_COLOURS.index(colour)

    def stacks_of(self, colour: str) -> int:
        """T2: how many stacks ``colour`` has, which is how far its moves go."""
        return rules.stack_count(self._line, colour)

    def score(self, colour: str) -> int:
        """T5: the discs on ``colour``'s target field above its base (so far)."""
        return rules.score(self._line, colour)

    def moves(self) -> list[rules.Move]:
        """The legal moves of the colour to move (empty when it must pass or the game is over).

        A new list each call: the cache behind it is immutable and may be shared by clones.
        """
        return list(self._moves())

    def _moves(self) -> tuple[rules.Move, ...]:
        if self._moves_cache is None:
            self._moves_cache = tuple(
                rules.legal_moves(self._line, self._line.to_move, self.variant)
            )
        return self._moves_cache

    # ----- protocol hooks -----------------------------------------------------

    def _current_player(self) -> int:
        if self._player_cache is None:
            self._player_cache = self._compute_current_player()
        return self._player_cache

    def _compute_current_player(self) -> int:
        to_move = self._line.to_move
        if self._moves() or rules.has_move(self._line, rules.opponent(to_move), self.variant):
            return self.seat_of(to_move)
        return TERMINAL

    def _legal_actions(self) -> list[int]:
        moves = self._moves()
        if not moves:
            return [PASS]
        return [encode_move(m) for m in moves]

    def _apply_action(self, action: int) -> None:
        if action == PASS:
            self._line = rules.pass_turn(self._line)
        else:
            move = decode_move(action)
            assert move is not None
            self._line = rules.apply_move(self._line, move)
        self._moves_cache = None
        self._player_cache = None

    def _action_to_string(self, action: int) -> str:
        return format_action(action)

    def _normalise_move_text(self, text: str) -> str:
        return normalise(text)

    def _check_move_syntax(self, text: str) -> None:
        parsed = parse_move_text(text)
        if self.is_terminal():
            return
        colour = self._line.to_move
        if parsed == "pass":
            raise IllegalMoveError(
                message_id=N_(
                    "illegal move 'pass': passing is allowed only with no move to make (T4); "
                    "{colour} has {count} legal moves"
                ),
                arguments={"colour": rules.colour_text(colour), "count": len(self.moves())},
            )
        assert isinstance(parsed, rules.Move)
        if not self.moves():
            raise IllegalMoveError(
                message_id=N_("illegal move {text!r}: {colour} has no move and must pass"),
                arguments={"text": text, "colour": rules.colour_text(colour)},
            )
        reason = rules.why_illegal(self._line, colour, parsed, self.variant)
        raise IllegalMoveError(
            message_id=N_("illegal move {text!r}: {reason}"),
            arguments={"text": text, "reason": reason},
        )

    def _returns(self) -> list[float]:
        outcome = self.outcome()
        assert outcome is not None
        return list(outcome.returns)

    def _copy_into(self, other: Self) -> None:
        other._line = self._line
        other._moves_cache = self._moves_cache
        other._player_cache = self._player_cache

    # ----- results ------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """T5: the higher stack on its target wins; equal heights draw. Both scores are given."""
        if not self.is_terminal():
            return None
        white, black = self.score(WHITE), self.score(BLACK)
        winners: tuple[int, ...]
        scores = {"white": white, "black": black}
        if white > black:
            returns, winners = (1.0, -1.0), (0,)
            message = N_(
                "White wins {white} to {black} (discs on each player's target field, "
                "above its base)"
            )
        elif black > white:
            returns, winners = (-1.0, 1.0), (1,)
            message = N_(
                "Black wins {black} to {white} (discs on each player's target field, "
                "above its base)"
            )
        else:
            returns, winners = (0.0, 0.0), ()
            message = N_(
                "Draw: {white} to {black} (discs on each player's target field, above its base)"
            )
        text = Text(message, scores)
        return Outcome(
            returns=returns,
            reason=str(text),
            text=text,
            winners=winners,
            details={"scores": (white, black), "white": white, "black": black},
        )

    # ----- text forms ---------------------------------------------------------

    def position(self) -> str:
        return format_position(self._line)

    def observation_string(self, player: int) -> str:
        """27 has no hidden information: the position and the colour ``player`` plays."""
        return f"{self.position()} you:{self.colour_of(player)}"

    def __repr__(self) -> str:
        return (
            f"stairgames.load({self._game.name!r}, variant={self.variant!r})"
            f".state_from_position({self.position()!r})"
        )

    def __str__(self) -> str:
        from stairgames.games.twenty_seven.render import render_line

        return render_line(self, colour=False)
