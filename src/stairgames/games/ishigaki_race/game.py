"""Ishigaki Race on the shared protocol: options, seats, chance nodes, returns, length.

Seats 0-3 play red, blue, yellow and green, in that turn order (I9). Chance
nodes are the draw of the start player (unless ``first_player`` is given) and
every die, six faces of probability 1/6 each. Returns: 1 for the winner, 0 for
every other seat (there is always exactly one winner).

The game has no proven length bound: slips, doubles, crumbling squares and
repeated roll-offs can in principle go on for ever. ``max_game_length`` is a
probabilistic bound instead, :func:`max_game_length`, explained in
``docs/rules/ishigaki_race.md``.
"""

from __future__ import annotations

import dataclasses
from typing import Final, Self

from stairgames.core.errors import IllegalMoveError, InvalidOptionError
from stairgames.core.game import CHANCE, TERMINAL, Game, GameInfo, Outcome, State
from stairgames.core.options import option
from stairgames.games.ishigaki_race import rules
from stairgames.games.ishigaki_race.notation import (
    DECISIONS,
    NUM_ACTIONS,
    NUM_CHANCE_OUTCOMES,
    ROLL,
    check_syntax,
    die_text,
    normalise,
    start_text,
)
from stairgames.games.ishigaki_race.position import SEAT_NAMES, format_position, parse_position
from stairgames.games.ishigaki_race.rules import Board, Phase, Race
from stairgames.i18n import N_, Names, Text

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4
MIN_GOAL: Final = 4
MAX_GOAL: Final = 100
DEFAULT_CRUMBLING_SQUARES: Final = (5, 9, 13, 17)
"""I8 (our choice): the "−2" squares of the default wall."""
_DIE_OUTCOMES: Final = tuple((face, 1.0 / len(rules.DIE_FACES)) for face in rules.DIE_FACES)
LENGTH_PER_STEP_AND_PLAYER: Final = 1000
"""Actions allowed per step of the wall and per player by :func:`max_game_length`."""


def max_game_length(players: int, goal: int) -> int:
    """The probabilistic length bound: 1000 actions per step of the wall and per player.

    Not a proof: a game can go on for ever. Random play on the default wall takes
    about 100 actions on average (2 players, plain wall) to 440 (4 players, crumbling
    wall); the longest of 20,000 random games per setting used under 5 % of this bound,
    and extending the measured tails puts the chance of reaching it below 10^-100
    (``docs/rules/ishigaki_race.md``, "Length of a game").
    """
    return LENGTH_PER_STEP_AND_PLAYER * players * goal


@dataclasses.dataclass(frozen=True)
class IshigakiRaceOptions:
    """Options of Ishigaki Race."""

    players: int = option(2, label=N_("Players"), role="players", summary=N_("{value} players"))
    """2 to 4 players."""
    crumbling_wall: bool = option(
        False,
        label=N_("Crumbling wall (the −2 steps)"),
        help=N_("Play on the crumbling side: a ninja on a −2 square drops 2 steps."),
        summary=N_("crumbling wall: {value}"),
    )
    """I7: play on the crumbling side, whose "−2" squares drop a ninja 2 steps."""
    goal: int = option(
        20,
        label=N_("Goal (the step to reach, 4 to 100)"),
        summary=N_("goal at step {value}"),
        minimum=MIN_GOAL,
        maximum=MAX_GOAL,
    )
    """I8: the goal's step (start is step 0); 4 to 100."""
    crumbling_squares: tuple[int, ...] = option(
        DEFAULT_CRUMBLING_SQUARES,
        label=N_("Crumbling squares (the −2 steps, comma-separated)"),
        help=N_("Steps strictly between the start and the goal; used on the crumbling side."),
        summary=N_("−2 squares: {value}"),
    )
    """I8: the "−2" squares of the crumbling side, strictly between start and goal."""
    first_player: int | None = option(None, label=N_("Who starts"), role="seat")
    """I9: the start player's seat; ``None`` draws it at random (a chance node)."""

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise InvalidOptionError(
                message_id=N_("Ishigaki Race is for {minimum} to {maximum} players, got {players}"),
                arguments={"minimum": MIN_PLAYERS, "maximum": MAX_PLAYERS, "players": self.players},
            )
        if not MIN_GOAL <= self.goal <= MAX_GOAL:
            raise InvalidOptionError(
                message_id=N_("goal must be a step from {minimum} to {maximum}, got {goal}"),
                arguments={"minimum": MIN_GOAL, "maximum": MAX_GOAL, "goal": self.goal},
            )
        for square in self.crumbling_squares:
            if not 0 < square < self.goal:
                arguments = {"square": square, "goal": self.goal}
                if self.crumbling_squares == DEFAULT_CRUMBLING_SQUARES:
                    raise InvalidOptionError(
                        message_id=N_(
                            "crumbling_squares: {square} is not a step strictly between the "
                            "start (0) and the goal ({goal}); '−2' squares lie on the wall "
                            "between them; the default squares {default} do not fit a goal of "
                            "{goal}, so name squares that do (crumbling_squares=() for none)"
                        ),
                        arguments={**arguments, "default": DEFAULT_CRUMBLING_SQUARES},
                    )
                raise InvalidOptionError(
                    message_id=N_(
                        "crumbling_squares: {square} is not a step strictly between the start (0)"
                        " and the goal ({goal}); '−2' squares lie on the wall between them"
                    ),
                    arguments=arguments,
                )
        if len(set(self.crumbling_squares)) != len(self.crumbling_squares):
            raise InvalidOptionError(
                message_id=N_("crumbling_squares names a square twice: {crumbling_squares}"),
                arguments={"crumbling_squares": self.crumbling_squares},
            )
        if self.first_player is not None and not 0 <= self.first_player < self.players:
            raise InvalidOptionError(
                message_id=N_("first_player must be a seat 0-{last} or None, got {first_player}"),
                arguments={"last": self.players - 1, "first_player": self.first_player},
            )

    def board(self) -> Board:
        crumbling = frozenset(self.crumbling_squares) if self.crumbling_wall else frozenset()
        return Board(goal=self.goal, crumbling=crumbling)


