"""The compiled Stairs engine, one for every board size (S8, 3×3 to 8×8).

Make and unmake, the moves (S2 + S3, written here once for compiled code as
:mod:`.rules` writes them once for Python), the winner (S5), the win/loss search to
the end of the game with a transposition table, and the random playouts and tree
search of computer players (:mod:`stairgames.core.uct`). The endgame solver
(:mod:`.endgame`, 6×6), the playouts and tree search (:mod:`..play.playout`) and the
solver of any size (:mod:`.anysize`) all use it. Everything here is compiled by numba
(:class:`stairgames.core.compiled.Kernel`: compiled once per machine, then loaded),
20-28 times as fast as the same search in plain Python (``benchmarks/stairs_solve.py``).

The board is data, not compiled in: a *constants* tuple ``g`` (:func:`constants`)
holds its size, how many symmetries the keys follow, how the search keeps its table
and which Zobrist keys it uses; the tables of every size (neighbours, the masks that
find neighbours with shifts, the images of each square under the symmetries of the
square, the keys) are constants compiled in, indexed by the size. A position is one ``int64`` array
(:data:`SIZE` entries) changed in place by :func:`make` and :func:`unmake`, with room
for 64 squares and 64 levels:

- ``s[HEIGHTS + q]``: the height of the stack on square ``q`` (``rank * n + file``);
- ``s[PIECES + q]``: bit ``i`` set when the piece at level ``i`` on ``q`` is dark;
- ``s[LEVELS + h]``: a bitboard of the squares whose stack is ``h`` high;
- ``s[TOPS + c]``: a bitboard of the stacks topped by colour ``c`` (0 light, 1 dark);
- ``s[PEAK]`` the greatest height, ``s[ARRIVAL]`` the colour that last arrived at it
  (:data:`NOBODY` before anyone climbed), ``s[TO_MOVE]`` the colour to move;
- ``s[KEYS + t]``: the Zobrist key of the stacks seen through symmetry ``t`` of the
  square (``t = 0`` the board as it is; ``g[SYMMETRIES]`` of them are kept).

Every rule (S2-S5) is the same under a rotation or reflection of the board (the eight
neighbours of a square map to the eight neighbours of its image), so a position and
its images have the same value: with ``g[SYMMETRIES] = 8`` the transposition table is
keyed by the least of the symmetric keys, and a position whose image was proven is
not searched again (:mod:`.anysize`); with 1 it sees the board as it is (the 6×6
endgame solver, and comparisons).

Speed: numba counts the references of every array passed to a compiled function (an
atomic operation at each call), and in the search that counting cost more than the
rules. So ``g`` is a tuple (nothing to count), the table's results and efforts share
one array, and the small functions on the search's path are inlined
(:meth:`~stairgames.core.compiled.Kernel.inlined`); with ``trailing_zeros`` and
``ctpop`` for the bits, the engine of every size plays and searches 6×6 at least as
fast as the 6×6-only kernel it replaced (``benchmarks/playout_speed.py``,
``benchmarks/stairs_solve.py``).
"""

from __future__ import annotations

import functools
import math
import random
import sys
from collections.abc import Callable
from typing import Any, Final, cast

import numpy as np
import numpy.typing as npt
from numba.cpython.unsafe.numbers import trailing_zeros as _numba_trailing_zeros
from numba.extending import intrinsic

from stairgames import i18n
from stairgames.core import uct
from stairgames.core.compiled import Kernel
from stairgames.games.stairs import rules

KERNEL: Final = Kernel(__name__, copies=(rules, i18n, uct))
"""This module's compiled functions; their cache also depends on the rules it copies,
what they import (i18n, for their texts) and the tree search it compiles in
(:mod:`stairgames.core.uct`)."""
_compiled = KERNEL.compiled
_inlined = KERNEL.inlined

