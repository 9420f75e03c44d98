"""The compiled core of the 27 endgame solver
(:mod:`stairgames.games.twenty_seven.research.endgame`).

A line is one ``int64`` array (:data:`SIZE` entries, the layout below); a move makes
a changed copy (a line is small, and a field may leave it). :func:`negamax` is an
alpha-beta search to the end of the game over the three results, win, draw and
loss, with a transposition table of bounds. Compiled by numba
(:class:`stairgames.core.compiled.Kernel`).

Layout of a line array ``s`` (disc codes :data:`RED`, :data:`GREY`, :data:`WHITE`,
:data:`BLACK`):

- ``s[DISCS + f * LEVELS + i]``: the disc at level ``i`` (0: the base) of field ``f``,
  fields numbered from white's end as in the notation;
- ``s[HEIGHTS + f]``: how many discs field ``f`` holds (0 past the end of the line);
- ``s[FIELDS]`` the number of fields, ``s[TO_MOVE]`` 0 for white, 1 for black.
"""

from __future__ import annotations

import random
import sys
from typing import Final

import numpy as np
import numpy.typing as npt

from stairgames import i18n
from stairgames.core import uct
from stairgames.core.compiled import Kernel
from stairgames.games.twenty_seven import rules

KERNEL: Final = Kernel(__name__, copies=(rules, i18n, uct))
"""This module's compiled functions; their cache also depends on the rules it copies,
what they import (i18n, for their texts) and the tree search it compiles in
(:mod:`stairgames.core.uct`)."""
compiled = KERNEL.compiled

Array = npt.NDArray[np.int64]
Bounds = npt.NDArray[np.int8]

MAX_FIELDS: Final = rules.INITIAL_FIELDS
LEVELS: Final = rules.NUM_DISCS + 1
DISCS: Final = 0
HEIGHTS: Final = DISCS + MAX_FIELDS * LEVELS
FIELDS: Final = HEIGHTS + MAX_FIELDS
TO_MOVE: Final = FIELDS + 1
SIZE: Final = TO_MOVE + 1

RED, GREY, WHITE, BLACK = 0, 1, 2, 3
CODES: Final = {rules.RED: RED, rules.GREY: GREY, rules.WHITE: WHITE, rules.BLACK: BLACK}
VARIANT_CODES: Final = {"basic": 0, "advanced": 1, "expert": 2}

UNSOLVED: Final = 9
"""What :func:`negamax` returns when its node budget ran out."""
MAX_MOVES: Final = MAX_FIELDS * LEVELS
"""More moves than any line has (a move per field and disc count)."""

_KEYS = random.Random(27)
DISC_KEYS: Final = np.array(
    [
        [[_KEYS.getrandbits(62) for _disc in range(4)] for _level in range(LEVELS)]
        for _field in range(MAX_FIELDS)
    ],
    dtype=np.int64,
)
"""Zobrist keys: ``DISC_KEYS[field, level, disc]``."""
BLACK_TO_MOVE_KEY: Final = _KEYS.getrandbits(62)


def line_array(line: rules.Line) -> Array:
    """The array of ``line``."""
    s = np.zeros(SIZE, dtype=np.int64)
    for field, stack in enumerate(line.fields):
        s[HEIGHTS + field] = len(stack)
        for level, disc in enumerate(stack):
            s[DISCS + field * LEVELS + level] = CODES[disc]
    s[FIELDS] = len(line.fields)
    s[TO_MOVE] = 0 if line.to_move == rules.WHITE else 1
    return s


@compiled
def table_key(s: Array) -> int:
    key = 0
    for field in range(s[FIELDS]):
        for level in range(s[HEIGHTS + field]):
            key ^= DISC_KEYS[field, level, s[DISCS + field * LEVELS + level]]
    if s[TO_MOVE]:
        key ^= BLACK_TO_MOVE_KEY
    return int(key)


@compiled
def moves(s: Array, colour: int, variant: int, out: Array) -> tuple[int, int]:
    """T2 + T3 (+ T6/T7): writes ``colour``'s moves (0 white, 1 black) as
    ``field * 64 + count`` into ``out`` in the rules' order; returns how many, and the
    signed step every move takes."""
    code = WHITE + colour
    fields = s[FIELDS]
    stacks = 0
    for field in range(fields):
        if s[DISCS + field * LEVELS + s[HEIGHTS + field] - 1] == code:
            stacks += 1
    step = stacks if colour == 0 else -stacks
    count = 0
    for field in range(fields):
        height = s[HEIGHTS + field]
        if s[DISCS + field * LEVELS + height - 1] != code:
            continue
        if not 0 <= field + step < fields:
            continue
        base = s[DISCS + field * LEVELS]
        movable = height if variant == 2 or (variant == 1 and base == GREY) else height - 1
        for discs in range(1, movable + 1):
            out[count] = field * 64 + discs
            count += 1
    return count, step


