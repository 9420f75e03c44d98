"""Every game as a single-agent Gymnasium environment against built-in opponents.

>>> from stairgames.interop.gymnasium import GameEnv
>>> env = GameEnv("twenty_seven", opponent="random")
>>> observation, info = env.reset(seed=3)
>>> observation.shape, int(env.action_masks().sum()), sorted(info)
((7, 27, 9), 9, ['action_mask', 'seat'])
>>> action = int(env.action_masks().argmax())
>>> observation, reward, terminated, truncated, info = env.step(action)
>>> reward, terminated, truncated
(0.0, False, False)

The learner plays one seat (``seat``; ``None`` draws it at each reset); every other
seat is a computer player named by a player spec (``opponent``: ``random``,
``greedy``, a level such as ``medium``, ``mcts:iterations=200``), each seeing only
its seat's view, as in the arena. ``stairgames.interop.gymnasium.make(name, ...)`` is
the same as ``GameEnv(name, ...)``; importing this module also registers every game
with Gymnasium as ``stairgames/<name>-v0``, so ``gymnasium.make("stairgames/
twenty_seven-v0", opponent="easy", variant="expert")`` works too (with Gymnasium's
usual wrappers around it).

- Observation: the game's observation tensor for the learner's seat
  (:mod:`stairgames.core.tensors`, ``docs/rl.md``), ``float32`` in [0, 1].
- Actions: ``Discrete(num_distinct_actions)``, the game's action ids. Only the legal
  ones may be played: :meth:`GameEnv.action_masks` (a boolean array, what masked
  policies such as sb3-contrib's ``MaskablePPO`` call) and ``info["action_mask"]``
  (``int8``) say which. An illegal action ends the episode at once with reward -1 and
  ``info["illegal_action"] = True`` (PettingZoo's rule for classic games).
- Reward: the learner's return when the game ends (as the game defines it), 0 before.
- ``truncated`` only for ``max_moves`` (the learner's decisions; none by default).
- Chance events and the opponents' generators come from the environment's generator,
  seeded through ``reset(seed=...)``: a seed replays the same episode for the same
  actions (with opponents whose budget is in iterations, not time). The seed never
  appears in observations or infos.
- ``render_mode``: ``"ansi"`` (the terminal drawing of the public position) and
  ``"rgb_array"`` where the game offers a picture.

Needs the ``gymnasium`` package (``pip install stairgames[rl]``).
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from stairgames.agents import Agent, make_agent
from stairgames.core.errors import InvalidOptionError
from stairgames.core.game import State
from stairgames.core.registry import game_names, get_spec, load
from stairgames.interop.pettingzoo import VERSION, environment_name, tensor_of

Observation = np.ndarray[Any, np.dtype[np.float32]]


class GameEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a game against computer players (see the module)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1}  # noqa: RUF012
    """Every mode some game offers (what ``gymnasium.make`` checks before building one);
    each environment's own ``metadata`` lists the modes its game offers (an instance
    attribute, as in ``gymnasium.Env``)."""

    def __init__(
        self,
        name: str,
        *,
        opponent: str = "random",
        seat: int | None = 0,
        render_mode: str | None = None,
        max_moves: int | None = None,
        **options: Any,
    ) -> None:
        self.game = load(name, **options)
        self.tensor = tensor_of(self.game)
        info = self.game.info()
        modes = ["ansi", "rgb_array"] if self.tensor.image is not None else ["ansi"]
        self.metadata = {"render_modes": modes, "name": environment_name(name), "render_fps": 1}
        if render_mode is not None and render_mode not in modes:
            raise InvalidOptionError(
                f"render_mode {render_mode!r} is not offered by {name}; choose from "
                + ", ".join(modes)
            )
        if seat is not None and not 0 <= seat < info.num_players:
            raise InvalidOptionError(
                f"seat must be None or 0 to {info.num_players - 1} for this game, got {seat!r}"
            )
        if max_moves is not None and max_moves < 1:
            raise InvalidOptionError(f"max_moves must be at least 1, got {max_moves}")
        make_agent(opponent, 0, game=self.game)  # refuses an unknown or unfit player now
        self.render_mode = render_mode
        self.opponent = opponent
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.max_moves = max_moves
        self.num_actions = info.num_distinct_actions
        self.observation_space = gymnasium.spaces.Box(
            0.0, 1.0, self.tensor.shape(self.game), np.float32
        )
        self.action_space = gymnasium.spaces.Discrete(self.num_actions)
        self.state: State = self.game.new_initial_state()
        self.opponents: dict[int, Agent] = {}
        self.moves = 0
        self.over = False
        """Whether the episode has ended (the game, an illegal action, or the move limit)."""

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new game, played up to the learner's first decision."""
        super().reset(seed=seed)
        del options
        players = self.game.num_players()
        if self.fixed_seat is None:
            self.seat = int(self.np_random.integers(players))
        self.opponents = {
            other: make_agent(
                self.opponent, other, seed=int(self.np_random.integers(2**63)), game=self.game
            )
            for other in range(players)
            if other != self.seat
        }
        self.state = self.game.new_initial_state()
        self.moves = 0
        self.over = False
        self._play_others()
        return self._observation(), self._info()

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """The learner plays ``action``; the others (and chance) play on to its next
        decision or to the end."""
        if self.over or self.state.is_terminal() or self.state.current_player() != self.seat:
            raise gymnasium.error.ResetNeeded("the episode is over: call reset()")
        if not self.state.is_legal(int(action)):
            self.over = True  # the state stays as it was; the next call must be reset()
            return self._observation(), -1.0, True, False, {**self._info(), "illegal_action": True}
        self.state.apply_action(int(action))
        self.moves += 1
        self._play_others()
        terminated = self.state.is_terminal()
        truncated = not terminated and self.max_moves is not None and self.moves >= self.max_moves
        self.over = terminated or truncated
        reward = float(self.state.returns()[self.seat]) if terminated else 0.0
        return self._observation(), reward, terminated, truncated, self._info()

    def _play_others(self) -> None:
        """Chance and the computer players act until the learner decides or the game ends."""
        state = self.state
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(self.np_random.choice(actions, p=probabilities)))
                continue
            player = state.current_player()
            if player == self.seat:
                return
            state.apply_action(self.opponents[player].act(state))

    def _observation(self) -> Observation:
        tensor: Observation = self.tensor.encode(self.state, self.seat)
        return tensor

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """The legal actions of the learner now, as a boolean mask over the action space
        (all false once the episode is over)."""
        mask = np.zeros(self.num_actions, dtype=np.bool_)
        if not self.over:
            mask[self.state.legal_actions(self.seat)] = True
        return mask

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_masks().astype(np.int8), "seat": self.seat}

    def render(self) -> str | np.ndarray[Any, np.dtype[np.uint8]] | None:
        """``"ansi"``: the terminal drawing of the public position; ``"rgb_array"``: the
        game's picture."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        if self.render_mode == "rgb_array":
            assert self.tensor.image is not None
            picture: np.ndarray[Any, np.dtype[np.uint8]] = self.tensor.image(self.state)
            return picture
        return get_spec(self.game.name).render(self.state, colour=False, viewer=None)


def make(name: str, **settings: Any) -> GameEnv:
    """:class:`GameEnv` for the game ``name``; ``opponent``, ``seat``, ``render_mode`` and
    ``max_moves`` go to the environment, every other keyword is a game option.

    :raises InvalidOptionError: unknown game, option, value or player.
    """
    return GameEnv(name, **settings)


def environment_id(name: str) -> str:
    """The Gymnasium id of a game's environment: ``stairgames/stairs-v0``."""
    return f"stairgames/{get_spec(name).name}-v{VERSION}"


def register_environments() -> list[str]:
    """Register every game with Gymnasium (once); their ids, sorted."""
    ids = []
    for name in game_names():
        environment = environment_id(name)
        if environment not in gymnasium.registry:
            gymnasium.register(
                id=environment,
                entry_point="stairgames.interop.gymnasium:GameEnv",
                kwargs={"name": name},
            )
        ids.append(environment)
    return sorted(ids)


register_environments()
