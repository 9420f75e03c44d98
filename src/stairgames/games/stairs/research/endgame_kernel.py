"""The compiled core of the Stairs endgame solver (:mod:`stairgames.games.stairs.research.endgame`).

A position is one ``int64`` array (:data:`SIZE` entries, the layout below) changed in
place by :func:`make` and :func:`unmake`; :func:`search` is the win/loss search to the
end of the game with a transposition table in two arrays. Everything here is compiled
by numba (:class:`stairgames.core.compiled.Kernel`: compiled once per machine, then
loaded), 20-28 times as fast as the same search in plain Python
(``benchmarks/stairs_solve.py``).

Layout of a position array ``s``:

- ``s[HEIGHTS + q]``: the height of the stack on square ``q`` (0-35, a1 = 0, b1 = 1);
- ``s[PIECES + q]``: bit ``i`` set when the piece at level ``i`` on ``q`` is dark;
- ``s[LEVELS + h]``: a bitboard of the squares whose stack is ``h`` high;
- ``s[TOPS + c]``: a bitboard of the stacks topped by colour ``c`` (0 light, 1 dark);
- ``s[PEAK]`` the greatest height, ``s[ARRIVAL]`` the colour that last arrived at it
  (:data:`NOBODY` before anyone climbed), ``s[TO_MOVE]`` the colour to move, and
  ``s[KEY]`` the Zobrist key of the stacks alone.
"""

from __future__ import annotations

import math
import random
import sys
from typing import Final

import numpy as np
import numpy.typing as npt

from stairgames import i18n
from stairgames.core import uct
from stairgames.core.compiled import Kernel
from stairgames.games.stairs import rules

KERNEL: Final = Kernel(__name__, copies=(rules, i18n, uct))
"""This module's compiled functions; their cache also depends on the rules it copies,
what they import (i18n, for their texts) and the tree search it compiles in
(:mod:`stairgames.core.uct`)."""
_compiled = KERNEL.compiled

Array = npt.NDArray[np.int64]
Flags = npt.NDArray[np.int8]


SQUARES: Final = rules.NUM_SQUARES
MAX_HEIGHT: Final = 2 * rules.PIECES_PER_COLOUR
HEIGHTS: Final = 0
PIECES: Final = HEIGHTS + SQUARES
LEVELS: Final = PIECES + SQUARES
TOPS: Final = LEVELS + MAX_HEIGHT + 2
PEAK: Final = TOPS + 2
ARRIVAL: Final = PEAK + 1
TO_MOVE: Final = ARRIVAL + 1
KEY: Final = TO_MOVE + 1
SIZE: Final = KEY + 1

NOBODY: Final = 2
"""``s[ARRIVAL]`` before anybody has arrived at the greatest height."""
WIN: Final = 1
LOSS: Final = 0
UNSOLVED: Final = 2
"""What :func:`search` returns when its node budget ran out."""
MAX_MOVES: Final = 8 * SQUARES
"""More moves than any position has (each square has at most 8 neighbours)."""

_FULL: Final = (1 << SQUARES) - 1
_FILE_A: Final = sum(1 << (rank * rules.SIZE) for rank in range(rules.SIZE))
_NOT_FILE_A: Final = _FULL & ~_FILE_A
_NOT_FILE_F: Final = _FULL & ~(_FILE_A << (rules.SIZE - 1))
_ROW: Final = rules.SIZE

NEIGHBOURS: Final = np.array(
    [sum(1 << t for t in rules.NEIGHBOURS[q] if t >= 0) for q in range(SQUARES)], dtype=np.int64
)
"""The on-board neighbours of each square as a bitboard."""

_KEYS = random.Random(20261123)
PIECE_KEYS: Final = np.array(
    [
        [[_KEYS.getrandbits(62) for _colour in range(2)] for _level in range(MAX_HEIGHT)]
        for _square in range(SQUARES)
    ],
    dtype=np.int64,
)
"""Zobrist keys: ``PIECE_KEYS[square, level, colour]``."""
ARRIVAL_KEYS: Final = np.array([_KEYS.getrandbits(62) for _ in range(3)], dtype=np.int64)
DARK_TO_MOVE_KEY: Final = _KEYS.getrandbits(62)


