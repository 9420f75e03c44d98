"""The single-agent Gymnasium environment of every game against built-in opponents."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import stairgames
from stairgames.core.errors import InvalidOptionError
from stairgames.core.registry import get_spec

gymnasium = pytest.importorskip(
    "gymnasium", reason="gymnasium is not installed (pip install stairgames[rl])"
)
pytest.importorskip("pettingzoo", reason="pettingzoo is not installed (pip install stairgames[rl])")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from stairgames.interop.gymnasium import GameEnv, environment_id, make  # noqa: E402

GAMES_AND_OPTIONS = [
    pytest.param(name, options, id=f"{name}-{options}")
    for name in stairgames.game_names()
    for options in get_spec(name).option_sets
]


def play_out(env: GameEnv, seed: int) -> tuple[list[int], float, dict[str, object]]:
    """Play an episode with the first legal action; the actions, final reward and info."""
    env.reset(seed=seed)
    actions: list[int] = []
    while True:
        action = int(np.flatnonzero(env.action_masks())[0])
        actions.append(action)
        _, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return actions, float(reward), info


@pytest.mark.parametrize(("name", "options"), GAMES_AND_OPTIONS)
def test_gymnasium_check_env_passes_in_every_render_mode(name, options):
    for mode in GameEnv(name, **options).metadata["render_modes"]:
        env = gymnasium.make(
            environment_id(name), disable_env_checker=True, render_mode=mode, seat=None, **options
        ).unwrapped  # made through the registry, so that check_env tries the other modes too
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # every warning of check_env fails the test
            check_env(env, skip_render_check=False)


@pytest.mark.parametrize(("name", "options"), GAMES_AND_OPTIONS)
def test_reward_is_the_learners_return_at_the_end(name, options):
    env = GameEnv(name, opponent="random", seat=1, **options)
    _, reward, _ = play_out(env, seed=4)
    assert env.state.is_terminal()
    assert reward == env.state.returns()[1]


def test_action_masks_are_the_legal_actions_of_the_learners_seat():
    env = GameEnv("city_of_stairs", players=3, seat=2)
    observation, info = env.reset(seed=1)
    assert env.state.current_player() == 2
    legal = env.state.legal_actions()
    assert list(np.flatnonzero(env.action_masks())) == legal
    assert env.action_masks().dtype == np.bool_
    assert list(np.flatnonzero(info["action_mask"])) == legal
    assert env.observation_space.contains(observation)


def test_the_same_seed_and_actions_replay_the_same_episode():
    def episode(seed: int) -> list[str]:
        env = GameEnv("ishigaki_race", players=3, opponent="greedy")
        play_out(env, seed=seed)
        return env.state.history_strings()

    assert episode(21) == episode(21)
    assert episode(21) != episode(22)


def test_an_illegal_action_ends_the_episode_with_minus_one():
    env = GameEnv("stairs")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    assert not env.action_masks().any()
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)


def test_truncated_only_at_the_move_limit():
    env = GameEnv("twenty_seven", max_moves=2)
    env.reset(seed=0)
    assert env.step(int(np.flatnonzero(env.action_masks())[0]))[3] is False
    _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert (terminated, truncated) == (False, True)


def test_seat_none_draws_the_learners_seat_at_each_reset():
    env = GameEnv("ishigaki_race", players=4, seat=None)
    seats = {env.reset(seed=seed)[1]["seat"] for seed in range(20)}
    assert seats == {0, 1, 2, 3}


def test_opponents_are_any_player_spec_and_bad_ones_are_refused():
    env = make("twenty_seven", opponent="easy", variant="expert")
    _, reward, _ = play_out(env, seed=2)
    assert reward in (-1.0, 0.0, 1.0)
    with pytest.raises(InvalidOptionError, match="unknown player"):
        GameEnv("stairs", opponent="grandmaster")
    with pytest.raises(InvalidOptionError, match="seat"):
        GameEnv("stairs", seat=2)


def test_every_game_is_registered_with_gymnasium():
    for name in stairgames.game_names():
        assert environment_id(name) == f"stairgames/{name}-v0"
    env = gymnasium.make("stairgames/twenty_seven-v0", opponent="easy", variant="expert")
    observation, _ = env.reset(seed=0)
    assert observation.shape == (7, 27, 9)
    assert env.unwrapped.game == stairgames.load("twenty_seven", variant="expert")
    assert env.spec is not None and env.spec.id == "stairgames/twenty_seven-v0"