Array = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]
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
"""``s[ARRIVAL]`` before anybody has arrived at the greatest height."""
WIN: Final = 1
LOSS: Final = 0
UNSOLVED: Final = 2
"""What :func:`search` returns when its node budget ran out."""
MAX_MOVES: Final = 8 * MAX_SQUARES
"""More moves than any position has (each square has at most 8 neighbours)."""

# ----- the tables of every size, and the constants ``g`` of one ---------------------


def image_of(size: int, symmetry: int, square: int) -> int:
    """Square ``square`` under symmetry ``symmetry`` (0 identity, 1-3 rotations, 4-7
    the rotations after a reflection in the files)."""
    file, rank = square % size, square // size
    if symmetry >= 4:
        file = size - 1 - file
    for _ in range(symmetry % 4):
        file, rank = rank, size - 1 - file
    return rank * size + file


def signed(bits: int) -> int:
    """A 64-bit bitboard as the ``int64`` that holds it (bit 63, square h8, is the sign)."""
    return bits - (1 << 64) if bits >= 1 << 63 else bits


def _neighbour_bits(size: int) -> list[int]:
    """The on-board neighbours of each square of the ``size``×``size`` board, as bitboards."""
    shape = rules.geometry(size)
    return [signed(sum(1 << t for t in shape.neighbours[q] if t >= 0)) for q in range(size * size)]


def _masks(size: int) -> list[int]:
    """The masks of :func:`next_to` on the ``size``×``size`` board: every square, all
    but the first file, all but the last file, all but the last rank."""
    every = (1 << (size * size)) - 1
    first_file = sum(1 << (rank * size) for rank in range(size))
    masks = (every, every & ~first_file, every & ~(first_file << (size - 1)), every >> size)
    return [signed(mask) for mask in masks]


_SIZES: Final = range(rules.MIN_SIZE, rules.MAX_SIZE + 1)
NEIGHBOURS: Final = np.zeros((rules.MAX_SIZE + 1, MAX_SQUARES), dtype=np.int64)
"""``NEIGHBOURS[size, q]``: the on-board neighbours of ``q`` as a bitboard."""
MASKS: Final = np.zeros((rules.MAX_SIZE + 1, 4), dtype=np.int64)
"""``MASKS[size]``: the masks of :func:`next_to` (:func:`_masks`)."""
IMAGES: Final = np.zeros((rules.MAX_SIZE + 1, NUM_SYMMETRIES, MAX_SQUARES), dtype=np.int64)
"""``IMAGES[size, t, q]``: the image of square ``q`` under symmetry ``t``."""
for _size in _SIZES:
    NEIGHBOURS[_size, : _size * _size] = _neighbour_bits(_size)
    MASKS[_size] = _masks(_size)
    for _symmetry in range(NUM_SYMMETRIES):
        IMAGES[_size, _symmetry, : _size * _size] = [
            image_of(_size, _symmetry, q) for q in range(_size * _size)
        ]

ENDGAME_KEYS: Final = 0
"""The key set (``g[KEY_SET]``) of the endgame solver, the playouts and the tree search:
drawn from seed 20261123 in the order the 6×6 solver drew them before the engines of
6×6 and of any size were one (36 squares, 36 levels), so that its table fills as it
did; the keys of larger boards and stacks drawn after them."""
ANY_SIZE_KEYS: Final = 1
"""The key set of :mod:`.anysize`: seed 20261124, 64 squares and 64 levels."""


def _draw_keys(seed: int, squares: int) -> tuple[Array, Array, int]:
    """Zobrist keys ``[square, level, colour]`` for ``squares`` squares and as many
    levels, then the three arrivals and dark to move, in that order; then the pieces
    beyond ``squares`` (squares or levels)."""
    draw = random.Random(seed)
    pieces = np.zeros((MAX_SQUARES, MAX_HEIGHT, 2), dtype=np.int64)
    for square in range(squares):
        for level in range(squares):
            pieces[square, level] = [draw.getrandbits(62), draw.getrandbits(62)]
    arrivals = np.array([draw.getrandbits(62) for _ in range(3)], dtype=np.int64)
    dark_to_move = draw.getrandbits(62)
    for square in range(MAX_SQUARES):
        for level in range(MAX_HEIGHT):
            if square >= squares or level >= squares:
                pieces[square, level] = [draw.getrandbits(62), draw.getrandbits(62)]
    return pieces, arrivals, dark_to_move


