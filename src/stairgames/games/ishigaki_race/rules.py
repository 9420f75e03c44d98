"""Ishigaki Race rules as a small pure core (rulebook ``ishigaki_race.ja.txt``, rulings I1-I9).

The wall is a ladder of steps from 0 (start) to ``goal``; every ninja stands on
one step. A :class:`Race` holds everything that matters for the rest of the
game; functions here never mutate, they return new values.

Rules, with the rulings that settle them:

- I1: one die only, or a second die higher than the first: climb by
  :data:`CLIMB_TABLE` on the die, or on the sum of both.
- I2: a second die lower than the first: the roller slips 1 step.
- I3: doubles: every ninja standing highest falls 3 steps (ties: all of them);
  the roller moves only if it is among them. Nobody goes below start.
- I4: reaching or passing the goal puts the ninja on the goal.
- I5: once a ninja reaches the goal, every other player takes exactly one more
  turn, in turn order (the goal round). Doubles then pass over ninjas on the
  goal: the highest ninjas *not* on the goal fall.
- I6: one ninja on the goal after that round wins; several roll off, the latest
  to arrive rolling first, each rolling like a turn and scoring
  :func:`rolloff_score`. The highest score wins; tied leaders roll off again
  among themselves, in the same order.
- I7: crumbling wall: a ninja that ends a move on a "−2" square drops 2 more
  steps, and again on every further "−2" square it lands on, whether it got
  there by climbing, slipping or falling from doubles (:func:`settle`).
- I8: start 0, goal 20, "−2" squares 5, 9, 13, 17 by default (the
  :class:`Board`).
- I9: the start player is a chance event unless given; play then goes in seat
  order (the rulebook's clockwise).
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Final

DIE_FACES: Final = (1, 2, 3, 4, 5, 6)
DOUBLES_FALL: Final = 3
"""I3: steps the highest ninjas fall on doubles."""
SLIP: Final = 1
"""I2: steps the roller slips when the second die is lower."""
CRUMBLE_DROP: Final = 2
"""I7: steps a ninja drops from a "−2" square."""
START: Final = 0

CLIMB_TABLE: Final[dict[int, int]] = {
    1: 1,
    2: 1,
    3: 1,
    4: 2,
    5: 2,
    6: 2,
    7: 3,
    8: 3,
    9: 4,
    10: 5,
    11: 6,
}
"""I1: the rulebook's table from the die (or the sum of two) to steps climbed. Two rising dice
sum to 3-11, one die gives 1-6; 2 and 12 only occur as doubles, which never climb."""


def climb_steps(total: int) -> int:
    """I1: how far a ninja climbs on a single die or a rising pair summing to ``total``.

    >>> [climb_steps(t) for t in range(1, 12)]
    [1, 1, 1, 2, 2, 2, 3, 3, 4, 5, 6]
    """
    return CLIMB_TABLE[total]


@dataclasses.dataclass(frozen=True)
class Board:
    """The wall: its goal step and its "−2" squares (empty without the crumbling wall)."""

    goal: int = 20
    crumbling: frozenset[int] = frozenset()

    def settle(self, step: int) -> int:
        """I7: where a ninja ends up that lands on ``step``: "−2" squares drop it 2 steps,
        as often as it lands on one; never below start."""
        while step in self.crumbling:
            step = max(START, step - CRUMBLE_DROP)
        return step


class Phase(enum.Enum):
    """Where the game stands."""

    SETUP = "setup"
    """The start player is still to be drawn (I9)."""
    RACE = "race"
    """Turns in seat order; nobody is on the goal yet."""
    GOAL = "goal"
    """The goal round (I5): the others play one more turn each."""
    ROLLOFF = "rolloff"
    """Several ninjas on the goal roll off (I6)."""
    OVER = "over"


@dataclasses.dataclass(frozen=True)
class Race:
    """A game of Ishigaki Race between actions.

    ``turn`` is the seat rolling now (its turn, or its roll in the roll-off), ``-1``
    in setup and once over. ``first_die`` is the die it rolled this turn (0 before),
    and ``rolling`` says that it asked for the second die. ``arrived`` lists the seats
    on the goal in the order they got there. In the roll-off, ``rollers`` is the
    rolling order of this round and ``scores`` the scores of those who have rolled.
    """

    heights: tuple[int, ...]
    phase: Phase = Phase.RACE
    turn: int = 0
    first_die: int = 0
    rolling: bool = False
    arrived: tuple[int, ...] = ()
    rollers: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()
    winner: int = -1

    @property
    def players(self) -> int:
        return len(self.heights)

    def goal_round_left(self) -> tuple[int, ...]:
        """I5: the seats still to play in the goal round, the one rolling now first."""
        if self.phase != Phase.GOAL:
            return ()
        left = []
        seat = self.turn
        while seat != self.arrived[0]:
            left.append(seat)
            seat = (seat + 1) % self.players
        return tuple(left)


def initial_race(players: int, first_player: int | None) -> Race:
    """Everyone on the start; the start player given, or still to be drawn (I9)."""
    heights = (START,) * players
    if first_player is None:
        return Race(heights, phase=Phase.SETUP, turn=-1)
    return Race(heights, turn=first_player)


def choose_start(race: Race, seat: int) -> Race:
    """I9: the drawn start player takes the first turn."""
    return dataclasses.replace(race, phase=Phase.RACE, turn=seat)


# ----- one turn ---------------------------------------------------------------


class Result(enum.Enum):
    """What a turn's dice did."""

    CLIMB = "climb"
    """I1: one die, or a rising pair."""
    SLIP = "slip"
    """I2: the second die lower."""
    DOUBLES = "doubles"
    """I3: both dice equal."""


