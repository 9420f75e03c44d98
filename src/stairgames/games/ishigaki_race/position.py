"""Ishigaki Race position text: ``format_position`` and ``parse_position`` round-trip.

A position is the phase, then ``key=value`` fields separated by spaces, in this
order. Seats are written by colour (``red``, ``blue``, ``yellow``, ``green``),
steps as numbers from 0 (start) to the goal::

    setup ninjas=0,0,0
    race ninjas=3,7,0 turn=blue dice=-
    goal ninjas=20,7,5 turn=blue dice=4 arrived=red left=blue,yellow
    rolloff ninjas=20,20,5 turn=red dice=3,? rollers=blue:7,red
    over ninjas=20,20,5 winner=blue

- ``ninjas``: each seat's step, in seat order.
- ``turn``: the seat rolling now; ``dice``: ``-`` before its first die, ``K`` once
  the first die shows K (the roller decides), ``K,?`` once it asked for the second.
- ``arrived`` (goal round): the seats on the goal in order of arrival; ``left``:
  the seats still to play in the goal round, the one rolling now first (I5).
- ``rollers`` (roll-off): this round's rolling order (I6), each with ``:SCORE``
  once it has rolled.
- ``winner``: the seat that won.

A text is refused when its form is wrong or the position impossible: a step
outside the wall, a ninja resting on a "−2" square of the crumbling wall (it
would have dropped, I7), a ninja on the goal before the goal round, a goal
round whose arrivals, turn and players left disagree, a roll-off with fewer
than two rollers or a roller off the goal, and so on.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from stairgames.core.errors import InvalidPositionError
from stairgames.games.ishigaki_race.rules import DIE_FACES, START, Board, Phase, Race
from stairgames.i18n import N_, Text

SEAT_NAMES = ("red", "blue", "yellow", "green")

_FIELDS: dict[Phase, tuple[str, ...]] = {
    Phase.SETUP: ("ninjas",),
    Phase.RACE: ("ninjas", "turn", "dice"),
    Phase.GOAL: ("ninjas", "turn", "dice", "arrived", "left"),
    Phase.ROLLOFF: ("ninjas", "turn", "dice", "rollers"),
    Phase.OVER: ("ninjas", "winner"),
}

MAX_ROLLOFF_SCORE = 12


def _seats(seats: tuple[int, ...]) -> str:
    return ",".join(SEAT_NAMES[s] for s in seats)


def _dice(race: Race) -> str:
    if race.first_die == 0:
        return "-"
    return f"{race.first_die},?" if race.rolling else str(race.first_die)


def _rollers(race: Race) -> str:
    parts = []
    for index, seat in enumerate(race.rollers):
        name = SEAT_NAMES[seat]
        parts.append(f"{name}:{race.scores[index]}" if index < len(race.scores) else name)
    return ",".join(parts)


def format_position(race: Race) -> str:
    values: dict[str, Callable[[], str]] = {
        "ninjas": lambda: ",".join(str(h) for h in race.heights),
        "turn": lambda: SEAT_NAMES[race.turn],
        "dice": lambda: _dice(race),
        "arrived": lambda: _seats(race.arrived),
        "left": lambda: _seats(race.goal_round_left()),
        "rollers": lambda: _rollers(race),
        "winner": lambda: SEAT_NAMES[race.winner],
    }
    fields = [f"{key}={values[key]()}" for key in _FIELDS[race.phase]]
    return " ".join([race.phase.value, *fields])


# ----- parsing -----------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Context:
    text: str
    board: Board
    players: int

    def fail(self, why: Text) -> InvalidPositionError:
        return InvalidPositionError(
            message_id=N_("position {position!r}: {why}"),
            arguments={"position": self.text, "why": why},
        )


def parse_position(text: str, board: Board, players: int, *, start_given: bool) -> Race:
    """Read a position text, checking its form and that it can occur in this game.

    ``start_given``: the game names its start player, so it has no setup phase.

    :raises InvalidPositionError: with what is wrong.
    """
    if not isinstance(text, str):
        raise InvalidPositionError(
            message_id=N_("a position is text, got {text!r}"), arguments={"text": text}
        )
    context = _Context(text, board, players)
    parts = text.split()
    if not parts:
        raise context.fail(
            Text(N_("empty; it starts with the phase (setup, race, goal, rolloff, over)"))
        )
    phase = _phase(context, parts[0])
    fields = _fields(context, phase, parts[1:])
    heights = _heights(context, fields["ninjas"])
    if phase == Phase.SETUP:
        return _setup(context, heights, start_given)
    if phase == Phase.OVER:
        return _over(context, heights, fields["winner"])
    turn = _seat(context, fields["turn"], "turn")
    first_die, rolling = _dice_of(context, fields["dice"])
    race = Race(heights, phase=phase, turn=turn, first_die=first_die, rolling=rolling)
    if phase == Phase.RACE:
        return _race(context, race)
    if phase == Phase.GOAL:
        return _goal(context, race, fields["arrived"], fields["left"])
    return _rolloff(context, race, fields["rollers"])


def _phase(context: _Context, word: str) -> Phase:
    for phase in Phase:
        if word == phase.value:
            return phase
    names = ", ".join(p.value for p in Phase)
    raise context.fail(
        Text(
            N_("unknown phase {word!r}; a position starts with one of {names}"),
            {"word": word, "names": names},
        )
    )


def _fields(context: _Context, phase: Phase, parts: list[str]) -> dict[str, str]:
    wanted = _FIELDS[phase]
    found: dict[str, str] = {}
    for part in parts:
        key, equals, value = part.partition("=")
        if not equals or not value:
            raise context.fail(Text(N_("{part!r} is not a key=value field"), {"part": part}))
        if key not in wanted:
            raise context.fail(
                Text(
                    N_("field {key!r} does not belong to the {phase} phase, which has {order}"),
                    {"key": key, "phase": phase.value, "order": ", ".join(wanted)},
                )
            )
        if key in found:
            raise context.fail(Text(N_("field {key!r} is given twice"), {"key": key}))
        found[key] = value
    missing = [key for key in wanted if key not in found]
    if missing:
        raise context.fail(
            Text(
                N_("the {phase} phase needs the fields {missing}"),
                {"phase": phase.value, "missing": ", ".join(missing)},
            )
        )
    if tuple(found) != wanted:
        raise context.fail(
            Text(N_("write the fields in the order {order}"), {"order": ", ".join(wanted)})
        )
    return found


def _number(context: _Context, word: str, what: str) -> int:
    if not word.isdigit():
        raise context.fail(
            Text(N_("{what} must be a whole number, got {word!r}"), {"what": what, "word": word})
        )
    return int(word)


def _heights(context: _Context, value: str) -> tuple[int, ...]:
    words = value.split(",")
    if len(words) != context.players:
        raise context.fail(
            Text(
                N_("ninjas lists {found} steps; this game has {players} players"),
                {"found": len(words), "players": context.players},
            )
        )
    heights = tuple(_number(context, w, "a ninja's step") for w in words)
    board = context.board
    for seat, step in enumerate(heights):
        if step > board.goal:
            raise context.fail(
                Text(
                    N_("{name} stands on step {step}, above the goal ({goal})"),
                    {"name": Text(SEAT_NAMES[seat]), "step": step, "goal": board.goal},
                )
            )
        if step in board.crumbling:
            raise context.fail(
                Text(
                    N_(
                        "{name} rests on step {step}, a '−2' square of the crumbling wall; a "
                        "ninja never stays there (I7)"
                    ),
                    {"name": Text(SEAT_NAMES[seat]), "step": step},
                )
            )
    return heights


def _seat(context: _Context, word: str, what: str) -> int:
    names = SEAT_NAMES[: context.players]
    if word not in names:
        raise context.fail(
            Text(
                N_("{what}: {word!r} is not a seat; the seats are {seats}"),
                {"what": what, "word": word, "seats": ", ".join(names)},
            )
        )
    return names.index(word)


def _seat_list(context: _Context, value: str, what: str) -> tuple[int, ...]:
    seats = tuple(_seat(context, word, what) for word in value.split(","))
    if len(set(seats)) != len(seats):
        raise context.fail(Text(N_("{what} names a seat twice"), {"what": what}))
    return seats


def _dice_of(context: _Context, value: str) -> tuple[int, bool]:
    if value == "-":
        return 0, False
    first, comma, rest = value.partition(",")
    if comma and rest != "?":
        raise context.fail(
            Text(
                N_(
                    "dice {value!r}: write '-' before the first die, 'K' after it, 'K,?' "
                    "while the second is rolled"
                ),
                {"value": value},
            )
        )
    face = _number(context, first, "a die")
    if face not in DIE_FACES:
        raise context.fail(Text(N_("a die shows 1 to 6, got {face}"), {"face": face}))
    return face, bool(comma)


def _on_goal(context: _Context, heights: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(seat for seat, h in enumerate(heights) if h == context.board.goal)


def _setup(context: _Context, heights: tuple[int, ...], start_given: bool) -> Race:
    if start_given:
        raise context.fail(
            Text(N_("this game names its start player (first_player), so it has no setup phase"))
        )
    if any(h != START for h in heights):
        raise context.fail(
            Text(N_("before the start player is drawn every ninja is on the start (0)"))
        )
    return Race(heights, phase=Phase.SETUP, turn=-1)


def _race(context: _Context, race: Race) -> Race:
    on_goal = _on_goal(context, race.heights)
    if on_goal:
        raise context.fail(
            Text(
                N_(
                    "{seats} on the goal, but the phase is race; a ninja reaching the goal "
                    "starts the goal round (I5): write it as goal"
                ),
                {"seats": _seats(on_goal)},
            )
        )
    return race


def _goal(context: _Context, race: Race, arrived_text: str, left_text: str) -> Race:
    arrived = _seat_list(context, arrived_text, "arrived")
    if set(arrived) != set(_on_goal(context, race.heights)):
        raise context.fail(
            Text(
                N_("arrived ({arrived}) must list exactly the ninjas on the goal ({seats})"),
                {
                    "arrived": _seats(arrived),
                    "seats": _seats(_on_goal(context, race.heights)) or "none",
                },
            )
        )
    if race.turn in arrived:
        raise context.fail(
            Text(
                N_("{name} is on the goal and has no turn left (I5)"),
                {"name": Text(SEAT_NAMES[race.turn])},
            )
        )
    race = dataclasses.replace(race, arrived=arrived)
    left = race.goal_round_left()
    if _seats(left) != left_text:
        raise context.fail(
            Text(
                N_(
                    "left={left_text}, but with {first} first on the goal and {name} to play,"
                    " the goal round still has {left} (I5)"
                ),
                {
                    "left_text": left_text,
                    "first": Text(SEAT_NAMES[arrived[0]]),
                    "name": Text(SEAT_NAMES[race.turn]),
                    "left": _seats(left),
                },
            )
        )
    late = [seat for seat in arrived[1:] if seat in left]
    if late:
        raise context.fail(
            Text(
                N_(
                    "{seats} on the goal but still to play; a ninja reaches the goal only on "
                    "its own turn"
                ),
                {"seats": _seats(tuple(late))},
            )
        )
    return race


def _rolloff(context: _Context, race: Race, value: str) -> Race:
    rollers: list[int] = []
    scores: list[int] = []
    for word in value.split(","):
        name, colon, score = word.partition(":")
        rollers.append(_seat(context, name, "rollers"))
        if colon:
            if len(scores) < len(rollers) - 1:
                raise context.fail(Text(N_("rollers who have rolled come first, in rolling order")))
            number = _number(context, score, "a roll-off score")
            if number > MAX_ROLLOFF_SCORE:
                raise context.fail(
                    Text(N_("a roll-off score is 0 to 12, got {number}"), {"number": number})
                )
            scores.append(number)
    if len(set(rollers)) != len(rollers) or len(rollers) < 2:
        raise context.fail(Text(N_("a roll-off has at least two different rollers")))
    if len(scores) == len(rollers):
        raise context.fail(Text(N_("every roller has a score, so this roll-off round is decided")))
    off = [seat for seat in rollers if race.heights[seat] != context.board.goal]
    if off:
        raise context.fail(
            Text(
                N_("{seats} in the roll-off but not on the goal (I6)"),
                {"seats": _seats(tuple(off))},
            )
        )
    if race.turn != rollers[len(scores)]:
        raise context.fail(
            Text(
                N_("turn={name}, but {roller} rolls next"),
                {
                    "name": Text(SEAT_NAMES[race.turn]),
                    "roller": Text(SEAT_NAMES[rollers[len(scores)]]),
                },
            )
        )
    return dataclasses.replace(race, rollers=tuple(rollers), scores=tuple(scores))


def _over(context: _Context, heights: tuple[int, ...], value: str) -> Race:
    winner = _seat(context, value, "winner")
    if heights[winner] != context.board.goal:
        raise context.fail(
            Text(N_("the winner, {value}, must be on the goal (I6)"), {"value": value})
        )
    return Race(heights, phase=Phase.OVER, turn=-1, winner=winner)
