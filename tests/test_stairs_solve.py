"""The exact Stairs endgame solver (``stairgames.games.stairs.research.endgame``) and its
use by ``mcts``."""

from __future__ import annotations

import functools
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stairgames
from stairgames.agents import AlphaBetaAgent, MctsAgent, make_agent
from stairgames.agents.endgame import (
    NODES_PER_COMPILED_ITERATION,
    NODES_PER_ITERATION,
    EndgameProbe,
)
from stairgames.agents.levels import level_player
from stairgames.core.endgame import INITIAL_SPEED, Clock
from stairgames.core.errors import InvalidOptionError
from stairgames.games.stairs import rules
from stairgames.games.stairs.game import StairsState
from stairgames.games.stairs.notation import PASS
from stairgames.games.stairs.research.anysize import random_game_boards
from stairgames.games.stairs.research.endgame import (
    EndgameSolver,
    Position,
    Solver,
    UnsolvedError,
)
from tests.test_agents import FORCED_WINS


def random_game(seed: int) -> list[rules.Board]:
    """The boards of a uniformly random game, from the opening to the end."""
    return random_game_boards(rules.SIZE, random.Random(seed))


def same_position(position: Position, board: rules.Board) -> bool:
    fresh = Position(board)
    return (
        position.heights == fresh.heights
        and position.pieces == fresh.pieces
        and position.levels == fresh.levels
        and position.tops == fresh.tops
        and position.table_key() == fresh.table_key()
        and position.peak == fresh.peak
        and position.arrival == fresh.arrival
        and position.to_move == fresh.to_move
    )


@functools.cache
def plain_wins(board: rules.Board) -> bool:
    """Whether the colour to move wins, by a plain search over :class:`rules.Board` (S4, S5)."""
    colour = board.to_move
    moves = rules.legal_moves(board, colour)
    if not moves:
        if rules.is_over(board):
            verdict = rules.verdict(board)
            assert verdict is not None
            return verdict.winner == colour
        return not plain_wins(rules.pass_turn(board))
    return any(not plain_wins(rules.apply_move(board, move)) for move in moves)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6))
@pytest.mark.slow
def test_make_and_unmake_follow_the_rules_along_random_games(seed):
    """The moves S2 + S3 allow; make gives the board rules.apply_move gives, unmake restores it."""
    for board in random_game(seed):
        position = Position(board)
        expected = rules.legal_moves(board, board.to_move)
        moves = position.moves(position.to_move)
        assert moves == sorted((m.source, m.target) for m in expected)
        assert position.can_move(0) == rules.has_move(board, rules.LIGHT)
        assert position.can_move(1) == rules.has_move(board, rules.DARK)
        for move in expected:
            undo = position.make(move.source, move.target)
            assert same_position(position, rules.apply_move(board, move))
            position.unmake(move.source, move.target, undo)
            assert same_position(position, board)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6))
def test_the_winner_is_s5_at_the_end_of_random_games(seed):
    board = random_game(seed)[-1]
    verdict = rules.verdict(board)
    assert verdict is not None
    assert Position(board).winner() == (0 if verdict.winner == rules.LIGHT else 1)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.slow
def test_the_solver_agrees_with_a_plain_search_near_the_end(seed):
    boards = random_game(seed)
    solver = Solver()
    for board in boards[max(2, len(boards) - 14) : -1]:
        assert solver.wins(Position(board)) == plain_wins(board)


def test_the_solver_stops_at_its_node_budget_and_leaves_the_position_as_it_was():
    board = random_game(3)[8]
    position = Position(board)
    solver = Solver()
    with pytest.raises(UnsolvedError):
        solver.wins(position, nodes=50)
    assert solver.nodes == 51
    assert same_position(position, board)


def test_the_solver_stops_at_its_deadline():
    board = random_game(3)[4]
    with pytest.raises(UnsolvedError):
        Solver().wins(Position(board), deadline=0.0)


def test_a_deadline_becomes_a_node_budget_at_the_measured_speed(
    monkeypatch: pytest.MonkeyPatch,
):
    """Compiled code cannot read the clock: half a second at 1,000 positions a second
    is a budget of 500 positions (the clock stands still here: no time passes)."""
    monkeypatch.setattr(time, "perf_counter", lambda: 100.0)
    board = random_game(3)[4]
    solver = Solver()
    solver.clock.speed = 1000.0
    with pytest.raises(UnsolvedError):
        solver.wins(Position(board), deadline=100.5)
    assert 500 <= solver.nodes <= 501


