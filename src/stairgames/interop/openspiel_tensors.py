"""Observation and information-state tensors for the OpenSpiel bridge.

:mod:`stairgames.interop.openspiel` asks this module which tensors a game offers
(:func:`provides_observation_tensor`, :func:`provides_information_state_tensor`) and
wraps its string observer with :func:`with_tensor`, so that ``state.observation_tensor(
player)`` and ``state.information_state_tensor(player)`` give the game's own tensors
(:mod:`stairgames.core.tensors`), flattened, as OpenSpiel expects; their shapes are
``game.observation_tensor_shape()`` and ``game.information_state_tensor_shape()``.
Observation tensors are offered by every game; information-state tensors by the games
with hidden information that define one (City of Stairs), since in the others the
observation already is the whole state.
"""

from __future__ import annotations

import math
from typing import Any, Protocol

import numpy as np

from stairgames.core.game import Game
from stairgames.core.registry import observation_tensor
from stairgames.core.tensors import InformationStateTensor, ObservationTensor


class StringObserver(Protocol):
    """The bridge's string observer (OpenSpiel's ``PyObserver``, strings only)."""

    def string_from(self, state: Any, player: int) -> str: ...


def provides_observation_tensor(name: str) -> bool:
    return observation_tensor(name) is not None


def provides_information_state_tensor(name: str) -> bool:
    tensor = observation_tensor(name)
    return tensor is not None and tensor.information_state is not None


class TensorObserver:
    """OpenSpiel's observer protocol with tensors: :attr:`tensor` (flat ``float32``) and
    :attr:`dict` (the same numbers in the game's shape) are filled by :meth:`set_from`;
    strings come from the bridge's string observer."""

    def __init__(
        self,
        strings: StringObserver,
        encoding: ObservationTensor | InformationStateTensor,
        game: Game,
        key: str,
    ) -> None:
        self.strings = strings
        self.encode = encoding.encode
        shape = encoding.shape(game)
        self.tensor = np.zeros(math.prod(shape), dtype=np.float32)
        self.dict = {key: self.tensor.reshape(shape)}

    def set_from(self, state: Any, player: int) -> None:
        self.tensor[:] = np.ravel(self.encode(state.inner, player))

    def string_from(self, state: Any, player: int) -> str:
        return self.strings.string_from(state, player)


def with_tensor(strings: StringObserver, game: Game, *, perfect_recall: bool) -> Any:
    """``strings`` with the tensors ``game`` offers added: the information-state tensor
    for a perfect-recall observer, else the observation tensor; ``strings`` itself when
    the game offers no such tensor."""
    offered = observation_tensor(game.name)
    if offered is None:
        return strings
    if not perfect_recall:
        return TensorObserver(strings, offered, game, "observation")
    if offered.information_state is None:
        return strings
    return TensorObserver(strings, offered.information_state, game, "info_state")
