"""The compiled core of the 27 retrograde solver (:mod:`.retrograde`): a perfect hash of
basic-game lines and a memoised search of every position reachable from a root.

**The positions.** In the basic game (and its reduced forms: ``n`` fields, ``d`` discs
of each player's colour, same rules) no base ever moves, so a line is the sequence of
player discs above each base. Read field 0 from the bottom up, then field 1, and so
on: a word of ``m = 2d`` discs with ``d`` white ones, cut into ``n`` stacks (any of them
empty). Its *rank* is ``word * C(m + n - 1, n - 1) + cut``: the word's rank among the
``C(m, d)`` words (colex order of the white discs' places) and the cut's among the
``C(m + n - 1, n - 1)`` ways to pile ``m`` discs on ``n`` fields. Every arrangement has
a rank and no two share one, so the table has no collisions and no keys.

**The colour to move.** Mirroring the line (field ``f`` becomes ``n - 1 - f``) and
swapping the colours, black to move becomes white to move, and the value for the
colour to move is the same (every rule is symmetric). So only white-to-move lines are
ranked: a black-to-move line is looked up as its mirror.

**The table.** 2 bits a rank (4 ranks a byte): :data:`UNKNOWN`, or the result for the
colour to move, :data:`LOSS`, :data:`DRAW` or :data:`WIN` (T5). Only exact values are
ever written, so the table at any moment is a valid checkpoint.

**The search** (:func:`solve`): a depth-first search with an explicit stack that gives
every position reachable from the root its value, children first (the game graph has
no cycles: ``rules.progress``), and stops after a budget of new positions so that the
driver can save, report progress and be interrupted; calling it again with the same
table goes on where it stopped (what is solved is looked up, not searched again).
Moves come from :func:`.kernel.moves` and :func:`.kernel.make`, the endgame solver's.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from stairgames import i18n
from stairgames.core import uct
from stairgames.core.compiled import Kernel
from stairgames.games.twenty_seven import rules
from stairgames.games.twenty_seven.research import endgame_kernel as lines
from stairgames.games.twenty_seven.research.endgame_kernel import (
    DISCS,
    FIELDS,
    HEIGHTS,
    LEVELS,
    SIZE,
    TO_MOVE,
)

KERNEL: Final = Kernel(__name__, copies=(lines, rules, i18n, uct))
"""This module's compiled functions; their cache also depends on the line kernel whose
moves they use, and on what that copies."""
compiled = KERNEL.compiled

Array = npt.NDArray[np.int64]
Table = npt.NDArray[np.uint8]

UNKNOWN, LOSS, DRAW, WIN = 0, 1, 2, 3
"""The 2-bit codes: ``result + 2`` for a result of -1, 0 or 1 for the colour to move."""

MAX_BINOMIAL: Final = 64
BINOMIALS: Final = np.zeros((MAX_BINOMIAL, MAX_BINOMIAL), dtype=np.int64)
for _n in range(MAX_BINOMIAL):
    BINOMIALS[_n, 0] = 1
    for _k in range(1, _n + 1):
        BINOMIALS[_n, _k] = BINOMIALS[_n - 1, _k - 1] + BINOMIALS[_n - 1, _k]
"""``BINOMIALS[n, k]`` = C(n, k) (0 for k > n)."""

MAX_DEPTH: Final = 4096
"""The deepest game the search follows (the longest basic game known has 147 actions)."""
TOO_DEEP: Final = -9
"""What :func:`solve` returns when a game went deeper than :data:`MAX_DEPTH`."""
STOPPED: Final = 9
"""What :func:`solve` returns when its budget ran out before the root was solved."""

WHITE_CODE: Final = lines.WHITE
BLACK_CODE: Final = lines.BLACK


@compiled
def cuts(discs: int, fields: int) -> int:
    """C(m + n - 1, n - 1): the ways to pile ``discs`` discs on ``fields`` fields."""
    return int(BINOMIALS[discs + fields - 1, fields - 1])


@compiled
def positions(fields: int, per_colour: int) -> int:
    """How many white-to-move lines there are: the table's length in ranks."""
    discs = 2 * per_colour
    return int(BINOMIALS[discs, per_colour]) * cuts(discs, fields)


