"""27's opening book (``stairgames.games.twenty_seven.research.opening``): the shipped
book, how players reach it (the ``opening`` hook, ``mcts:book=1``, the endgame solver),
and its builder on small budgets."""

from __future__ import annotations

import json
from typing import Any

import pytest

import stairgames
from stairgames.agents import AlphaBetaAgent, MctsAgent, make_agent
from stairgames.agents.endgame import NODES_PER_COMPILED_ITERATION, TRIAL_SHARE
from stairgames.games.twenty_seven.game import TwentySevenState
from stairgames.games.twenty_seven.play.evaluate import HOOKS
from stairgames.games.twenty_seven.research import opening
from stairgames.games.twenty_seven.research.endgame import (
    WARM_UP_POSITION,
    EndgameSolver,
    Solver,
)

START = "RWWWWWWWWW/G/G/G/G/G/G/G/RBBBBBBBBB W"


def basic_state(moves: str = "") -> TwentySevenState:
    state = stairgames.load("twenty_seven").new_initial_state()
    for move in moves.split():
        state.apply_move(move)
    assert isinstance(state, TwentySevenState)
    return state


def test_the_shipped_book_opens_with_0_1_and_follows_every_reply():
    book = opening.shipped_book()
    assert book[START].move == "0:1"
    built = json.loads(opening.BOOK_FILE.read_text(encoding="utf-8"))["built_with"]
    game = stairgames.load("twenty_seven")
    for position, entry in book.items():
        state = game.state_from_position(position)
        assert state.current_player() == 0  # white's positions only
        legal = {state.action_to_string(action) for action in state.legal_actions()}
        assert set(entry.proven) <= legal
        assert set(entry.proven.values()) <= {-1, 0, 1}
        assert entry.move is None or entry.move in legal
        assert entry.proven.get(entry.move or "", 0) != -1  # never a move it proved lost
    # from the start, every reply of black's to a book move leads into the book
    reached = set()
    frontier = [basic_state()]
    while frontier:
        state = frontier.pop()
        entry = book[state.position()]
        reached.add(state.position())
        if entry.move is None:
            continue
        after = state.clone()
        after.apply_move(entry.move)
        for reply in after.legal_actions():
            child = after.clone()
            child.apply_action(reply)
            ply = len(state.history())
            last = built["plies"] if ply < built["move_plies"] else built["deep_plies"]
            if (
                not child.is_terminal()
                and child.current_player() == 0
                and len(child.history()) < last
            ):
                assert isinstance(child, TwentySevenState)
                frontier.append(child)
    assert reached == set(book)  # and nothing else


def test_the_book_move_reaches_players_through_the_hook():
    assert HOOKS.opening is not None
    state = basic_state()
    move = HOOKS.opening(state)
    assert move is not None
    assert state.action_to_string(move) == "0:1"
    assert HOOKS.opening(basic_state("0:2 8:1")) is None  # outside the book
    advanced = stairgames.load("twenty_seven", variant="advanced").new_initial_state()
    assert HOOKS.opening(advanced) is None  # the book is of the basic game


def test_mcts_plays_the_book_move_without_searching_only_with_book_1():
    state = basic_state()
    booked = make_agent("mcts:iterations=500,book=1", 0, seed=3)
    assert isinstance(booked, MctsAgent)
    assert state.action_to_string(booked.act(state)) == "0:1"
    assert booked.last_iterations == 0
    assert booked.describe() == "mcts:iterations=500,c=1.0,book=1"
    plain = make_agent("mcts:iterations=500", 0, seed=3)
    assert isinstance(plain, MctsAgent)
    plain.act(state)
    assert plain.last_iterations == 500


def test_alphabeta_plays_the_book_move_without_searching_only_with_book_1():
    state = basic_state()
    booked = make_agent("alphabeta:time=0.2,book=1", 0, seed=3)
    assert isinstance(booked, AlphaBetaAgent)
    assert state.action_to_string(booked.act(state)) == "0:1"
    assert booked.nodes == 0 and booked.describe() == "alphabeta:time=0.2,book=1"
    plain = make_agent("alphabeta:time=0.2", 0, seed=3)
    assert isinstance(plain, AlphaBetaAgent)
    plain.act(state)
    assert plain.nodes > 0
    outside = basic_state("0:2 8:1")  # the book does not cover it: searched
    booked.act(outside)
    assert booked.nodes > 0