@_compiled
def square_of(bit: int) -> int:
    """The square of a one-bit bitboard."""
    return int(math.log2(bit))


@_compiled
def popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@_compiled
def next_to(mask: int) -> int:
    """The squares next to any square of ``mask`` (no wrap at the edges)."""
    east = (mask << 1) & _NOT_FILE_A
    west = (mask >> 1) & _NOT_FILE_F
    row = mask | east | west
    return (east | west | (row << _ROW) | (row >> _ROW)) & _FULL


@_compiled
def table_key(s: Array) -> int:
    """The Zobrist key of the whole position (stacks, colour to move, last arrival)."""
    key = s[KEY] ^ ARRIVAL_KEYS[s[ARRIVAL]]
    if s[TO_MOVE]:
        key ^= DARK_TO_MOVE_KEY
    return int(key)


@_compiled
def lowest_sources(s: Array, colour: int) -> tuple[int, int]:
    """S2 + S3: the height of ``colour``'s lowest movable pieces and their squares
    (a bitboard), or ``(0, 0)`` when ``colour`` cannot move."""
    own = s[TOPS + colour]
    for height in range(1, s[PEAK] + 1):
        level = s[LEVELS + height]
        sources = own & level
        if sources:
            sources &= next_to(level)
            if sources:
                return height, sources
    return 0, 0


@_compiled
def moves(s: Array, colour: int, out: Array) -> int:
    """Writes ``colour``'s moves as ``source * 64 + target`` into ``out``, in square
    order; returns how many."""
    height, sources = lowest_sources(s, colour)
    level = s[LEVELS + height]
    count = 0
    while sources:
        bit = sources & -sources
        sources ^= bit
        source = square_of(bit)
        targets = NEIGHBOURS[source] & level
        while targets:
            target_bit = targets & -targets
            targets ^= target_bit
            out[count] = source * 64 + square_of(target_bit)
            count += 1
    return count


@_compiled
def count_moves(s: Array, colour: int) -> int:
    height, sources = lowest_sources(s, colour)
    level = s[LEVELS + height]
    count = 0
    while sources:
        bit = sources & -sources
        sources ^= bit
        count += popcount(NEIGHBOURS[square_of(bit)] & level)
    return count


@_compiled
def make(s: Array, source: int, target: int) -> int:
    """Moves the top piece of ``source`` onto ``target``; returns what :func:`unmake`
    needs back."""
    undo = s[PEAK] * 4 + s[ARRIVAL]
    height = s[HEIGHTS + source]
    colour = (s[PIECES + source] >> (height - 1)) & 1
    source_bit = 1 << source
    target_bit = 1 << target
    s[KEY] ^= PIECE_KEYS[source, height - 1, colour] ^ PIECE_KEYS[target, height, colour]
    s[PIECES + source] &= ~(1 << (height - 1))
    s[HEIGHTS + source] = height - 1
    s[LEVELS + height] ^= source_bit
    s[LEVELS + height - 1] |= source_bit
    s[TOPS + colour] ^= source_bit
    if height > 1:
        s[TOPS + ((s[PIECES + source] >> (height - 2)) & 1)] |= source_bit
    s[TOPS + ((s[PIECES + target] >> (height - 1)) & 1)] ^= target_bit
    s[TOPS + colour] |= target_bit
    s[PIECES + target] |= colour << height
    s[HEIGHTS + target] = height + 1
    s[LEVELS + height] ^= target_bit
    s[LEVELS + height + 1] |= target_bit
    if height + 1 >= s[PEAK]:
        s[PEAK] = height + 1
        s[ARRIVAL] = colour
    s[TO_MOVE] ^= 1
    return int(undo)


