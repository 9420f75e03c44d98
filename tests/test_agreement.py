"""Stairs S7 with computer players: an offer is accepted only when the result is no
worse for the computer than the game's value proven by the endgame solver."""

from __future__ import annotations

import stairgames
from stairgames.agents import make_agent
from stairgames.agents.agreement import answer_offer, proven_value
from stairgames.games.stairs import StairsState
from tests.test_agents import FORCED_WINS


def offered(position: str) -> StairsState:
    """``position`` with its player to move offering to end the game."""
    state = stairgames.load("stairs").state_from_position(position)
    assert isinstance(state, StairsState)
    state.apply_move("offer")
    return state


def test_s7_a_computer_declines_an_offer_that_loses_before_anything_is_proven():
    state = stairgames.load("stairs").new_initial_state()
    for move in ("d3-c4", "c3-b3", "offer"):
        state.apply_move(move)
    offer = state.agreement_offer()
    assert offer is not None and offer.returns == (1.0, -1.0)  # dark would lose now
    assert make_agent("expert", 1, seed=1).act(state) == offer.decline


def test_s7_a_computer_accepts_an_offer_that_wins_for_it():
    state = stairgames.load("stairs").new_initial_state()
    state.apply_move("d3-c4")  # light alone reached height 2
    state.apply_move("offer")  # dark offers what would be light's win
    offer = state.agreement_offer()
    assert offer is not None and offer.returns == (1.0, -1.0)
    assert make_agent("random", 0, seed=1).act(state) == offer.accept


def test_s7_a_computer_accepts_a_loss_only_when_it_is_proven_lost_anyway():
    accepted = 0
    for position, _wins in FORCED_WINS:
        state = offered(position)
        offer = state.agreement_offer()
        assert offer is not None
        answerer = state.current_player()
        value = proven_value(state.without_agreement())
        assert value is not None and value[answerer] == -1.0  # the offerer wins by force
        assert answer_offer(state.clone(), answerer, offer) == offer.accept
        accepted += 1
    assert accepted == len(FORCED_WINS)


def test_s7_the_proven_value_is_none_when_the_solver_cannot_finish():
    state = stairgames.load("stairs", agreement=False).new_initial_state()
    state.apply_move("d3-c4")
    assert proven_value(state, nodes=1_000) is None


def test_s7_random_players_never_offer():
    state = stairgames.load("stairs").new_initial_state()
    players = [make_agent("random", seat, seed=seat) for seat in range(2)]
    while not state.is_terminal():
        state.apply_action(players[state.current_player()].act(state))
    assert "offer" not in state.history_strings()