_KEY_SETS: Final = (_draw_keys(20261123, rules.NUM_SQUARES), _draw_keys(20261124, MAX_SQUARES))
PIECE_KEYS: Final = np.stack([pieces for pieces, _, _ in _KEY_SETS])
"""Zobrist keys: ``PIECE_KEYS[key_set, square, level, colour]``."""
ARRIVAL_KEYS: Final = np.stack([arrivals for _, arrivals, _ in _KEY_SETS])
"""``ARRIVAL_KEYS[key_set, a]``: the Zobrist key of ``s[ARRIVAL] = a``."""
DARK_TO_MOVE_KEYS: Final = np.array([dark for _, _, dark in _KEY_SETS], dtype=np.int64)

G_SIZE: Final = 0
G_SQUARES: Final = 1
SYMMETRIES: Final = 2
"""``g[SYMMETRIES]``: how many of the symmetries the table uses (1 or 8)."""
TABLE_WAYS: Final = 3
"""``g[TABLE_WAYS]``: how :func:`search` keeps its table (:func:`probe`, :func:`store`):
1, one slot a key, the newest result replacing the older; 2, two slots a key, the
dearest result kept beside the newest, and each move's position looked up before the
moves are ordered."""
KEY_SET: Final = 4
"""``g[KEY_SET]``: :data:`ENDGAME_KEYS` or :data:`ANY_SIZE_KEYS`."""
Constants = tuple[int, int, int, int, int]
"""The constants ``g`` of one board: a tuple, not an array, so that passing it costs
the compiled code no reference counting (the search passes it at every position)."""


def constants(size: int, *, symmetries: int, table_ways: int, key_set: int) -> Constants:
    """The constants ``g`` of the ``size``×``size`` board (the compiled functions take
    the board's tables from it)."""
    return (size, size * size, symmetries, table_ways, key_set)


def table(bits: int, ways: int) -> tuple[Array, Flags]:
    """An empty table of ``2 ** bits`` slots for :func:`search` (``ways``: as
    ``g[TABLE_WAYS]``): the keys, and per slot the result (-1: none) and, in a two-way
    table, the effort that proved it."""
    keys = np.zeros(1 << bits, dtype=np.int64)
    proven = np.zeros((1 << bits, ways), dtype=np.int8)
    proven[:, 0] = -1
    return keys, proven


def endgame_constants(size: int = rules.SIZE) -> Constants:
    """The constants of the endgame solver, the playouts and the tree search: the
    board as it is (one symmetry), the newest result in each slot of the table."""
    return constants(size, symmetries=1, table_ways=1, key_set=ENDGAME_KEYS)


def position_array(board: rules.Board, g: Constants) -> Array:
    """``board`` as a position array (``g``: the constants of its size)."""
    s = np.zeros(SIZE, dtype=np.int64)
    stacks = board.stacks
    s[HEIGHTS : HEIGHTS + len(stacks)] = [len(stack) for stack in stacks]
    s[PIECES : PIECES + len(stacks)] = [_dark_bits(stack) for stack in stacks]
    s[TO_MOVE] = 0 if board.to_move == rules.LIGHT else 1
    s[ARRIVAL] = _ARRIVALS[board.last_arrival]
    complete(s, g)
    return s


_ARRIVALS: Final = {None: NOBODY, rules.LIGHT: 0, rules.DARK: 1}


def kernel_move(action: int) -> int:
    """The move of a protocol move action as :func:`moves` writes it
    (``source * 64 + target``)."""
    move = rules.step_move(action)
    return move.source * 64 + move.target


