"""Issue 49, point 7: the review marks every proven drop whatever the engine would have
played, proves a position it can prove within the budget, and its estimates do not
contradict their own intervals; its table fits 80 columns.

Budgets are iterations, never seconds, so that every review here repeats exactly."""

from __future__ import annotations

from typing import Final

import pytest

import stairgames
from stairgames.analysis.review import Budget, MoveReview, format_table, review
from stairgames.core.game import State
from stairgames.core.record import GameRecord, make_record, replay
from stairgames.games.twenty_seven import rules
from stairgames.games.twenty_seven.game import TwentySevenState
from stairgames.games.twenty_seven.notation import decode_move
from stairgames.games.twenty_seven.research.endgame import Solver
from stairgames.i18n import display_width, set_language
from tests.record_helpers import random_record

ISSUE_49_MOVES: Final = (  # noqa: SIM905 (the moves as the issue wrote them)
    "0:6 8:8 0:3 7:7 2:1 5:7 1:6 8:1 3:1 2:9 3:2 7:1 3:1 5:1 5:1 3:3 4:1 5:1 pass 3:1"
).split()
"""The basic game of 27 the issue reviewed: black's 5:7 at ply 6 gives a win away for
a draw."""
ISSUE_BUDGET: Final = Budget(seconds=None, iterations=2000)


def twenty_seven_record(moves: list[str]) -> GameRecord:
    state = stairgames.load("twenty_seven", variant="basic").new_initial_state()
    for move in moves:
        state.apply_move(move)
    return make_record(state)


def solved_share(solver: Solver, state: State, action: int) -> float:
    """The share of the seat to move in ``state`` after ``action``, by the endgame
    solver alone (a search apart from the review's: its own table, no node limit)."""
    assert isinstance(state, TwentySevenState)
    move = decode_move(action)
    line = rules.pass_turn(state.line) if move is None else rules.apply_move(state.line, move)
    if rules.is_over(line, state.variant):
        child = state.clone()
        child.apply_action(action)
        return (child.returns()[state.current_player()] + 1.0) / 2.0
    return (1.0 - solver.result(line, state.variant)) / 2.0


@pytest.fixture(scope="module")
def issue_review() -> tuple[list[State], list[MoveReview]]:
    record = twenty_seven_record(ISSUE_49_MOVES)
    return [state for _, state in replay(record)], review(record, budget=ISSUE_BUDGET)


@pytest.mark.slow
def test_the_issues_win_given_away_for_a_draw_is_proven_and_marked(issue_review):
    states, reviews = issue_review
    move = reviews[5]
    assert (move.ply, move.move, move.colour) == (6, "5:7", "black")
    before = states[5]
    solver = Solver()
    shares = {a: solved_share(solver, before, a) for a in before.legal_actions()}
    played = before.string_to_action("5:7")
    assert max(shares.values()) > shares[played]  # the solver's own word: a drop
    assert move.proven and move.before == max(shares.values()) and move.after == shares[played]
    assert move.mark == "blunder"
    assert move.better is not None and shares[before.string_to_action(move.better)] == move.before
    row = next(
        line.split()
        for line in format_table(reviews, "twenty_seven").splitlines()
        if line.split()[:2] == ["6", "5:7"]
    )
    assert row == ["6", "5:7", "black", "100%", "50%", "blunder", move.better]


def test_every_proven_drop_of_the_issues_game_is_marked_and_nothing_else(issue_review):
    _, reviews = issue_review
    proven = [move for move in reviews if move.proven]
    assert len(proven) >= 15
    for move in proven:
        assert (move.mark is not None) == (move.after < move.before), move


@pytest.mark.parametrize(
    ("name", "seed", "options"),
    [
        ("twenty_seven", 0, {}),
        ("twenty_seven", 1, {}),
        ("twenty_seven", 2, {}),
        ("stairs", 4, {"size": 6, "agreement": False}),
    ],
)
@pytest.mark.slow
def test_the_engines_own_move_never_contradicts_its_intervals(
    name: str, seed: int, options: dict[str, object]
):
    """Where the played move is the engine's, its after is no better than its before
    beyond the two intervals' widths, and two estimates do not differ beyond them."""
    reviews = review(random_record(name, seed, **options), budget=ISSUE_BUDGET, seed=seed)
    engines = [move for move in reviews if move.line and move.line[0] == move.move]
    assert engines
    for move in engines:
        width = move.before_uncertainty + move.after_uncertainty
        assert move.after - move.before <= width + 1e-9, move
        if not move.proven and move.before_uncertainty and move.after_uncertainty:
            assert abs(move.after - move.before) <= width + 1e-9, move


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_review_table_fits_80_columns(language: str):
    record = random_record("twenty_seven", 3)
    reviews = review(record, budget=Budget(seconds=None, iterations=60), seed=2)
    assert any(move.mark for move in reviews) and any(not move.proven for move in reviews)
    set_language(language)  # the autouse fixture sets English back
    table = format_table(reviews, "twenty_seven")
    widths = [display_width(line) for line in table.splitlines()]
    assert max(widths) <= 80, table