def result_of(first: int, second: int | None) -> Result:
    if second is None or second > first:
        return Result.CLIMB
    return Result.SLIP if second < first else Result.DOUBLES


@dataclasses.dataclass(frozen=True)
class Fall:
    """One ninja's move in a turn: from where, by the dice to where, and where it ends up
    after any "−2" squares (I7)."""

    seat: int
    start: int
    moved_to: int
    end: int


@dataclasses.dataclass(frozen=True)
class TurnEffect:
    """What a turn with these dice does: its result, the steps (climbed, slipped or fallen)
    and every ninja that moved."""

    result: Result
    steps: int
    moves: tuple[Fall, ...]

    def heights(self, before: tuple[int, ...]) -> tuple[int, ...]:
        after = list(before)
        for move in self.moves:
            after[move.seat] = move.end
        return tuple(after)


def highest_off_goal(heights: tuple[int, ...], goal: int) -> tuple[int, ...]:
    """I3, I5: the ninjas that doubles knock down: the highest not on the goal (before the
    goal round nobody is on the goal, so these are simply the highest)."""
    climbing = [h for h in heights if h < goal]
    if not climbing:
        return ()
    top = max(climbing)
    return tuple(seat for seat, h in enumerate(heights) if h == top)


def turn_effect(
    board: Board, heights: tuple[int, ...], seat: int, first: int, second: int | None
) -> TurnEffect:
    """What ``seat``'s turn does with ``first`` and, if rolled, ``second`` (I1-I4, I7)."""
    result = result_of(first, second)
    if result == Result.DOUBLES:
        moves = []
        for faller in highest_off_goal(heights, board.goal):
            landed = max(START, heights[faller] - DOUBLES_FALL)
            moves.append(Fall(faller, heights[faller], landed, board.settle(landed)))
        return TurnEffect(result, DOUBLES_FALL, tuple(moves))
    here = heights[seat]
    if result == Result.SLIP:
        landed = max(START, here - SLIP)
        return TurnEffect(result, SLIP, (Fall(seat, here, landed, board.settle(landed)),))
    steps = climb_steps(first + (second or 0))
    landed = min(board.goal, here + steps)
    return TurnEffect(result, steps, (Fall(seat, here, landed, board.settle(landed)),))


def rolloff_score(first: int, second: int | None) -> int:
    """I6: one die scores its value; a higher second die the sum; a lower one 0; doubles
    the sum (the dice themselves, not the steps of the climb table).

    >>> rolloff_score(5, None), rolloff_score(2, 6), rolloff_score(6, 2), rolloff_score(6, 6)
    (5, 8, 0, 12)
    """
    if second is None:
        return first
    return 0 if second < first else first + second


# ----- applying actions ---------------------------------------------------------


def roll_die(board: Board, race: Race, face: int) -> Race:
    """A die comes up ``face``: the first of a turn, or the second, which ends it."""
    if race.first_die == 0:
        return dataclasses.replace(race, first_die=face)
    assert race.rolling
    return finish_roll(board, race, face)


def decide(board: Board, race: Race, roll: bool) -> Race:
    """The roller keeps its one die (``roll=False``), ending the roll, or asks for a second."""
    if roll:
        return dataclasses.replace(race, rolling=True)
    return finish_roll(board, race, None)


def finish_roll(board: Board, race: Race, second: int | None) -> Race:
    if race.phase == Phase.ROLLOFF:
        return _score_rolloff(race, rolloff_score(race.first_die, second))
    effect = turn_effect(board, race.heights, race.turn, race.first_die, second)
    return _after_turn(board, race, effect.heights(race.heights))


def _after_turn(board: Board, race: Race, heights: tuple[int, ...]) -> Race:
    """I4, I5: record an arrival on the goal; pass the turn on or end the goal round."""
    seat = race.turn
    arrived = race.arrived
    if heights[seat] == board.goal and seat not in arrived:
        arrived = (*arrived, seat)
    phase = Phase.GOAL if arrived else Phase.RACE
    following = (seat + 1) % race.players
    moved = dataclasses.replace(
        race,
        heights=heights,
        phase=phase,
        turn=following,
        first_die=0,
        rolling=False,
        arrived=arrived,
    )
    if phase == Phase.GOAL and following == arrived[0]:
        return _end_goal_round(moved)
    return moved


def _end_goal_round(race: Race) -> Race:
    """I6: a lone ninja on the goal wins; several roll off, the latest to arrive first."""
    if len(race.arrived) == 1:
        return _finish(race, race.arrived[0])
    rollers = tuple(reversed(race.arrived))
    return dataclasses.replace(
        race, phase=Phase.ROLLOFF, rollers=rollers, scores=(), turn=rollers[0], arrived=()
    )


def _score_rolloff(race: Race, score: int) -> Race:
    """I6: note the score; after the last roller the highest wins, tied leaders go again."""
    scores = (*race.scores, score)
    reset = dataclasses.replace(race, first_die=0, rolling=False)
    if len(scores) < len(race.rollers):
        return dataclasses.replace(reset, scores=scores, turn=race.rollers[len(scores)])
    leaders = rolloff_leaders(race.rollers, scores)
    if len(leaders) == 1:
        return _finish(race, leaders[0])
    return dataclasses.replace(reset, rollers=leaders, scores=(), turn=leaders[0])


def rolloff_leaders(rollers: tuple[int, ...], scores: tuple[int, ...]) -> tuple[int, ...]:
    """The rollers with the best score, in rolling order."""
    best = max(scores)
    return tuple(seat for seat, score in zip(rollers, scores, strict=True) if score == best)


def _finish(race: Race, winner: int) -> Race:
    """The game is over: only the wall and the winner remain."""
    return Race(race.heights, phase=Phase.OVER, turn=-1, winner=winner)
