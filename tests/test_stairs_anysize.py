"""The compiled exact search of Stairs on any board size (S8) and the ``perfect`` player."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random

import numpy as np
import pytest

import stairgames
from stairgames.agents import make_agent
from stairgames.core.errors import InvalidOptionError
from stairgames.core.registry import player_hooks
from stairgames.core.solvers import in_process
from stairgames.games.stairs import rules
from stairgames.games.stairs.game import StairsState
from stairgames.games.stairs.play.perfect import perfect_play
from stairgames.games.stairs.position import format_position
from stairgames.games.stairs.research import anysize, exact
from stairgames.games.stairs.research import endgame as solve
from stairgames.games.stairs.research import endgame_kernel as kernel
from stairgames.games.stairs.research.anysize import (
    BoardSolver,
    UnsolvedError,
    position_array,
    solve_pie_rule,
    solve_start,
)


def random_boards(size: int, seed: int) -> list[rules.Board]:
    """The boards of a uniformly random game on ``size``, from the start to the end."""
    return anysize.random_game_boards(size, random.Random(seed))


def near_end(size: int, seed: int, plies_left: int) -> rules.Board:
    boards = random_boards(size, seed)
    return boards[max(1, len(boards) - 1 - plies_left)]


def geometry(size: int) -> kernel.Constants:
    """The constants of ``size`` that :mod:`.anysize` searches with (eight symmetries)."""
    return anysize.BoardSolver(size, table_bits=1).constants


@pytest.mark.parametrize("size", range(3, 9))
def test_make_and_unmake_follow_the_rules_on_every_size(size):
    """Along random games, the compiled move keeps every field (the symmetric keys and
    square h8, the sign bit of 8×8 bitboards, included) as a fresh array of the board."""
    g = geometry(size)
    for seed in range(3):
        boards = random_boards(size, seed)
        s = position_array(boards[0])
        for board, after in itertools.pairwise(boards):
            found = np.empty(kernel.MAX_MOVES, dtype=np.int64)
            count = kernel.moves(s, g, int(s[kernel.TO_MOVE]), found)
            steps = rules.legal_moves(board, board.to_move)
            assert sorted((m >> 6, m & 63) for m in found[:count]) == sorted(
                (m.source, m.target) for m in steps
            )
            changed = [q for q in range(len(board.stacks)) if board.stacks[q] != after.stacks[q]]
            if not changed:  # a pass
                s[kernel.TO_MOVE] ^= 1
            else:
                source = next(q for q in changed if len(after.stacks[q]) < len(board.stacks[q]))
                target = next(q for q in changed if q != source)
                before = s.copy()
                undo = kernel.make(s, g, source, target)
                kernel.unmake(s, g, source, target, undo)
                assert (s == before).all()
                kernel.make(s, g, source, target)
            assert (s == position_array(after)).all()


@pytest.mark.parametrize("size", [3, 4, 5, 8])
def test_a_rotated_or_reflected_board_has_the_same_table_key(size):
    g = geometry(size)
    board = random_boards(size, 1)[6]
    keys = set()
    for symmetry in range(kernel.NUM_SYMMETRIES):
        stacks = [""] * len(board.stacks)
        for square, stack in enumerate(board.stacks):
            stacks[kernel.image_of(size, symmetry, square)] = stack
        image = rules.Board(tuple(stacks), board.to_move, board.last_arrival)
        keys.add(kernel.table_key(position_array(image), g))
    assert len(keys) == 1
    other = rules.Board(board.stacks, rules.opponent(board.to_move), board.last_arrival)
    assert kernel.table_key(position_array(other), g) not in keys


def test_3x3_is_a_light_win_by_the_same_first_moves_as_the_plain_search():
    compiled = solve_start(3)
    plain = exact.solve_start(3)
    assert compiled.winner == plain.winner == "L"
    assert compiled.winning_first_moves == plain.winning_first_moves
    assert solve_start(3, symmetric=False).winning_first_moves == plain.winning_first_moves


def test_4x4_is_a_dark_win_after_every_first_move():
    result = solve_start(4)
    assert result.winner == "D"
    assert len(result.first_moves) == 42
    assert {winner for _move, winner in result.first_moves} == {"D"}
    assert solve_start(4, symmetric=False).winner == "D"


@pytest.mark.parametrize("size", [4, 5, 6])
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.slow
def test_the_compiled_search_agrees_with_the_plain_search_near_the_end(size, seed):
    board = near_end(size, seed, plies_left=9)
    assert BoardSolver(size).wins(board) == exact.ExactSolver().wins(board)


@pytest.mark.parametrize("seed", range(10))
def test_the_compiled_search_agrees_with_the_6x6_solver(seed):
    board = near_end(6, seed, plies_left=14)
    assert BoardSolver(6).wins(board) == solve.Solver().wins(solve.Position(board))


def test_a_spent_budget_raises_and_the_search_goes_on_from_its_table():
    solver = BoardSolver(4)
    board = rules.apply_move(
        rules.initial_board(4), rules.legal_moves(rules.initial_board(4), "L")[0]
    )
    with pytest.raises(UnsolvedError):
        solver.wins(board, nodes=100)
    spent = solver.nodes
    assert solver.wins(board) is True  # dark (to move) wins 4×4
    fresh = BoardSolver(4)
    fresh.wins(board)
    assert solver.nodes - spent < fresh.nodes


@pytest.mark.parametrize("size", [3, 4])
@pytest.mark.slow
def test_proof_number_search_agrees_with_the_depth_first_search_after_every_first_move(size):
    board = rules.initial_board(size)
    for move in rules.legal_moves(board, "L"):
        after = rules.apply_move(board, move)
        # a leaf budget this small makes the tree grow several plies deep
        assert anysize.prove(BoardSolver(size), after, leaf_nodes=50) == BoardSolver(size).wins(
            after
        ), str(move)


@pytest.mark.parametrize("seed", range(4))
def test_proof_number_search_agrees_with_the_plain_search_near_the_end(seed):
    board = near_end(5, seed, plies_left=10)
    wins = anysize.prove(BoardSolver(5), board, leaf_nodes=20)
    assert wins == exact.ExactSolver().wins(board)


def test_proof_number_search_reports_its_tree_as_it_grows():
    board = rules.apply_move(
        rules.initial_board(4), rules.legal_moves(rules.initial_board(4), "L")[0]
    )
    seen: list[tuple[int, int, int]] = []
    assert anysize.prove(BoardSolver(4), board, leaf_nodes=50, progress=lambda *x: seen.append(x))
    assert seen and [nodes for nodes, _, _ in seen] == sorted(nodes for nodes, _, _ in seen)
    assert seen[-1][1] == 0  # the last report: the proof is done


@pytest.mark.parametrize(("size", "groups"), [(3, 3), (4, 12), (5, 10)])
def test_first_moves_fall_into_groups_of_symmetric_positions(size, groups):
    classes = anysize.first_move_classes(size)
    assert len(classes) == groups
    moves = [str(move) for move in rules.legal_moves(rules.initial_board(size), "L")]
    assert sorted(move for group in classes for move in group) == sorted(moves)
    solver = BoardSolver(size)
    for group in classes:
        keys = set()
        for text in group:
            move = next(
                m for m in rules.legal_moves(rules.initial_board(size), "L") if str(m) == text
            )
            after = rules.apply_move(rules.initial_board(size), move)
            keys.add(kernel.table_key(position_array(after), solver.constants))
        assert len(keys) == 1, group


def test_5x5_b1_b2_and_d1_d2_are_one_group():
    assert ("b1-b2", "d1-d2", "a2-b2", "e2-d2", "a4-b4", "e4-d4", "b5-b4", "d5-d4") in (
        anysize.first_move_classes(5)
    )


@pytest.mark.parametrize("size", [3, 4])
def test_solving_in_parts_gives_the_value_of_one_search(size):
    heard: list[anysize.PartValue] = []
    split = anysize.solve_start_in_parts(size, in_process, on_part=heard.append)
    whole = solve_start(size)
    assert split.first_moves == whole.first_moves
    assert split.winning_first_moves == whole.winning_first_moves
    assert len(heard) == len(anysize.first_move_classes(size))


def test_parts_already_done_are_not_solved_again():
    done = anysize.solve_start_in_parts(3, in_process)
    first = anysize.first_move_classes(3)[0]
    kept = [anysize.PartValue(first, "L", 7, 0.5)]  # as a record of an earlier run says
    asked: list[tuple[int, tuple[str, ...]]] = []

    def map_tasks(function, tasks, *, on_result=None):
        asked.extend(tasks)
        return in_process(function, tasks, on_result=on_result)

    again = anysize.solve_start_in_parts(3, map_tasks, done=kept)
    assert [moves for _, moves in asked] == anysize.first_move_classes(3)[1:]
    assert again.first_moves == done.first_moves
    assert again.nodes == 7 + sum(
        anysize.first_move_class_value((3, moves)).nodes
        for moves in anysize.first_move_classes(3)[1:]
    )


@pytest.mark.parametrize("size", [3, 4])
def test_with_the_pie_rule_the_second_player_wins_after_every_first_move(size):
    """Through the engine's swap: after each first move the second player either swaps
    (light wins the position) or plays on as dark."""
    pie = solve_pie_rule(size)
    assert pie.winner == "second"
    assert pie.winning_first_moves == ()
    assert pie.first_moves == solve_start(size).first_moves


@pytest.mark.parametrize("size", [3, 4])
def test_the_pie_rule_game_follows_from_the_game_without_it_as_the_engine_solves_it(size):
    derived = anysize.pie_rule_from(solve_start(size))
    searched = solve_pie_rule(size)
    assert derived.winner == searched.winner == "second"
    assert derived.winning_first_moves == searched.winning_first_moves == ()
    assert derived.first_moves == searched.first_moves


# ----- the perfect player -----------------------------------------------------


def test_perfect_values_of_the_3x3_start_are_the_plain_search_by_first_move():
    game = stairgames.load("stairs", size=3)
    values = player_hooks("stairs").perfect_play(game).action_values(game.new_initial_state())  # type: ignore[misc]
    winning = {game.new_initial_state().action_to_string(a) for a, r in values.items() if r[0] > 0}
    assert winning == set(exact.solve_start(3).winning_first_moves)


@pytest.mark.parametrize("size", [3, 4])
@pytest.mark.parametrize("seed", range(2))
def test_perfect_values_agree_with_the_plain_search_near_the_end(size, seed):
    game = stairgames.load("stairs", size=size, agreement=False)
    state = game.state_from_position(format_position(near_end(size, seed, plies_left=7)))
    assert isinstance(state, StairsState)
    values = perfect_play(game).action_values(state)
    for action, returns in values.items():
        child = state.clone()
        child.apply_action(action)
        assert isinstance(child, StairsState)
        if child.is_terminal():
            assert returns == child.returns()
            continue
        mover_wins = exact.ExactSolver().wins(child.board)
        colour = child.board.to_move if mover_wins else rules.opponent(child.board.to_move)
        assert returns[child.seat_of(colour)] == 1.0


@pytest.mark.parametrize(
    ("size", "seat", "opponent"),
    [
        (3, 0, "random"),
        (3, 0, "mcts:iterations=50"),
        (4, 1, "random"),
        (4, 1, "mcts:iterations=50"),
    ],
)
def test_perfect_never_loses_from_the_winning_side(size, seat, opponent):
    game = stairgames.load("stairs", size=size)
    for seed in range(3):
        players = [make_agent("perfect", seat, seed=seed, game=game)]
        players.insert(1 - seat, make_agent(opponent, 1 - seat, seed=seed, game=game))
        state = game.new_initial_state()
        for player in players:
            player.prepare(game)
        while not state.is_terminal():
            state.apply_action(players[state.current_player()].act(state))
        assert state.returns()[seat] == 1.0


@pytest.mark.parametrize("pie_rule", [False, True])
def test_the_principal_variation_is_a_game_won_by_the_predicted_seat(pie_rule):
    game = stairgames.load("stairs", size=4, pie_rule=pie_rule)
    perfect = perfect_play(game)
    start = game.new_initial_state()
    line = perfect.principal_variation(start)
    state = start.clone()
    for action in line:
        state.apply_action(action)
    assert state.is_terminal()
    assert state.returns() == [-1.0, 1.0]  # the second player wins 4×4, with or without pie
    assert perfect.principal_variation(start, limit=3) == line[:3]


def test_perfect_values_an_offer_as_playing_on_and_its_answer_by_the_result():
    game = stairgames.load("stairs", size=3)
    perfect = perfect_play(game)
    state = game.new_initial_state()
    state.apply_move("b1-b2")  # light wins 3×3 from here
    values = perfect.action_values(state)
    assert {tuple(v) for v in values.values()} == {(1.0, -1.0)}
    state.apply_action(state.offer_action())
    answers = perfect.action_values(state)
    offer = state.agreement_offer()
    assert offer is not None
    assert answers[offer.accept] == list(offer.returns)
    assert answers[offer.decline] == [1.0, -1.0]


def _record_5x5(folder, winner_of) -> None:
    """A 5×5 solve record as ``stairgames solve stairs --size 5`` writes it, with the
    winners ``winner_of(move)`` (the test needs no 40-minute solve)."""
    board = rules.initial_board(5)
    first = [(str(move), winner_of(str(move))) for move in rules.legal_moves(board, "L")]
    value = anysize.StartValue(5, False, "L", (), tuple(first), 0, 0.0)
    (folder / "stairs").mkdir(parents=True, exist_ok=True)
    text = json.dumps(dataclasses.asdict(value))
    (folder / "stairs" / "stairs-5.json").write_text(text, encoding="utf-8")


def test_perfect_refuses_5x5_until_it_is_solved_and_names_the_command(tmp_path, monkeypatch):
    monkeypatch.setenv("STAIRGAMES_SOLVED_DIR", str(tmp_path))
    with pytest.raises(InvalidOptionError, match="stairgames solve stairs --size 5 --try-larger"):
        make_agent("perfect", 0, game=stairgames.load("stairs", size=5))


def test_perfect_reads_the_5x5_first_moves_from_the_solve_record(tmp_path, monkeypatch):
    monkeypatch.setenv("STAIRGAMES_SOLVED_DIR", str(tmp_path))
    _record_5x5(tmp_path, lambda move: "L" if move.startswith("b") else "D")
    game = stairgames.load("stairs", size=5)
    start = game.new_initial_state()
    values = perfect_play(game).action_values(start)
    winning = {start.action_to_string(a) for a, returns in values.items() if returns[0] > 0}
    assert len(values) == 72
    assert winning == {
        str(m) for m in rules.legal_moves(rules.initial_board(5), "L") if str(m)[0] == "b"
    }


def test_with_the_pie_rule_5x5_is_won_by_the_second_player_from_the_record(tmp_path, monkeypatch):
    monkeypatch.setenv("STAIRGAMES_SOLVED_DIR", str(tmp_path))
    _record_5x5(tmp_path, lambda move: "L" if move == "c2-c3" else "D")
    game = stairgames.load("stairs", size=5, pie_rule=True)
    start = game.new_initial_state()
    values = perfect_play(game).action_values(start)
    assert {returns[1] for returns in values.values()} == {1.0}


@pytest.mark.slow
def test_perfect_solves_later_5x5_positions_on_demand(tmp_path, monkeypatch):
    monkeypatch.setenv("STAIRGAMES_SOLVED_DIR", str(tmp_path))
    _record_5x5(tmp_path, lambda move: "D")
    game = stairgames.load("stairs", size=5, agreement=False)
    play = perfect_play(game)
    for seed in range(3):
        board = near_end(5, seed, plies_left=9)
        state = game.state_from_position(format_position(board))
        mover_wins = exact.ExactSolver().wins(board)
        seat = state.current_player()
        best = max(returns[seat] for returns in play.action_values(state).values())
        assert best == (1.0 if mover_wins else -1.0)


@pytest.mark.parametrize("text", ["{}", "[1, 2]", '{"first_moves": [["b1-b2", "L"]]}'])
def test_a_broken_5x5_record_is_refused_with_its_name(tmp_path, monkeypatch, text):
    monkeypatch.setenv("STAIRGAMES_SOLVED_DIR", str(tmp_path))
    (tmp_path / "stairs").mkdir()
    (tmp_path / "stairs" / "stairs-5.json").write_text(text, encoding="utf-8")
    with pytest.raises(InvalidOptionError, match=r"stairs-5\.json is not a Stairs solve record"):
        perfect_play(stairgames.load("stairs", size=5))


@pytest.mark.parametrize("size", [6, 8])
def test_perfect_refuses_boards_that_are_not_solved(size):
    with pytest.raises(InvalidOptionError, match=f"not {size}×{size}"):
        make_agent("perfect", 0, game=stairgames.load("stairs", size=size))
