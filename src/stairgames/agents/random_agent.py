"""The ``random`` player: a uniformly random legal action."""

from __future__ import annotations

from stairgames.agents.base import Agent, Settings, check_settings, register_agent
from stairgames.core.game import State


class RandomAgent(Agent):
    name = "random"

    def step(self, state: State) -> int:
        return self.rng.choice(state.legal_actions())


def _make(seat: int, seed: int | None, settings: Settings) -> Agent:
    check_settings("random", settings, {})
    return RandomAgent(seat, seed=seed)


register_agent("random", _make)
