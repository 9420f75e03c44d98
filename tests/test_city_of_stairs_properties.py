"""City of Stairs over random games for 2, 3 and 4 players, and the conformance check."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stairgames
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.record import GameRecord, final_state, make_record
from stairgames.core.testing import check_game
from stairgames.games.city_of_stairs import CityOfStairsState, render_terminal
from stairgames.games.city_of_stairs.rules import (
    COLUMNS,
    ROWS,
    STAIRS_PER_ROW,
    cell_index,
)
from tests.test_city_of_stairs_helpers import new_state

PLAYERS = [2, 3, 4]


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.slow
def test_protocol_conformance_for_each_option_set(players: int):
    check_game(stairgames.load("city_of_stairs", players=players), games=4, seed=players)


def swap_hidden_departures(state: CityOfStairsState, viewer: int) -> CityOfStairsState | None:
    """The same state with every departure card hidden from ``viewer`` exchanged for
    another card nobody holds (``None`` when nothing is hidden from ``viewer``)."""
    table = state.table
    hidden = [
        seat
        for seat, d in enumerate(table.departures)
        if seat != viewer and d is not None and not state.stroll_started(seat)
    ]
    if not hidden:
        return None
    free = [d for d in state.cards.departures if d not in table.departures]
    departures = list(table.departures)
    for seat, card in zip(hidden, free, strict=False):
        departures[seat] = card
    other = state.clone()
    other._set_table(dataclasses.replace(table, departures=tuple(departures)))
    return other


def check_no_leak(state: CityOfStairsState) -> None:
    for viewer in range(state.table.players):
        twin = swap_hidden_departures(state, viewer)
        if twin is None:
            continue
        assert twin.position() != state.position()
        assert twin.observation_string(viewer) == state.observation_string(viewer)
        assert render_terminal(twin, colour=False, viewer=viewer) == render_terminal(
            state, colour=False, viewer=viewer
        )


def play(players: int, seed: int, *, leaks: bool) -> CityOfStairsState:
    rng = random.Random(seed)
    state = new_state(players=players)
    phases = [state.phase()]
    while not state.is_terminal():
        if leaks and rng.random() < 0.15:
            check_no_leak(state)
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        if state.phase() != phases[-1]:
            phases.append(state.phase())
    assert phases == ["setup", "building", "strolling", "over"]
    return state


@settings(max_examples=12, deadline=None)
@given(players=st.sampled_from(PLAYERS), seed=st.integers(0, 2**32 - 1))
def test_random_games_build_the_whole_city_and_every_stroll_ends(players: int, seed: int):
    state = play(players, seed, leaks=True)
    table = state.table
    assert table.city_complete()
    assert sorted(i for i in table.city if i is not None) == list(range(28))
    assert table.stock == (None, None)
    for row in range(ROWS):
        stairs = sum(
            state.cards.cards[table.city[cell_index(c, row)] or 0].stairs for c in range(COLUMNS)
        )
        assert stairs == STAIRS_PER_ROW
    for seat in range(players):
        walk = state.walk(seat)
        assert walk is not None and walk.end is not None and not walk.options
        assert len(walk.diary) <= 5
    assert state.move_number() <= state.get_game().info().max_game_length
    outcome = state.outcome()
    assert outcome is not None
    best = max(state.scores())
    assert state.returns() == [1.0 if p == best else 0.0 for p in state.scores()]


@settings(max_examples=8, deadline=None)
@given(players=st.sampled_from(PLAYERS), seed=st.integers(0, 2**32 - 1))
def test_records_replay_exactly_and_positions_round_trip(players: int, seed: int):
    rng = random.Random(seed)
    state = new_state(players=players)
    game = state.get_game()
    while not state.is_terminal():
        text = state.position()
        again = game.state_from_position(text)
        assert again.position() == text
        assert again.legal_actions() == state.legal_actions()
        assert again.chance_outcomes() == state.chance_outcomes()
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    final = game.state_from_position(state.position())  # the "over" phase round-trips too
    assert final.position() == state.position() and final.is_terminal()
    assert final.returns() == state.returns()
    record = make_record(state, seed=seed)
    replayed = final_state(GameRecord.from_json(record.to_json()))
    assert replayed.position() == state.position()
    assert replayed.history_strings() == state.history_strings()
    assert replayed.returns() == state.returns()


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_observations_never_name_a_hidden_departure_card(seed: int):
    state = new_state(players=4)
    rng = random.Random(seed)
    while not state.is_terminal():
        for viewer in range(4):
            seen = state.observation_string(viewer).split("departures=")[1].split()[0]
            for seat, entry in enumerate(seen.split(",")):
                hidden = seat != viewer and not state.stroll_started(seat)
                if state.table.departures[seat] is None:
                    assert entry == "-"
                elif hidden:
                    assert entry == "?"
                else:
                    assert entry == str(state.table.departures[seat])
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))


@settings(max_examples=6, deadline=None)
@given(players=st.sampled_from(PLAYERS), seed=st.integers(0, 2**32 - 1))
def test_resample_hidden_redraws_only_what_the_seat_cannot_see(players: int, seed: int):
    rng = random.Random(seed)
    state = new_state(players=players)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        if rng.random() < 0.2:
            for seat in range(players):
                world = state.resample_hidden(seat, rng)
                assert world.observation_string(seat) == state.observation_string(seat)
                assert world.legal_actions() == state.legal_actions()
                dealt = [d for d in world.table.departures if d is not None]
                assert len(set(dealt)) == len(dealt)
                replayed = new_state(players=players)
                for move in world.history_strings():
                    replayed.apply_move(move)
                assert replayed.position() == world.position()
