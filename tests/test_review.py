"""The review of a game (``stairgames review``, the terminal's ``hint``): every proven number
is the solved value (checked through the solvers themselves, not the review), the marks
follow each game's thresholds, a City of Stairs game is reviewed only once it is over and
a hint made for a seat knows nothing hidden from it, and the command line's JSON shape.

Budgets are iterations, never seconds, so that every review here repeats exactly."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Final

import pytest

import stairgames
from stairgames.analysis.review import (
    Budget,
    MoveReview,
    Reviewer,
    ReviewRefusedError,
    hint,
    review,
    review_json,
    wilson_half_width,
)
from stairgames.cli import main
from stairgames.core import registry
from stairgames.core.assess import DEFAULT_ASSESSOR, Assessor, Thresholds
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.game import State
from stairgames.core.record import FULL_VIEW, GameRecord, make_record, replay
from stairgames.games.city_of_stairs import CityOfStairsState
from stairgames.games.ishigaki_race.research.value_iteration import policy_values
from stairgames.games.stairs.game import StairsState
from stairgames.games.stairs.research.anysize import BoardSolver
from stairgames.terminal import TerminalSession, help_text
from tests.record_helpers import random_record
from tests.scripted import scripted

DOCS = Path(__file__).parent.parent / "docs" / "analysis.md"
SMALL = Budget(seconds=None, iterations=60)
"""A budget that repeats exactly: 60 iterations of search, 12,000 positions of proof."""


def states_of(record: GameRecord) -> list[State]:
    """The state before each move of ``record``, and the last."""
    return [state for _, state in replay(record)]


# ----- Stairs: the proven numbers are the solved values ---------------------------------


def stairs_share(
    solver: BoardSolver, state: State, seat: int, *, nodes: int | None = None
) -> float:
    """``seat``'s share of a Stairs position (no pie rule, no agreement) by the exact
    search alone: 1 when the colour it plays wins."""
    assert isinstance(state, StairsState)
    if state.is_terminal():
        return (state.returns()[seat] + 1.0) / 2.0
    board = state.board
    mover_wins = solver.wins(board, nodes=nodes)
    winner = board.to_move if mover_wins else ("D" if board.to_move == "L" else "L")
    return 1.0 if state.seat_of(winner) == seat else 0.0


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.slow
def test_every_number_of_a_4x4_review_is_proven_and_is_the_solved_value(seed: int):
    record = random_record("stairs", seed, size=4, agreement=False)
    states = states_of(record)
    reviews = review(record, budget=SMALL, seed=seed)
    solver = BoardSolver(4)
    assert [move.ply for move in reviews] == list(range(1, len(record.moves) + 1))
    for move in reviews:
        before, after = states[move.ply - 1], states[move.ply]
        assert move.proven, move
        assert move.move == record.moves[move.ply - 1]
        assert move.mover == before.current_player()
        assert move.after == stairs_share(solver, after, move.mover), move
        best = max(
            stairs_share(solver, child, move.mover)
            for child in (_after(before, action) for action in before.legal_actions())
        )
        assert move.before == best == stairs_share(solver, before, move.mover), move


def _after(state: State, action: int) -> State:
    child = state.clone()
    child.apply_action(action)
    return child


def test_a_5x5_review_proves_the_end_and_each_proven_number_is_the_solved_value():
    record = random_record("stairs", 11, size=5, agreement=False)
    states = states_of(record)
    reviews = review(record, budget=Budget(seconds=None, iterations=40), seed=1)
    solver = BoardSolver(5)
    proven = [move for move in reviews if move.proven]
    assert len(proven) >= 5
    assert reviews[-1].proven  # the last moves are always within reach
    for move in proven:
        before, after = states[move.ply - 1], states[move.ply]
        assert move.after == stairs_share(solver, after, move.mover, nodes=10**8)
        assert move.before == stairs_share(solver, before, move.mover, nodes=10**8)
    assert all(0.0 <= move.before <= 1.0 and 0.0 <= move.after <= 1.0 for move in reviews)


FIVE_WINNING_FIRST_MOVES: Final = frozenset(
    [
        "b1-b2",
        "d1-d2",
        "a2-b2",
        "e2-d2",
        "a4-b4",
        "e4-d4",
        "b5-b4",
        "d5-d4",
        "c2-c3",
        "b3-c3",
        "d3-c3",
        "c4-c3",
    ]
)
"""Light's 12 winning first moves on 5×5 as the solve recorded them (docs/analysis.md)."""


