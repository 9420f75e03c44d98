"""Computer players. Every player works on every game through the shared protocol."""

from stairgames.agents.base import Agent, make_agent, player_kinds
from stairgames.agents.random_agent import RandomAgent

__all__ = ["Agent", "RandomAgent", "make_agent", "player_kinds"]
