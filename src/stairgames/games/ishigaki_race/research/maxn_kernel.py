"""The compiled loops of the Ishigaki Race solver for 2 to 4 players (:mod:`.maxn`).

Positions are seen from the seat to move (seat rotation): a race turn start is the
heights of the mover and of the seats after it in turn order, each ``0 .. goal-1``,
as one number in base ``goal`` (the mover's height most significant); its values are
a row of chances, the mover's first. A goal-round turn start is seen from the seat
that arrived first: the step of the round (the seat ``k`` places after it plays) and
the heights of the seats after it, each ``0 .. goal``, in base ``goal + 1``.

Successors of a race turn start, 42 a row: the 6 stops (first die 1-6), then the 36
rolls (first die, second die). An entry ``>= 0`` is the race turn start that follows,
seen from the next seat; ``-1 - i`` is the goal round's first step ``i``, the mover
having arrived. Every seat chooses, stop or roll, what gives it the greater chance of
winning (max^n); an exact tie stops.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np

from stairgames.core.compiled import Kernel
from stairgames.games.ishigaki_race import rules

KERNEL = Kernel(__name__, copies=(rules,))

Array = Any
"""A numpy array (numba's arguments are not typed for mypy)."""

CLIMB: Final = np.array(
    [0, *(rules.CLIMB_TABLE[total] for total in range(1, 12)), 0], dtype=np.int64
)
"""Steps climbed by a die or a rising pair of this total (I1); 0 and 12 never climb."""
DOUBLES_FALL: Final = rules.DOUBLES_FALL
SLIP: Final = rules.SLIP
SUCCESSORS: Final = 42
"""6 stops and 36 rolls a turn start."""


@KERNEL.compiled
def _encode(heights: Array, base: int) -> int:
    code = 0
    for height in heights:
        code = code * base + height
    return code


@KERNEL.compiled
def _decode(code: int, base: int, out: Array) -> None:
    for place in range(len(out) - 1, -1, -1):
        out[place] = code % base
        code //= base


@KERNEL.compiled
def _move(heights: Array, mover: int, first: int, second: int, goal: int, settle: Array) -> None:
    """The turn of ``mover`` with these dice (``second`` 0: it stopped), in place (I1-I4, I7).

    Doubles knock down the highest ninjas not on the goal (I3, I5)."""
    if second == 0 or second > first:
        heights[mover] = settle[min(goal, heights[mover] + CLIMB[first + second])]
    elif second < first:
        heights[mover] = settle[max(0, heights[mover] - SLIP)]
    else:
        top = -1
        for height in heights:
            if height < goal and height > top:
                top = height
        if top >= 0:
            for seat in range(len(heights)):
                if heights[seat] == top:
                    heights[seat] = settle[max(0, top - DOUBLES_FALL)]


@KERNEL.compiled
def race_successors(players: int, goal: int, settle: Array) -> Array:
    """Where each stop and roll from each race turn start leads (module docstring)."""
    size = goal**players
    successors = np.empty((size, SUCCESSORS), dtype=np.int64)
    start = np.empty(players, dtype=np.int64)
    after = np.empty(players, dtype=np.int64)
    rotated = np.empty(players, dtype=np.int64)
    for code in range(size):
        _decode(code, goal, start)
        for first in range(1, 7):
            for second in range(0, 7):
                after[:] = start
                _move(after, 0, first, second, goal, settle)
                if after[0] == goal:
                    target = -1 - _encode(after[1:], goal + 1)
                else:
                    rotated[: players - 1] = after[1:]
                    rotated[players - 1] = after[0]
                    target = _encode(rotated, goal)
                if second == 0:
                    successors[code, first - 1] = target
                else:
                    successors[code, 6 * first + second - 1] = target
    return successors


@KERNEL.compiled
def _turn_value(
    code: int,
    values: Array,
    successors: Array,
    arrivals: Array,
    rotation: Array,
    out: Array,
    stop: Array,
    roll: Array,
    margins: Array,
    rolls: Array,
    hysteresis: float,
) -> None:
    """The turn equation at one race turn start: ``out`` gets its chances (the mover
    choosing after each first die), ``margins[code]`` the mover's chance if it rolls minus
    if it stops, for each first die, and ``rolls[code]`` the mover's choices. With
    ``hysteresis`` 0 the mover rolls when that is better (a tie stops); above 0 it keeps
    its choice in ``rolls`` unless the other is better by more than ``hysteresis``.
    ``stop`` and ``roll`` are work space.

    A successor ``>= 0`` is seen from the next mover: seat ``s`` (seen from this mover)
    is its ``rotation[s]``. Written as plain loops in one function (no calls, no array
    views): ten times faster than with a helper per successor."""
    players = values.shape[1]
    for seat in range(players):
        out[seat] = 0.0
    for first in range(6):
        for seat in range(players):
            stop[seat] = 0.0
            roll[seat] = 0.0
        for column in range(7):
            target = successors[code, first if column == 0 else 5 + 6 * first + column]
            into = stop if column == 0 else roll
            if target >= 0:
                for seat in range(players):
                    into[seat] += values[target, rotation[seat]]
            else:
                for seat in range(players):
                    into[seat] += arrivals[-1 - target, seat]
        margin = roll[0] / 6.0 - stop[0]
        margins[code, first] = margin
        if hysteresis == 0.0:
            rolls[code, first] = margin > 0.0
        elif rolls[code, first]:
            rolls[code, first] = margin >= -hysteresis
        else:
            rolls[code, first] = margin > hysteresis
        if rolls[code, first]:
            for seat in range(players):
                out[seat] += roll[seat] / 36.0
        else:
            for seat in range(players):
                out[seat] += stop[seat] / 6.0


@KERNEL.compiled
def _rotation(players: int) -> Array:
    """Each seat's place as seen from the seat after the mover."""
    rotation = np.empty(players, dtype=np.int64)
    for seat in range(players):
        rotation[seat] = (seat - 1 + players) % players
    return rotation


@KERNEL.compiled
def sweep_race(
    values: Array,
    successors: Array,
    arrivals: Array,
    rolls: Array,
    hysteresis: float,
    tolerance: float,
    max_sweeps: int,
) -> int:
    """Gauss-Seidel sweeps of the turn equation over every race turn start (highest
    numbers first), in place (``values`` and the choices ``rolls``), until no value
    changes by more than ``tolerance``; the number of sweeps (``-1``: not settled)."""
    margins = np.empty((values.shape[0], 6))
    for sweep in range(1, max_sweeps + 1):
        if _sweep(values, successors, arrivals, rolls, hysteresis, margins, True) < tolerance:
            return sweep
    return -1


@KERNEL.compiled
def race_policy(
    values: Array, successors: Array, arrivals: Array, rolls: Array, hysteresis: float
) -> Array:
    """(race turn start, first die - 1) -> the mover's chance of winning if it rolls the
    second die minus if it stops; ``rolls`` gets the choices as :func:`sweep_race` makes
    them."""
    margins = np.empty((values.shape[0], 6))
    _sweep(values, successors, arrivals, rolls, hysteresis, margins, False)
    return margins


@KERNEL.compiled
def _sweep(
    values: Array,
    successors: Array,
    arrivals: Array,
    rolls: Array,
    hysteresis: float,
    margins: Array,
    update: bool,
) -> float:
    """The turn equation at every race turn start, highest numbers first: ``margins`` and
    ``rolls`` get the mover's margins and choices; where ``update``, ``values`` gets each
    turn start's new chances at once (Gauss-Seidel), and the largest change is returned
    (0 otherwise: the values stay, so the order does not matter)."""
    size, players = values.shape
    rotation = _rotation(players)
    out, stop, roll = np.empty(players), np.empty(players), np.empty(players)
    change = 0.0
    for code in range(size - 1, -1, -1):
        _turn_value(
            code,
            values,
            successors,
            arrivals,
            rotation,
            out,
            stop,
            roll,
            margins,
            rolls,
            hysteresis,
        )
        if update:
            for seat in range(players):
                change = max(change, abs(out[seat] - values[code, seat]))
                values[code, seat] = out[seat]
    return change


@KERNEL.compiled
def goal_round(players: int, goal: int, settle: Array, rolloff: Array) -> Array:
    """(step, heights of the seats after the first to arrive) -> each seat's chances, seen
    from the first to arrive; ``rolloff[m, i]``: the chance of the ``i``-th of ``m`` rollers.

    The round is worked backwards from its last turn; after it, a lone ninja on the goal
    wins and several roll off, the latest to arrive first (I5, I6)."""
    others = players - 1
    size = (goal + 1) ** others
    values = np.zeros((players, size, players))
    heights = np.empty(players, dtype=np.int64)
    after = np.empty(players, dtype=np.int64)
    stop = np.empty(players)
    roll = np.empty(players)
    landed = np.empty(players)
    for step in range(others, 0, -1):
        for code in range(size):
            heights[0] = goal
            _decode(code, goal + 1, heights[1:])
            total = np.zeros(players)
            for first in range(1, 7):
                after[:] = heights
                _move(after, step, first, 0, goal, settle)
                _round_end(after, step, goal, values, rolloff, stop)
                roll[:] = 0.0
                for second in range(1, 7):
                    after[:] = heights
                    _move(after, step, first, second, goal, settle)
                    _round_end(after, step, goal, values, rolloff, landed)
                    roll += landed
                roll /= 6.0
                if roll[step] > stop[step]:
                    total += roll
                else:
                    total += stop
            values[step, code] = total / 6.0
    return values


@KERNEL.compiled
def _round_end(
    heights: Array, step: int, goal: int, values: Array, rolloff: Array, out: Array
) -> None:
    """The chances after the goal round's turn ``step`` left these heights."""
    players = len(heights)
    if step < players - 1:
        out[:] = values[step + 1, _encode(heights[1:], goal + 1)]
        return
    arrived = 0
    for seat in range(players):
        if heights[seat] == goal:
            arrived += 1
    out[:] = 0.0
    # they arrived in seat order from the first; the latest rolls first
    place = 0
    for seat in range(players - 1, -1, -1):
        if heights[seat] == goal:
            out[seat] = rolloff[arrived, place] if arrived > 1 else 1.0
            place += 1


@KERNEL.compiled
def visits(successors: Array, rolls: Array, tolerance: float, max_sweeps: int) -> Array:
    """How often each race turn start comes up, on average, in a game that starts at
    turn start 0 and where every mover rolls the second die after first die ``d`` when
    ``rolls[code, d - 1]``: the fixed point of ``n = start + n · transitions``."""
    size = len(successors)
    counts = np.zeros(size)
    pushed = np.zeros(size)
    for _ in range(max_sweeps):
        pushed[:] = 0.0
        pushed[0] = 1.0
        for code in range(size):
            weight = counts[code]
            if weight == 0.0:
                continue
            for first in range(6):
                if rolls[code, first]:
                    for second in range(6):
                        target = successors[code, 6 + 6 * first + second]
                        if target >= 0:
                            pushed[target] += weight / 36.0
                else:
                    target = successors[code, first]
                    if target >= 0:
                        pushed[target] += weight / 6.0
        change = np.abs(pushed - counts).max()
        counts[:] = pushed
        if change < tolerance:
            break
    return counts
