"""The learned evaluation of Stairs compiled: a position's inputs, the network's forward
pass, and the tree search whose leaves it values (numba, :mod:`stairgames.core.compiled`).

The network reads a 6×6 position array of the compiled engine
(:mod:`..endgame_kernel`) from the view of the colour to move ("own" is the colour to
move, "other" the other one): every rule is the same with the colours exchanged (S5's
tie-break names whoever arrived last, not a colour), so one network serves both colours,
and its output is the chance that the colour to move wins. :func:`features` writes
:data:`NUM_INPUTS` numbers, :data:`NUM_PLANES` planes of one number a square (square
``rank * 6 + file``, as the engine numbers them) and then :data:`NUM_GLOBALS` for the
whole board:

- planes 0-7: the stack is topped by own (even planes) or the other colour (odd), at
  the greatest height (0, 1), one level below it (2, 3), two (4, 5), three or more
  (6, 7);
- plane 8: the square is empty;
- planes 9, 10: the piece under the top is own (9) or the other colour's (10);
- planes 11, 12: the square holds one of the lowest movable pieces (S3) of own (11) or
  of the other colour (12), with a move;
- plane 13: the stack's height / 10;
- then: the greatest height / 10; own arrived last at it; the other colour did; own
  moves / 16; the other colour's moves / 16; own must pass; empty squares / 36; the
  height of own lowest movable pieces / 10.

Every plane follows a rotation or reflection of the board with the squares, and the
rest does not change (every rule is the same under them: :mod:`..endgame_kernel`), so
training sees each position under the 8 symmetries (:func:`.net.symmetric`).

The network: :data:`NUM_INPUTS` → :data:`HIDDEN` (ReLU) → :data:`HIDDEN_2` (ReLU) → 1
(logistic); :func:`forward` runs it on one position (the first layer by the inputs that
are not 0: most are), in float32 as :func:`.net.forward` does in numpy.
"""

from __future__ import annotations

import math
import sys
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from stairgames import i18n
from stairgames.core import uct
from stairgames.core.compiled import Kernel
from stairgames.games.stairs import rules
from stairgames.games.stairs.research import endgame_kernel as ek

KERNEL: Final = Kernel(__name__, copies=(ek, rules, i18n, uct))
_compiled = KERNEL.compiled

Array = npt.NDArray[np.int64]
Vector = npt.NDArray[np.float32]
Matrix = npt.NDArray[np.float32]

SQUARES: Final = rules.NUM_SQUARES
"""The network knows the 6×6 board (36 squares)."""
NUM_PLANES: Final = 14
NUM_GLOBALS: Final = 8
NUM_INPUTS: Final = NUM_PLANES * SQUARES + NUM_GLOBALS
"""512 inputs."""
GLOBALS: Final = NUM_PLANES * SQUARES
"""Where the inputs for the whole board start."""
HIDDEN: Final = 128
HIDDEN_2: Final = 64

POLICY_INPUTS: Final = NUM_INPUTS + HIDDEN + HIDDEN_2
"""The policy head reads the inputs and both hidden layers of the value network (after
ReLU)."""
POLICY_OUTPUTS: Final = 2 * SQUARES
"""A logit for each square as a move's source, then one for each as its target."""

Weights = tuple[Matrix, Vector, Matrix, Vector, Vector, Vector]
"""``(w1, b1, w2, b2, w3, b3)``: ``w1`` :data:`NUM_INPUTS` × :data:`HIDDEN`, ``w2``
:data:`HIDDEN` × :data:`HIDDEN_2`, ``w3`` :data:`HIDDEN_2`, ``b3`` one entry; float32."""
PolicyWeights = tuple[Matrix, Vector]
"""``(wp, bp)``: the policy head, ``wp`` :data:`POLICY_INPUTS` × :data:`POLICY_OUTPUTS`
and ``bp`` :data:`POLICY_OUTPUTS`; a move ``source → target`` has the logit
``source's`` + ``target's`` (:func:`move_priors`)."""