def test_the_measured_speed_follows_long_searches_only():
    clock = Clock()
    clock.measure(100, 1.0)
    assert clock.speed == INITIAL_SPEED
    clock.measure(10_000, 0.01)
    assert clock.speed == pytest.approx(0.7 * INITIAL_SPEED + 0.3 * 1_000_000)
    assert clock.budget(None, None, 0.0) == 1 << 62
    assert clock.budget(70, 10.0, 9.0) == 70
    assert clock.budget(None, 10.0, 11.0) == 0


def test_proven_results_stay_in_the_table_for_the_next_search():
    boards = random_game(5)
    solver = Solver()
    late = boards[-8]
    solver.wins(Position(late))
    first = solver.nodes
    assert first > 0
    solver.wins(Position(late))
    assert solver.nodes == 0


@pytest.mark.parametrize(("position", "wins"), FORCED_WINS)
def test_the_endgame_solver_finds_the_forced_win(position, wins):
    state = stairgames.load("stairs").state_from_position(position)
    proven = EndgameSolver().solve(state)
    assert proven is not None
    returns, action = proven
    assert action is not None and state.action_to_string(action) in wins
    assert returns[state.current_player()] == 1.0


def winning_actions(state: StairsState) -> set[int]:
    """The actions after which the other colour loses, by the plain search."""
    board = state.board
    wins = set()
    for action in state.legal_actions():
        if action == PASS:
            after = rules.pass_turn(board)
        else:
            after = rules.apply_move(board, rules.step_move(action))
        if not plain_wins(after):
            wins.add(action)
    return wins


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.slow
def test_the_endgame_solver_matches_an_exhaustive_search_by_seat(seed):
    """Returns by seat (also after a swap) and a winning action exactly when one exists."""
    game = stairgames.load("stairs", pie_rule=True, agreement=False)
    rng = random.Random(seed)
    state = game.new_initial_state()
    states: list[StairsState] = []
    while not state.is_terminal():
        assert isinstance(state, StairsState)
        states.append(state.clone())
        legal = state.legal_actions()
        state.apply_action(legal[-1] if len(states) == 2 and seed % 2 else rng.choice(legal))
    assert states[-1].swapped() == bool(seed % 2)
    for late in states[-10:]:
        proven = EndgameSolver().solve(late)
        assert proven is not None
        returns, action = proven
        seat = late.current_player()
        wins = winning_actions(late)
        assert (returns[seat] == 1.0) == bool(wins)
        assert returns[1 - seat] == -returns[seat]
        assert (action is None) == (not wins)
        assert action is None or action in wins


def test_the_endgame_solver_leaves_the_opening_and_the_swap_alone():
    game = stairgames.load("stairs", pie_rule=True, agreement=False)
    state = game.new_initial_state()
    assert EndgameSolver().solve(state) is None
    state.apply_action(state.legal_actions()[0])
    assert EndgameSolver().solve(state) is None  # swap is legal here


def test_the_endgame_solver_says_unproven_when_its_budget_runs_out():
    state = stairgames.load("stairs", agreement=False).new_initial_state()
    rng = random.Random(1)
    for _ in range(8):
        state.apply_action(rng.choice(state.legal_actions()))
    solver = EndgameSolver()
    assert solver.solve(state, nodes=100) is None
    assert solver.nodes <= 102


def late_states(seed: int, count: int) -> list[StairsState]:
    """The last ``count`` states before the end of a random game of Stairs (moves of
    play only: a random offer accepted would end it early, S7)."""
    rng = random.Random(seed)
    state = stairgames.load("stairs", agreement=False).new_initial_state()
    states = []
    while not state.is_terminal():
        assert isinstance(state, StairsState)
        states.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
    return states[-count:]


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.slow
def test_every_action_proven_within_a_small_budget_is_proven_right(seed):
    """A partial proof (some actions proven, others open) states only true results."""
    partial = 0
    for state in late_states(seed, 16):
        seat = state.current_player()
        proven = EndgameSolver().prove(state, nodes=300)
        for action, returns in proven.items():
            assert (returns[seat] == 1.0) == (action in winning_actions(state))
        partial += 0 < len(proven) < len(state.legal_actions())
    assert partial  # the budget did leave some positions half proven


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.slow
def test_mcts_never_plays_an_action_the_endgame_solver_proved_lost(seed):
    checked = 0
    # the late states of eight games: only a position with some actions proven lost and
    # some not checks anything, and since the solver breaks ties by the playout policy
    # (it finds a win before proving the losing moves) one game may have none
    games = range(8 * seed, 8 * seed + 8)
    for state in (state for game in games for state in late_states(game, 24)):
        seat = state.current_player()
        # what mcts:iterations=100,endgame=1.0 asks of a fresh solver (on the compiled search)
        _, losing = EndgameProbe(1.0).prove(
            state,
            started=0.0,
            seconds=None,
            iterations=100,
            nodes_per_iteration=NODES_PER_COMPILED_ITERATION,
        )
        lost = set(losing)
        if not lost or len(lost) == len(state.legal_actions()):
            continue
        agent = MctsAgent(seat, seed=seed, time_limit=None, iterations=100, endgame=1.0)
        assert agent.act(state) not in lost
        checked += 1
    assert checked


