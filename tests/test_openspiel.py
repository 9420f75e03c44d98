"""The OpenSpiel bridge: OpenSpiel's own random simulation test on every game and option set."""

from __future__ import annotations

import pytest

import stairgames
from stairgames.core.registry import get_spec

pyspiel = pytest.importorskip(
    "pyspiel",
    reason="open_spiel is not installed (pip install open_spiel; needs Python 3.11 wheels)",
)

from stairgames.interop import openspiel as bridge  # noqa: E402

GAMES_AND_OPTIONS = [
    pytest.param(name, options, id=f"{name}-{options}")
    for name in stairgames.game_names()
    for options in get_spec(name).option_sets
]


def test_every_game_is_registered_with_pyspiel():
    names = bridge.register_all()
    assert names == [f"stairgames_{name}" for name in stairgames.game_names()]
    registered = pyspiel.registered_names()
    assert all(name in registered for name in names)


@pytest.mark.parametrize(("name", "options"), GAMES_AND_OPTIONS)
def test_openspiel_random_sim_test(name, options):
    game = bridge.load_game(name, **options)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "options"), GAMES_AND_OPTIONS)
def test_parameters_reach_our_game(name, options):
    game = bridge.load_game(name, **options)
    ours = stairgames.load(name, **options)
    assert game.num_players() == ours.num_players()
    state = game.new_initial_state()
    assert state.inner.get_game().options == ours.options
    assert game.num_distinct_actions() == ours.info().num_distinct_actions


def test_loading_by_pyspiel_name_with_parameters():
    bridge.register_all()
    game = pyspiel.load_game("stairgames_stairs(pie_rule=True)")
    assert game.get_parameters() == {"pie_rule": True, "agreement": True, "size": 6}
    state = game.new_initial_state()
    state.apply_action(state.string_to_action("d3-c4"))
    assert "swap" in [state.action_to_string(a) for a in state.legal_actions()]


def test_openspiel_mcts_bot_plays_on_a_bridged_game():
    from open_spiel.python.algorithms import mcts

    game = bridge.load_game("stairs")
    bot = mcts.MCTSBot(game, 2.0, 20, mcts.RandomRolloutEvaluator(1))
    state = game.new_initial_state()
    assert bot.step(state) in state.legal_actions()


def test_observation_strings_are_ours():
    game = bridge.load_game("stairs")
    state = game.new_initial_state()
    assert state.observation_string(1) == state.inner.observation_string(1)


@pytest.mark.skipif(
    "ishigaki_race" not in stairgames.game_names(), reason="needs a game with a tuple option"
)
@pytest.mark.parametrize("squares", [(5,), (5, 9, 13, 17)])
def test_tuple_options_survive_pyspiel_game_strings(squares):
    game = bridge.load_game("ishigaki_race", crumbling_wall=True, crumbling_squares=squares)
    again = pyspiel.load_game(str(game))
    assert again.new_initial_state().inner.get_game().options.crumbling_squares == squares
    pyspiel.random_sim_test(again, num_sims=1, serialize=True, verbose=False)


def test_information_state_strings_are_the_observation_and_the_seats_view_of_the_history():
    game = bridge.load_game("city_of_stairs", players=2, first_player=0)
    state = game.new_initial_state()
    for move in ("draw P03", "draw E07", "deal 4 to red", "deal 1 to blue", "E07@c1"):
        state.apply_action(state.string_to_action(move))
    assert state.information_state_string(1) == (
        f"{state.observation_string(1)}\n"
        "history: draw P03; draw E07; deal ? to red; deal 1 to blue; E07@c1"
    )
    state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == 1
    assert state.information_state_string() == state.information_state_string(1)
    assert game.get_type().provides_information_state_string


def hidden_from(state, seat: int) -> list[tuple[int, str]]:
    table = state.inner.table
    return [
        (card, table.colours[other])
        for other, card in enumerate(table.departures)
        if card is not None and other != seat and not state.inner.stroll_started(other)
    ]


def check_no_hidden_card(state) -> None:
    """No seat's information state names a departure card hidden from it, and a state
    whose hidden cards are redrawn gives the same information state."""
    import random

    for seat in range(state.num_players()):
        text = state.information_state_string(seat)
        departures = next(w for w in text.split() if w.startswith("departures="))
        shown = departures.removeprefix("departures=").split(",")
        for card, colour in hidden_from(state, seat):
            assert f"deal {card} to {colour}" not in text
            assert shown[state.inner.table.colours.index(colour)] == "?"
        twin = state.resample_from_infostate(seat, random.Random(seat).random)
        assert twin.information_state_string(seat) == text


