"""Puzzles as data and their judging: JSON both ways, bad files refused, the tree walked.

The puzzle here is made by hand on a real 3×3 Stairs position (its verdicts are data:
judging only walks the tree); the proofs of made puzzles are tested in
``test_puzzles_prove.py``.
"""

from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path
from typing import Any

import pytest

import stairgames
from stairgames import puzzles
from stairgames.i18n import localize, set_language, text_json
from stairgames.puzzles.judge import PuzzleMoveError, judge, node_after, solution, start_state
from stairgames.puzzles.model import (
    Answer,
    InvalidPuzzleError,
    Node,
    Puzzle,
    parse_puzzles,
    puzzle_id,
    read_puzzles,
    write_puzzles,
)

OPTIONS: dict[str, Any] = {"size": 3, "agreement": False}
POSITION = "D,L,D/L,D,L/D,L,D L -"


def _node(position: str, best: str, *, also: str | None = None, reply: bool) -> Node:
    """Every legal move of ``position`` judged: ``best`` best, ``also`` also, the rest
    wrong; with ``reply``, the best and the also are answered by the defender's first
    legal move and go on to a node where the first legal move solves."""
    state = stairgames.load("stairs", **OPTIONS).state_from_position(position)
    answers = []
    for action in state.legal_actions():
        move = state.action_to_string(action)
        after = state.clone()
        after.apply_action(action)
        right = move in (best, also)
        verdict = "best" if move == best else "also" if move == also else "wrong"
        reply_move = next_node = None
        if right and reply:
            reply_action = after.legal_actions()[0]
            reply_move = after.action_to_string(reply_action)
            then = after.clone()
            then.apply_action(reply_action)
            first = then.action_to_string(then.legal_actions()[0])
            next_node = _node(then.position(), first, reply=False)
        answers.append(
            Answer(
                move=move,
                verdict=verdict,
                shares=(1.0, 0.0) if right else (0.0, 1.0),
                plies=3 if right else 4,
                winner=0 if right else 1,
                line=(reply_move,) if reply_move else ("pass",),
                reply=reply_move,
                next=next_node,
            )
        )
    return Node(tuple(answers))


@pytest.fixture(scope="module")
def puzzle() -> Puzzle:
    return Puzzle(
        id=puzzle_id("stairs", OPTIONS, POSITION),
        game="stairs",
        options=dict(OPTIONS),
        position=POSITION,
        solver=0,
        goal="win",
        root=_node(POSITION, "b1-b2", also="c2-c3", reply=True),
        themes=("short_win",),
        rating=1400.0,
        source={"kind": "self-play", "seed": 3, "ply": 0},
    )


def test_json_round_trip(puzzle: Puzzle) -> None:
    data = puzzle.to_json()
    assert Puzzle.from_json(json.loads(json.dumps(data))) == puzzle
    assert Puzzle.from_json(data).to_json() == data


def test_id_is_stable_and_depends_on_the_position() -> None:
    first = puzzle_id("stairs", {"size": 3}, POSITION)
    assert first == puzzle_id("stairs", {"size": 3}, POSITION)
    assert len(first) == 8 and first.isalnum() and first.lower() == first
    assert first != puzzle_id("stairs", {"size": 3}, "D,L,D/L,D,L/D,L,D D -")
    assert first != puzzle_id("stairs", {"size": 4}, POSITION)


def _broken(puzzle: Puzzle, change: Any) -> dict[str, Any]:
    data = copy.deepcopy(puzzle.to_json())
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda d: d.pop("goal"), "goal"),
        (lambda d: d.update(goal="mate"), "goal"),
        (lambda d: d.update(id="ABC"), "id"),
        (lambda d: d.update(solver=-1), "solver"),
        (lambda d: d.update(rating="hard"), "rating"),
        (lambda d: d.update(source={"kind": "dream"}), "source"),
        (lambda d: d.update(themes=[3]), "themes"),
        (lambda d: d["root"]["answers"][0].update(verdict="maybe"), "verdict"),
        (lambda d: d["root"]["answers"][0].update(shares=[1.5, 0]), "shares"),
        (lambda d: d["root"]["answers"][0].update(winner=5), "winner"),
        (lambda d: d["root"]["answers"][0].update(plies=-2), "plies"),
        (lambda d: d["root"]["answers"][0].update(next=None), "next"),
        (lambda d: d["root"]["answers"][1].update(reply="a1-a2"), "reply"),
        (lambda d: d["root"].update(answers=[]), "answers"),
        (lambda d: d["root"]["answers"].append(d["root"]["answers"][1]), "answers"),
    ],
)
def test_a_bad_puzzle_names_its_field(puzzle: Puzzle, change: Any, named: str) -> None:
    with pytest.raises(InvalidPuzzleError, match=named):
        Puzzle.from_json(_broken(puzzle, change))