@pytest.mark.parametrize("seed", [21, 22, 23, 24, 25])
@pytest.mark.slow
def test_every_proven_number_of_5x5_reviews_is_the_value_of_a_separate_search(seed: int):
    """Issue 31: on 5×5, each proven before and after is the solved value, by a search run
    apart from the review's (its own table, the board as it is rather than up to its
    symmetries), and a proven first move agrees with the recorded first moves."""
    record = random_record("stairs", seed, size=5, agreement=False)
    states = states_of(record)
    reviews = review(record, budget=Budget(seconds=None, iterations=40), seed=seed)
    separate = BoardSolver(5, table_bits=20, symmetric=False)
    proven = [move for move in reviews if move.proven]
    assert len(proven) >= 5 and reviews[-1].proven
    for move in proven:
        before, after = states[move.ply - 1], states[move.ply]
        assert move.after == stairs_share(separate, after, move.mover, nodes=10**7), move
        assert move.before == stairs_share(separate, before, move.mover, nodes=10**7), move
        if move.ply == 1:
            assert move.after == float(move.move in FIVE_WINNING_FIRST_MOVES)


@pytest.mark.slow
def test_a_lost_win_on_4x4_is_a_blunder_with_a_winning_better_move():
    solver = BoardSolver(4)
    found = []
    for seed in range(6):
        record = random_record("stairs", seed, size=4, agreement=False)
        states = states_of(record)
        for move in review(record, budget=SMALL):
            before = states[move.ply - 1]
            if move.before == 1.0 and move.after == 0.0:
                assert move.mark == "blunder" and move.better is not None
                better = _after(before, before.string_to_action(move.better))
                assert stairs_share(solver, better, move.mover) == 1.0
                assert move.better == move.line[0]
                found.append(move)
            else:
                assert move.before == move.after and move.mark is None and move.better is None
    assert found, "six random games give a win away at least once"


# ----- Ishigaki Race: the max^n chances, checked by value iteration ----------------------


@pytest.mark.parametrize(
    ("players", "goal", "seed"), [(2, 20, 1), (2, 20, 2), (3, 8, 3), (3, 8, 4)]
)
@pytest.mark.slow
def test_every_number_of_an_ishigaki_review_is_the_value_iteration_chance(
    players: int, goal: int, seed: int
):
    """Three players on a short wall, where value iteration takes a moment."""
    record = random_record("ishigaki_race", seed, players=players, goal=goal, crumbling_squares=())
    states = states_of(record)
    game = states[0].get_game()
    solution = policy_values(game.board, players)  # type: ignore[attr-defined]
    reviews = review(record, budget=SMALL)
    decisions = [i for i in range(len(record.moves)) if not states[i].is_chance_node()]
    assert [move.ply - 1 for move in reviews] == decisions and decisions
    thresholds = registry.assessor("ishigaki_race").thresholds
    for move in reviews:
        before = states[move.ply - 1]
        stop, roll = solution.decision_values(before.race)  # type: ignore[attr-defined]
        played = roll if move.move == "roll" else stop
        assert move.proven and "uncertainty" not in move.to_json()
        assert move.before == pytest.approx(max(stop[move.mover], roll[move.mover]), abs=1e-7)
        assert move.after == pytest.approx(played[move.mover], abs=1e-7)
        expected = None if move.line[0] == move.move else thresholds.mark(move.loss)
        assert move.mark == expected, move
        assert move.better == (None if expected is None else move.line[0])
        assert move.line and move.line[0] in ("stop", "roll")


# ----- marks and thresholds ----------------------------------------------------------


def test_thresholds_mark_from_each_threshold_on():
    marks = Thresholds(inaccuracy=0.05, mistake=0.1, blunder=0.2)
    assert [marks.mark(loss) for loss in (0.0, 0.049, 0.05, 0.099, 0.1, 0.199, 0.2, 1.0)] == [
        None,
        None,
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]
    with pytest.raises(ValueError, match="rise"):
        Thresholds(inaccuracy=0.2, mistake=0.1, blunder=0.3)


def test_every_game_documents_its_thresholds():
    expected = {
        "stairs": (0.05, 0.10, 0.20),
        "twenty_seven": (0.05, 0.10, 0.20),
        "ishigaki_race": (0.02, 0.05, 0.10),
        "city_of_stairs": (0.04, 0.08, 0.15),
    }
    for name, (inaccuracy, mistake, blunder) in expected.items():
        assessor = registry.assessor(name)
        assert isinstance(assessor, Assessor)
        assert assessor.thresholds == Thresholds(inaccuracy, mistake, blunder), name
        title = registry.get_spec(name).title
        row = f"| {title} | {inaccuracy:.2f} | {mistake:.2f} | {blunder:.2f} |"
        assert row in DOCS.read_text(encoding="utf-8"), row


