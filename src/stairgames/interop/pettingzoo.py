"""Every game as a PettingZoo AEC environment (turn-based, multi-agent).

>>> from stairgames.interop import pettingzoo as sg_pettingzoo
>>> env = sg_pettingzoo.env("twenty_seven", variant="advanced")
>>> env.reset(seed=7)
>>> env.agent_selection, env.observation_space("player_0")["observation"].shape
('player_0', (7, 27, 9))
>>> observation, reward, termination, truncation, info = env.last()
>>> int(observation["action_mask"].sum()), reward, termination, truncation
(9, 0.0, False, False)
>>> env.step(int(observation["action_mask"].argmax()))
>>> env.agent_selection
'player_1'

Named and versioned as PettingZoo's classic environments are: ``env(name,
**options)`` and ``raw_env(name, **options)`` take any registered game by name with
its options (those of :func:`stairgames.load`), and ``stairs_v0.env(pie_rule=True)``,
``twenty_seven_v0``, ``ishigaki_race_v0``, ``city_of_stairs_v0`` (every registered
game as ``<name>_v0``) do the same for one game.

- Agents ``player_0`` ... ``player_{n-1}``: seat ``i`` of the game (2 to 4 for
  Ishigaki Race and City of Stairs, by the ``players`` option).
- Observations: ``{"observation": tensor, "action_mask": mask}``. The tensor is the
  game's own observation tensor for that seat (:mod:`stairgames.core.tensors`,
  ``docs/rl.md``): exactly what the seat may know, from its point of view, ``float32``
  in [0, 1], of a shape fixed by the game and its options. The mask is ``int8`` over
  the game's fixed action space (``GameInfo.num_distinct_actions``, the game's action
  ids), 1 on the legal actions of the agent to act and all 0 for the others.
- Rewards: the game's returns when it ends (Stairs and 27: +1, -1, or 0 for a draw;
  Ishigaki Race: 1 for the winner, 0 for the others; City of Stairs: 1 for each
  winner, ties sharing, 0 for the others), 0 before.
- ``truncation`` only for the move limit ``max_moves`` (player decisions; none by
  default: every game ends).
- Chance (dice, draws, deals, the start player) is resolved inside the environment by
  its generator, seeded through ``reset(seed=...)`` exactly as Shimmy's OpenSpiel
  wrapper does (``np_random.choice(outcomes, p=probabilities)``), so the two give the
  same games from the same seed. The seed and the draws to come never appear in
  observations or infos.
- ``state()``: the true state, for research use (a centralised critic): every seat's
  tensor, concatenated. In City of Stairs it holds every departure card; give agents
  their observations, never this. ``game_state`` is the protocol's
  :class:`~stairgames.core.game.State` itself, the engine's truth as well.
- ``render_mode``: ``"ansi"``, the terminal drawing a spectator sees (public
  information only), and ``"rgb_array"`` where the game offers a small picture
  (Stairs, 27, Ishigaki Race).

Needs the ``pettingzoo`` and ``gymnasium`` packages (``pip install stairgames[rl]``).
"""

from __future__ import annotations

import functools
import math
from typing import Any

import gymnasium
import numpy as np
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from stairgames.core.errors import IllegalMoveError, InvalidOptionError
from stairgames.core.game import Game, State
from stairgames.core.registry import game_names, get_spec, load, observation_tensor
from stairgames.core.tensors import ObservationTensor

VERSION = 0
"""The version in every environment's name (``stairs_v0``); it changes when the
observations, actions or rewards of an environment change."""

AGENT_PREFIX = "player_"


def agent_name(seat: int) -> str:
    """The agent of a seat: ``player_0`` for seat 0."""
    return f"{AGENT_PREFIX}{seat}"


def environment_name(name: str) -> str:
    """The versioned environment name of a game: ``stairs_v0``."""
    return f"{get_spec(name).name}_v{VERSION}"


def tensor_of(game: Game) -> ObservationTensor:
    """The observation tensor ``game`` offers.

    :raises InvalidOptionError: the game offers none.
    """
    tensor = observation_tensor(game.name)
    if tensor is None:
        raise InvalidOptionError(f"{game.name} offers no observation tensor")
    return tensor