@_compiled
def features(s: Array, g: ek.Constants, out: Vector) -> None:
    """Writes the inputs of the position ``s`` (6×6) into ``out[:NUM_INPUTS]``, from the
    view of the colour to move (the module's docstring lists them)."""
    out[:] = 0.0
    own = s[ek.TO_MOVE]
    other = 1 - own
    peak = s[ek.PEAK]
    own_height, own_sources = ek.lowest_sources(s, g, own)
    _, other_sources = ek.lowest_sources(s, g, other)
    empty = 0
    for q in range(SQUARES):
        height = s[ek.HEIGHTS + q]
        if height == 0:
            out[8 * SQUARES + q] = 1.0
            empty += 1
            continue
        pieces = s[ek.PIECES + q]
        top = (pieces >> (height - 1)) & 1
        offset = min(peak - height, 3)
        out[(2 * offset + (0 if top == own else 1)) * SQUARES + q] = 1.0
        if height > 1:
            below = (pieces >> (height - 2)) & 1
            out[(9 if below == own else 10) * SQUARES + q] = 1.0
        bit = np.int64(1) << q
        if own_sources & bit:
            out[11 * SQUARES + q] = 1.0
        if other_sources & bit:
            out[12 * SQUARES + q] = 1.0
        out[13 * SQUARES + q] = height / 10.0
    own_moves = ek.count_moves(s, g, own)
    out[GLOBALS] = peak / 10.0
    arrival = s[ek.ARRIVAL]
    if arrival == own:
        out[GLOBALS + 1] = 1.0
    elif arrival == other:
        out[GLOBALS + 2] = 1.0
    out[GLOBALS + 3] = own_moves / 16.0
    out[GLOBALS + 4] = ek.count_moves(s, g, other) / 16.0
    out[GLOBALS + 5] = 1.0 if own_moves == 0 else 0.0
    out[GLOBALS + 6] = empty / 36.0
    out[GLOBALS + 7] = own_height / 10.0


@_compiled
def forward(
    x: Vector,
    w1: Matrix,
    b1: Vector,
    w2: Matrix,
    b2: Vector,
    w3: Vector,
    b3: Vector,
    h1: Vector,
    h2: Vector,
) -> float:
    """The network's output for the inputs ``x``: the chance that the colour to move
    wins, in (0, 1); ``h1`` and ``h2`` are room for the hidden layers."""
    h1[:] = b1
    for i in range(x.shape[0]):
        xi = x[i]
        if xi != 0.0:
            row = w1[i]
            for j in range(h1.shape[0]):
                h1[j] += xi * row[j]
    h2[:] = b2
    for j in range(h1.shape[0]):
        hj = h1[j]
        if hj > 0.0:
            row = w2[j]
            for k in range(h2.shape[0]):
                h2[k] += hj * row[k]
    logit = b3[0]
    for k in range(h2.shape[0]):
        if h2[k] > 0.0:
            logit += h2[k] * w3[k]
    return 1.0 / (1.0 + math.exp(-logit))


@_compiled
def mover_value(s: Array, g: ek.Constants, net: Weights) -> float:
    """The network's chance that the colour to move wins ``s``."""
    x = np.empty(NUM_INPUTS, dtype=np.float32)
    h1 = np.empty(net[1].shape[0], dtype=np.float32)
    h2 = np.empty(net[3].shape[0], dtype=np.float32)
    features(s, g, x)
    return float(forward(x, net[0], net[1], net[2], net[3], net[4], net[5], h1, h2))


# ----- the search: parameters (g, weights, mix) ---------------------------------------

NetParams = tuple[ek.Constants, Weights, float]
"""The ``params`` of :func:`net_tree_search`: the board's constants, the weights, and
the share ``mix`` of a random playout in a leaf's value."""


@_compiled
def net_moves(s: Array, p: NetParams, found: Array) -> int:
    return ek.tree_moves(s, p[0], found)


@_compiled
def net_play(s: Array, p: NetParams, move: int) -> None:
    ek.tree_play(s, p[0], move)


@_compiled
def leaf_value(s: Array, p: NetParams, found: Array) -> float:
    """Light's value of ``s`` in [0, 1]: the network's, mixed with the result of a
    uniformly random playout by the share ``p[2]`` (AlphaGo's λ; 0: the network
    alone). Plays ``s`` out in place when it mixes."""
    g, net, mix = p
    value = mover_value(s, g, net)
    if s[ek.TO_MOVE] == 1:
        value = 1.0 - value
    if mix > 0.0:
        won = ek.rollout(s, g, found)
        value = (1.0 - mix) * value + mix * uct.first_colour_value(won)
    return value


_THIS: Final = sys.modules[__name__]
"""This module (numba caches functions passed through a module's attribute: see
:mod:`..endgame_kernel`)."""


@_compiled
def net_tree_search(root: Array, p: NetParams, c: float, iterations: int, tree: uct.Tree) -> int:
    """:func:`stairgames.core.uct.iterate_valued` on Stairs positions, each new leaf
    valued by :func:`leaf_value` (``p``: :data:`NetParams`)."""
    return uct.iterate_valued(
        _THIS.net_moves,
        _THIS.net_play,
        ek.winner,
        _THIS.leaf_value,
        ek.to_move,
        root,
        p,
        c,
        iterations,
        tree,
    )


def params(g: ek.Constants, net: Weights, mix: float) -> Any:
    """The ``params`` of :func:`net_tree_search`."""
    return (g, net, float(mix))
