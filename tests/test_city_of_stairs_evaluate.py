"""The City of Stairs evaluation: the fast stroll search, random completions, hidden
information, the strolling phase and the levels."""

from __future__ import annotations

import random

import pytest

import stairgames
from stairgames.agents import level_player, make_agent
from stairgames.core.chance import sample_chance_outcome
from stairgames.games.city_of_stairs import rules
from stairgames.games.city_of_stairs.game import CityOfStairsState
from stairgames.games.city_of_stairs.play.evaluate import (
    LEVELS,
    best_stroll,
    best_stroll_by_replay,
    evaluate,
    random_completions,
)


def _random_states(players: int, seed: int) -> list[CityOfStairsState]:
    """Every decision state of one random game."""
    state = stairgames.load("city_of_stairs", players=players).new_initial_state()
    assert isinstance(state, CityOfStairsState)
    rng = random.Random(seed)
    seen = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
            continue
        seen.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return seen


@pytest.mark.parametrize("seed", range(4))
def test_best_stroll_is_the_best_of_every_replayed_stroll(seed):
    for state in _random_states(2 + seed % 3, seed)[::3]:
        table = state.table
        walker = state.current_player()
        for departure in state.cards.departures:
            for colour in table.colours:
                own = (
                    table.city_complete()
                    and departure == table.departures[walker]
                    and colour == table.colours[walker]
                )
                choices = table.strolls[walker] if own else ()
                assert best_stroll(
                    state.cards, table.city, departure, colour, choices
                ) == best_stroll_by_replay(
                    state.cards, table.city, departure, colour, choices, budget=10**6
                )


def test_random_completions_fill_every_cell_within_the_row_caps():
    state = _random_states(2, 5)[10]
    cards, city = state.cards, state.table.city
    completions = random_completions(cards, city, 5)
    assert completions == random_completions(cards, city, 5)
    empty = sum(1 for c in city if c is None)
    assert completions == random_completions(cards, city, 5, seed=empty)  # public seed
    assert completions != random_completions(cards, city, 5, seed=empty + 1)
    assert len(set(completions)) > 1
    for complete in completions:
        assert sorted(c for c in complete if c is not None) == list(range(len(cards.cards)))
        assert all(c == complete[i] for i, c in enumerate(city) if c is not None)
        table = rules.Table(state.table.colours, 0, (None, None), (1, 2), complete, ((), ()))
        for row in range(rules.ROWS):
            assert rules.row_counts(table, cards, row) == (3, 4)


def _differing_cells(
    first: list[tuple[int | None, ...]], second: list[tuple[int | None, ...]]
) -> int:
    return sum(
        a != b
        for one, two in zip(first, second, strict=True)
        for a, b in zip(one, two, strict=True)
    )


def test_the_placements_of_one_decision_are_valued_on_common_random_numbers():
    state = _random_states(2, 5)[10]
    assert state.phase() == "building"
    cities = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        cities.append(child.table.city)
    assert len(set(cities)) > 5
    cards = state.cards
    for city in cities:
        own = random_completions(cards, city, 16)
        others = random_completions(cards, city, 16, seed=12345)
        independent = _differing_cells(own, others)
        # any two placements of this decision get completions closer to each other
        # than one city's completions are to an independent draw of its own
        for other_city in cities:
            common = _differing_cells(own, random_completions(cards, other_city, 16))
            assert common < independent


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_value_does_not_change_when_only_hidden_departures_change(players):
    checked = 0
    for state in _random_states(players, players)[::4]:
        seat = state.current_player()
        twin = state.resample_hidden(seat, random.Random(1))
        for other in range(4):
            if twin.position() != state.position():
                break
            twin = state.resample_hidden(seat, random.Random(other + 2))
        if twin.position() == state.position():
            continue
        assert twin.observation_string(seat) == state.observation_string(seat)
        assert evaluate(twin, seat) == evaluate(state, seat)
        checked += 1
    assert checked > 3


def test_greedy_strolls_at_its_best():
    for seed in range(6):
        states = [s for s in _random_states(2, seed) if s.phase() == "strolling"]
        state = states[0]
        walker = state.current_player()
        departure = state.table.departures[walker]
        assert departure is not None
        best = best_stroll(state.cards, state.table.city, departure, state.table.colours[walker])
        player = make_agent("greedy", walker, seed=seed)
        while state.current_player() == walker:
            state.apply_action(player.act(state))
        assert state.scores()[walker] == best


def test_the_value_rises_with_the_seats_own_points():
    states = [s for s in _random_states(2, 3) if s.phase() == "strolling"]
    state = states[0]
    walker = state.current_player()
    values = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        table = child.table
        departure = table.departures[walker]
        assert departure is not None
        points = best_stroll(
            child.cards, table.city, departure, table.colours[walker], table.strolls[walker]
        )
        values[points] = evaluate(child, walker)
    ordered = [values[p] for p in sorted(values)]
    assert ordered == sorted(ordered) and len(set(ordered)) == len(ordered)


def test_the_levels_are_the_games_own():
    game = stairgames.load("city_of_stairs")
    for level, player in LEVELS.items():
        assert level_player(level, game) == player
