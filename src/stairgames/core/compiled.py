"""Compiling a game's hot loops (an exact solver's search) with numba.

Games that search their own positions far faster than the protocol allows (the
Stairs and 27 endgame solvers) keep those positions in numpy arrays and compile the
search with :func:`compiled`: numba's ``njit``, cached on disk next to the module
(compiled once per machine, a few seconds; loaded by a new process in under one).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

import numba

_F = TypeVar("_F", bound=Callable[..., object])


def compiled(function: _F) -> _F:
    """numba's ``njit`` (cached on disk), keeping the function's type for mypy."""
    return cast(_F, numba.njit(cache=True, nogil=True)(function))
