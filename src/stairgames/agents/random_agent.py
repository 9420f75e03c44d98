"""The ``random`` player: a uniformly random legal action."""

from __future__ import annotations

from stairgames.agents.base import Agent, register_agent
from stairgames.core.game import State


class RandomAgent(Agent):
    name = "random"

    def step(self, state: State) -> int:
        return self.rng.choice(state.legal_actions())


register_agent("random", lambda seat, seed: RandomAgent(seat, seed=seed))