@functools.lru_cache(maxsize=4096)
def _dark_bits(stack: str) -> int:
    """Bit ``i`` set when the piece at level ``i`` of ``stack`` is dark (as an ``int64``)."""
    return signed(sum(1 << level for level, piece in enumerate(stack) if piece == rules.DARK))


# ----- bits --------------------------------------------------------------------------


@_compiled
def square_of(bit: int) -> int:
    """The square of a one-bit bitboard (bit 63 is the sign bit)."""
    return _trailing_zeros(bit)


def _ctpop(typing: Any, bits: Any) -> tuple[Any, Callable[..., Any]]:
    """LLVM's ``ctpop`` (the processor's population count where it has one)."""

    def generate(context: Any, builder: Any, signature: Any, arguments: Any) -> Any:
        return builder.ctpop(arguments[0])

    return bits(bits), generate


_population: Final = cast(Callable[[int], int], intrinsic(_ctpop))
"""How many bits of an integer are set (compiled code only)."""
_trailing_zeros: Final = cast(Callable[[int], int], _numba_trailing_zeros)
"""How many zero bits an integer ends with (compiled code only)."""


@_compiled
def popcount(bits: int) -> int:
    """How many bits of ``bits`` are set."""
    return _population(bits)


@_compiled
def next_to(g: Constants, mask: int) -> int:
    """The squares next to any square of ``mask`` (no wrap at the edges; the shifts
    right are arithmetic, so what they bring in at the top is masked off)."""
    size = g[G_SIZE]
    east = (mask << 1) & MASKS[size, 1]
    west = (mask >> 1) & MASKS[size, 2]
    row = mask | east | west
    return int(east | west | ((row << size) & MASKS[size, 0]) | ((row >> size) & MASKS[size, 3]))


# ----- the position -------------------------------------------------------------------


@_compiled
def complete(s: Array, g: Constants) -> None:
    """Fills in the levels, tops, greatest height and keys of ``s`` from its heights and
    pieces (the rest of a position array written by hand: colour to move, arrival)."""
    for height in range(MAX_HEIGHT + 2):
        s[LEVELS + height] = 0
    s[TOPS] = 0
    s[TOPS + 1] = 0
    for symmetry in range(NUM_SYMMETRIES):
        s[KEYS + symmetry] = 0
    peak = 0
    for square in range(g[G_SQUARES]):
        height = s[HEIGHTS + square]
        bit = np.int64(1) << square
        s[LEVELS + height] |= bit
        for level in range(height):
            _rekey(s, g, square, level, (s[PIECES + square] >> level) & 1)
        if height:
            s[TOPS + ((s[PIECES + square] >> (height - 1)) & 1)] |= bit
        peak = max(peak, height)
    s[PEAK] = peak


@_inlined
def table_key(s: Array, g: Constants) -> int:
    """The key of the position for the table: the least symmetric key of the stacks,
    with the colour to move and the last arrival."""
    stacks = s[KEYS]
    for symmetry in range(1, g[SYMMETRIES]):
        stacks = min(stacks, s[KEYS + symmetry])
    key = stacks ^ ARRIVAL_KEYS[g[KEY_SET], s[ARRIVAL]]
    if s[TO_MOVE]:
        key ^= DARK_TO_MOVE_KEYS[g[KEY_SET]]
    return int(key)


@_compiled
def lowest_sources(s: Array, g: Constants, colour: int) -> tuple[int, int]:
    """S2 + S3: the height of ``colour``'s lowest movable pieces and their squares
    (a bitboard), or ``(0, 0)`` when ``colour`` cannot move."""
    own = s[TOPS + colour]
    for height in range(1, s[PEAK] + 1):
        level = s[LEVELS + height]
        sources = own & level
        if sources:
            sources &= next_to(g, level)
            if sources:
                return height, sources
    return 0, 0


