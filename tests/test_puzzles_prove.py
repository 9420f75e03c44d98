"""Puzzles made and proven again with the games' exact means; the shipped sets re-proven.

Made puzzles come from seeded games of ``greedy`` (fast, and the same on every machine)
on the small boards; the shipped sets are sampled with a fixed seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import stairgames
from stairgames import puzzles
from stairgames.agents import make_agent
from stairgames.cli import main
from stairgames.core.errors import StairgamesError
from stairgames.core.game import State
from stairgames.core.registry import assessor, puzzle_kit
from stairgames.core.solvers import SOLVED_DIR_VARIABLE
from stairgames.puzzles.generate import command
from stairgames.puzzles.judge import judge, said, solution, start_state
from stairgames.puzzles.model import BEST_CHANCE, Node, Puzzle, read_puzzles
from stairgames.puzzles.prove import (
    _PROVERS,
    MOST_PLIES,
    Prover,
    make_puzzle,
    prover_for,
    verify,
)

SAMPLE = 200
"""Shipped puzzles whose whole tree :func:`test_shipped_puzzles_are_proven_again`
re-proves."""


def _greedy_positions(game: str, options: dict[str, Any], seed: int) -> list[State]:
    """The decisions of a seeded game of ``greedy`` against itself, last first."""
    loaded = stairgames.load(game, **options)
    players = [make_agent("greedy", seat, seed + seat) for seat in range(loaded.num_players())]
    rng = random.Random(seed)
    state = loaded.new_initial_state()
    decisions = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            decisions.append(state.clone())
            action = players[state.current_player()].act(state)
        state.apply_action(action)
    return decisions[::-1]


def _made(game: str, options: dict[str, Any], *, wanted: int) -> list[Puzzle]:
    made: list[Puzzle] = []
    for seed in range(40):
        for ply, state in enumerate(_greedy_positions(game, options, seed)):
            found = make_puzzle(
                game,
                options,
                state,
                {"kind": "self-play", "seed": seed, "ply": ply},
                rng=random.Random(seed),
                rate=False,
            )
            if found is not None:
                made.append(found)
            if len(made) >= wanted:
                return made
    return made


@pytest.fixture(scope="module")
def stairs_puzzles() -> list[Puzzle]:
    found = _made("stairs", {"size": 4, "agreement": False}, wanted=4)
    assert found, "no Stairs 4×4 puzzle in 40 seeded games"
    return found


@pytest.fixture(scope="module")
def chance_puzzles() -> list[Puzzle]:
    found = _made("ishigaki_race", {"players": 2}, wanted=4)
    assert found
    return found


def _nodes(node: Node, state: State) -> list[tuple[Node, State]]:
    """Every node of a tree with its state."""
    found = [(node, state)]
    for answer in node.answers:
        if answer.next is not None and answer.reply is not None:
            after = state.clone()
            after.apply_move(answer.move)
            after.apply_move(answer.reply)
            found.extend(_nodes(answer.next, after))
    return found


def test_made_puzzles_are_proven_and_complete(stairs_puzzles: list[Puzzle]) -> None:
    for puzzle in stairs_puzzles:
        assert puzzle.goal == "win"
        assert verify(puzzle) == []
        for node, state in _nodes(puzzle.root, start_state(puzzle)):
            legal = {state.action_to_string(a) for a in state.legal_actions()}
            assert {answer.move for answer in node.answers} == legal
            wins = [a for a in node.answers if a.winner == puzzle.solver]
            assert 1 <= len(wins) <= 2 < len(node.answers) + 1
        best = puzzle.root.best
        assert best.plies is not None and 1 + best.plies <= MOST_PLIES
        assert len(solution(puzzle)) <= 5  # three solver moves at most


def test_every_accepted_move_keeps_the_proven_win(stairs_puzzles: list[Puzzle]) -> None:
    for puzzle in stairs_puzzles:
        for node, _state in _nodes(puzzle.root, start_state(puzzle)):
            quickest = node.best.plies
            assert quickest is not None
            for answer in node.answers:
                if answer.right:
                    assert answer.shares[puzzle.solver] == 1.0
                    assert answer.winner == puzzle.solver
                    assert answer.plies is not None and answer.plies <= quickest
                else:
                    slower = answer.winner == puzzle.solver and (answer.plies or 0) > quickest
                    assert answer.shares[puzzle.solver] < 1.0 or slower


def test_a_move_that_throws_the_win_away_is_refused_with_a_proof(
    stairs_puzzles: list[Puzzle],
) -> None:
    refused = 0
    for puzzle in stairs_puzzles:
        state = start_state(puzzle)
        for answer in puzzle.root.answers:
            if answer.right:
                continue
            verdict = judge(puzzle, [], answer.move)
            assert verdict.outcome == "wrong" and verdict.reply is None
            assert answer.move in str(verdict.message)
            if answer.plies != 0:  # 0: the move ends the game
                assert answer.line, "a wrong move comes with the line that punishes it"
            after = state.clone()
            after.apply_move(answer.move)
            for move in answer.line:
                after.apply_move(move)  # the proof replays
            if answer.winner != puzzle.solver:
                refused += 1
                assert answer.shares[puzzle.solver] == 0.0
                if answer.plies:
                    assert f"wins in {answer.plies} pl" in str(verdict.message)
    assert refused


def test_a_changed_share_or_verdict_is_caught(stairs_puzzles: list[Puzzle]) -> None:
    import dataclasses

    puzzle = stairs_puzzles[0]
    answers = list(puzzle.root.answers)
    wrong = next(i for i, a in enumerate(answers) if not a.right)
    answers[wrong] = dataclasses.replace(answers[wrong], verdict="also")
    bad = dataclasses.replace(puzzle, root=Node(tuple(answers)))
    assert any("also" in problem for problem in verify(bad))
    best = next(i for i, a in enumerate(puzzle.root.answers) if a.verdict == "best")
    answers = list(puzzle.root.answers)
    answers[best] = dataclasses.replace(answers[best], plies=(answers[best].plies or 0) + 2)
    assert verify(dataclasses.replace(puzzle, root=Node(tuple(answers))))


def test_a_chance_decision_names_the_best_exact_share(chance_puzzles: list[Puzzle]) -> None:
    for puzzle in chance_puzzles:
        assert puzzle.goal == BEST_CHANCE and verify(puzzle) == []
        shares = sorted((a.shares[puzzle.solver] for a in puzzle.root.answers), reverse=True)
        assert shares[0] - shares[1] >= 0.10
        best = puzzle.root.best
        assert judge(puzzle, [], best.move).outcome == "solved"
        other = next(a for a in puzzle.root.answers if not a.right)
        told = str(judge(puzzle, [], other.move).message)
        assert str(said(puzzle, start_state(puzzle), other.move)) in told and "%" in told


def test_no_puzzle_without_a_kit_or_a_win() -> None:
    city = stairgames.load("city_of_stairs", players=2).new_initial_state()
    while city.is_chance_node():
        city.apply_action(city.chance_outcomes()[0][0])
    source = {"kind": "self-play", "ply": 0}
    assert puzzle_kit("city_of_stairs") is None
    assert make_puzzle("city_of_stairs", {}, city, source, rng=random.Random(0)) is None
    options = {"size": 4, "agreement": False}
    prover = prover_for(stairgames.load("stairs", **options))
    lost = [
        state
        for state in _greedy_positions("stairs", options, 1)
        if (values := prover.values(state)) is not None
        and all(shares[state.current_player()] == 0.0 for shares in values.values())
    ]
    assert lost, "a position the mover loses"
    assert make_puzzle("stairs", options, lost[0], source, rng=random.Random(0)) is None


def test_the_command_generates_and_verifies(tmp_path: Path, capsys: Any) -> None:
    out = tmp_path / "made.jsonl.gz"
    argv = ["generate", "ishigaki_race", "--self-play", "2", "--seed", "5"]
    assert command([*argv, "--out", str(out), "--limit", "3"]) == 0
    made = read_puzzles(out)
    assert 1 <= len(made) <= 3 and len({p.id for p in made}) == len(made)
    assert command([*argv, "--out", str(out), "--limit", "3"]) == 0  # the same seed: no repeats
    again = read_puzzles(out)
    assert len({p.id for p in again}) == len(again) and again[: len(made)] == made
    capsys.readouterr()
    assert command(["verify", "--file", str(out)]) == 0
    assert f"{len(again)} puzzles proven again, 0 problems" in capsys.readouterr().out
    with pytest.raises(StairgamesError, match="no puzzles"):
        command(["generate", "city_of_stairs", "--self-play", "1"])


@pytest.fixture(scope="module")
def solved_tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The tables the shipped puzzles' exact means read: Ishigaki Race for four players is
    solved once with ``stairgames solve`` (some 10 s) where it is not on disk."""
    game = stairgames.load("ishigaki_race", players=4)
    exact = assessor("ishigaki_race").exact
    assert exact is not None
    _PROVERS.clear()  # none made before the tables were there
    try:
        exact(game)
        yield
        return
    except StairgamesError:
        pass
    folder = tmp_path_factory.mktemp("solved")
    patch = pytest.MonkeyPatch()
    patch.setenv(SOLVED_DIR_VARIABLE, str(folder))
    try:
        out = folder / "ishigaki_race"
        assert main(["solve", "ishigaki_race", "--players", "4", "--out", str(out)]) == 0
        yield
    finally:
        patch.undo()


