"""Compiled uniformly random playouts of 27 (the ``playout`` hook of
:mod:`stairgames.games.twenty_seven.evaluate`).

:func:`playout` writes a state's line into a line array
(:mod:`stairgames.games.twenty_seven.kernel`) and plays it to the end with the
compiled :func:`kernel.playout`, which uses the move generation of the endgame
solver. It plays the same games as uniformly random play through the protocol *in
distribution*, not move for move: the moves are drawn by numba's generator, seeded
with one draw from the caller's ``rng``. ``tests/test_compiled_playouts.py`` checks
that it offers the moves the rules offer and ends scripted games with the rules'
results.
"""

from __future__ import annotations

import random
from typing import Final

import numpy as np

from stairgames.core.game import State
from stairgames.games.twenty_seven import kernel, rules
from stairgames.games.twenty_seven.game import TwentySevenState

_NO_SCRIPT: Final = np.zeros(0, dtype=np.int64)
_RETURNS: Final = {1: [1.0, -1.0], 0: [0.0, 0.0], -1: [-1.0, 1.0]}
"""The returns by seat (white is seat 0) of T5's result for white."""


def playout(state: State, rng: random.Random) -> list[float]:
    """Uniformly random play from ``state`` to the end, compiled; the returns by seat."""
    assert isinstance(state, TwentySevenState)
    s = kernel.line_array(state.line)
    found = np.empty(kernel.MAX_MOVES, dtype=np.int64)
    variant = kernel.VARIANT_CODES[state.variant]
    result = kernel.playout(s, variant, rng.getrandbits(62), _NO_SCRIPT, found)
    return list(_RETURNS[result])


def warm_up() -> None:
    """Compile (the first time on a machine) or load the playout's kernel functions,
    by playing one game from the opening (before :func:`.solve.warm_up`, which records
    the kernel warm)."""
    s = kernel.line_array(rules.initial_line())
    kernel.playout(s, 0, 0, _NO_SCRIPT, np.empty(kernel.MAX_MOVES, dtype=np.int64))
