"""Observation tensors: what a game offers learning code, as typed data.

A game's registration (:class:`stairgames.core.registry.GameSpec`) may name, in
``observation_tensor``, an :class:`ObservationTensor` by a ``"module:attribute"`` reference: the
game's own encoding of a state as numbers, from one seat's point of view, holding
exactly what that seat may know (never another seat's hidden card). The encoding
lives in the game's package (``play/tensor.py``) and is imported only
when first asked for, so loading a game imports none of it. The research
interfaces (:mod:`stairgames.interop.pettingzoo`, :mod:`stairgames.interop.gymnasium`,
the tensors of :mod:`stairgames.interop.openspiel`) read these fields and nothing
else; they never name a game.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

from stairgames.core.game import Game, State

_T = TypeVar("_T")

Array = Any
"""A ``numpy.ndarray`` (kept as ``Any`` here so that this module does not import numpy)."""


@dataclasses.dataclass(frozen=True)
class ObservationTensor:
    """A game's observation tensor: its fixed shape per option set and its encoder."""

    shape: Callable[[Game], tuple[int, ...]]
    """``shape(game)``: the shape of every tensor of ``game`` (fixed by its options)."""
    encode: Callable[[State, int], Array]
    """``encode(state, seat)``: a ``float32`` array of :attr:`shape` holding what ``seat``
    may know of ``state`` and nothing more, from that seat's point of view. Defined at
    every node, chance and terminal nodes included."""
    layout: Callable[[Game], tuple[tuple[str, int], ...]]
    """``layout(game)``: the tensor's parts along its first axis, in order, each as
    ``(name, size)`` (planes of a board, or stretches of a flat vector), for people to
    read and for tests; the sizes add up to ``shape(game)[0]``."""
    image: Callable[[State], Array] | None = None
    """Optional: a small RGB picture of the public position (``uint8``, height × width × 3),
    for ``render_mode="rgb_array"``; it shows nothing hidden from a spectator."""
    information_state: InformationStateTensor | None = None
    """Optional, for games with hidden information: the seat's information state as a
    tensor (perfect recall: it tells apart histories the seat can tell apart), what
    OpenSpiel's imperfect-information algorithms read."""


def same_for_every_option_set(value: _T) -> Callable[[Game], _T]:
    """A ``shape`` or ``layout`` for a game whose tensors do not depend on its options."""

    def constant(game: Game) -> _T:
        del game
        return value

    return constant


@dataclasses.dataclass(frozen=True)
class InformationStateTensor:
    """A game's information-state tensor: the observation and what the seat remembers."""

    shape: Callable[[Game], tuple[int, ...]]
    """``shape(game)``: fixed by the options."""
    encode: Callable[[State, int], Array]
    """``encode(state, seat)``: a ``float32`` array of :attr:`shape`, made only of what
    ``seat`` may know (its view of the history, :meth:`State.history_strings`)."""