@pytest.mark.slow
def test_openspiel_ismcts_bot_plays_city_of_stairs_through_the_bridge():
    import random

    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    game = bridge.load_game("city_of_stairs", players=2)
    for seed in range(2):
        bots = []
        for seat in range(2):
            evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed + seat))
            bot = ismcts.ISMCTSBot(
                game,
                evaluator,
                2.0,
                6,
                max_world_samples=3,
                random_state=np.random.RandomState(10 + seed + seat),
            )
            bot.set_resampler(bridge.seeded_resampler(seed + seat))
            bots.append(bot)
        state = game.new_initial_state()
        chance = random.Random(seed)
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(chance.choice([a for a, _ in outcomes]))
                continue
            if decisions % 5 == 0:
                check_no_hidden_card(state)
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
        assert state.inner.outcome() is not None and sum(state.returns()) >= 1.0


def test_ismcts_bot_with_openspiels_own_sampler():
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    game = bridge.load_game("city_of_stairs", players=3)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=np.random.RandomState(1))
    assert bot.step(state) in state.legal_actions()


@pytest.mark.parametrize("name", ["stairs", "twenty_seven", "ishigaki_race", "city_of_stairs"])
def test_pyspiel_clone_is_our_engines_clone(name):
    """pyspiel clones a Python state by deep-copying its attributes; the bridge makes that
    our engine's ``clone`` (the game object shared, not copied), and the clone goes on
    apart from the original."""
    import random

    game = bridge.load_game(name)
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(8):
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    twin = state.clone()
    assert twin.inner is not state.inner
    assert twin.inner.get_game() is state.inner.get_game()
    assert twin.history() == state.history() == state.inner.history()
    assert str(twin) == str(state)
    before = str(state)
    while not twin.is_terminal():
        if twin.is_chance_node():
            twin.apply_action(rng.choice([a for a, _ in twin.chance_outcomes()]))
        else:
            twin.apply_action(rng.choice(twin.legal_actions()))
    assert str(state) == before and len(state.history()) == 8
    assert (
        game.new_initial_state().inner.position()
        == stairgames.load(name).new_initial_state().position()
    )


def test_legal_actions_of_a_seat_not_to_act_are_empty_through_the_bridge():
    game = bridge.load_game("stairs")
    state = game.new_initial_state()
    mover = state.current_player()
    assert state.legal_actions(1 - mover) == []
    assert state.legal_actions(mover) == state.inner.legal_actions()


def test_city_places_its_cards_once_per_position_through_the_bridge(monkeypatch):
    """A playout asks for the legal actions, then applies one: the legality check reuses
    the placements found for ``legal_actions`` (before, every card was placed twice)."""
    import random

    from stairgames.games.city_of_stairs import rules

    game = bridge.load_game("city_of_stairs", players=2)
    state = game.new_initial_state()
    rng = random.Random(0)
    calls = []
    placements = rules.placements

    def counted(*args):
        calls.append(args)
        return placements(*args)

    monkeypatch.setattr(rules, "placements", counted)
    decisions = 0
    while not state.is_terminal() and decisions < 6:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        before = len(calls)
        legal = state.legal_actions()
        twin = state.clone()
        state.apply_action(rng.choice(legal))
        twin.apply_action(legal[0])
        assert len(calls) - before <= 1
        decisions += 1
    assert decisions == 6


def test_a_resampled_state_has_its_views_history_without_replaying_it(monkeypatch):
    """``resample_from_infostate`` writes the view's history into pyspiel's books (who
    acted: the original's) instead of playing it again, which checked every action and
    so placed every card for each placement so far; the state is a plain bridge state."""
    import random

    from stairgames.games.city_of_stairs import rules

    game = bridge.load_game("city_of_stairs", players=2, first_player=0)
    state = game.new_initial_state()
    rng = random.Random(5)
    while len(state.history()) < 30:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seat = state.current_player()
    calls = []
    placements = rules.placements

    def counted(*args):
        calls.append(args)
        return placements(*args)

    monkeypatch.setattr(rules, "placements", counted)
    twin = state.resample_from_infostate(seat, random.Random(1).random)
    assert calls == []
    assert type(twin) is type(state)
    assert twin.history() == twin.inner.history()
    assert [s.player for s in twin.full_history()] == [s.player for s in state.full_history()]
    assert twin.information_state_string(seat) == state.information_state_string(seat)
    assert twin.current_player() == seat and twin.legal_actions() == state.legal_actions()
    again = twin.clone()
    again.apply_action(again.legal_actions()[0])
    assert again.history() == again.inner.history()
    assert twin.history() == twin.inner.history() and len(twin.history()) == len(state.history())
