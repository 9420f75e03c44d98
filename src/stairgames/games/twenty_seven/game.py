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
from stairgames.core.options import option
from stairgames.games.twenty_seven import rules
from stairgames.games.twenty_seven.notation import (
    MAX_COUNT,
    NUM_ACTIONS,
    PASS,
    decode_move,
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

    variant: Literal["basic", "advanced", "expert"] = option(
        "basic",
        label=N_("Variant"),
        help=N_("Advanced: grey bases move with their stack; expert: red bases too."),
        summary=N_("{value} variant"),
        choice_labels=(
            ("basic", N_("basic")),
            ("advanced", N_("advanced")),
            ("expert", N_("expert")),
        ),
    )
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


_PASS_ONLY: Final = (PASS,)
"""T4: the legal actions of a player with no move while the other has one."""


def _returns_of(white: int, black: int) -> tuple[float, float]:
    """T5: the returns of final scores: the higher wins, equal draws."""
    if white > black:
        return (1.0, -1.0)
    if black > white:
        return (-1.0, 1.0)
    return (0.0, 0.0)


class TwentySevenState(State):
    """A game of 27 in progress.

    The line is kept as its fields and the colour to move (the :attr:`line` value is
    made when asked for), and the legal moves as action ids, computed once per state:
    random playouts through the protocol make no :class:`rules.Line` or
    :class:`rules.Move` and format no move text.
    """

    _game: TwentySevenGame
    _notation_depends_on_state = False

    def __init__(self, game: TwentySevenGame, line: Line) -> None:
        super().__init__(game)
        self._variant = game.variant
        self._fields = line.fields
        self._to_move = line.to_move
        self._actions_cache: tuple[int, ...] | None = None
        """The legal moves of the colour to move as action ids, once asked for."""
        self._step = 0
        """With the cache: how far (+ for white, - for black) the colour to move moves."""
        self._player_cache: int | None = None

    # ----- access -------------------------------------------------------------

    @property
    def line(self) -> Line:
        """The line as an immutable value."""
        return Line(self._fields, self._to_move)

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
        return rules.stack_count(self.line, colour)

    def score(self, colour: str) -> int:
        """T5: the discs on ``colour``'s target field above its base (so far)."""
        return rules.score(self.line, colour)

    def moves(self) -> list[rules.Move]:
        """The legal moves of the colour to move (empty when it must pass or the game is over).

        A new list each call.
        """
        moves = []
        for action in self._move_actions():
            move = decode_move(action)
            assert move is not None
            moves.append(move)
        return moves

    def _move_actions(self) -> tuple[int, ...]:
        """The legal moves of the colour to move as action ids, ascending; computed once
        per state (immutable, so clones may share it)."""
        actions = self._actions_cache
        if actions is None:
            found: list[int] = []
            step, stacks = rules.movable_stacks(self._fields, self._to_move, self._variant)
            for field, depth in stacks:
                start = field * MAX_COUNT
                found.extend(range(start, start + depth))
            actions = self._actions_cache = tuple(found)
            self._step = step
        return actions

    # ----- protocol hooks -----------------------------------------------------

    def _current_player(self) -> int:
        player = self._player_cache
        if player is None:
            player = self._player_cache = self._compute_current_player()
        return player

    def _compute_current_player(self) -> int:
        to_move = self._to_move
        if (
            self._move_actions()
            or rules.movable_stacks(
                self._fields, BLACK if to_move == WHITE else WHITE, self._variant
            )[1]
        ):
            return 0 if to_move == WHITE else 1
        return TERMINAL

    def _legal_actions(self) -> list[int]:
        return list(self._legal_action_ids())

    def _legal_action_ids(self) -> tuple[int, ...]:
        actions = self._actions_cache  # read directly: asked three times a move
        if actions is None:
            actions = self._move_actions()
        return actions or _PASS_ONLY

    def _apply_action(self, action: int) -> None:
        to_move = self._to_move
        if action != PASS:
            if self._actions_cache is None:  # (the legality check has filled it)
                self._move_actions()  # it knows the step
            field, rest = divmod(action, MAX_COUNT)
            self._fields = rules.move_discs(self._fields, field, rest + 1, field + self._step)
        self._to_move = BLACK if to_move == WHITE else WHITE
        self._actions_cache = None
        self._player_cache = None

    def _action_to_string(self, action: int) -> str:
        return format_action(action)

    def _normalise_move_text(self, text: str) -> str:
        return normalise(text)

    def _check_move_syntax(self, text: str) -> None:
        parsed = parse_move_text(text)
        if self.is_terminal():
            return
        colour = self._to_move
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
        reason = rules.why_illegal(self.line, colour, parsed, self.variant)
        raise IllegalMoveError(
            message_id=N_("illegal move {text!r}: {reason}"),
            arguments={"text": text, "reason": reason},
        )

    def _returns(self) -> list[float]:
        return list(_returns_of(self.score(WHITE), self.score(BLACK)))

    def _copy_into(self, other: Self) -> None:
        other._variant = self._variant
        other._fields = self._fields
        other._to_move = self._to_move
        other._actions_cache = self._actions_cache
        other._step = self._step
        other._player_cache = self._player_cache

    # ----- results ------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """T5: the higher stack on its target wins; equal heights draw. Both scores are given."""
        if not self.is_terminal():
            return None
        white, black = self.score(WHITE), self.score(BLACK)
        winners: tuple[int, ...]
        scores = {"white": white, "black": black}
        returns = _returns_of(white, black)
        if white > black:
            winners = (0,)
            message = N_(
                "White wins {white} to {black} (discs on each player's target field, "
                "above its base)"
            )
        elif black > white:
            winners = (1,)
            message = N_(
                "Black wins {black} to {white} (discs on each player's target field, "
                "above its base)"
            )
        else:
            winners = ()
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
        return format_position(self.line)

    def observation_string(self, player: int) -> str:
        """27 has no hidden information: the position and the colour ``player`` plays."""
        return f"{self.position()} you:{self.colour_of(player)}"

    def __repr__(self) -> str:
        return (
            f"stairgames.load({self._game.name!r}, variant={self.variant!r})"
            f".state_from_position({self.position()!r})"
        )