@_compiled
def moves(s: Array, g: Constants, colour: int, out: Array) -> int:
    """Writes ``colour``'s moves as ``source * 64 + target`` into ``out``, in square
    order; returns how many."""
    height, sources = lowest_sources(s, g, colour)
    level = s[LEVELS + height]
    count = 0
    while sources:
        bit = sources & -sources
        sources ^= bit
        source = square_of(bit)
        targets = NEIGHBOURS[g[G_SIZE], source] & level
        while targets:
            target_bit = targets & -targets
            targets ^= target_bit
            out[count] = source * 64 + square_of(target_bit)
            count += 1
    return count


@_compiled
def count_moves(s: Array, g: Constants, colour: int) -> int:
    height, sources = lowest_sources(s, g, colour)
    level = s[LEVELS + height]
    count = 0
    while sources:
        bit = sources & -sources
        sources ^= bit
        count += popcount(NEIGHBOURS[g[G_SIZE], square_of(bit)] & level)
    return count


@_compiled
def _rekey(s: Array, g: Constants, square: int, level: int, colour: int) -> None:
    """Adds or removes the piece ``colour`` at ``level`` of ``square`` in every symmetric key."""
    for symmetry in range(g[SYMMETRIES]):
        image = IMAGES[g[G_SIZE], symmetry, square]
        s[KEYS + symmetry] ^= PIECE_KEYS[g[KEY_SET], image, level, colour]


@_inlined
def _rekey_move(s: Array, g: Constants, source: int, target: int, height: int, colour: int) -> None:
    """Moves the piece ``colour`` from level ``height - 1`` of ``source`` to level
    ``height`` of ``target`` in every symmetric key."""
    keys = PIECE_KEYS[g[KEY_SET]]
    images = IMAGES[g[G_SIZE]]
    for symmetry in range(g[SYMMETRIES]):
        s[KEYS + symmetry] ^= (
            keys[images[symmetry, source], height - 1, colour]
            ^ keys[images[symmetry, target], height, colour]
        )


@_compiled
def make(s: Array, g: Constants, source: int, target: int) -> int:
    """Moves the top piece of ``source`` onto ``target``; returns what :func:`unmake`
    needs back."""
    undo = s[PEAK] * 4 + s[ARRIVAL]
    height = s[HEIGHTS + source]
    _rekey_move(s, g, source, target, height, (s[PIECES + source] >> (height - 1)) & 1)
    advance(s, source, target)
    return int(undo)


@_inlined
def advance(s: Array, source: int, target: int) -> None:
    """:func:`make` without the keys (and nothing kept for :func:`unmake`): for the
    playouts and the tree search, which never look a position up."""
    height = s[HEIGHTS + source]
    colour = (s[PIECES + source] >> (height - 1)) & 1
    source_bit = np.int64(1) << source
    target_bit = np.int64(1) << target
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


@_compiled
def unmake(s: Array, g: Constants, source: int, target: int, undo: int) -> None:
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
    _rekey_move(s, g, source, target, height, colour)


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


# ----- the win/loss search to the end ---------------------------------------------------


@_inlined
def order_moves(
    s: Array, g: Constants, keys: Array, proven: Flags, found: Array, scores: Array, count: int
) -> int:
    """Sorts ``found[:count]`` so that the moves leaving the other colour the fewest
    replies come first, and among those the moves the playout policy prefers
    (:func:`policy_rank`; then square order); like a proof-number search's preference
    for narrow subtrees, a win is found soonest where the other side has least to try.
    With a two-way table (``g[TABLE_WAYS] = 2``) each move's position is looked up
    first: a move into a position proven lost for the other colour ends the work, it is
    returned (the position is won); moves proven to lose go last. Else -1."""
    probing = g[TABLE_WAYS] == 2
    if count < 2 and not probing:
        return -1
    other = 1 - s[TO_MOVE]
    features = np.empty(NUM_FEATURES, dtype=np.int64)
    for i in range(count):
        move = found[i]
        undo = make(s, g, move >> 6, move & 63)
        known = probe(g, keys, proven, table_key(s, g)) if probing else -1
        replies = count_moves(s, g, other) if known < 0 else 0
        unmake(s, g, move >> 6, move & 63, undo)
        if known == LOSS:
            return int(move)
        rank = policy_rank(s, g, move, features) if known < 0 else 0
        key = ((int(known == WIN) << ORDER_REPLY_BITS) | replies) << ORDER_RANK_BITS | rank
        scores[i] = (key << ORDER_MOVE_BITS) | move
    scores[:count].sort()
    for i in range(count):
        found[i] = scores[i] & ((1 << ORDER_MOVE_BITS) - 1)
    return -1


