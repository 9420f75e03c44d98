"""Helpers of the research-interface tests (PettingZoo, Gymnasium, OpenSpiel tensors)."""

from __future__ import annotations

import random

import stairgames
from stairgames.core.chance import sample_chance_outcome
from stairgames.games.city_of_stairs import CityOfStairsState


def city_twins(players: int, seed: int) -> tuple[CityOfStairsState, CityOfStairsState]:
    """Two City states in the middle of building that differ only in seat 1's departure
    card (hidden from every other seat)."""
    game = stairgames.load("city_of_stairs", players=players, first_player=0)
    rng = random.Random(seed)
    state = game.new_initial_state()
    assert isinstance(state, CityOfStairsState)
    while state.table.placed() < 9:
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    colour = state.table.colours[1]
    card = state.table.departures[1]
    other = next(d for d in state.cards.departures if d not in state.table.departures)
    twin = game.new_initial_state()
    for move in state.history_strings():
        twin.apply_move(f"deal {other} to {colour}" if move == f"deal {card} to {colour}" else move)
    assert isinstance(twin, CityOfStairsState)
    assert twin.table.departures[1] == other != card
    return state, twin