@_compiled
def unmake(s: Array, source: int, target: int, undo: int) -> None:
    """Takes back :func:`make` ``(source, target)``, which returned ``undo``."""
    s[TO_MOVE] ^= 1
    s[PEAK] = undo >> 2
    s[ARRIVAL] = undo & 3
    height = s[HEIGHTS + target] - 1
    colour = (s[PIECES + target] >> height) & 1
    source_bit = 1 << source
    target_bit = 1 << target
    s[PIECES + target] &= ~(1 << height)
    s[HEIGHTS + target] = height
    s[LEVELS + height + 1] ^= target_bit
    s[LEVELS + height] |= target_bit
    s[TOPS + colour] ^= target_bit
    s[TOPS + ((s[PIECES + target] >> (height - 1)) & 1)] |= target_bit
    if height > 1:
        s[TOPS + ((s[PIECES + source] >> (height - 2)) & 1)] ^= source_bit
    s[TOPS + colour] |= source_bit
    s[PIECES + source] |= colour << (height - 1)
    s[HEIGHTS + source] = height
    s[LEVELS + height - 1] ^= source_bit
    s[LEVELS + height] |= source_bit
    s[KEY] ^= PIECE_KEYS[source, height - 1, colour] ^ PIECE_KEYS[target, height, colour]


@_compiled
def winner(s: Array) -> int:
    """S5 as the board stands (once somebody has climbed): the winning colour."""
    at_peak = s[LEVELS + s[PEAK]]
    light = popcount(at_peak & s[TOPS])
    dark = popcount(at_peak & s[TOPS + 1])
    if not light or not dark:
        return 0 if light else 1
    if light != dark:
        return 0 if light > dark else 1
    return int(1 - s[ARRIVAL])


@_compiled
def order_moves(s: Array, found: Array, scores: Array, count: int) -> None:
    """Sorts ``found[:count]`` so that the moves leaving the other colour the fewest
    replies come first (ties in square order); like a proof-number search's
    preference for narrow subtrees, a win is found soonest where the other side has
    least to try."""
    if count < 2:
        return
    other = 1 - s[TO_MOVE]
    for i in range(count):
        move = found[i]
        undo = make(s, move >> 6, move & 63)
        scores[i] = (count_moves(s, other) << 20) | move
        unmake(s, move >> 6, move & 63, undo)
    scores[:count].sort()
    for i in range(count):
        found[i] = scores[i] & 0xFFFFF


@_compiled
def search(
    s: Array, keys: Array, results: Flags, counter: Array, limit: int, stack: Array, depth: int
) -> int:
    """:data:`WIN` or :data:`LOSS` for the colour to move under perfect play, or
    :data:`UNSOLVED` once ``counter[0]`` (new positions searched) passes ``limit``.

    Proven results are kept in the table ``keys`` / ``results`` (same length, a power
    of two; slot ``key & (length - 1)``, replaced by the newest). ``s`` is left as it
    was, solved or not. ``stack`` is room for the moves: a row of at least
    ``2 * MAX_MOVES`` for every ply from ``depth`` to the end of the game.
    """
    key = table_key(s)
    slot = key & (keys.shape[0] - 1)
    if keys[slot] == key and results[slot] >= 0:
        return int(results[slot])
    counter[0] += 1
    if counter[0] > limit:
        return UNSOLVED
    colour = s[TO_MOVE]
    found = stack[depth, :MAX_MOVES]
    count = moves(s, colour, found)
    won = LOSS
    if count == 0:
        if count_moves(s, 1 - colour) == 0:
            won = WIN if winner(s) == colour else LOSS
        else:
            s[TO_MOVE] ^= 1
            reply = search(s, keys, results, counter, limit, stack, depth + 1)
            s[TO_MOVE] ^= 1
            if reply == UNSOLVED:
                return UNSOLVED
            won = WIN if reply == LOSS else LOSS
    else:
        order_moves(s, found, stack[depth, MAX_MOVES:], count)
        for i in range(count):
            move = found[i]
            undo = make(s, move >> 6, move & 63)
            reply = search(s, keys, results, counter, limit, stack, depth + 1)
            unmake(s, move >> 6, move & 63, undo)
            if reply == UNSOLVED:
                return UNSOLVED
            if reply == LOSS:
                won = WIN
                break
    keys[slot] = key
    results[slot] = won
    return won