class RawEnv(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """One game as an AEC environment (see the module); ``env()`` adds PettingZoo's usual
    wrappers around it."""

    def __init__(
        self,
        name: str,
        *,
        render_mode: str | None = None,
        max_moves: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game = load(name, **options)
        self.tensor = tensor_of(self.game)
        info = self.game.info()
        modes = ["ansi", "rgb_array"] if self.tensor.image is not None else ["ansi"]
        self.metadata = {
            "render_modes": modes,
            "name": environment_name(name),
            "is_parallelizable": False,
        }
        if render_mode is not None and render_mode not in modes:
            raise InvalidOptionError(
                f"render_mode {render_mode!r} is not offered by {self.metadata['name']}; "
                f"choose from {', '.join(modes)}"
            )
        if max_moves is not None and max_moves < 1:
            raise InvalidOptionError(f"max_moves must be at least 1, got {max_moves}")
        self.render_mode = render_mode
        self.max_moves = max_moves
        self.possible_agents = [agent_name(seat) for seat in range(info.num_players)]
        self.agents: list[str] = []
        self.num_actions = info.num_distinct_actions
        shape = self.tensor.shape(self.game)
        observation = gymnasium.spaces.Box(0.0, 1.0, shape, np.float32)
        mask = gymnasium.spaces.Box(0, 1, (self.num_actions,), np.int8)
        self.observation_spaces = {
            agent: gymnasium.spaces.Dict({"observation": observation, "action_mask": mask})
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: gymnasium.spaces.Discrete(self.num_actions) for agent in self.possible_agents
        }
        self.state_space = gymnasium.spaces.Box(
            0.0, 1.0, (info.num_players * math.prod(shape),), np.float32
        )
        self.np_random: np.random.Generator | None = None
        self.game_state: State = self.game.new_initial_state()
        self.moves = 0

    # ----- spaces -------------------------------------------------------------

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # ----- play ---------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. ``seed`` seeds the environment's generator (its chance events);
        without one the generator goes on (a fresh one the first time)."""
        del options
        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
        self.game_state = self.game.new_initial_state()
        self.moves = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._resolve_chance()
        self._select_agent()

    def step(self, action: int | None) -> None:
        """The agent to act plays ``action`` (an action id); chance that follows is resolved.

        :raises IllegalMoveError: the action is not legal here (``env()`` ends the game
            instead, with -1 for the agent that played it).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not self.game_state.is_legal(int(action)):
            raise IllegalMoveError(
                f"{agent} played {action!r}, which is not legal here; "
                f"legal: {self.game_state.legal_actions()}"
            )
        self._cumulative_rewards[agent] = 0.0
        self.game_state.apply_action(int(action))
        self.moves += 1
        self._resolve_chance()
        self._clear_rewards()
        if self.game_state.is_terminal():
            returns = self.game_state.returns()
            for seat, agent_at in enumerate(self.possible_agents):
                self.rewards[agent_at] = float(returns[seat])
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_moves is not None and self.moves >= self.max_moves:
            self.truncations = dict.fromkeys(self.agents, True)
        self._select_agent()
        self._accumulate_rewards()

    def _resolve_chance(self) -> None:
        """Apply chance outcomes drawn from the environment's generator until a seat acts
        (the draw Shimmy's OpenSpiel wrapper makes, for the same games from a seed)."""
        state = self.game_state
        assert self.np_random is not None
        while state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(self.np_random.choice(actions, p=probabilities)))

    def _select_agent(self) -> None:
        player = self.game_state.current_player()
        if player >= 0:
            self.agent_selection = agent_name(player)
        elif self.agents:
            self.agent_selection = self.agents[0]

    # ----- what agents see ----------------------------------------------------

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation: its seat's tensor and its action mask (all 0 when it is
        not to act)."""
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.num_actions, dtype=np.int8)
        mask[self.game_state.legal_actions(seat)] = 1
        return {"observation": self.tensor.encode(self.game_state, seat), "action_mask": mask}

    def action_mask(self, agent: str) -> np.ndarray[Any, np.dtype[np.int8]]:
        """``agent``'s action mask (the ``"action_mask"`` of its observation)."""
        mask: np.ndarray[Any, np.dtype[np.int8]] = self.observe(agent)["action_mask"]
        return mask

    def state(self) -> np.ndarray[Any, np.dtype[np.float32]]:
        """The true state, for research use only: every seat's tensor, flattened and
        concatenated in seat order. With hidden information (City of Stairs) it holds
        what some seats may not know; agents get :meth:`observe`."""
        seats = range(len(self.possible_agents))
        return np.concatenate([self.tensor.encode(self.game_state, s).ravel() for s in seats])

    def render(self) -> str | np.ndarray[Any, np.dtype[np.uint8]] | None:
        """``"ansi"``: the terminal drawing of the public position; ``"rgb_array"``: the
        game's picture; without a render mode, a warning and ``None``."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        if self.render_mode == "rgb_array":
            assert self.tensor.image is not None
            picture: np.ndarray[Any, np.dtype[np.uint8]] = self.tensor.image(self.game_state)
            return picture
        render = get_spec(self.game.name).render
        return render(self.game_state, colour=False, viewer=None)

    def close(self) -> None:
        """Nothing to release (no window is ever opened)."""
        return None


def raw_env(name: str, **options: Any) -> RawEnv:
    """The game ``name`` as an AEC environment without wrappers (see the module);
    ``render_mode`` and ``max_moves`` go to the environment, every other keyword is a
    game option.

    :raises InvalidOptionError: unknown game, option or value.
    """
    return RawEnv(name, **options)


def env(name: str, **options: Any) -> AECEnv[str, dict[str, Any], int]:
    """:func:`raw_env` in PettingZoo's usual wrappers for classic games: an illegal
    action ends the game with -1 for its agent (and 0 for the others), an action out of
    range fails an assertion, and the order of calls is enforced."""
    wrapped: AECEnv[str, dict[str, Any], int] = raw_env(name, **options)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class VersionedEnvironment:
    """One game's environments under its versioned name, as PettingZoo's classic
    modules offer them: ``stairs_v0.env(pie_rule=True)``, ``stairs_v0.raw_env()``."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.env = functools.partial(env, name)
        self.raw_env = functools.partial(raw_env, name)

    def __repr__(self) -> str:
        return f"<{environment_name(self.name)}: PettingZoo environments of {self.name}>"


def environments() -> dict[str, VersionedEnvironment]:
    """Every registered game's environments by versioned name (``stairs_v0``)."""
    return {environment_name(name): VersionedEnvironment(name) for name in game_names()}


def __getattr__(attribute: str) -> VersionedEnvironment:
    """``stairs_v0`` and the like: :func:`environments` as module attributes."""
    found = environments().get(attribute)
    if found is None:
        raise AttributeError(f"module {__name__!r} has no attribute {attribute!r}")
    return found