ORDER_MOVE_BITS: Final = 12
"""The bits of a move (``source * 64 + target``) in :func:`order_moves`' sort keys."""
ORDER_RANK_BITS: Final = 10
"""The bits of :func:`policy_rank` in the sort keys."""
ORDER_REPLY_BITS: Final = 10
"""The bits of a move's replies in the sort keys (at most :data:`MAX_MOVES`, 512)."""


@_inlined
def policy_rank(s: Array, g: Constants, move: int, features: Array) -> int:
    """Where the playout policy (:data:`POLICY`) puts ``move`` among the moves of ``s``,
    as a sort key from 0 (most preferred) to 1000: ``500 - 100 · (POLICY · features)``,
    clamped. The solver's tie-break between moves leaving as many replies: it took 0.62
    of the positions to prove the same 53 positions of plies 11–14 (``docs/agents.md``)."""
    return int(max(0.0, min(1000.0, 500.0 - 100.0 * policy_score(s, g, move, features))))


@_inlined
def probe(g: Constants, keys: Array, proven: Flags, key: int) -> int:
    """The proven result of ``key`` in the table, or -1: in slot ``key & (length - 1)``
    of a one-way table; in ``key``'s even slot or the odd one after it of a two-way
    table."""
    if g[TABLE_WAYS] == 1:
        slot = key & (keys.shape[0] - 1)
        return int(proven[slot, 0]) if keys[slot] == key and proven[slot, 0] >= 0 else -1
    slot = key & (keys.shape[0] - 2)
    if keys[slot] == key and proven[slot, 0] >= 0:
        return int(proven[slot, 0])
    if keys[slot + 1] == key and proven[slot + 1, 0] >= 0:
        return int(proven[slot + 1, 0])
    return -1


@_inlined
def store(g: Constants, keys: Array, proven: Flags, key: int, won: int, nodes: int) -> None:
    """Keeps a result: in its slot of a one-way table; in a two-way table in the even
    slot when it cost more positions (``nodes``) than the result there (the dearest
    results stay, their effort in ``proven[slot, 1]``), else in the odd slot (always
    replaced)."""
    if g[TABLE_WAYS] == 1:
        slot = key & (keys.shape[0] - 1)
        keys[slot] = key
        proven[slot, 0] = won
        return
    effort = 0
    while nodes > 1 and effort < 62:
        nodes >>= 1
        effort += 1
    slot = key & (keys.shape[0] - 2)
    if keys[slot] == key or effort >= proven[slot, 1] or proven[slot, 0] < 0:
        keys[slot] = key
    else:
        slot += 1
        keys[slot] = key
    proven[slot, 0] = won
    proven[slot, 1] = effort


@_compiled
def search(
    s: Array,
    g: Constants,
    keys: Array,
    proven: Flags,
    counter: Array,
    limit: int,
    stack: Array,
    depth: int,
) -> int:
    """:data:`WIN` or :data:`LOSS` for the colour to move under perfect play, or
    :data:`UNSOLVED` once ``counter[0]`` (new positions searched) passes ``limit``.

    Proven results are kept in the table ``keys`` / ``proven`` (a power of two of
    slots: the key, and the result, -1 while none; a two-way table also the effort:
    :func:`probe`, :func:`store`). ``s`` is left as it was, solved or not. ``stack``
    is room for the moves: a row of at least ``2 * MAX_MOVES`` for every ply from
    ``depth`` to the end of the game.
    """
    key = table_key(s, g)
    known = probe(g, keys, proven, key)
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
            reply = search(s, g, keys, proven, counter, limit, stack, depth + 1)
            s[TO_MOVE] ^= 1
            if reply == UNSOLVED:
                return UNSOLVED
            won = WIN if reply == LOSS else LOSS
    else:
        if order_moves(s, g, keys, proven, found, stack[depth, MAX_MOVES:], count) >= 0:
            count = 0  # a move into a position proven lost for the other colour
            won = WIN
        for i in range(count):
            move = found[i]
            undo = make(s, g, move >> 6, move & 63)
            reply = search(s, g, keys, proven, counter, limit, stack, depth + 1)
            unmake(s, g, move >> 6, move & 63, undo)
            if reply == UNSOLVED:
                return UNSOLVED
            if reply == LOSS:
                won = WIN
                break
    store(g, keys, proven, key, won, counter[0] - before + 1)
    return won