# ----- random playouts (for computer players: the ``playout`` hook) ----------


@_compiled
def complete(s: Array) -> None:
    """Fills in ``s[LEVELS:]``, ``s[TOPS:]`` and ``s[PEAK]`` from the heights and pieces
    (the rest of a position array written by hand); the Zobrist key is left as it is
    (:func:`playout` does not read it)."""
    for height in range(MAX_HEIGHT + 2):
        s[LEVELS + height] = 0
    s[TOPS] = 0
    s[TOPS + 1] = 0
    peak = 0
    for square in range(SQUARES):
        height = s[HEIGHTS + square]
        s[LEVELS + height] |= 1 << square
        if height:
            s[TOPS + ((s[PIECES + square] >> (height - 1)) & 1)] |= 1 << square
        peak = max(peak, height)
    s[PEAK] = peak


@_compiled
def playout(s: Array, seed: int, script: Array, found: Array) -> int:
    """Plays the position ``s`` to the end of the game in place; the winning colour
    (0 light, 1 dark), or -1 when a scripted move is not offered.

    First the moves of ``script`` (``source * 64 + target`` each, as :func:`moves`
    writes them; passes are not listed, they are played whenever the colour to move
    has no move and the other has), then moves drawn uniformly from the moves offered
    by a generator seeded with ``seed`` (:func:`rollout`). ``found`` is room for
    :data:`MAX_MOVES` moves. The game ends as in S4: when neither colour can move.
    """
    np.random.seed(seed)
    step = 0
    while step < script.shape[0]:
        colour = s[TO_MOVE]
        count = moves(s, colour, found)
        if count == 0:
            if count_moves(s, 1 - colour) == 0:
                return winner(s)
            s[TO_MOVE] ^= 1
            continue
        move = script[step]
        offered = False
        for i in range(count):
            if found[i] == move:
                offered = True
        if not offered:
            return -1
        step += 1
        make(s, move >> 6, move & 63)
    return rollout(s, s, found)


# ----- the compiled tree search (:mod:`stairgames.core.uct`) ------------------


@_compiled
def rollout(s: Array, params: Array, found: Array) -> int:
    """Plays ``s`` on to the end in place, each move drawn uniformly from numba's
    generator; the winning colour."""
    while True:
        colour = s[TO_MOVE]
        count = moves(s, colour, found)
        if count == 0:
            if count_moves(s, 1 - colour) == 0:
                return winner(s)
            s[TO_MOVE] ^= 1
            continue
        move = found[np.random.randint(0, count)]
        make(s, move >> 6, move & 63)


@_compiled
def tree_moves(s: Array, params: Array, found: Array) -> int:
    """The colour to move's moves (0: it passes, S4), or -1 when the game is over."""
    colour = s[TO_MOVE]
    count = moves(s, colour, found)
    if count == 0 and count_moves(s, 1 - colour) == 0:
        return -1
    return count


@_compiled
def tree_play(s: Array, params: Array, move: int) -> None:
    if move == uct.PASS:
        s[TO_MOVE] ^= 1
    else:
        make(s, move >> 6, move & 63)


@_compiled
def to_move(s: Array) -> int:
    return int(s[TO_MOVE])


_THIS: Final = sys.modules[__name__]
"""This module: numba compiles functions passed as arguments under their plain global
names with pointers that cannot be cached on disk, but through a module's attribute
as constants that can."""


@_compiled
def tree_search(root: Array, params: Array, c: float, iterations: int, tree: uct.Tree) -> int:
    """:func:`stairgames.core.uct.iterate` on Stairs positions (colour 0 light)."""
    return uct.iterate(
        _THIS.tree_moves,
        _THIS.tree_play,
        _THIS.winner,
        _THIS.rollout,
        _THIS.to_move,
        root,
        params,
        c,
        iterations,
        tree,
    )