def test_the_hard_and_expert_levels_of_27_play_the_book():
    """27's ``hard`` and ``expert`` play the book's first move (issue 34: ``hard``
    without it lost a third of its games as first player to OpenSpiel's MCTS)."""
    state = basic_state()
    for level in ("hard", "expert"):
        player = make_agent(level, 0, seed=1, game=state.get_game())
        assert "book=1" in player.inner.describe()  # type: ignore[attr-defined]
        assert state.action_to_string(player.act(state)) == "0:1"


def test_the_endgame_solver_answers_a_book_position_from_the_book(monkeypatch):
    state = stairgames.load("twenty_seven").state_from_position(WARM_UP_POSITION)
    legal = [state.action_to_string(action) for action in state.legal_actions()]
    book = {WARM_UP_POSITION: opening.BookEntry(None, {legal[0]: -1})}
    monkeypatch.setattr(opening, "shipped_book", lambda: book)
    solver = EndgameSolver()
    assert solver.prove(state) == {state.string_to_action(legal[0]): [-1.0, 1.0]}
    assert solver.nodes == 0  # no search


def test_read_book_takes_its_own_format_only(tmp_path):
    path = tmp_path / "book.json"
    assert opening.read_book(path) == {}
    path.write_text(json.dumps({"format": 99, "variant": "basic", "positions": {}}))
    with pytest.raises(ValueError, match="not an opening book"):
        opening.read_book(path)
    path.write_text(
        json.dumps(
            {
                "format": opening.FORMAT,
                "variant": "basic",
                "positions": {START: {"move": "0:1", "proven": {"0:9": -1}}},
            }
        )
    )
    book = opening.read_book(path)
    assert book[START] == opening.BookEntry("0:1", {"0:9": -1})
    assert opening.entry_of(basic_state(), book) == book[START]


def test_the_builder_takes_a_proven_win_and_records_proven_moves():
    state = stairgames.load("twenty_seven").state_from_position(WARM_UP_POSITION)
    assert isinstance(state, TwentySevenState)
    budgets = opening.Budgets(prove_nodes=200_000, reply_nodes=1_000, search_iterations=200)
    entry = opening.choose(state, opening._Prover(), budgets)
    assert entry.move is not None
    assert entry.proven[entry.move] == 1
    child = state.clone()
    child.apply_move(entry.move)
    assert isinstance(child, TwentySevenState)
    assert child.is_terminal() or Solver().result(child.line, "basic") == -1


def test_the_builder_follows_every_reply_to_the_book_moves():
    budgets = opening.Budgets(prove_nodes=300, reply_nodes=30, search_iterations=64)
    book = opening.build(first="0:1", plies=3, budgets=budgets)
    positions = book["positions"]
    assert positions[START]["move"] == "0:1"
    # the start and white's 9 positions after 0:1 and each of black's 9 first moves
    assert len(positions) == 10
    assert all(basic_state(f"0:1 8:{k}").position() in positions for k in range(1, 10))
    assert book["built_with"]["first"] == "0:1"


def test_an_iteration_budget_gives_the_solver_what_the_compiled_search_would_take():
    """Under ``iterations=N`` on the compiled search the solver's trial gets
    N * share * NODES_PER_COMPILED_ITERATION positions (about its share of the time)."""
    state = basic_state("0:2 8:1")  # in the opening, outside the book: nothing proven
    agent = MctsAgent(0, seed=0, time_limit=None, iterations=1000, endgame=1.0)
    agent.act(state)
    solver = next(iter(agent._endgame._solvers.values()))
    assert solver.nodes <= TRIAL_SHARE * 1000 * NODES_PER_COMPILED_ITERATION + 1
    assert agent.last_iterations == 1000


def test_back_up_learns_a_move_lost_from_a_deeper_position_where_every_move_is_lost():
    """The refuted line the first book kept playing: after ``0:1 8:8 0:7 7:1 2:1 7:1``,
    white's ``2:1`` meets ``7:1`` and a position where all of white's moves are proven
    lost, so ``2:1`` is lost too, though no search proved it."""
    parent = basic_state("0:1 8:8 0:7 7:1 2:1 7:1").position()
    child = basic_state("0:1 8:8 0:7 7:1 2:1 7:1 2:1 7:1")
    legal = [child.action_to_string(action) for action in child.legal_actions()]
    lost: dict[str, int] = dict.fromkeys(legal, -1)
    positions: dict[str, dict[str, Any]] = {
        parent: {"move": "2:1", "proven": {}},
        child.position(): {"move": None, "proven": lost},
    }
    assert opening.back_up(positions) == {parent: {"2:1": -1}}
    lost[legal[0]] = 0  # one move no longer lost
    assert opening.back_up(positions) == {}