def test_an_estimated_move_is_marked_by_its_loss_less_its_uncertainty():
    record = random_record("twenty_seven", 3)
    reviews = review(record, budget=SMALL, seed=2)
    thresholds = registry.assessor("twenty_seven").thresholds
    estimated = [move for move in reviews if not move.proven]
    assert estimated and any(move.proven for move in reviews)  # the end is proven
    for move in reviews:  # the line starts with the engine's move, never marked
        engines = move.line[0] == move.move
        expected = None if engines else thresholds.mark(move.loss - move.uncertainty)
        assert move.mark == expected, move
        assert move.better == (None if expected is None else move.line[0])
    assert any(move.mark for move in reviews)
    for move in estimated:
        assert move.uncertainty == pytest.approx(
            (move.before_uncertainty**2 + move.after_uncertainty**2) ** 0.5
        )
        assert move.to_json()["uncertainty"] == round(move.uncertainty, 4)


def test_a_review_repeats_exactly_under_an_iteration_budget():
    record = random_record("stairs", 5)
    first = review_json(review(record, budget=SMALL, seed=4))
    assert first == review_json(review(record, budget=SMALL, seed=4))


def test_the_wilson_half_width_narrows_with_visits():
    assert wilson_half_width(0.5, 0) == 0.5
    assert wilson_half_width(0.5, 100) > wilson_half_width(0.5, 10_000) > 0.0
    assert wilson_half_width(1.0, 50) > 0.0


# ----- City of Stairs: finished games only; a hint knows what its seat knows ------------


def city_state(seed: int, *, until: int | None = None) -> CityOfStairsState:
    """A 2-player game of random moves, to its end or to ``until`` actions."""
    state = stairgames.load("city_of_stairs", players=2, first_player=0).new_initial_state()
    assert isinstance(state, CityOfStairsState)
    rng = random.Random(seed)
    while not state.is_terminal() and (until is None or len(state.history()) < until):
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_an_unfinished_city_record_is_refused_before_anything_is_searched(monkeypatch, tmp_path):
    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("an unfinished City of Stairs game reached the review")

    monkeypatch.setattr(Reviewer, "assess", no_search)
    state = city_state(1, until=20)
    for viewer in (0, 1, None):
        with pytest.raises(ReviewRefusedError, match="only once it is over"):
            review(make_record(state, viewer=viewer))
    full = GameRecord(game="city_of_stairs", options=make_record(state).options,
                      moves=tuple(state.history_strings()), view=FULL_VIEW)  # fmt: skip
    with pytest.raises(ReviewRefusedError, match="only once it is over"):
        review(full)
    path = tmp_path / "city.json"
    make_record(state, viewer=0).save(path)
    assert main(["review", str(path), "--iterations", "5"]) == 2


def test_a_finished_city_game_is_reviewed_with_its_strolls_exact():
    state = city_state(2)
    reviews = review(make_record(state), budget=Budget(seconds=None, iterations=4))
    states = states_of(make_record(state))
    strolls = [m for m in reviews if states[m.ply - 1].table.city_complete()]  # type: ignore[attr-defined]
    building = [m for m in reviews if m not in strolls]
    assert strolls and building
    assert all(move.proven for move in strolls)
    assert not any(move.proven for move in building[:-1])
    assert all(0.0 <= m.before <= 1.0 and 0.0 <= m.after <= 1.0 for m in reviews)
    assert registry.assessor("city_of_stairs").measure == "expected share of the win"


def city_twins(seed: int, actions: int) -> tuple[CityOfStairsState, CityOfStairsState]:
    """Two 2-player states after ``actions`` actions that differ only in the departure
    card dealt to seat 1 (which seat 0 has not seen), seat 0 to move."""
    state = city_state(seed, until=actions)
    while state.is_chance_node() or state.current_player() != 0:
        state.apply_action(
            sample_chance_outcome(state, random.Random(seed))
            if state.is_chance_node()
            else state.legal_actions()[0]
        )
    colour, card = state.table.colours[1], state.table.departures[1]
    other = next(d for d in state.cards.departures if d not in state.table.departures)
    twin = state.get_game().new_initial_state()
    for move in state.history_strings():
        twin.apply_move(f"deal {other} to {colour}" if move == f"deal {card} to {colour}" else move)
    assert isinstance(twin, CityOfStairsState)
    assert twin.table.departures[1] != card and not state.stroll_started(1)
    return state, twin


@pytest.mark.parametrize(("seed", "actions"), [(3, 12), (4, 40), (8, 58)])
def test_a_city_hint_for_a_seat_is_the_same_whatever_the_card_hidden_from_it(
    seed: int, actions: int
):
    state, twin = city_twins(seed, actions)
    budget = Budget(seconds=None, iterations=12)
    mine, theirs = hint(state, budget=budget), hint(twin, budget=budget)
    assert mine == theirs
    assert not any(move.startswith("deal") for move in mine.line)


