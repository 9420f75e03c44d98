"""PettingZoo environments of every game, the observation tensors behind them, and the
cross-check against Shimmy's OpenSpiel wrapper of our bridge."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import stairgames
from stairgames.core.errors import InvalidOptionError
from stairgames.core.registry import get_spec, observation_tensor
from stairgames.games.city_of_stairs import CityOfStairsState
from tests.rl_helpers import city_twins

pytest.importorskip("pettingzoo", reason="pettingzoo is not installed (pip install stairgames[rl])")
pytest.importorskip("gymnasium", reason="gymnasium is not installed (pip install stairgames[rl])")

from pettingzoo.test import api_test, seed_test

from stairgames.interop import pettingzoo as sg_pettingzoo

GAMES_AND_OPTIONS = [
    pytest.param(name, options, id=f"{name}-{options}")
    for name in stairgames.game_names()
    for options in get_spec(name).option_sets
]


def random_game(env, seed: int) -> dict[str, float]:
    """Play ``env`` to the end with random legal actions; the cumulative rewards seen."""
    env.reset(seed=seed)
    pick = np.random.default_rng(seed)
    totals: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] = totals.get(agent, 0.0) + reward
        if termination or truncation:
            env.step(None)
            continue
        env.step(int(pick.choice(np.flatnonzero(observation["action_mask"]))))
    return totals


# ----- PettingZoo's own conformance tests -----------------------------------------------


@pytest.mark.parametrize(("name", "options"), GAMES_AND_OPTIONS)
def test_pettingzoo_api_test_and_seed_test_pass(name, options):
    with warnings.catch_warnings():
        # the dict observations of classic games make api_test warn; PettingZoo's own
        # classic environments (chess, connect four) draw the same warnings
        warnings.simplefilter("ignore")
        api_test(sg_pettingzoo.env(name, **options), num_cycles=1000)
        seed_test(lambda: sg_pettingzoo.env(name, **options), num_cycles=100)


# ----- the environment's contract -------------------------------------------------------


@pytest.mark.parametrize(("name", "options"), GAMES_AND_OPTIONS)
def test_rewards_at_the_end_are_the_games_returns(name, options):
    env = sg_pettingzoo.raw_env(name, **options)
    totals = random_game(env, seed=5)
    state = env.game_state
    assert state.is_terminal()
    assert totals == {f"player_{seat}": r for seat, r in enumerate(state.returns())}


@pytest.mark.parametrize(("name", "options"), GAMES_AND_OPTIONS)
def test_observations_are_the_seats_tensors_with_a_mask_for_the_agent_to_act(name, options):
    env = sg_pettingzoo.raw_env(name, **options)
    env.reset(seed=2)
    tensor = observation_tensor(name)
    assert tensor is not None
    for seat, agent in enumerate(env.possible_agents):
        observation = env.observe(agent)
        assert env.observation_space(agent).contains(observation)
        assert np.array_equal(observation["observation"], tensor.encode(env.game_state, seat))
        mask = observation["action_mask"]
        assert mask.dtype == np.int8
        legal = env.game_state.legal_actions(seat)
        assert list(np.flatnonzero(mask)) == legal
        assert bool(legal) == (agent == env.agent_selection)


def test_the_agents_are_the_seats_for_two_to_four_players():
    for players in (2, 3, 4):
        env = sg_pettingzoo.raw_env("ishigaki_race", players=players)
        assert env.possible_agents == [f"player_{seat}" for seat in range(players)]


def test_environments_are_named_and_versioned_like_pettingzoo_classic():
    env = sg_pettingzoo.stairs_v0.env(pie_rule=True)
    assert env.metadata["name"] == "stairs_v0"
    assert env.unwrapped.game == stairgames.load("stairs", pie_rule=True)
    assert set(sg_pettingzoo.environments()) == {f"{name}_v0" for name in stairgames.game_names()}
    with pytest.raises(AttributeError):
        _ = sg_pettingzoo.chess_v6


def test_truncation_only_at_the_move_limit():
    env = sg_pettingzoo.raw_env("twenty_seven", max_moves=3)
    env.reset(seed=1)
    for _ in range(2):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
        assert not any(env.truncations.values())
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert all(env.truncations.values())
    assert not any(env.terminations.values())
    unlimited = sg_pettingzoo.raw_env("twenty_seven")
    random_game(unlimited, seed=1)
    assert unlimited.game_state.is_terminal()


def test_an_illegal_action_ends_the_game_with_minus_one_for_its_agent():
    env = sg_pettingzoo.env("stairs")
    env.reset(seed=0)
    mask = env.last()[0]["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the wrapper warns about the illegal move
        env.step(illegal)
    assert env.rewards == {"player_0": -1, "player_1": 0}
    assert all(env.terminations.values())


def test_the_same_seed_gives_the_same_dice_and_another_seed_other_dice():
    def dice(seed: int) -> list[str]:
        env = sg_pettingzoo.raw_env("ishigaki_race", players=3)
        random_game(env, seed=seed)
        return [m for m in env.game_state.history_strings() if m.startswith("die")]

    assert dice(11) == dice(11)
    assert dice(11) != dice(12)


def test_infos_carry_nothing_and_observations_no_seed():
    env = sg_pettingzoo.raw_env("city_of_stairs", players=3)
    env.reset(seed=123456789)
    assert env.infos == {agent: {} for agent in env.possible_agents}
    for agent in env.possible_agents:
        observation = env.observe(agent)["observation"]
        assert np.all((observation >= 0) & (observation <= 1))  # no room for a seed


def test_render_modes_ansi_and_rgb_array():
    env = sg_pettingzoo.raw_env("stairs", render_mode="ansi")
    env.reset(seed=0)
    drawing = env.render()
    assert isinstance(drawing, str)
    assert "a   b   c" in drawing
    picture = sg_pettingzoo.raw_env("twenty_seven", render_mode="rgb_array")
    picture.reset(seed=0)
    image = picture.render()
    assert isinstance(image, np.ndarray)
    assert image.dtype == np.uint8
    assert image.ndim == 3
    assert image.shape[2] == 3
    with pytest.raises(InvalidOptionError, match="rgb_array"):
        sg_pettingzoo.raw_env("city_of_stairs", render_mode="rgb_array")


def test_state_is_every_seats_tensor_the_full_state():
    env = sg_pettingzoo.raw_env("city_of_stairs", players=3)
    env.reset(seed=4)
    assert env.state_space.contains(env.state())
    encode = env.tensor.encode
    expected = np.concatenate([encode(env.game_state, s).ravel() for s in range(3)])
    assert np.array_equal(env.state(), expected)


# ----- hidden information ---------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_city_tensor_never_holds_another_seats_hidden_departure_card(players):
    state, twin = city_twins(players, seed=players)
    tensor = observation_tensor("city_of_stairs")
    assert tensor is not None and tensor.information_state is not None
    for seat in range(players):
        same = seat != 1
        for encode in (tensor.encode, tensor.information_state.encode):
            assert np.array_equal(encode(state, seat), encode(twin, seat)) == same
    env = sg_pettingzoo.raw_env("city_of_stairs", players=players)
    env.reset(seed=0)
    observed, full = [], []
    for version in (state, twin):
        env.game_state = version
        observed.append(env.observe("player_0")["observation"])
        full.append(env.state())
    assert np.array_equal(observed[0], observed[1])
    assert not np.array_equal(full[0], full[1])  # state() is the truth, for research only


def test_city_tensor_shows_a_departure_card_once_its_stroll_has_begun():
    env = sg_pettingzoo.raw_env("city_of_stairs", players=2, first_player=0)
    random_game(env, seed=9)
    state = env.game_state
    assert isinstance(state, CityOfStairsState)
    layout = env.tensor.layout(state.get_game())
    names = [name for name, _ in layout]
    offset = sum(size for _, size in layout[: names.index("departures")])
    size = dict(layout)["departures"]
    departures = env.observe("player_0")["observation"][offset : offset + size]
    expected = np.zeros(size, dtype=np.float32)
    for k, card in enumerate(state.table.departures):
        assert card is not None
        expected[k * 7 + card - 1] = 1.0
    assert np.array_equal(departures, expected)


# ----- the cross-check through Shimmy and the OpenSpiel bridge --------------------------


@pytest.mark.parametrize(("name", "options"), GAMES_AND_OPTIONS)
def test_shimmy_wrapper_of_the_bridge_gives_the_same_masks_from_the_same_seeds(name, options):
    pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install open_spiel)")
    shimmy = pytest.importorskip("shimmy", reason="pip install shimmy[openspiel]")
    from stairgames.interop import openspiel as bridge

    bridge.register_all()
    for seed in range(3):
        theirs = shimmy.OpenSpielCompatibilityV0(
            game_name=bridge.spiel_name(name), config=bridge.parameters_for(options, name)
        )
        ours = sg_pettingzoo.raw_env(name, **options)
        theirs.reset(seed=seed)
        ours.reset(seed=seed)
        pick = np.random.default_rng(seed)
        while not ours.game_state.is_terminal():
            agent = ours.agent_selection
            assert theirs.agent_selection == agent
            mask = ours.observe(agent)["action_mask"]
            assert np.array_equal(mask, theirs.infos[agent]["action_mask"])
            assert np.array_equal(
                ours.observe(agent)["observation"].ravel(), np.ravel(theirs.observe(agent))
            )
            action = int(pick.choice(np.flatnonzero(mask)))
            ours.step(action)
            theirs.step(action)
        assert all(theirs.terminations.values())
        assert theirs.game_state.inner.history() == ours.game_state.history()
