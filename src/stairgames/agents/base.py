"""The player interface and the factory that builds players from their text form.

A player is named by a kind and optional settings, as on the command line:
``random``, ``greedy``, ``mcts:time=0.5``, ``mcts:iterations=2000,c=1.0``,
``alphabeta:time=1``, or a level: ``easy``, ``medium``, ``hard``, ``expert``.
"""

from __future__ import annotations

import abc
import math
import random
from collections.abc import Callable, Mapping

from stairgames.core.errors import InvalidOptionError
from stairgames.core.game import State
from stairgames.i18n import N_


class Agent(abc.ABC):
    """A computer player for one seat.

    ``step`` receives the state at one of this seat's decisions and returns a
    legal action. A player must only use what its seat may know: the legal
    actions, its observation, copies of the state (``clone``) for perfect
    information games, and determinisations (:mod:`stairgames.agents.determinise`)
    where some of the state is hidden. Its randomness comes from its own seeded
    generator, so a seed makes its choices repeatable (with an iteration budget;
    a time budget depends on the machine's speed).
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

    def describe(self) -> str:
        """The player's text form with its settings, e.g. ``mcts:time=0.5``."""
        return self.name


Settings = Mapping[str, str]
AgentFactory = Callable[[int, int | None, Settings], Agent]

_FACTORIES: dict[str, AgentFactory] = {}


def register_agent(name: str, factory: AgentFactory) -> None:
    """Make a player kind available by name; ``factory(seat, seed, settings)``."""
    _FACTORIES[name] = factory


def player_kinds() -> list[str]:
    """Names of the computer players, for ``--dark mcts`` and the like."""
    return sorted(_FACTORIES)


def parse_player_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"mcts:time=0.5,c=1"`` into ``("mcts", {"time": "0.5", "c": "1"})``.

    :raises InvalidOptionError: a setting is not ``NAME=VALUE``.
    """
    kind, _, rest = spec.strip().partition(":")
    settings: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        name, equals, value = item.partition("=")
        if not equals or not name.strip() or not value.strip():
            raise InvalidOptionError(
                message_id=N_(
                    "player setting {item!r} in {spec!r} is not NAME=VALUE (e.g. mcts:time=0.5)"
                ),
                arguments={"item": item, "spec": spec},
            )
        settings[name.strip().lower()] = value.strip()
    return kind.strip().lower(), settings


def make_agent(kind: str, seat: int, seed: int | None = None) -> Agent:
    """A computer player from its text form (``"random"``, ``"mcts:time=0.5"``, ``"hard"``).

    :raises InvalidOptionError: unknown kind or setting; the message lists what is allowed.
    """
    name, settings = parse_player_spec(kind)
    factory = _FACTORIES.get(name)
    if factory is None:
        allowed = ", ".join(["human", *player_kinds()])
        raise InvalidOptionError(
            message_id=N_("unknown player {kind!r}; choose from {allowed}"),
            arguments={"kind": kind, "allowed": allowed},
        )
    return factory(seat, seed, settings)


def check_settings(kind: str, settings: Settings, allowed: Mapping[str, str]) -> None:
    """Refuse settings a player does not know; ``allowed`` maps each name to its meaning."""
    unknown = sorted(set(settings) - set(allowed))
    if unknown:
        known = "; ".join(f"{name}: {meaning}" for name, meaning in allowed.items()) or "none"
        raise InvalidOptionError(
            message_id=N_("unknown setting(s) {unknown} for player {kind!r}; known: {known}"),
            arguments={"unknown": ", ".join(unknown), "kind": kind, "known": known},
        )


def float_setting(
    settings: Settings,
    name: str,
    default: float,
    *,
    minimum: float = 0.0,
    maximum: float = math.inf,
) -> float:
    """A numeric setting, refused with a clear message when malformed or out of range."""
    if name not in settings:
        return default
    text = settings[name]
    try:
        value = float(text)
    except ValueError:
        raise InvalidOptionError(
            message_id=N_("player setting {name}={text!r} is not a number"),
            arguments={"name": name, "text": text},
        ) from None
    if not value >= minimum:
        raise InvalidOptionError(
            message_id=N_("player setting {name}={text!r} must be at least {minimum}"),
            arguments={"name": name, "text": text, "minimum": minimum},
        )
    if value > maximum:
        raise InvalidOptionError(
            message_id=N_("player setting {name}={text!r} must be at most {maximum}"),
            arguments={"name": name, "text": text, "maximum": maximum},
        )
    return value


def int_setting(settings: Settings, name: str, default: int, *, minimum: int = 0) -> int:
    """An integer setting, refused with a clear message when malformed or too small."""
    if name not in settings:
        return default
    text = settings[name]
    try:
        value = int(text)
    except ValueError:
        raise InvalidOptionError(
            message_id=N_("player setting {name}={text!r} is not a whole number"),
            arguments={"name": name, "text": text},
        ) from None
    if value < minimum:
        raise InvalidOptionError(
            message_id=N_("player setting {name}={text!r} must be at least {minimum}"),
            arguments={"name": name, "text": text, "minimum": minimum},
        )
    return value


def format_settings(kind: str, settings: Mapping[str, object]) -> str:
    """The text form ``kind:name=value,...`` (just ``kind`` without settings)."""
    if not settings:
        return kind
    return kind + ":" + ",".join(f"{name}={value}" for name, value in settings.items())