def _sample(size: int, seed: int) -> list[Puzzle]:
    every = [p for game in puzzles.shipped_games() for p in puzzles.shipped(game)]
    if not every:
        pytest.skip("no shipped puzzles")
    return random.Random(seed).sample(every, min(size, len(every)))


@pytest.mark.usefixtures("solved_tables")
def test_shipped_puzzles_are_proven_again() -> None:
    """200 shipped puzzles drawn with a seed, each re-proven whole (issue 52): at every
    node, every legal move's shares, winner, distance and verdict, its line legal, and
    each reply a longest defence."""
    sample = _sample(SAMPLE, 52)
    problems = [problem for puzzle in sample for problem in verify(puzzle)]
    assert problems == []


@pytest.mark.parametrize("game", ["stairs", "twenty_seven", "ishigaki_race"])
def test_shipped_themes_are_the_games_own(game: str) -> None:
    kit = puzzle_kit(game)
    assert kit is not None
    names = kit.all_names()
    found = puzzles.shipped(game)
    if not found:
        pytest.skip(f"no shipped {game} puzzles")
    for puzzle in found[:300]:
        assert set(puzzle.themes) <= set(names)
        state = start_state(puzzle)
        line = solution(puzzle)
        actions = []
        current = state.clone()
        for move in line:
            actions.append(current.apply_move(move))
        own = [theme for theme in puzzle.themes if theme in kit.names]
        assert own == list(kit.themes(state.clone(), tuple(actions)))


