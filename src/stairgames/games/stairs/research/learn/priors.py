"""The search of Stairs guided by the learned policy's move priors (``mcts:net=1,policy=1``),
compiled apart from :mod:`.kernel` so that its warm-up is its own: players that do not
take ``policy=1`` (the levels among them) never compile it.

:func:`guided_evaluate` judges a new node by one pass of the value network
(:func:`.kernel.forward`) and gives each of its moves the policy head's prior
(:func:`move_priors`: the head reads the inputs and both hidden layers, a move's logit is
its source square's plus its target square's, and a node's moves share a softmax);
:func:`guided_net_tree_search` runs :func:`stairgames.core.uct.iterate_guided` (PUCT)
with it.
"""

from __future__ import annotations

import math
import sys
from typing import Any, Final

import numpy as np

from stairgames import i18n
from stairgames.core import uct
from stairgames.core.compiled import Kernel
from stairgames.games.stairs import rules
from stairgames.games.stairs.research import endgame_kernel as ek
from stairgames.games.stairs.research.learn import kernel
from stairgames.games.stairs.research.learn.kernel import (
    Array,
    Matrix,
    PolicyWeights,
    Vector,
    Weights,
)

KERNEL: Final = Kernel(__name__, copies=(ek, rules, i18n, uct, kernel))
_compiled = KERNEL.compiled

GuidedParams = tuple[ek.Constants, Weights, PolicyWeights]
"""The ``params`` of :func:`guided_net_tree_search`: the board's constants, the value
network's weights and the policy head's."""


@_compiled
def add_rows(values: Vector, offset: int, wp: Matrix, columns: Array, logits: Vector) -> None:
    """Adds ``values[j]`` × row ``offset + j`` of ``wp`` to ``logits`` in ``columns``, for
    the values above 0 (the inputs are never below 0; the hidden layers' ReLU)."""
    for j in range(values.shape[0]):
        value = values[j]
        if value > 0.0:
            row = wp[offset + j]
            for k in columns:
                logits[k] += value * row[k]


@_compiled
def move_priors(
    x: Vector,
    h1: Vector,
    h2: Vector,
    policy: PolicyWeights,
    found: Array,
    count: int,
    logits: Vector,
    prior: Vector,
    first: int,
) -> None:
    """Writes the policy's share of each move ``found[:count]`` into ``prior[first:]``:
    the softmax over the moves of source's + target's logit, the logits computed from
    the inputs ``x`` and the hidden layers ``h1`` and ``h2`` (before ReLU) for the
    squares the moves name only (``logits``: room for :data:`POLICY_OUTPUTS`)."""
    wp, bp = policy
    wanted = np.zeros(kernel.POLICY_OUTPUTS, dtype=np.bool_)
    for i in range(count):
        wanted[found[i] >> 6] = True
        wanted[kernel.SQUARES + (found[i] & 63)] = True
    columns = np.flatnonzero(wanted)
    for k in columns:
        logits[k] = bp[k]
    add_rows(x, 0, wp, columns, logits)
    add_rows(h1, x.shape[0], wp, columns, logits)
    add_rows(h2, x.shape[0] + h1.shape[0], wp, columns, logits)
    top = -np.inf
    for i in range(count):
        z = logits[found[i] >> 6] + logits[kernel.SQUARES + (found[i] & 63)]
        prior[first + i] = z
        top = max(top, z)
    total = 0.0
    for i in range(count):
        share = math.exp(prior[first + i] - top)
        prior[first + i] = share
        total += share
    for i in range(count):
        prior[first + i] /= total


@_compiled
def guided_evaluate(
    s: Array, p: GuidedParams, found: Array, count: int, prior: Vector, first: int
) -> float:
    """The network's value of ``s`` for colour 0, in [0, 1], and the policy's prior of
    each of its moves ``found[:count]`` written into ``prior[first:]`` (the evaluation
    of :func:`stairgames.core.uct.iterate_guided`)."""
    g, net, policy = p
    x = np.empty(kernel.NUM_INPUTS, dtype=np.float32)
    h1 = np.empty(net[1].shape[0], dtype=np.float32)
    h2 = np.empty(net[3].shape[0], dtype=np.float32)
    kernel.features(s, g, x)
    value = float(kernel.forward(x, net[0], net[1], net[2], net[3], net[4], net[5], h1, h2))
    if count > 0:
        logits = np.empty(kernel.POLICY_OUTPUTS, dtype=np.float32)
        move_priors(x, h1, h2, policy, found, count, logits, prior, first)
    return 1.0 - value if s[ek.TO_MOVE] == 1 else value


_THIS: Final = sys.modules[__name__]
"""This module (numba caches functions passed through a module's attribute: see
:mod:`..endgame_kernel`)."""


@_compiled
def guided_net_tree_search(
    root: Array, p: GuidedParams, c: float, iterations: int, tree: uct.Tree
) -> int:
    """:func:`stairgames.core.uct.iterate_guided` on Stairs positions: each new leaf
    valued by the network and its moves given the policy's priors
    (:func:`guided_evaluate`; ``p``: :data:`GuidedParams`)."""
    return uct.iterate_guided(
        kernel.net_moves,
        kernel.net_play,
        ek.winner,
        _THIS.guided_evaluate,
        ek.to_move,
        root,
        p,
        c,
        iterations,
        tree,
    )


def params(g: ek.Constants, net: Weights, policy: PolicyWeights) -> Any:
    """The ``params`` of :func:`guided_net_tree_search`."""
    return (g, net, policy)
