"""27 on the shared protocol: seats, variants, passing (T4), scores (T5) and the length bound.

Seat 0 is the first player and plays white, starting on field 0; seat 1 plays
black. Positions never repeat in any variant (see :data:`MAX_GAME_LENGTH` and
``docs/rules/twenty_seven.md``), so the game needs no repetition rule.
"""

from __future__ import annotations

import dataclasses
from math import comb, factorial
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

SEAT_NAMES: Final = ("white", "black")
SEAT_COLOURS: Final = (WHITE, BLACK)


def _multinomial(*counts: int) -> int:
    result = factorial(sum(counts))
    for count in counts:
        result //= factorial(count)
    return result


def count_positions(variant: Variant) -> int:
    """An upper bound on the number of distinct positions (line and colour to move).

    A position is read as the word of the discs above the bases, field after field
    (bottom to top), cut into one piece per field: the number of words times the
    number of cuts, for every possible set of bases, times the 2 colours to move.

    - basic: 9 fixed fields; 9 white and 9 black discs above them.
    - advanced: the reds stay; with g grey bases left, 2 + g fields and
      7 - g grey discs carried.
    - expert: n fields (1 to 9), each end red or grey based, the middle grey.
    """
    if variant == "basic":
        return 2 * _multinomial(9, 9) * comb(18 + 8, 8)
    if variant == "advanced":
        return 2 * sum(_multinomial(9, 9, 7 - g) * comb(26, g + 1) for g in range(8))
    total = 0
    for size in range(1, 10):
        ends = [(0,), (1,)] if size == 1 else [(a, b) for a in (0, 1) for b in (0, 1)]
        for red_ends in ends:
            reds = sum(red_ends)
            greys = size - reds
            if greys <= 7:
                total += 2 * _multinomial(2 - reds, 7 - greys, 9, 9) * comb(26, size - 1)
    return total


MAX_GAME_LENGTH: Final = {variant: count_positions(variant) - 1 for variant in rules.VARIANTS}
"""No position (line and colour to move) ever occurs twice in a game, passes
included, so a game has at most (number of positions - 1) actions.

Why no position repeats: suppose a sequence of actions led from a position back
to itself. The line never grows, so no field left it; fields keep their numbers.
Passes alone cannot make a cycle (a pass is followed by a move), so some field
changed; let M be the highest-numbered field that changed. A white move from M
or a black move onto M would change a field beyond M, so on M only two things
happen: white moves land on it (leaving white on top) and black moves take
discs off it (which needs black on top). Going round the cycle twice, after the
first white landing on M its top stays white, so no black move takes from M
again, and M only grows; without a white landing it only shrinks. Either way M
cannot come back to what it was: a contradiction.
"""


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
                f"option 'variant' must be one of {allowed}, got {self.variant!r}"
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
        self._moves_cache: list[rules.Move] | None = None
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
        """The legal moves of the colour to move (empty when it must pass or the game is over)."""
        if self._moves_cache is None:
            self._moves_cache = rules.legal_moves(self._line, self._line.to_move, self.variant)
        return self._moves_cache

    # ----- protocol hooks -----------------------------------------------------

    def _current_player(self) -> int:
        if self._player_cache is None:
            self._player_cache = self._compute_current_player()
        return self._player_cache

    def _compute_current_player(self) -> int:
        to_move = self._line.to_move
        if self.moves() or rules.has_move(self._line, rules.opponent(to_move), self.variant):
            return self.seat_of(to_move)
        return TERMINAL

    def _legal_actions(self) -> list[int]:
        moves = self.moves()
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
                f"illegal move 'pass': passing is allowed only with no move to make (T4); "
                f"{rules.COLOUR_NAMES[colour]} has {len(self.moves())} legal moves"
            )
        assert isinstance(parsed, rules.Move)
        if not self.moves():
            raise IllegalMoveError(
                f"illegal move {text!r}: {rules.COLOUR_NAMES[colour]} has no move and must pass"
            )
        reason = rules.why_illegal(self._line, colour, parsed, self.variant)
        raise IllegalMoveError(f"illegal move {text!r}: {reason}")

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
        if white > black:
            returns, winners = (1.0, -1.0), (0,)
            reason = f"White wins {white} to {black}"
        elif black > white:
            returns, winners = (-1.0, 1.0), (1,)
            reason = f"Black wins {black} to {white}"
        else:
            returns, winners = (0.0, 0.0), ()
            reason = f"Draw: {white} to {black}"
        reason += " (discs on each player's target field, above its base)"
        return Outcome(
            returns=returns,
            reason=reason,
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