def _replies(puzzle: Puzzle) -> list[str]:
    return solution(puzzle)[1::2]


@pytest.mark.parametrize(
    ("game", "theme", "holds"),
    [
        ("stairs", "small_board", lambda p: p.options["size"] <= 5),
        ("stairs", "endgame", lambda p: p.options["size"] >= 6),
        ("stairs", "forced_pass", lambda p: "pass" in _replies(p)),
        ("twenty_seven", "blockade", lambda p: "pass" in _replies(p)),
        ("ishigaki_race", "stop", lambda p: solution(p)[0] == "stop"),
        ("ishigaki_race", "roll", lambda p: solution(p)[0] == "roll"),
        ("ishigaki_race", "four_players", lambda p: p.options["players"] == 4),
    ],
)
def test_a_theme_says_what_it_names(game: str, theme: str, holds: Any) -> None:
    found = puzzles.shipped(game)
    if not found:
        pytest.skip(f"no shipped {game} puzzles")
    for puzzle in found:
        assert (theme in puzzle.themes) == holds(puzzle), puzzle.id


def test_the_command_line_has_the_puzzles_command(capsys: Any) -> None:
    assert main(["puzzles", "verify", "ishigaki_race", "--sample", "2", "--seed", "1"]) == 0
    assert "2 puzzles proven again, 0 problems" in capsys.readouterr().out
    assert main(["puzzles", "generate", "city_of_stairs", "--self-play", "1"]) == 2
    assert "no puzzles" in capsys.readouterr().err


def test_a_distance_the_first_search_leaves_unsettled_is_searched_deeper() -> None:
    """Proving a whole set again meets positions in another order than when they were
    made, and the exact means keep what they proved: a distance the first search does not
    settle is searched again with more positions before it counts as a problem (four
    shipped 27 puzzles were refused so before, each proven when made)."""
    puzzle = puzzles.by_id("15l0iijb")
    assert puzzle is not None
    best = puzzle.root.best
    state = start_state(puzzle)
    state.apply_action(state.string_to_action(best.move))
    narrow = Prover(state.get_game(), positions=20)
    assert best.winner is not None and best.plies == 11
    assert narrow.distance(state, best.winner)[0] is None  # 20 positions settle nothing
    assert narrow.settled_distance(state, best.winner) == 11