@compiled
def after(s: Array, field: int, discs: int, step: int) -> Array:
    """The line after moving the top ``discs`` of ``field`` by ``step`` fields."""
    t = s.copy()
    make(t, field, discs, step)
    return t


@compiled
def make(t: Array, field: int, discs: int, step: int) -> None:
    """Moves the top ``discs`` of ``field`` by ``step`` fields in ``t`` (in place)."""
    height = t[HEIGHTS + field]
    target = field + step
    target_height = t[HEIGHTS + target]
    for i in range(discs):
        moved = DISCS + field * LEVELS + height - discs + i
        t[DISCS + target * LEVELS + target_height + i] = t[moved]
        t[moved] = 0  # cells above a stack stay 0, so one line has one array
    t[HEIGHTS + target] = target_height + discs
    t[HEIGHTS + field] = height - discs
    if height == discs:  # the base moved too: the field leaves the line (T6, T7)
        fields = t[FIELDS]
        for later in range(field, fields - 1):
            t[HEIGHTS + later] = t[HEIGHTS + later + 1]
            for level in range(LEVELS):
                t[DISCS + later * LEVELS + level] = t[DISCS + (later + 1) * LEVELS + level]
        t[HEIGHTS + fields - 1] = 0
        for level in range(LEVELS):
            t[DISCS + (fields - 1) * LEVELS + level] = 0
        t[FIELDS] = fields - 1
    t[TO_MOVE] ^= 1


@compiled
def white_result(s: Array) -> int:
    """T5 at the end: 1 when white has more discs on its target, -1 fewer, 0 equal."""
    white = s[HEIGHTS + s[FIELDS] - 1]
    black = s[HEIGHTS]
    return 1 if white > black else (-1 if white < black else 0)


@compiled
def negamax(
    s: Array,
    alpha: int,
    beta: int,
    variant: int,
    keys: Array,
    bounds: Bounds,
    counter: Array,
    limit: int,
) -> int:
    """The result for the colour to move (1 win, 0 draw, -1 loss) under perfect play,
    exact when it lies strictly between ``alpha`` and ``beta``, else a bound on that
    side; :data:`UNSOLVED` once ``counter[0]`` (new positions) passes ``limit``.

    The table ``keys`` / ``bounds`` (a power of two of slots; ``bounds[slot]`` the
    lower and upper bound proven) keeps its results between calls.
    """
    key = table_key(s)
    slot = key & (keys.shape[0] - 1)
    if keys[slot] == key:
        low, high = bounds[slot, 0], bounds[slot, 1]
        if low == high or low >= beta:
            return int(low)
        if high <= alpha:
            return int(high)
        alpha = max(alpha, int(low))
        beta = min(beta, int(high))
    counter[0] += 1
    if counter[0] > limit:
        return UNSOLVED
    first_alpha = alpha
    colour = s[TO_MOVE]
    found = np.empty(MAX_MOVES, dtype=np.int64)
    count, step = moves(s, colour, variant, found)
    if count == 0:
        replies, _ = moves(s, 1 - colour, variant, found)
        if replies == 0:
            result = white_result(s)
            best = result if colour == 0 else -result
            keys[slot] = key
            bounds[slot, 0] = best
            bounds[slot, 1] = best
            return best
        passed = s.copy()
        passed[TO_MOVE] ^= 1
        reply = negamax(passed, -beta, -alpha, variant, keys, bounds, counter, limit)
        if reply == UNSOLVED:
            return UNSOLVED
        best = -reply
    else:
        best = -2
        for i in range(count - 1, -1, -1):  # the most discs first
            move = found[i]
            child = after(s, move >> 6, move & 63, step)
            reply = negamax(child, -beta, -alpha, variant, keys, bounds, counter, limit)
            if reply == UNSOLVED:
                return UNSOLVED
            if -reply > best:
                best = -reply
                if best > alpha:
                    alpha = best
                    if alpha >= beta:
                        break
    low, high = -1, 1
    if best <= first_alpha:
        high = best
    elif best >= beta:
        low = best
    else:
        low = high = best
    if keys[slot] == key:
        low = max(low, int(bounds[slot, 0]))
        high = min(high, int(bounds[slot, 1]))
    keys[slot] = key
    bounds[slot, 0] = low
    bounds[slot, 1] = high
    return best


