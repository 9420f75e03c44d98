"""The compiled exact search of Stairs on a board of any size (S8, 3×3 to 8×8).

:mod:`.kernel` compiles the 6×6 board in (its squares and neighbours are constants);
this module takes the board as data instead, a *geometry* array (:func:`geometry`),
so one compiled search serves every size: :mod:`.anysize` solves 3×3, 4×4 and 5×5
from the start with it and proves positions of every size.

A position is one ``int64`` array (:data:`SIZE` entries) changed in place by
:func:`make` and :func:`unmake`, laid out as :mod:`.kernel`'s but with room for 64
squares and 64 levels, and with one Zobrist key of the stacks for each symmetry of
the board:

- ``s[HEIGHTS + q]``: the height of the stack on square ``q`` (``rank * n + file``);
- ``s[PIECES + q]``: bit ``i`` set when the piece at level ``i`` on ``q`` is dark;
- ``s[LEVELS + h]``: a bitboard of the squares whose stack is ``h`` high;
- ``s[TOPS + c]``: a bitboard of the stacks topped by colour ``c`` (0 light, 1 dark);
- ``s[PEAK]``, ``s[ARRIVAL]`` (:data:`NOBODY` before anyone climbed), ``s[TO_MOVE]``;
- ``s[KEYS + t]``: the Zobrist key of the stacks seen through symmetry ``t`` of the
  square (``t = 0`` the board as it is; eight symmetries: rotations and reflections).

Every rule (S2-S5) is the same under a rotation or reflection of the board (the eight
neighbours of a square map to the eight neighbours of its image), so a position and
its images have the same value: the transposition table is keyed by the least of the
symmetric keys, and a position whose image was proven is not searched again. With
``g[SYMMETRIES] = 1`` the table sees the board as it is only (for comparisons).
"""

from __future__ import annotations

import random
from typing import Final

import numpy as np
import numpy.typing as npt

from stairgames import i18n
from stairgames.core.compiled import Kernel
from stairgames.games.stairs import rules

KERNEL: Final = Kernel(__name__, copies=(rules, i18n))
"""Its cache also depends on the rules it copies and what they import (i18n)."""
_compiled = KERNEL.compiled

Array = npt.NDArray[np.int64]
Flags = npt.NDArray[np.int8]

MAX_SQUARES: Final = rules.MAX_SIZE * rules.MAX_SIZE
MAX_HEIGHT: Final = MAX_SQUARES
NUM_SYMMETRIES: Final = 8

HEIGHTS: Final = 0
PIECES: Final = HEIGHTS + MAX_SQUARES
LEVELS: Final = PIECES + MAX_SQUARES
TOPS: Final = LEVELS + MAX_HEIGHT + 2
PEAK: Final = TOPS + 2
ARRIVAL: Final = PEAK + 1
TO_MOVE: Final = ARRIVAL + 1
KEYS: Final = TO_MOVE + 1
SIZE: Final = KEYS + NUM_SYMMETRIES

NOBODY: Final = 2
WIN: Final = 1
LOSS: Final = 0
UNSOLVED: Final = 2
MAX_MOVES: Final = 8 * MAX_SQUARES

# the geometry array ``g`` of one board size
G_SIZE: Final = 0
G_SQUARES: Final = 1
SYMMETRIES: Final = 2
"""``g[SYMMETRIES]``: how many of the symmetries the table uses (1 or 8)."""
NEIGHBOURS: Final = 8
"""``g[NEIGHBOURS + q]``: the on-board neighbours of ``q`` as a bitboard."""
IMAGES: Final = NEIGHBOURS + MAX_SQUARES
"""``g[IMAGES + t * 64 + q]``: the image of square ``q`` under symmetry ``t``."""
G_LENGTH: Final = IMAGES + NUM_SYMMETRIES * MAX_SQUARES

_KEYS = random.Random(20261124)
PIECE_KEYS: Final = np.array(
    [
        [[_KEYS.getrandbits(62) for _colour in range(2)] for _level in range(MAX_HEIGHT)]
        for _square in range(MAX_SQUARES)
    ],
    dtype=np.int64,
)
"""Zobrist keys: ``PIECE_KEYS[square, level, colour]``."""
ARRIVAL_KEYS: Final = np.array([_KEYS.getrandbits(62) for _ in range(3)], dtype=np.int64)
DARK_TO_MOVE_KEY: Final = _KEYS.getrandbits(62)


def image_of(size: int, symmetry: int, square: int) -> int:
    """Square ``square`` under symmetry ``symmetry`` (0 identity, 1-3 rotations, 4-7
    the rotations after a reflection in the files)."""
    file, rank = square % size, square // size
    if symmetry >= 4:
        file = size - 1 - file
    for _ in range(symmetry % 4):
        file, rank = rank, size - 1 - file
    return rank * size + file