@pytest.mark.parametrize(("position", "wins"), FORCED_WINS)
def test_mcts_with_the_endgame_solver_plays_the_proven_win_before_searching(position, wins):
    state = stairgames.load("stairs").state_from_position(position)
    seat = state.current_player()
    agent = MctsAgent(seat, seed=0, time_limit=None, iterations=1000, endgame=1.0)
    assert state.action_to_string(agent.act(state)) in wins
    assert agent.last_iterations == 0  # proven before any search


@pytest.mark.parametrize(("position", "wins"), FORCED_WINS)
def test_alphabeta_with_the_endgame_solver_plays_the_proven_win_before_searching(position, wins):
    state = stairgames.load("stairs").state_from_position(position)
    agent = make_agent("alphabeta:time=5,endgame=0.5", state.current_player(), seed=0)
    assert isinstance(agent, AlphaBetaAgent)
    assert state.action_to_string(agent.act(state)) in wins
    assert agent.nodes == 0  # proven before any search


def test_the_solver_gives_up_after_its_trial_share_when_it_proves_nothing():
    """In the opening nothing is within reach: a tenth of the share, then the search."""
    state = stairgames.load("stairs").new_initial_state()
    rng = random.Random(2)
    for _ in range(4):
        state.apply_action(rng.choice(state.legal_actions()))
    probe = EndgameProbe(0.8)
    assert probe.prove(state, started=0.0, seconds=None, iterations=1000) == (None, {})
    solver = next(iter(probe._solvers.values()))
    assert solver.nodes <= 0.1 * 1000 * NODES_PER_ITERATION + 1


def test_mcts_endgame_solver_budget_follows_the_iteration_budget():
    """NODES_PER_ITERATION solver positions an iteration of the share: 1 iteration is
    too little here."""
    position, _ = FORCED_WINS[0]
    state = stairgames.load("stairs").state_from_position(position)
    agent = MctsAgent(state.current_player(), seed=0, time_limit=None, iterations=1, endgame=1.0)
    agent.act(state)
    assert agent.last_iterations == 1


def test_mcts_endgame_is_repeatable_and_completes_games_with_the_pie_rule():
    game = stairgames.load("stairs", pie_rule=True)
    runs = []
    for _ in range(2):
        players = [make_agent("mcts:iterations=40,endgame=0.5", s, seed=4 + s) for s in (0, 1)]
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(players[state.current_player()].act(state))
        runs.append(state.history())
    assert runs[0] == runs[1]


@pytest.mark.parametrize(
    "text", ["mcts:endgame=1.5", "mcts:endgame=-0.1", "mcts:endgame=x", "alphabeta:endgame=2"]
)
def test_mcts_endgame_share_out_of_range_is_refused(text):
    with pytest.raises(InvalidOptionError, match="endgame"):
        make_agent(text, 0, seed=0)


def test_mcts_endgame_is_ignored_by_games_without_a_solver():
    game = stairgames.load("twenty_seven")
    players = [make_agent("mcts:iterations=10,endgame=0.5", s, seed=s) for s in (0, 1)]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(players[state.current_player()].act(state))
    assert state.is_terminal()


def test_stairs_hard_and_expert_levels_give_the_endgame_solver_its_share():
    game = stairgames.load("stairs")
    for level, kind in (("hard", "mcts"), ("expert", "mcts")):
        agent = make_agent(level_player(level, game), 0, seed=0)
        assert agent.name == kind
        assert isinstance(agent, (MctsAgent, AlphaBetaAgent))
        assert agent.endgame == 0.8