class IshigakiRaceGame(Game):
    name = "ishigaki_race"
    options: IshigakiRaceOptions

    def __init__(self, options: IshigakiRaceOptions) -> None:
        super().__init__(options)
        self.board: Board = options.board()

    def info(self) -> GameInfo:
        players = self.options.players
        return GameInfo(
            name=self.name,
            title="Ishigaki Race",
            num_players=players,
            min_players=MIN_PLAYERS,
            max_players=MAX_PLAYERS,
            chance=True,
            hidden_information=False,
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CHANCE_OUTCOMES,
            max_game_length=max_game_length(players, self.options.goal),
            min_utility=0.0,
            max_utility=1.0,
            zero_sum=False,
            seat_names=SEAT_NAMES,
            max_game_length_proven=False,
        )

    def new_initial_state(self) -> IshigakiRaceState:
        race = rules.initial_race(self.options.players, self.options.first_player)
        return IshigakiRaceState(self, race)

    def state_from_position(self, text: str) -> IshigakiRaceState:
        start_given = self.options.first_player is not None
        race = parse_position(text, self.board, self.options.players, start_given=start_given)
        return IshigakiRaceState(self, race)


_CAPITALISED = {"red": N_("Red"), "blue": N_("Blue"), "yellow": N_("Yellow"), "green": N_("Green")}
"""Seat names at the start of a sentence."""


