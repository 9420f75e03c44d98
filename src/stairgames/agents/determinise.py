"""Determinisation: a full state consistent with what one seat has seen.

Players search copies of the state. Where a game hides something (another
seat's card, the order of a deck), a copy would show it, so players search
*determinisations* instead: states where everything the seat cannot see is
redrawn at random, consistently with everything it has seen.

A game can offer this itself: the ``resample_hidden(state, seat, rng) -> State``
field of its registration (:class:`stairgames.core.registry.GameSpec`; players use
it first). Without it, a generic
method replays the game: starting from the initial state, each chance outcome
is redrawn with its probability among the outcomes that give the seat exactly
the observation it had at that point (``observation_string``), and each
player action is replayed as it was; an attempt that contradicts an
observation is dropped and tried again. The generic method needs a state that
grew from ``game.new_initial_state()`` (so not one built by
``state_from_position`` in a hidden-information game).

Only observations, player actions and chance probabilities steer the
redrawing, so two states that differ only in what the seat cannot see give
the same determinisations for the same generator.
"""

from __future__ import annotations

import random

from stairgames.core.errors import StairgamesError
from stairgames.core.game import State
from stairgames.core.registry import get_spec


class DeterminisationError(StairgamesError):
    """No state consistent with the seat's observations could be built."""


class Determiniser:
    """Draws determinisations of ``state`` for ``seat``, keeping a small pool of them."""

    def __init__(self, state: State, seat: int, *, pool_size: int = 16, attempts: int = 30) -> None:
        self.state = state
        self.seat = seat
        self.pool_size = pool_size
        self.attempts = attempts
        self.pool: list[State] = []
        self.hidden = state.get_game().info().hidden_information
        self._hook = get_spec(state.get_game().name).resample_hidden if self.hidden else None
        self._observations: list[str] | None = None
        self._initial: State | None = None

    def sample(self, rng: random.Random) -> State:
        """A fresh copy of a state consistent with what the seat knows.

        :raises DeterminisationError: the seat's observations could not be matched.
        """
        if not self.hidden:
            return self.state.clone()
        if len(self.pool) < self.pool_size:
            world = self._draw(rng)
            if world is not None:
                self.pool.append(world)
                return world.clone()
        if not self.pool:
            raise DeterminisationError(
                f"could not build a state consistent with seat {self.seat}'s observations in "
                f"{self.attempts} attempts; the game should offer GameSpec.resample_hidden"
            )
        return rng.choice(self.pool).clone()

    def _draw(self, rng: random.Random) -> State | None:
        if self._hook is not None:
            return self._hook(self.state, self.seat, rng)
        self._prepare()
        for _ in range(self.attempts):
            world = self._attempt(rng)
            if world is not None:
                return world
        return None

    def _prepare(self) -> None:
        """Replay the real game once to learn what the seat saw after each action."""
        if self._observations is not None:
            return
        initial = self.state.get_game().new_initial_state()
        replayed = initial.clone()
        observations = [replayed.observation_string(self.seat)]
        for action in self.state.history():
            replayed.apply_action(action)
            observations.append(replayed.observation_string(self.seat))
        if replayed.position() != self.state.position():
            raise DeterminisationError(
                "this state did not grow from the game's initial state, so the generic "
                "determinisation cannot replay it; the game should offer GameSpec.resample_hidden"
            )
        self._initial = initial
        self._observations = observations

    def _attempt(self, rng: random.Random) -> State | None:
        assert self._initial is not None and self._observations is not None
        world = self._initial.clone()
        for index, action in enumerate(self.state.history()):
            seen = self._observations[index + 1]
            if world.is_chance_node():
                found = self._matching_outcome(world, seen, rng)
                if found is None:
                    return None
                world = found
                continue
            if not world.is_legal(action):
                return None
            world.apply_action(action)
            if world.observation_string(self.seat) != seen:
                return None
        return world

    def _matching_outcome(self, world: State, seen: str, rng: random.Random) -> State | None:
        """Apply a chance outcome drawn with its probability among those matching ``seen``."""
        outcomes = list(world.chance_outcomes())
        while outcomes:
            total = sum(p for _, p in outcomes)
            roll = rng.random() * total
            index = 0
            for index, (_, probability) in enumerate(outcomes):  # noqa: B007
                roll -= probability
                if roll < 0:
                    break
            outcome, _ = outcomes.pop(index)
            candidate = world.clone()
            candidate.apply_action(outcome)
            if candidate.observation_string(self.seat) == seen:
                return candidate
        return None
