"""The player interface and the factory that builds players by name."""

from __future__ import annotations

import abc
import random
from collections.abc import Callable

from stairgames.core.errors import InvalidOptionError
from stairgames.core.game import State


class Agent(abc.ABC):
    """A computer player for one seat.

    ``step`` receives the state at one of this seat's decisions and returns a
    legal action. A player must only use what its seat may know (its
    observation and the legal actions); its randomness comes from its own
    seeded generator, so a seed makes its choices repeatable.
    """

    name: str = "agent"

    def __init__(self, seat: int, *, seed: int | None = None) -> None:
        self.seat = seat
        self.rng = random.Random(seed)

    @abc.abstractmethod
    def step(self, state: State) -> int:
        """The action this player takes in ``state`` (its seat is to act)."""

    def restart(self) -> None:
        """Forget anything learned during a game (called between games)."""
        return None


AgentFactory = Callable[[int, int | None], Agent]

_FACTORIES: dict[str, AgentFactory] = {}


def register_agent(name: str, factory: AgentFactory) -> None:
    _FACTORIES[name] = factory


def player_kinds() -> list[str]:
    """Names of the computer players, for ``--dark random`` and the like."""
    return sorted(_FACTORIES)


def make_agent(kind: str, seat: int, seed: int | None = None) -> Agent:
    """A computer player by name.

    :raises InvalidOptionError: unknown kind; the message lists the known ones.
    """
    factory = _FACTORIES.get(kind)
    if factory is None:
        allowed = ", ".join(["human", *player_kinds()])
        raise InvalidOptionError(f"unknown player {kind!r}; choose from {allowed}")
    return factory(seat, seed)