class IshigakiRaceState(State):
    """A game of Ishigaki Race in progress."""

    _game: IshigakiRaceGame

    def __init__(self, game: IshigakiRaceGame, race: Race) -> None:
        super().__init__(game)
        self._race = race
        self._start_race = race

    # ----- access -------------------------------------------------------------

    @property
    def race(self) -> Race:
        """Everything that matters for the rest of the game, as an immutable value."""
        return self._race

    @property
    def start_race(self) -> Race:
        """The race the history starts from: the game's start, or the position the state
        was read from (:meth:`IshigakiRaceGame.state_from_position`)."""
        return self._start_race

    @property
    def board(self) -> Board:
        return self._game.board

    @property
    def phase(self) -> Phase:
        return self._race.phase

    def heights(self) -> tuple[int, ...]:
        """Each seat's step on the wall."""
        return self._race.heights

    def seat_name(self, seat: int) -> str:
        return SEAT_NAMES[seat]

    def awaiting_die(self) -> bool:
        """A die is rolled next (the first of a roll, or the second asked for)."""
        race = self._race
        return race.phase not in (Phase.SETUP, Phase.OVER) and (race.first_die == 0 or race.rolling)

    # ----- protocol hooks -----------------------------------------------------

    def _current_player(self) -> int:
        phase = self._race.phase
        if phase == Phase.OVER:
            return TERMINAL
        if phase == Phase.SETUP or self.awaiting_die():
            return CHANCE
        return self._race.turn

    def _legal_actions(self) -> list[int]:
        return sorted(DECISIONS)

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        if self._race.phase == Phase.SETUP:
            players = self._race.players
            return [(seat, 1.0 / players) for seat in range(players)]
        return list(_DIE_OUTCOMES)

    def _apply_action(self, action: int) -> None:
        race = self._race
        if race.phase == Phase.SETUP:
            self._race = rules.choose_start(race, action)
        elif self.awaiting_die():
            self._race = rules.roll_die(self.board, race, action)
        else:
            self._race = rules.decide(self.board, race, action == ROLL)

    def _action_to_string(self, action: int) -> str:
        if self._race.phase == Phase.SETUP and 0 <= action < self._race.players:
            return start_text(action)
        if self.awaiting_die() and action in rules.DIE_FACES:
            return die_text(action)
        if self._current_player() >= 0 and action in DECISIONS:
            return DECISIONS[action]
        raise IllegalMoveError(
            message_id=N_("{action} is not an action here, in {position}"),
            arguments={"action": action, "position": self.position()},
        )

    def _normalise_move_text(self, text: str) -> str:
        return normalise(text)

    def _check_move_syntax(self, text: str) -> None:
        kind = check_syntax(text)
        if self.is_terminal():
            return
        if self._race.phase == Phase.SETUP:
            seats = ", ".join(start_text(s) for s in range(self._race.players))
            if kind == "start":
                message = N_(
                    "illegal move {text!r}: it names no seat of this game; the start player is "
                    "drawn first ({seats})"
                )
            else:
                message = N_(
                    "illegal move {text!r}: it is not the draw; the start player is drawn first "
                    "({seats})"
                )
            raise IllegalMoveError(message_id=message, arguments={"text": text, "seats": seats})
        name = Text(SEAT_NAMES[self._race.turn])
        if self.awaiting_die() and kind == "die":
            raise IllegalMoveError(
                message_id=N_("illegal move {text!r}: a die shows 1 to 6"),
                arguments={"text": text},
            )
        if self.awaiting_die():
            raise IllegalMoveError(
                message_id=N_("illegal move {text!r}: a die is rolled for {name} next"),
                arguments={"text": text, "name": name},
            )
        if kind != "decision":
            raise IllegalMoveError(
                message_id=N_(
                    "illegal move {text!r}: {name} has rolled {value} and decides: "
                    "stop (keep it) or roll (roll the second die)"
                ),
                arguments={"text": text, "name": name, "value": self._race.first_die},
            )

    def _returns(self) -> list[float]:
        return [1.0 if seat == self._race.winner else 0.0 for seat in range(self._race.players)]

    def _copy_into(self, other: Self) -> None:
        other._race = self._race
        other._start_race = self._start_race

    # ----- results ------------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """I6: the one ninja on the goal after the goal round wins, or the roll-off's winner."""
        race = self._race
        if race.phase != Phase.OVER:
            return None
        winner = Text(_CAPITALISED[SEAT_NAMES[race.winner]])
        on_goal = [s for s, h in enumerate(race.heights) if h == self.board.goal]
        if len(on_goal) == 1:
            text = Text(
                N_("{winner} wins: alone on the goal after the goal round"), {"winner": winner}
            )
        else:
            text = Text(
                N_("{winner} wins the roll-off between {names}"),
                {"winner": winner, "names": Names(tuple(SEAT_NAMES[s] for s in on_goal))},
            )
        return Outcome(
            returns=tuple(self._returns()),
            reason=str(text),
            text=text,
            winners=(race.winner,),
            details={"steps": race.heights, "rolloff": len(on_goal) > 1},
        )

    # ----- text forms ---------------------------------------------------------

    def position(self) -> str:
        return format_position(self._race)

    def observation_string(self, player: int) -> str:
        """Ishigaki Race hides nothing: the position and the colour ``player`` plays."""
        return f"seat={player} colour={SEAT_NAMES[player]} {self.position()}"

    def __repr__(self) -> str:
        return (
            f"stairgames.load('ishigaki_race', **{dataclasses.asdict(self._game.options)!r})"
            f".state_from_position({self.position()!r})"
        )