def test_the_twins_differ_where_the_hidden_card_matters():
    """The check above can fail: reviewed with every card, as a finished game would be,
    the twins of the stroll phase get other values."""
    state, twin = city_twins(8, 58)
    assert state.table.city_complete()
    budget = Budget(seconds=None, iterations=12)
    full = [Reviewer(s.get_game(), budget=budget).assess(s) for s in (state, twin)]
    assert full[0].shares != full[1].shares


# ----- the command line and the terminal ----------------------------------------------


def test_review_json_gives_one_object_a_decision(tmp_path, capsys):
    record = random_record("stairs", 7, size=4)
    path = tmp_path / "game.json"
    record.save(path)
    assert main(["review", str(path), "--json", "--iterations", "20", "--seed", "3"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data) == len(record.moves)
    keys = {"ply", "move", "mover", "colour", "before", "after", "proven", "mark", "better", "line"}
    for entry in data:
        assert set(entry) == keys  # 4×4: every number proven, no uncertainty
        assert entry["move"] == record.moves[entry["ply"] - 1]
        assert entry["mover"] in (0, 1) and entry["colour"] in ("light", "dark")
        assert 0.0 <= entry["before"] <= 1.0 and 0.0 <= entry["after"] <= 1.0
        assert entry["mark"] in (None, "inaccuracy", "mistake", "blunder")
        assert all(isinstance(move, str) for move in entry["line"])
    reviews = review(record, budget=Budget(seconds=None, iterations=20), seed=3)
    assert data == review_json(reviews)


def test_review_prints_a_table_with_the_marked_moves_and_better_ones(tmp_path, capsys):
    record = random_record("stairs", 0, size=4, agreement=False)
    path = tmp_path / "game.json"
    record.save(path)
    assert main(["review", str(path), "--iterations", "20"]) == 0
    out = capsys.readouterr().out
    header = next(line for line in out.splitlines() if line.startswith("ply"))
    assert header.split() == ["ply", "move", "player", "before", "after", "mark", "better"]
    reviews = review(record, budget=Budget(seconds=None, iterations=20))
    for move in reviews:
        row = next(
            line for line in out.splitlines() if line.split()[:2] == [str(move.ply), move.move]
        )
        if move.mark is not None:
            assert row.split()[-2:] == [move.mark, move.better]
    assert f"{len(reviews)} of {len(reviews)} moves proven exactly." in out


def test_review_refuses_a_bad_budget(tmp_path, capsys):
    path = tmp_path / "game.json"
    random_record("stairs", 1, size=3).save(path)
    with pytest.raises(SystemExit):
        main(["review", str(path), "--seconds", "0"])
    assert "--seconds" in capsys.readouterr().err


def test_hint_at_the_terminal_shows_the_engines_move_and_the_proven_chance(tmp_path):
    out = io.StringIO()
    session = TerminalSession(
        stairgames.load("stairs", size=4),
        ["random", "human"],
        seed=2,
        record_path=tmp_path / "game.json",
        input_fn=scripted(["hint", "quit"]),
        output=out,
        hint_budget=Budget(seconds=None, iterations=20),
    )
    state = session.run()
    text = out.getvalue()
    assert "Your winning chance: 100% (proven)" in text  # dark wins 4×4 after any first move
    move = next(line for line in text.splitlines() if line.startswith("The engine's move: "))
    suggested = move.removeprefix("The engine's move: ")
    assert len(state.history()) == 1  # the hint plays nothing
    child = _after(state, state.string_to_action(suggested))
    assert stairs_share(BoardSolver(4), child, 1) == 1.0
    assert "Best line: " + suggested in text
    assert "hint" in help_text()


# ----- any game: the slot is optional -------------------------------------------------


def test_a_game_without_an_assessor_is_reviewed_by_search(tictactoe):
    assert tictactoe.assessor is None
    assert registry.assessor("tictactoe") is DEFAULT_ASSESSOR
    record = random_record("tictactoe", 1)
    reviews = review(record, budget=Budget(seconds=None, iterations=400))
    assert [move.ply for move in reviews] == list(range(1, len(record.moves) + 1))
    last = states_of(record)[-1]
    assert reviews[-1].proven  # the last move ends the game
    assert reviews[-1].after == (last.returns()[reviews[-1].mover] + 1.0) / 2.0
    assert isinstance(reviews[0], MoveReview)


def test_loading_a_game_imports_no_review_code():
    code = (
        "import sys, stairgames\n"
        "for name in stairgames.game_names(): stairgames.load(name).new_initial_state()\n"
        "print(sorted(m for m in sys.modules if m.endswith('.play.review')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