def test_the_shipped_book_has_nothing_left_to_learn_from_its_deeper_positions():
    """A book built before :func:`opening.back_up` existed kept playing a line its own
    deeper positions proved lost; the shipped one is backed up to its fixed point."""
    shipped = json.loads(opening.BOOK_FILE.read_text(encoding="utf-8"))["positions"]
    assert opening.back_up(shipped) == {}


def test_back_up_learns_a_move_won_when_every_reply_reaches_a_won_position():
    state = basic_state("0:1 8:8")
    after = state.clone()
    after.apply_move("0:7")
    positions: dict[str, dict[str, Any]] = {state.position(): {"move": "0:7", "proven": {}}}
    for reply in after.legal_actions():
        child = after.clone()
        child.apply_action(reply)
        move = child.action_to_string(child.legal_actions()[0])
        positions[child.position()] = {"move": move, "proven": {move: 1}}
    learned = opening.back_up(positions)
    assert learned[state.position()] == {"0:7": 1}


def test_a_resumed_build_chooses_again_only_where_it_learned_something():
    budgets = opening.Budgets(prove_nodes=300, reply_nodes=30, search_iterations=64)
    first = opening.build(first="0:1", plies=3, budgets=budgets)
    start = {
        position: opening.BookEntry(entry["move"], entry["proven"])
        for position, entry in first["positions"].items()
    }
    again = opening.build(first="0:1", plies=3, budgets=budgets, start=start)
    assert again["positions"] == first["positions"]
    assert again["built_with"]["positions_searched"] == 0  # nothing searched again


TINY = opening.Budgets(prove_nodes=300, reply_nodes=30, search_iterations=64, search_runs=2)
LOST_LATE = "0:1 8:8 0:7 7:1 2:1 7:1 2:1 7:1"
"""A position of white's where 200,000 positions a move prove all moves but ``0:1`` lost,
and 300 prove nothing."""


def test_deepening_a_position_proves_its_open_moves_with_the_larger_budget():
    prover = opening._Prover()
    _, shallow = opening.deepened(LOST_LATE, {}, prover, TINY, narrow=2, nodes=300)
    assert shallow == opening.BookEntry(None, {})
    _, deep = opening.deepened(LOST_LATE, {}, prover, TINY, narrow=2, nodes=200_000)
    assert {move for move, found in deep.proven.items() if found == -1} == {
        "2:1",
        "2:2",
        "2:3",
        "2:4",
        "2:5",
    }
    assert deep.move in {"0:1", "1:1"}  # two moves left open: the book takes one (narrow)


def test_deepening_keeps_what_the_book_knew_of_the_position():
    state = basic_state(LOST_LATE)
    known: frozenset[tuple[str, int]] = frozenset()
    made = {state.position(): (known, opening.BookEntry(None, {"0:1": -1}))}
    _, deep = opening.deepened(LOST_LATE, made, opening._Prover(), TINY, narrow=2, nodes=200_000)
    assert deep.proven["0:1"] == -1  # taken as known (falsely here), not searched again
    assert deep.move == "1:1"  # the one move left open


def test_deepening_takes_only_lines_to_positions_of_white():
    with pytest.raises(ValueError, match="position of white"):
        opening.deepened("0:1", {}, opening._Prover(), TINY, narrow=2, nodes=300)


def test_a_build_deepens_the_lines_it_is_given_and_says_so():
    reported: list[str] = []
    book = opening.build(
        first="0:1",
        plies=3,
        budgets=TINY,
        deepen=["0:1 8:8"],
        deepen_nodes=20_000,
        report=reported.append,
    )
    assert book["built_with"]["deepen"] == ["0:1 8:8"]
    assert book["built_with"]["deepen_nodes"] == 20_000
    assert any(line.startswith("deepened 0:1 8:8: ") for line in reported)
    entry = book["positions"][basic_state("0:1 8:8").position()]
    assert entry["move"] is not None  # before move_plies the book takes a move all the same


def test_a_resumed_build_keeps_how_the_book_it_resumed_was_built(tmp_path):
    tiny = ["--plies", "3", "--prove-nodes", "300", "--reply-nodes", "30"]
    tiny += ["--search-iterations", "64", "--search-runs", "2", "--first", "0:1"]
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    assert opening.main([*tiny, "--out", str(first)]) == 0
    assert opening.main([*tiny, "--resume", str(first), "--out", str(second)]) == 0
    resumed = opening.built_with(second)
    assert resumed["resumed_from"] == opening.built_with(first)
    assert "resumed_from" not in opening.built_with(first)