# ----- random playouts and the tree search (:mod:`stairgames.core.uct`) --------------


@_compiled
def tree_moves(s: Array, g: Constants, found: Array) -> int:
    """The colour to move's moves (0: it passes, S4), or -1 when the game is over."""
    colour = s[TO_MOVE]
    count = moves(s, g, colour, found)
    if count == 0 and count_moves(s, g, 1 - colour) == 0:
        return -1
    return count


@_compiled
def tree_play(s: Array, g: Constants, move: int) -> None:
    """Plays ``move`` (or a pass) on ``s``, its keys left stale (:func:`advance`)."""
    if move == uct.PASS:
        s[TO_MOVE] ^= 1
    else:
        advance(s, move >> 6, move & 63)


@_compiled
def to_move(s: Array) -> int:
    return int(s[TO_MOVE])


_THIS: Final = sys.modules[__name__]
"""This module: numba compiles functions passed as arguments under their plain global
names with pointers that cannot be cached on disk, but through a module's attribute
as constants that can."""


@_compiled
def rollout(s: Array, g: Constants, found: Array) -> int:
    """Plays ``s`` on to the end in place, each move drawn uniformly from numba's
    generator (:func:`stairgames.core.uct.rollout`); the winning colour."""
    return uct.rollout(_THIS.tree_moves, _THIS.tree_play, _THIS.winner, s, g, found)


NUM_FEATURES: Final = 8
"""The features of a move that the playout policy weighs (:func:`move_features`)."""


@_compiled
def move_features(s: Array, g: Constants, move: int, out: Array) -> None:
    """Writes the features of ``move`` (``source * 64 + target``, a move of the colour to
    move) into ``out[:NUM_FEATURES]``, as counts. All moves of a position start at the
    same height ``h`` (S3), so only what tells them apart is counted:

    0. the target is topped by the other colour (the move covers one of its stacks);
    1. the piece left on top of the source is the other colour's (+1) or the mover's
       (-1), or the source is left empty (0);
    2. the target's neighbours ``h + 1`` high (stacks the moved piece may climb later);
    3. those of them topped by the mover;
    4. the source's neighbours ``h - 1`` high (the source's new peers);
    5. those of them topped by the other colour;
    6. the target lies on the edge of the board;
    7. the target is a corner.
    """
    source = move >> 6
    target = move & 63
    other = 1 - s[TO_MOVE]
    height = s[HEIGHTS + source]
    around_source = NEIGHBOURS[g[G_SIZE], source]
    around_target = NEIGHBOURS[g[G_SIZE], target]
    out[0] = ((s[PIECES + target] >> (height - 1)) & 1) == other
    out[1] = 0
    out[4] = 0
    out[5] = 0
    if height > 1:
        out[1] = 1 if ((s[PIECES + source] >> (height - 2)) & 1) == other else -1
        lower = s[LEVELS + height - 1]
        out[4] = popcount(around_source & lower)
        out[5] = popcount(around_source & lower & s[TOPS + other])
    upper = s[LEVELS + height + 1]
    out[2] = popcount(around_target & upper)
    out[3] = popcount(around_target & upper & s[TOPS + 1 - other])
    width = popcount(around_target)
    out[6] = width < 8
    out[7] = width == 3