@compiled
def rank(s: Array, per_colour: int) -> int:
    """The rank of the line ``s`` (basic: every field keeps its base), seen from the
    colour to move (a black-to-move line is ranked as its mirror)."""
    fields = s[FIELDS]
    mirror = s[TO_MOVE] == 1
    white = BLACK_CODE if mirror else WHITE_CODE
    discs = 2 * per_colour
    word = 0
    cut = 0
    place = 0
    whites = 0
    left = discs
    for i in range(fields):
        field = fields - 1 - i if mirror else i
        above = s[HEIGHTS + field] - 1
        for level in range(1, above + 1):
            if s[DISCS + field * LEVELS + level] == white:
                whites += 1
                word += BINOMIALS[place, whites]
            place += 1
        rest = fields - 1 - i  # fields still to come after this one
        if rest > 0:
            for x in range(above):
                cut += BINOMIALS[left - x + rest - 1, rest - 1]
        left -= above
    return int(word * cuts(discs, fields) + cut)


@compiled
def unrank(index: int, fields: int, per_colour: int, bases: Array, s: Array) -> None:
    """Writes the white-to-move line of rank ``index`` into ``s`` (a zeroed line array);
    ``bases`` holds each field's base code."""
    discs = 2 * per_colour
    word, cut = divmod(index, cuts(discs, fields))
    colours = np.full(discs, BLACK_CODE, dtype=np.int64)
    for j in range(per_colour, 0, -1):  # the place of the j-th white disc, last first
        place = j - 1
        while BINOMIALS[place + 1, j] <= word:
            place += 1
        colours[place] = WHITE_CODE
        word -= BINOMIALS[place, j]
    left = discs
    place = 0
    for field in range(fields):
        rest = fields - 1 - field
        above = left
        if rest > 0:
            above = 0
            while cut >= BINOMIALS[left - above + rest - 1, rest - 1]:
                cut -= BINOMIALS[left - above + rest - 1, rest - 1]
                above += 1
        s[DISCS + field * LEVELS] = bases[field]
        for level in range(1, above + 1):
            s[DISCS + field * LEVELS + level] = colours[place]
            place += 1
        s[HEIGHTS + field] = above + 1
        left -= above
    s[FIELDS] = fields
    s[TO_MOVE] = 0


@compiled
def _slot(keys: Array, index: int) -> int:
    """The slot of the hashed table that holds ``index`` or where it would go (linear
    probing from a mixed hash; the caller keeps the table less than full)."""
    mask = keys.shape[0] - 1
    mixed = (index ^ (index >> 31)) * 0x3C79AC492BA7B653
    slot = (mixed ^ (mixed >> 29)) & mask
    while keys[slot] != 0 and keys[slot] != index + 1:
        slot = (slot + 1) & mask
    return int(slot)


@compiled
def get(table: Table, keys: Array, index: int) -> int:
    """The code stored for rank ``index``: at the rank itself (``keys`` empty: the table
    covers every rank) or in the hashed table (``keys[slot]`` is the rank + 1, 0 empty)."""
    if keys.shape[0] > 0:
        index_slot = _slot(keys, index)
        if keys[index_slot] == 0:
            return UNKNOWN
        index = index_slot
    return int((table[index >> 2] >> ((index & 3) * 2)) & 3)


@compiled
def put(table: Table, keys: Array, index: int, code: int) -> None:
    """Stores ``code`` for rank ``index`` (see :func:`get`)."""
    if keys.shape[0] > 0:
        index_slot = _slot(keys, index)
        keys[index_slot] = index + 1
        index = index_slot
    shift = (index & 3) * 2
    table[index >> 2] = (table[index >> 2] & ~np.uint8(3 << shift)) | np.uint8(code << shift)


@compiled
def value_of(table: Table, keys: Array, s: Array, per_colour: int) -> int:
    """The stored code of the line ``s`` (:data:`UNKNOWN` when not solved)."""
    return get(table, keys, rank(s, per_colour))


@compiled
def rehash(table: Table, keys: Array, new_table: Table, new_keys: Array) -> None:
    """Copies every entry of a hashed table into a larger (empty) one."""
    for slot in range(keys.shape[0]):
        if keys[slot] != 0:
            code = (table[slot >> 2] >> ((slot & 3) * 2)) & 3
            put(new_table, new_keys, keys[slot] - 1, code)


