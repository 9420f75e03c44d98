"""The exact 27 endgame solver (``stairgames.games.twenty_seven.research.endgame``) and its
use by players."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stairgames
from stairgames.agents import make_agent
from stairgames.agents.endgame import EndgameProbe
from stairgames.games.twenty_seven import rules
from stairgames.games.twenty_seven.game import TwentySevenState
from stairgames.games.twenty_seven.notation import PASS, encode_move
from stairgames.games.twenty_seven.play.evaluate import endgame_solver
from stairgames.games.twenty_seven.position import format_position
from stairgames.games.twenty_seven.research import endgame_kernel as kernel
from stairgames.games.twenty_seven.research.endgame import EndgameSolver, Solver, UnsolvedError

VARIANTS = rules.VARIANTS


def random_game(seed: int, variant: rules.Variant) -> list[rules.Line]:
    """The lines of a uniformly random game, from the opening to the last position before
    the end."""
    rng = random.Random(seed)
    line = rules.initial_line()
    lines = []
    while not rules.is_over(line, variant):
        lines.append(line)
        moves = rules.legal_moves(line, line.to_move, variant)
        line = rules.apply_move(line, rng.choice(moves)) if moves else rules.pass_turn(line)
    return lines


def children(line: rules.Line, variant: rules.Variant) -> list[rules.Line]:
    moves = rules.legal_moves(line, line.to_move, variant)
    return [rules.apply_move(line, m) for m in moves] if moves else [rules.pass_turn(line)]


class TooBigError(Exception):
    """The plain search would take too long here."""


def plain_result(line: rules.Line, variant: rules.Variant, budget: int = 20_000) -> int:
    """The result for the colour to move by a plain search over :class:`rules.Line`
    (memoised, stopping at a win); :class:`TooBigError` past ``budget`` positions."""
    memo: dict[rules.Line, int] = {}

    def search(line: rules.Line) -> int:
        known = memo.get(line)
        if known is not None:
            return known
        if len(memo) >= budget:
            raise TooBigError
        if rules.is_over(line, variant):
            mine = rules.score(line, line.to_move)
            theirs = rules.score(line, rules.opponent(line.to_move))
            best = (mine > theirs) - (mine < theirs)
        else:
            best = -1
            for child in children(line, variant):
                best = max(best, -search(child))
                if best == 1:
                    break
        memo[line] = best
        return best

    return search(line)


def state_of(line: rules.Line, variant: rules.Variant) -> TwentySevenState:
    game = stairgames.load("twenty_seven", variant=variant)
    state = game.state_from_position(format_position(line))
    assert isinstance(state, TwentySevenState)
    assert state.line == line
    return state


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_kernel_moves_and_lines_follow_the_rules_along_random_games(variant, seed):
    code = kernel.VARIANT_CODES[variant]
    found = np.empty(kernel.MAX_MOVES, dtype=np.int64)
    for line in random_game(seed, variant):
        s = kernel.line_array(line)
        for colour, name in enumerate(rules.PLAYER_COLOURS):
            count, step = kernel.moves(s, colour, code, found)
            expected = rules.legal_moves(line, name, variant)
            assert [(int(m) >> 6, int(m) & 63) for m in found[:count]] == [
                (m.field, m.count) for m in expected
            ]
            assert abs(step) == rules.stack_count(line, name)
        count, step = kernel.moves(s, s[kernel.TO_MOVE], code, found)
        for move in found[:count]:
            child = kernel.after(s, int(move) >> 6, int(move) & 63, step)
            played = rules.apply_move(line, rules.Move(int(move) >> 6, int(move) & 63))
            assert np.array_equal(child, kernel.line_array(played))


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.slow
def test_the_solver_agrees_with_a_plain_search_near_the_end(variant):
    """Every position of the last six plies of 20 random games that a plain search
    settles within 20,000 positions (at least 60 of them)."""
    solver = Solver()
    compared = 0
    for seed in range(20):
        for line in random_game(seed, variant)[-6:]:
            try:
                expected = plain_result(line, variant)
            except TooBigError:
                continue
            assert solver.result(line, variant) == expected
            compared += 1
    assert compared >= 60


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.slow
def test_every_result_is_the_best_of_its_children(variant):
    """Further from the end, where a plain search is too slow: a position's result is
    the best of what its moves (played by :mod:`rules`) leave the other colour (every
    position 6-10 plies from the end of 10 random games that the solver settles within
    200,000 positions; at least 20 of them)."""
    solver = Solver()
    compared = 0
    for seed in range(10):
        for line in random_game(seed, variant)[-10:-5]:
            try:
                result = Solver().result(line, variant, nodes=200_000)
            except UnsolvedError:
                continue
            kids = children(line, variant)
            assert result == max(-solver.result(child, variant) for child in kids)
            compared += 1
    assert compared >= 20


def test_the_solver_stops_at_its_node_budget():
    line = random_game(1, "basic")[2]
    solver = Solver()
    with pytest.raises(UnsolvedError):
        solver.result(line, "basic", nodes=50)
    assert solver.nodes == 51


def test_the_solver_stops_at_its_deadline():
    with pytest.raises(UnsolvedError):
        Solver().result(random_game(1, "basic")[2], "basic", deadline=0.0)


def test_proven_results_stay_in_the_table_for_the_next_search():
    line = random_game(5, "advanced")[-6]
    solver = Solver()
    first = solver.result(line, "advanced")
    assert solver.nodes > 0
    assert solver.result(line, "advanced") == first
    assert solver.nodes == 0


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", range(3))
def test_every_action_proven_is_proven_right(variant, seed):
    line = random_game(seed, variant)[-5]
    state = state_of(line, variant)
    seat = state.current_player()
    proven = EndgameSolver().prove(state, nodes=5000)
    assert proven
    for action, returns in proven.items():
        child = state.clone()
        child.apply_action(action)
        after = child.line
        if child.is_terminal():
            mover_result = int(child.returns()[seat])
        else:
            mover_result = -Solver().result(after, variant)
        assert returns[seat] == mover_result
        assert returns[1 - seat] == -mover_result
    wins = [action for action, returns in proven.items() if returns[seat] == 1]
    assert len(wins) <= 1
    if wins:
        assert list(proven)[-1] == wins[0]


def test_the_endgame_solver_decides_a_finished_game_and_says_unproven_out_of_budget():
    state = state_of(random_game(2, "basic")[0], "basic")
    assert EndgameSolver().solve(state, nodes=100) is None
    finished = state_of(random_game(2, "basic")[-1], "basic")
    finished.apply_action(finished.legal_actions()[0])
    assert finished.is_terminal()
    assert EndgameSolver().solve(finished) == (finished.returns(), None)
    assert EndgameSolver().prove(finished) == {}


def test_a_draw_is_neither_a_win_nor_a_loss_for_the_probe():
    """T5: equal scores draw; the probe neither plays a proven draw at once nor leaves
    it out of the search."""
    for seed in range(200):
        for line in random_game(seed, "basic")[-6:]:
            state = state_of(line, "basic")
            proven = EndgameSolver().prove(state)
            seat = state.current_player()
            if len(proven) == len(state.legal_actions()) and any(
                returns == [0.0, 0.0] for returns in proven.values()
            ):
                winning, losing = EndgameProbe(1.0).prove(
                    state, started=0.0, seconds=None, iterations=10_000
                )
                draws = {a for a, r in proven.items() if r[seat] == 0}
                assert winning is None or proven[winning][seat] == 1
                assert not draws & set(losing)
                return
    pytest.fail("no proven draw found in 200 random games")


def test_players_use_the_27_solver_through_the_hook():
    assert isinstance(endgame_solver(), EndgameSolver)
    line = next(
        line
        for seed in range(50)
        for line in random_game(seed, "expert")[-6:]
        if Solver().result(line, "expert") == 1 and len(children(line, "expert")) > 1
    )
    state = state_of(line, "expert")
    seat = state.current_player()
    for spec in ("mcts:iterations=50,endgame=1", "alphabeta:time=0.5,endgame=0.9"):
        action = make_agent(spec, seat, seed=0).act(state)
        child = state.clone()
        child.apply_action(action)
        assert (child.is_terminal() and child.returns()[seat] == 1) or (
            -Solver().result(child.line, "expert") == 1
        ), spec


def test_the_root_order_puts_the_most_discs_first_and_keeps_a_lone_pass():
    from stairgames.games.twenty_seven.research.endgame import _root_order

    legal = [
        encode_move(rules.Move(0, 1)),
        encode_move(rules.Move(0, 3)),
        encode_move(rules.Move(2, 2)),
    ]
    assert _root_order(legal) == [legal[1], legal[2], legal[0]]
    assert _root_order([PASS]) == [PASS]