def geometry(size: int, *, symmetries: int = NUM_SYMMETRIES) -> Array:
    """The geometry array of the ``size``×``size`` board (see the module's layout)."""
    shape = rules.geometry(size)
    g = np.zeros(G_LENGTH, dtype=np.int64)
    g[G_SIZE] = size
    g[G_SQUARES] = shape.num_squares
    g[SYMMETRIES] = symmetries
    for square in range(shape.num_squares):
        bits = 0
        for target in shape.neighbours[square]:
            if target >= 0:
                bits |= 1 << target
        g[NEIGHBOURS + square] = signed(bits)
        for symmetry in range(NUM_SYMMETRIES):
            g[IMAGES + symmetry * MAX_SQUARES + square] = image_of(size, symmetry, square)
    return g


def signed(bits: int) -> int:
    """A 64-bit bitboard as the ``int64`` that holds it (bit 63, square h8, is the sign)."""
    return bits - (1 << 64) if bits >= 1 << 63 else bits


@_compiled
def square_of(bit: int) -> int:
    """The square of a one-bit bitboard (bit 63 is the sign bit)."""
    if bit < 0:
        return 63
    square = 0
    if bit >= 1 << 32:
        bit >>= 32
        square += 32
    if bit >= 1 << 16:
        bit >>= 16
        square += 16
    if bit >= 1 << 8:
        bit >>= 8
        square += 8
    if bit >= 1 << 4:
        bit >>= 4
        square += 4
    if bit >= 1 << 2:
        bit >>= 2
        square += 2
    if bit >= 2:
        square += 1
    return square


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
def table_key(s: Array, g: Array) -> int:
    """The key of the position for the table: the least symmetric key of the stacks,
    with the colour to move and the last arrival."""
    stacks = s[KEYS]
    for symmetry in range(1, g[SYMMETRIES]):
        stacks = min(stacks, s[KEYS + symmetry])
    key = stacks ^ ARRIVAL_KEYS[s[ARRIVAL]]
    if s[TO_MOVE]:
        key ^= DARK_TO_MOVE_KEY
    return int(key)


@_compiled
def lowest_sources(s: Array, g: Array, colour: int) -> tuple[int, int]:
    """S2 + S3: the height of ``colour``'s lowest movable pieces and their squares
    (a bitboard), or ``(0, 0)`` when ``colour`` cannot move."""
    own = s[TOPS + colour]
    for height in range(1, s[PEAK] + 1):
        level = s[LEVELS + height]
        candidates = own & level
        sources = 0
        while candidates:
            bit = candidates & -candidates
            candidates ^= bit
            if g[NEIGHBOURS + square_of(bit)] & level:
                sources |= bit
        if sources:
            return height, sources
    return 0, 0


@_compiled
def moves(s: Array, g: Array, colour: int, out: Array) -> int:
    """Writes ``colour``'s moves as ``source * 64 + target`` into ``out``, in square
    order; returns how many."""
    height, sources = lowest_sources(s, g, colour)
    level = s[LEVELS + height]
    count = 0
    while sources:
        bit = sources & -sources
        sources ^= bit
        source = square_of(bit)
        targets = g[NEIGHBOURS + source] & level
        while targets:
            target_bit = targets & -targets
            targets ^= target_bit
            out[count] = source * 64 + square_of(target_bit)
            count += 1
    return count


@_compiled
def count_moves(s: Array, g: Array, colour: int) -> int:
    height, sources = lowest_sources(s, g, colour)
    level = s[LEVELS + height]
    count = 0
    while sources:
        bit = sources & -sources
        sources ^= bit
        count += popcount(g[NEIGHBOURS + square_of(bit)] & level)
    return count


@_compiled
def _rekey(s: Array, g: Array, square: int, level: int, colour: int) -> None:
    """Adds or removes the piece ``colour`` at ``level`` of ``square`` in every symmetric key."""
    for symmetry in range(g[SYMMETRIES]):
        image = g[IMAGES + symmetry * MAX_SQUARES + square]
        s[KEYS + symmetry] ^= PIECE_KEYS[image, level, colour]


