"""``stairgames puzzle`` at the terminal: the board, the goal, moves judged, the next puzzle.

The puzzle here is made by hand on a real 3×3 Stairs position (its verdicts are data:
judging only walks the tree, see ``test_puzzles_model.py``), so each answer the session
gives can be told from the tree; the shipped sets are used where a set exists.
"""

from __future__ import annotations

import io
import random
from typing import Any

import pytest

import stairgames
from stairgames import puzzles
from stairgames.cli import main
from stairgames.core.errors import StairgamesError
from stairgames.i18n import set_language
from stairgames.puzzle_terminal import (
    FAILED,
    SKIPPED,
    SOLVED_OUTCOME,
    PuzzleSession,
    puzzle_order,
)
from stairgames.puzzles.model import Answer, Node, Puzzle, puzzle_id
from tests.scripted import scripted

OPTIONS: dict[str, Any] = {"size": 3, "agreement": False}
POSITION = "D,L,D/L,D,L/D,L,D L -"
BEST, ALSO = "b1-b2", "c2-c3"


def _node(position: str, best: str, *, also: str | None = None, reply: bool) -> Node:
    """Every legal move of ``position`` judged: ``best`` best, ``also`` also, the rest
    wrong (dark wins in 4, the proof its first reply); with ``reply``, the right moves
    are answered by the defender's first legal move, after which the first legal move
    solves."""
    state = stairgames.load("stairs", **OPTIONS).state_from_position(position)
    answers = []
    for action in state.legal_actions():
        move = state.action_to_string(action)
        after = state.clone()
        after.apply_action(action)
        right = move in (best, also)
        verdict = "best" if move == best else "also" if move == also else "wrong"
        first_reply = after.action_to_string(after.legal_actions()[0])
        reply_move = next_node = None
        if right and reply:
            reply_move = first_reply
            then = after.clone()
            then.apply_action(after.legal_actions()[0])
            next_node = _node(then.position(), then.action_to_string(then.legal_actions()[0]),
                              reply=False)  # fmt: skip
        answers.append(
            Answer(
                move=move,
                verdict=verdict,
                shares=(1.0, 0.0) if right else (0.0, 1.0),
                plies=3 if right else 4,
                winner=0 if right else 1,
                line=(first_reply,),
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
        root=_node(POSITION, BEST, also=ALSO, reply=True),
        themes=("short_win",),
        rating=1432.4,
        source={"kind": "self-play", "seed": 3, "ply": 0},
    )


@pytest.fixture(autouse=True)
def english() -> Any:
    set_language("en")
    yield
    set_language("en")


def _session(puzzle_list: list[Puzzle], lines: list[str]) -> tuple[PuzzleSession, io.StringIO]:
    out = io.StringIO()
    return PuzzleSession(puzzle_list, input_fn=scripted(lines), output=out), out


def _main_line(puzzle: Puzzle) -> list[str]:
    return puzzles.solution(puzzle)


def test_the_screen_shows_the_board_the_goal_and_the_puzzle(puzzle: Puzzle) -> None:
    session, out = _session([puzzle], ["quit"])
    assert session.run() == []
    text = out.getvalue()
    assert f"Puzzle 1: Stairs, {puzzle.id} (rating 1432)" in text
    assert "Themes: Short win" in text  # the theme's name, not its id
    assert "Goal: light to move and win." in text
    assert "D1  L1  D1" in text  # the game's own terminal board


def test_a_right_move_is_answered_and_the_puzzle_solved(puzzle: Puzzle) -> None:
    line = _main_line(puzzle)
    session, out = _session([puzzle], [line[0].upper(), line[2]])
    assert session.run() == [SOLVED_OUTCOME]
    text = out.getvalue()
    assert f"{line[0]}: right." in text
    assert f"dark replies {line[1]}." in text
    assert f"Solved: after {line[2]} light wins in 3 plies." in text
    assert f"The solution: {' '.join(line)}" in text
    assert "Puzzles solved: 1 of 1." in text


def test_an_accepted_alternative_goes_on(puzzle: Puzzle) -> None:
    session, out = _session([puzzle], [ALSO])
    session.run()
    assert f"{ALSO} also keeps the win." in out.getvalue()


def test_a_wrong_move_is_told_with_its_proof(puzzle: Puzzle) -> None:
    wrong = next(a for a in puzzle.root.answers if a.verdict == "wrong")
    session, out = _session([puzzle], [wrong.move])
    assert session.run() == [FAILED]
    text = out.getvalue()
    assert f"Wrong: after {wrong.move} dark wins in 4 plies." in text
    assert f"The proof: {wrong.move} {wrong.line[0]}" in text
    assert f"The solution: {' '.join(_main_line(puzzle))}" in text


def test_an_illegal_move_changes_nothing(puzzle: Puzzle) -> None:
    line = _main_line(puzzle)
    session, out = _session([puzzle], ["z9-z8", "moves", line[0], line[2]])
    assert session.run() == [SOLVED_OUTCOME]
    text = out.getvalue()
    assert "Not accepted: z9-z8 is not a legal move here" in text
    assert "Legal moves (20), grouped" in text and "b1 → b2 c2 c1 a1 a2" in text


def test_next_puzzle_skip_and_giving_up(puzzle: Puzzle) -> None:
    line = _main_line(puzzle)
    session, out = _session(
        [puzzle, puzzle, puzzle], ["skip", "", "solution", "", line[0], line[2]]
    )
    assert session.run() == [SKIPPED, FAILED, SOLVED_OUTCOME]
    text = out.getvalue()
    assert "You gave up." in text
    assert "Puzzle 3: Stairs" in text
    assert "Puzzles solved: 1 of 3." in text
    assert "No more puzzles." in text


def test_quitting_between_puzzles(puzzle: Puzzle) -> None:
    session, out = _session([puzzle, puzzle], ["skip", "q"])
    assert session.run() == [SKIPPED]
    assert "Puzzle 2" not in out.getvalue()


def test_japanese(puzzle: Puzzle) -> None:
    set_language("ja")
    wrong = next(a for a in puzzle.root.answers if a.verdict == "wrong")
    session, out = _session([puzzle], ["help", wrong.move])
    session.run()
    text = out.getvalue()
    assert "Goal" not in text and "Wrong" not in text and "Commands" not in text
    assert "白" in text  # light, in Japanese
    assert wrong.move in text


def test_the_order_is_drawn_by_the_seed_and_an_id_comes_first() -> None:
    games = puzzles.shipped_games()
    if not games:
        pytest.skip("no shipped puzzle set yet")
    game = games[0]
    first = puzzle_order(game, None, random.Random(5))
    assert first == puzzle_order(game, None, random.Random(5))
    assert sorted(p.id for p in first) == sorted(p.id for p in puzzles.shipped(game))
    chosen = first[-1]
    again = puzzle_order(None, chosen.id, random.Random(1))
    assert again[0] == chosen and {p.game for p in again} == {game}
    with pytest.raises(StairgamesError, match="no puzzle"):
        puzzle_order(None, "zzzzzzzz", random.Random(1))


def test_a_game_without_puzzles_is_refused() -> None:
    without = [g for g in stairgames.game_names() if g not in puzzles.shipped_games()]
    if not without:
        pytest.skip("every game has puzzles")
    with pytest.raises(StairgamesError, match="has no puzzles"):
        puzzle_order(without[0], None, random.Random(1))


def test_the_command_solves_a_shipped_puzzle(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    games = puzzles.shipped_games()
    if not games:
        pytest.skip("no shipped puzzle set yet")
    chosen = puzzles.shipped(games[0])[0]
    line = puzzles.solution(chosen)
    monkeypatch.setattr("builtins.input", scripted(line[0::2]))
    assert main(["puzzle", "--id", chosen.id, "--no-color"]) == 0
    text = capsys.readouterr().out
    assert chosen.id in text
    assert "Puzzles solved: 1 of 1." in text