@compiled
def solve(
    root: Array,
    per_colour: int,
    table: Table,
    keys: Array,
    budget: int,
    complete: bool,
    counts: Array,
    progress: npt.NDArray[np.float64],
) -> int:
    """Solves the positions reachable from ``root`` (basic rules) into ``table`` (and
    ``keys``, see :func:`get`), at most ``budget`` new ones.

    ``complete``: every position reachable from the root gets its value (what the
    ``perfect`` player needs); otherwise a position's remaining moves are skipped once
    one wins (a proof of the root's value, over fewer positions).

    Returns the root's result for its colour to move (-1, 0, 1), :data:`STOPPED` when
    the budget ran out first (call again to go on), or :data:`TOO_DEEP`. Adds the
    positions it stored to ``counts[0]`` and the finished games among them to
    ``counts[1]``; ``progress[0]`` is the share of the root's tree searched so far
    (each move of a position counted as an equal share of it).
    """
    found = get(table, keys, rank(root, per_colour))
    if found != UNKNOWN:
        progress[0] = 1.0
        return found - 2
    stack = np.zeros((MAX_DEPTH, SIZE), dtype=np.int64)
    moves = np.zeros((MAX_DEPTH, lines.MAX_MOVES), dtype=np.int64)
    count = np.zeros(MAX_DEPTH, dtype=np.int64)  # moves; -1: the colour to move passes
    step = np.zeros(MAX_DEPTH, dtype=np.int64)
    tried = np.zeros(MAX_DEPTH, dtype=np.int64)
    best = np.zeros(MAX_DEPTH, dtype=np.int64)
    stored = 0
    stack[0, :] = root
    top = 0
    result = _open(stack, moves, count, step, best, 0)
    if result != STOPPED:  # the game is over at the root
        put(table, keys, rank(root, per_colour), result + 2)
        counts[0] += 1
        counts[1] += 1
        progress[0] = 1.0
        return result
    while True:
        children = 1 if count[top] < 0 else count[top]
        if tried[top] < children and (complete or best[top] < 1):
            child = stack[top + 1]
            child[:] = stack[top]
            if count[top] < 0:
                child[TO_MOVE] ^= 1
            else:
                move = moves[top, tried[top]]
                lines.make(child, move >> 6, move & 63, step[top])
            tried[top] += 1
            code = get(table, keys, rank(child, per_colour))
            if code != UNKNOWN:
                best[top] = max(best[top], 2 - code)
                continue
            if top + 1 == MAX_DEPTH - 1:
                return TOO_DEEP
            result = _open(stack, moves, count, step, best, top + 1)
            if result != STOPPED:  # the game is over there
                put(table, keys, rank(child, per_colour), result + 2)
                stored += 1
                counts[0] += 1
                counts[1] += 1
                best[top] = max(best[top], -result)
                continue
            top += 1
            tried[top] = 0
            continue
        # every move of this position is tried, or one wins: its value is known
        value = best[top]
        put(table, keys, rank(stack[top], per_colour), value + 2)
        stored += 1
        counts[0] += 1
        if top == 0:
            progress[0] = 1.0
            return int(value)
        top -= 1
        best[top] = max(best[top], -value)
        if stored >= budget:
            progress[0] = _share_searched(count, tried, top)
            return STOPPED


@compiled
def _open(
    stack: npt.NDArray[np.int64],
    moves: npt.NDArray[np.int64],
    count: Array,
    step: Array,
    best: Array,
    depth: int,
) -> int:
    """Prepares the position at ``depth`` for the search: its moves (or its pass), and
    ``best`` at -1 (nothing tried). Returns its result for the colour to move when the
    game is over there, else :data:`STOPPED`."""
    s = stack[depth]
    colour = s[TO_MOVE]
    found, signed = lines.moves(s, colour, 0, moves[depth])
    best[depth] = -1
    if found > 0:
        count[depth] = found
        step[depth] = signed
        return STOPPED
    replies, _ = lines.moves(s, 1 - colour, 0, moves[depth])
    if replies > 0:
        count[depth] = -1
        return STOPPED
    white = lines.white_result(s)
    return int(white if colour == 0 else -white)


@compiled
def _share_searched(count: Array, tried: Array, top: int) -> float:
    """The share of the root's tree searched: at each depth of the current line, the
    moves done before the one being searched (at ``top``: every move tried), each worth
    its share of the position above."""
    share = 0.0
    weight = 1.0
    for depth in range(top + 1):
        children = 1 if count[depth] < 0 else count[depth]
        done = tried[depth] if depth == top else tried[depth] - 1
        share += weight * done / children
        weight /= children
    return share
