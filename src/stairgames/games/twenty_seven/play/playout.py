"""Compiled uniformly random playouts and tree search of 27 (the ``playout`` and
``tree_search`` hooks of :mod:`stairgames.games.twenty_seven.play.evaluate`): a
state's line as a line array of the endgame solver's kernel
(:mod:`stairgames.games.twenty_seven.research.endgame_kernel`), played to the end by
``kernel.playout`` or searched by ``kernel.tree_search``
(:mod:`stairgames.core.uct` says how they play and what is checked).
"""

from __future__ import annotations

import random
from typing import Final

import numpy as np

from stairgames.core import uct
from stairgames.core.game import State
from stairgames.games.twenty_seven.game import TwentySevenGame, TwentySevenOptions, TwentySevenState
from stairgames.games.twenty_seven.notation import MAX_COUNT, MAX_FIELDS, PASS
from stairgames.games.twenty_seven.research import endgame_kernel as kernel

_RETURNS: Final = {1: [1.0, -1.0], 0: [0.0, 0.0], -1: [-1.0, 1.0]}
"""The returns by seat (white is seat 0) of T5's result for white."""


def playout(state: State, rng: random.Random) -> list[float]:
    """Uniformly random play from ``state`` to the end, compiled; the returns by seat."""
    assert isinstance(state, TwentySevenState)
    s = kernel.line_array(state.line)
    found = np.empty(kernel.MAX_MOVES, dtype=np.int64)
    variant = kernel.VARIANT_CODES[state.variant]
    result = kernel.playout(s, variant, uct.seed_of(rng), uct.NO_SCRIPT, found)
    return list(_RETURNS[result])


def _kernel_move_actions() -> dict[int, int]:
    """The action of each kernel move (``field * 64 + discs``), and of a pass."""
    actions = {uct.PASS: PASS}
    for field in range(MAX_FIELDS):
        for discs in range(1, MAX_COUNT + 1):
            actions[field * 64 + discs] = field * MAX_COUNT + discs - 1
    return actions


_ACTIONS: Final = _kernel_move_actions()


def tree_search(state: State) -> uct.TreeSearch:
    """The compiled tree search of ``state``."""
    assert isinstance(state, TwentySevenState)
    params = np.array([kernel.VARIANT_CODES[state.variant]], dtype=np.int64)
    return uct.TreeSearch(
        kernel.tree_search,
        kernel.line_array(state.line),
        params,
        _ACTIONS,
        (0, 1),
        max_moves=kernel.MAX_MOVES,
    )


def warm_up() -> None:
    """Compile (the first time on a machine) or load the playout's and the tree
    search's kernel functions, by playing one game from the opening (before
    :func:`.endgame.warm_up`, which records the kernel warm)."""
    state = TwentySevenGame(TwentySevenOptions()).new_initial_state()
    playout(state, random.Random(0))
    uct.warm_up(tree_search(state))