@_compiled
def make(s: Array, g: Array, source: int, target: int) -> int:
    """Moves the top piece of ``source`` onto ``target``; returns what :func:`unmake`
    needs back."""
    undo = s[PEAK] * 4 + s[ARRIVAL]
    height = s[HEIGHTS + source]
    colour = (s[PIECES + source] >> (height - 1)) & 1
    source_bit = np.int64(1) << source
    target_bit = np.int64(1) << target
    _rekey(s, g, source, height - 1, colour)
    _rekey(s, g, target, height, colour)
    s[PIECES + source] &= ~(np.int64(1) << (height - 1))
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
def unmake(s: Array, g: Array, source: int, target: int, undo: int) -> None:
    """Takes back :func:`make` ``(source, target)``, which returned ``undo``."""
    s[TO_MOVE] ^= 1
    s[PEAK] = undo >> 2
    s[ARRIVAL] = undo & 3
    height = s[HEIGHTS + target] - 1
    colour = (s[PIECES + target] >> height) & 1
    source_bit = np.int64(1) << source
    target_bit = np.int64(1) << target
    s[PIECES + target] &= ~(np.int64(1) << height)
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
    _rekey(s, g, source, height - 1, colour)
    _rekey(s, g, target, height, colour)


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
def order_moves(
    s: Array, g: Array, keys: Array, results: Flags, found: Array, scores: Array, count: int
) -> int:
    """Sorts ``found[:count]`` so that the moves leaving the other colour the fewest
    replies come first (ties in square order), as :func:`.kernel.order_moves`; a move
    whose position is already proven lost for the other colour ends the work: it is
    returned (the position is won), else -1. Moves proven to lose go last."""
    other = 1 - s[TO_MOVE]
    for i in range(count):
        move = found[i]
        undo = make(s, g, move >> 6, move & 63)
        known = probe(keys, results, table_key(s, g))
        replies = count_moves(s, g, other) if known < 0 else 0
        unmake(s, g, move >> 6, move & 63, undo)
        if known == LOSS:
            return int(move)
        scores[i] = ((replies + (1 << 10) * (known == WIN)) << 20) | move
    scores[:count].sort()
    for i in range(count):
        found[i] = scores[i] & 0xFFFFF
    return -1


@_compiled
def probe(keys: Array, results: Flags, key: int) -> int:
    """The proven result of ``key`` in the table, or -1 (two slots a key: ``key``'s
    even slot and the odd one after it)."""
    slot = key & (keys.shape[0] - 2)
    if keys[slot] == key and results[slot] >= 0:
        return int(results[slot])
    if keys[slot + 1] == key and results[slot + 1] >= 0:
        return int(results[slot + 1])
    return -1


@_compiled
def store(keys: Array, results: Flags, work: Flags, key: int, won: int, nodes: int) -> None:
    """Keeps a result: in the even slot when it cost more positions than the result
    there (the dearest results stay), else in the odd slot (always replaced)."""
    effort = 0
    while nodes > 1 and effort < 62:
        nodes >>= 1
        effort += 1
    slot = key & (keys.shape[0] - 2)
    if keys[slot] == key or effort >= work[slot] or results[slot] < 0:
        keys[slot] = key
        results[slot] = won
        work[slot] = effort
    else:
        keys[slot + 1] = key
        results[slot + 1] = won
        work[slot + 1] = effort


@_compiled
def search(
    s: Array,
    g: Array,
    keys: Array,
    results: Flags,
    work: Flags,
    counter: Array,
    limit: int,
    stack: Array,
    depth: int,
) -> int:
    """:data:`WIN` or :data:`LOSS` for the colour to move under perfect play, or
    :data:`UNSOLVED` once ``counter[0]`` (new positions searched) passes ``limit``.

    Proven results are kept in the table ``keys`` / ``results`` / ``work`` (same
    length, a power of two: :func:`probe`, :func:`store`). ``s`` is left as it was,
    solved or not. ``stack`` is room for the moves: a row of at least
    ``2 * MAX_MOVES`` for every ply from ``depth`` to the end of the game.
    """
    key = table_key(s, g)
    known = probe(keys, results, key)
    if known >= 0:
        return known
    counter[0] += 1
    if counter[0] > limit:
        return UNSOLVED
    before = counter[0]
    colour = s[TO_MOVE]
    found = stack[depth, :MAX_MOVES]
    count = moves(s, g, colour, found)
    won = LOSS
    if count == 0:
        if count_moves(s, g, 1 - colour) == 0:
            won = WIN if winner(s) == colour else LOSS
        else:
            s[TO_MOVE] ^= 1
            reply = search(s, g, keys, results, work, counter, limit, stack, depth + 1)
            s[TO_MOVE] ^= 1
            if reply == UNSOLVED:
                return UNSOLVED
            won = WIN if reply == LOSS else LOSS
    else:
        if order_moves(s, g, keys, results, found, stack[depth, MAX_MOVES:], count) >= 0:
            count = 0  # a move into a position proven lost for the other colour
            won = WIN
        for i in range(count):
            move = found[i]
            undo = make(s, g, move >> 6, move & 63)
            reply = search(s, g, keys, results, work, counter, limit, stack, depth + 1)
            unmake(s, g, move >> 6, move & 63, undo)
            if reply == UNSOLVED:
                return UNSOLVED
            if reply == LOSS:
                won = WIN
                break
    store(keys, results, work, key, won, counter[0] - before + 1)
    return won