def test_a_file_round_trips_and_a_bad_line_is_named(puzzle: Puzzle, tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl.gz"
    assert write_puzzles(path, [puzzle, puzzle]) == 2
    assert read_puzzles(path) == [puzzle, puzzle]
    with gzip.open(path, "at", encoding="utf-8") as out:
        out.write("{not json\n")
    with pytest.raises(InvalidPuzzleError, match="line 3"):
        read_puzzles(path)
    with pytest.raises(InvalidPuzzleError, match="line 1"):
        parse_puzzles(["[]"])
    plain = tmp_path / "broken.jsonl.gz"
    plain.write_text("not gzip")
    with pytest.raises(InvalidPuzzleError, match="cannot read"):
        read_puzzles(plain)


def test_the_solution_is_the_main_line(puzzle: Puzzle) -> None:
    line = solution(puzzle)
    assert line[0] == "b1-b2" and len(line) == 3
    state = start_state(puzzle)
    for move in line:
        state.apply_move(move)  # every move legal in turn


def test_judge_right_then_solved(puzzle: Puzzle) -> None:
    first = judge(puzzle, [], "b1-b2")
    assert first.outcome == "right" and first.reply is not None
    assert first.answer.verdict == "best"
    last = judge(puzzle, ["b1-b2", first.reply], solution(puzzle)[2])
    assert last.outcome == "solved" and last.reply is None


def test_an_alternative_that_keeps_the_win_is_accepted(puzzle: Puzzle) -> None:
    also = judge(puzzle, [], "C2-C3")  # read as the game reads moves
    assert also.outcome == "right" and also.answer.verdict == "also"
    assert also.answer.move == "c2-c3"


def test_a_wrong_move_is_told_with_its_proof(puzzle: Puzzle) -> None:
    wrong = judge(puzzle, [], "a2-a3")
    assert wrong.outcome == "wrong" and wrong.reply is None
    assert wrong.answer.line and wrong.answer.winner == 1
    assert str(wrong.message) == "after a2-a3 dark wins in 4 plies"
    assert text_json(wrong.message)["id"] == "after {move} {seat} wins in {plies}"
    try:
        set_language("ja")
        assert "a2-a3" in localize(wrong.message) and "黒" in localize(wrong.message)
    finally:
        set_language("en")


def test_an_illegal_move_is_refused(puzzle: Puzzle) -> None:
    with pytest.raises(PuzzleMoveError, match="not a legal move"):
        judge(puzzle, [], "a1-c3")
    with pytest.raises(PuzzleMoveError, match="not a legal move"):
        judge(puzzle, [], "nonsense")


def test_moves_that_leave_the_tree_are_refused(puzzle: Puzzle) -> None:
    reply = judge(puzzle, [], "b1-b2").reply
    assert reply is not None
    with pytest.raises(PuzzleMoveError, match="leave the puzzle"):
        judge(puzzle, ["a2-a3", "b3-b2"], "b1-b2")  # a wrong move ends the puzzle
    state = start_state(puzzle)
    state.apply_move("b1-b2")
    other = [state.action_to_string(a) for a in state.legal_actions()][-1]
    assert other != reply
    with pytest.raises(PuzzleMoveError, match="leave the puzzle"):
        judge(puzzle, ["b1-b2", other], "a2-a3")  # not the defender's reply
    with pytest.raises(PuzzleMoveError, match="end with the reply"):
        node_after(puzzle, ["b1-b2"])


def test_shipped_sets_are_found_through_the_registry() -> None:
    for game in puzzles.shipped_games():
        found = puzzles.shipped(game)
        assert found and all(p.game == game for p in found)
        assert puzzles.by_id(found[0].id) == found[0]
    assert puzzles.by_id("00000000") is None


def test_a_verdict_says_a_word_move_in_its_games_words() -> None:
    """Issue 51's rule holds in puzzles: Ishigaki Race's "stop" and "roll" are told as
    the game says them ("Stop", "Roll the second die"), in the reader's language."""
    chance = next(
        p
        for p in puzzles.shipped("ishigaki_race")
        if {"stop", "roll"} <= {answer.move for answer in p.root.answers}
    )
    wrong = next(answer for answer in chance.root.answers if answer.verdict == "wrong")
    told = judge(chance, [], wrong.move).message
    assert "Stop" in str(told) and "Roll the second die" in str(told)
    assert " stop " not in f" {told} " and " roll " not in f" {told} "
    set_language("ja")
    try:
        assert "止める" in localize(told)
    finally:
        set_language("en")