NOT_OFFERED: Final = 9
"""What :func:`playout` returns when a scripted move is not offered."""


# ----- random playouts and the tree search (:mod:`stairgames.core.uct`) -------------


@compiled
def outcome(s: Array) -> int:
    """T5 at the end as :mod:`stairgames.core.uct` counts it: the colour that won
    (0 white), or a draw."""
    result = white_result(s)
    return uct.FIRST if result > 0 else (uct.SECOND if result < 0 else uct.DRAW)


@compiled
def rollout(s: Array, params: Array, found: Array) -> int:
    """Plays ``s`` (variant ``params[0]``) on to the end in place, each move drawn
    uniformly from numba's generator; the outcome. 27's own, not
    :func:`stairgames.core.uct.rollout`: each move reuses the step :func:`moves` found
    (the tree search's :func:`tree_play` finds it again)."""
    variant = params[0]
    while True:
        colour = s[TO_MOVE]
        count, step = moves(s, colour, variant, found)
        if count == 0:
            replies, _ = moves(s, 1 - colour, variant, found)
            if replies == 0:
                return outcome(s)
            s[TO_MOVE] ^= 1
            continue
        move = found[np.random.randint(0, count)]
        make(s, move >> 6, move & 63, step)


@compiled
def tree_moves(s: Array, params: Array, found: Array) -> int:
    """The colour to move's moves (0: it passes, T4), or -1 when the game is over."""
    colour = s[TO_MOVE]
    count, _ = moves(s, colour, params[0], found)
    if count == 0:
        replies, _ = moves(s, 1 - colour, params[0], found)
        if replies == 0:
            return -1
    return count


@compiled
def step_of(s: Array, colour: int) -> int:
    """T2: the fields every move of ``colour`` takes (signed, towards its target)."""
    code = WHITE + colour
    stacks = 0
    for field in range(s[FIELDS]):
        if s[DISCS + field * LEVELS + s[HEIGHTS + field] - 1] == code:
            stacks += 1
    return stacks if colour == 0 else -stacks


@compiled
def tree_play(s: Array, params: Array, move: int) -> None:
    if move == uct.PASS:
        s[TO_MOVE] ^= 1
    else:
        make(s, move >> 6, move & 63, step_of(s, s[TO_MOVE]))


@compiled
def to_move(s: Array) -> int:
    return int(s[TO_MOVE])


_THIS: Final = sys.modules[__name__]
"""This module: numba compiles functions passed as arguments under their plain global
names with pointers that cannot be cached on disk, but through a module's attribute
as constants that can."""


@compiled
def tree_search(root: Array, params: Array, c: float, iterations: int, tree: uct.Tree) -> int:
    """:func:`stairgames.core.uct.iterate` on lines of 27 (colour 0 white; ``params[0]``
    the variant)."""
    return uct.iterate(
        _THIS.tree_moves,
        _THIS.tree_play,
        _THIS.outcome,
        _THIS.rollout,
        _THIS.to_move,
        root,
        params,
        c,
        iterations,
        tree,
    )


@compiled
def playout(s: Array, variant: int, seed: int, script: Array, found: Array) -> int:
    """Plays the line ``s`` to the end of the game in place: the moves of ``script``
    (``field * 64 + count`` each, as :func:`moves` writes them; passes are not listed,
    T4), then moves drawn uniformly by a generator seeded with ``seed``
    (:func:`stairgames.core.uct.playout`). T5's result for white (1 win, 0 draw, -1
    loss), or :data:`NOT_OFFERED` when a scripted move is not offered. ``found`` is
    room for :data:`MAX_MOVES` moves.
    """
    params = np.full(1, variant, dtype=np.int64)
    played = uct.playout(
        _THIS.tree_moves,
        _THIS.tree_play,
        _THIS.outcome,
        _THIS.rollout,
        s,
        params,
        seed,
        script,
        found,
    )
    return NOT_OFFERED if played == uct.NOT_OFFERED else white_result(s)
