"""Computer players. Every player works on every game through the shared protocol.

Build one from its text form with :func:`make_agent`:

>>> import stairgames
>>> from stairgames.agents import make_agent
>>> state = stairgames.load("stairs").new_initial_state()
>>> player = make_agent("mcts:iterations=50", seat=0, seed=1)
>>> state.is_legal(player.act(state))
True

Drivers call ``act``: it gives the player its seat's view of the state, never
the state itself (:func:`stairgames.core.views.seat_view`).
"""

from stairgames.agents.alphabeta import AlphaBetaAgent
from stairgames.agents.base import (
    Agent,
    make_agent,
    parse_player_spec,
    player_kinds,
    register_agent,
)
from stairgames.agents.determinise import DeterminisationError, Determiniser
from stairgames.agents.greedy import GreedyAgent
from stairgames.agents.levels import DEFAULT_LEVELS, LEVEL_NAMES, LevelAgent, level_player
from stairgames.agents.mcts import MctsAgent
from stairgames.agents.perfect import PerfectAgent
from stairgames.agents.random_agent import RandomAgent

__all__ = [
    "DEFAULT_LEVELS",
    "LEVEL_NAMES",
    "Agent",
    "AlphaBetaAgent",
    "DeterminisationError",
    "Determiniser",
    "GreedyAgent",
    "LevelAgent",
    "MctsAgent",
    "PerfectAgent",
    "RandomAgent",
    "level_player",
    "make_agent",
    "parse_player_spec",
    "player_kinds",
    "register_agent",
]