POLICY: Final = np.array([1.41, -0.02, 0.19, 0.32, 1.33, 0.25, -0.76, -0.40])
"""The weight of each feature of :func:`move_features` in the guided playouts: a move
is drawn with probability proportional to ``exp(POLICY · features)``. Fitted by
:mod:`.policy` on moves the endgame solver proved (``docs/agents.md``)."""


@_inlined
def policy_score(s: Array, g: Constants, move: int, features: Array) -> float:
    """``POLICY · features`` of ``move`` (:func:`move_features`, written into
    ``features``): the guided playouts draw a move with probability proportional to its
    exponential, the solver breaks ties by it (:func:`policy_rank`)."""
    move_features(s, g, move, features)
    score = 0.0
    for f in range(NUM_FEATURES):
        score += POLICY[f] * features[f]
    return score


@_compiled
def guided_move(
    s: Array, g: Constants, found: Array, count: int, weights: Floats, features: Array
) -> int:
    """The index in ``found[:count]`` (the moves of ``s``) of a move drawn from numba's
    generator with probability proportional to ``exp(POLICY · features)``; ``weights``
    is room for ``count`` floats, ``features`` for :data:`NUM_FEATURES` counts."""
    total = 0.0
    for i in range(count):
        weights[i] = math.exp(policy_score(s, g, found[i], features))
        total += weights[i]
    left = np.random.random() * total
    pick = 0
    while pick < count - 1 and left >= weights[pick]:
        left -= weights[pick]
        pick += 1
    return pick


@_compiled
def guided_rollout(s: Array, g: Constants, found: Array) -> int:
    """Plays ``s`` on to the end in place, each move drawn by :func:`guided_move` (the
    playout policy, :data:`POLICY`); the winning colour."""
    weights = np.empty(MAX_MOVES)
    features = np.empty(NUM_FEATURES, dtype=np.int64)
    while True:
        count = tree_moves(s, g, found)
        if count < 0:
            return winner(s)
        if count == 0:
            tree_play(s, g, uct.PASS)
            continue
        pick = guided_move(s, g, found, count, weights, features) if count > 1 else 0
        tree_play(s, g, found[pick])


@_compiled
def playout(s: Array, g: Constants, seed: int, script: Array, found: Array) -> int:
    """Plays the position ``s`` to the end of the game in place: the moves of
    ``script`` (``source * 64 + target`` each, as :func:`moves` writes them; passes
    are not listed), then moves drawn uniformly by a generator seeded with ``seed``
    (:func:`stairgames.core.uct.playout`). The winning colour (0 light, 1 dark), or
    ``uct.NOT_OFFERED`` (-1) when a scripted move is not offered. ``found`` is room for
    :data:`MAX_MOVES` moves. The game ends as in S4: when neither colour can move.
    """
    return uct.playout(
        _THIS.tree_moves, _THIS.tree_play, _THIS.winner, _THIS.rollout, s, g, seed, script, found
    )


@_compiled
def tree_search(root: Array, g: Constants, c: float, iterations: int, tree: uct.Tree) -> int:
    """:func:`stairgames.core.uct.iterate` on Stairs positions (colour 0 light; ``g``
    the board's constants)."""
    return uct.iterate(
        _THIS.tree_moves,
        _THIS.tree_play,
        _THIS.winner,
        _THIS.rollout,
        _THIS.to_move,
        root,
        g,
        c,
        iterations,
        tree,
    )


@_compiled
def guided_tree_search(root: Array, g: Constants, c: float, iterations: int, tree: uct.Tree) -> int:
    """:func:`tree_search` with the guided playouts (:func:`guided_rollout`)."""
    return uct.iterate(
        _THIS.tree_moves,
        _THIS.tree_play,
        _THIS.winner,
        _THIS.guided_rollout,
        _THIS.to_move,
        root,
        g,
        c,
        iterations,
        tree,
    )
