"""Ishigaki Race solved for 2 to 4 players by max^n (``maxn.py``): checked against the
slower solver over whole Race values (``value_iteration.py``), against games played, for symmetry,
and through the ``perfect`` player and its hook."""

from __future__ import annotations

import random

import numpy as np
import pytest

import stairgames
from stairgames.agents import make_agent
from stairgames.cli import main
from stairgames.core.errors import InvalidOptionError
from stairgames.core.game import Game, State
from stairgames.core.solvers import SOLVED_DIR_VARIABLE
from stairgames.games.ishigaki_race import rules
from stairgames.games.ishigaki_race.game import IshigakiRaceState
from stairgames.games.ishigaki_race.play import evaluate
from stairgames.games.ishigaki_race.research import maxn, maxn_play, solutions
from stairgames.games.ishigaki_race.research import value_iteration as slow
from stairgames.games.ishigaki_race.rules import Board, Phase, Race
from stairgames.i18n import set_language, translate

PLAIN = Board()
CRUMBLING = Board(crumbling=frozenset({5, 9, 13, 17}))


def forget_evaluations() -> None:
    evaluate.exact_solution.cache_clear()
    evaluate.chance_of_winning.cache_clear()


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Every test solves into its own cache directory, from empty process caches (the
    evaluation's too, before and after)."""
    monkeypatch.setenv(SOLVED_DIR_VARIABLE, str(tmp_path))
    monkeypatch.setattr(solutions, "_SOLVED", {})
    forget_evaluations()
    yield
    forget_evaluations()


@pytest.mark.parametrize("board", [PLAIN, CRUMBLING], ids=["plain", "crumbling"])
def test_two_players_agree_with_the_solver_over_whole_races(board):
    fast = maxn.compute(board, 2)
    reference = slow.solve(board, 2)
    for race in reference.index:
        assert fast.value(race) == pytest.approx(reference.value(race), abs=1e-8)


@pytest.mark.parametrize(
    ("board", "players"),
    [
        (Board(goal=7), 3),
        (Board(goal=8, crumbling=frozenset({3, 6})), 3),
    ],
    ids=["3p-goal7", "3p-goal8-crumbling"],
)
@pytest.mark.slow
def test_more_players_agree_with_the_solver_over_whole_races(board, players):
    """The slower solver enumerates every turn start, goal round and roll-off included,
    as Race values: an independent check of the rotation, the goal round and the roll-off."""
    fast = maxn.compute(board, players)
    reference = slow.policy_values(board, players)
    for race in reference.index:
        assert fast.value(race) == pytest.approx(reference.value(race), abs=1e-7), race


def test_chances_add_up_to_one_and_turn_with_the_seats():
    solved = maxn.compute(PLAIN, 3)
    assert solved.race.sum(axis=1) == pytest.approx(np.ones(len(solved.race)))
    assert solved.goal_round[1:].sum(axis=2) == pytest.approx(1.0)
    race = Race((4, 9, 2), turn=1)
    turned = Race((2, 4, 9), turn=2)  # every seat one place on
    chances = solved.value(race)
    assert solved.value(turned) == pytest.approx((chances[2], chances[0], chances[1]))


def test_three_players_the_start_player_is_favoured():
    assert maxn.compute(PLAIN, 3).start_chances() == pytest.approx(
        (0.3461875, 0.3330417, 0.3207709), abs=1e-6
    )


@pytest.mark.parametrize(
    ("board", "players"), [(Board(goal=10), 3), (Board(goal=7, crumbling=frozenset({4})), 4)]
)
@pytest.mark.slow
def test_chances_match_games_played_by_the_policy(board, players):
    """2,000 games of the solved policy on a short wall; each seat's share within four
    standard errors of its solved chance."""
    solved = maxn.compute(board, players)
    rng = random.Random(7)
    games = 2000
    wins = [0] * players
    for _ in range(games):
        race = rules.initial_race(players, 0)
        while race.phase != Phase.OVER:
            if race.first_die == 0 or race.rolling:
                race = rules.roll_die(board, race, rng.randint(1, 6))
            else:
                race = rules.decide(board, race, solved.chooses_roll(race))
        wins[race.winner] += 1
    expected = solved.start_chances()
    for seat in range(players):
        error = (expected[seat] * (1 - expected[seat]) / games) ** 0.5
        assert abs(wins[seat] / games - expected[seat]) < 4 * error


def test_a_race_phase_ninja_on_the_goal_is_refused_not_read_from_another_row():
    """Race turn starts hold heights 0 to goal - 1; a ninja on the goal means the goal
    round, so a race built by hand that says otherwise is no position of the table."""
    solved = maxn.compute(Board(goal=7), 3)
    with pytest.raises(ValueError, match="off a wall of 7 steps in the race phase"):
        solved.value(Race((7, 3, 0), turn=1))
    assert sum(solved.value(Race((6, 3, 0), turn=1))) == pytest.approx(1.0)


def test_rolloff_chances_are_a_fixed_point_that_adds_up_to_one():
    chances = maxn.rolloff_chances(4)
    for rollers in (2, 3, 4):
        assert chances[rollers, :rollers].sum() == pytest.approx(1.0)
    assert chances[2, 1] > chances[2, 0]  # the second roller knows the score to beat


def test_four_players_on_the_crumbling_wall_settle_only_with_hysteresis(monkeypatch):
    """Near-indifferent choices flip each other; the solver then keeps a choice unless the
    other is better by more than HYSTERESIS (small wall, few exact sweeps, to be quick)."""
    monkeypatch.setattr(maxn, "EXACT_SWEEPS", 1)
    solved = maxn.compute(Board(goal=6, crumbling=frozenset({3})), 4)
    assert solved.hysteresis == maxn.HYSTERESIS
    wrong = solved.margins[solved.rolls] < -maxn.HYSTERESIS
    assert not wrong.any()
    assert not (solved.margins[~solved.rolls] > maxn.HYSTERESIS).any()


def test_a_slow_solve_is_kept_on_disk_and_read_back(tmp_path, monkeypatch):
    monkeypatch.setattr(solutions, "CACHE_SECONDS", 0.0)
    board = Board(goal=6)
    solved = solutions.solve(board, 4)
    assert solved is not None
    path = solutions.cache_path(board, 4)
    assert path.parent == tmp_path / "ishigaki_race" and path.exists()
    read = solutions.cached(board, 4)
    assert read is not None and np.array_equal(read.race, solved.race)


@pytest.mark.slow
def test_the_perfect_player_refuses_four_players_until_the_table_is_built(capsys):
    game = stairgames.load("ishigaki_race", players=4)
    with pytest.raises(InvalidOptionError, match=r"stairgames solve ishigaki_race --players 4`"):
        make_agent("perfect", 0).prepare(game)
    assert main(["solve", "ishigaki_race", "--players", "4"]) == 0
    out = capsys.readouterr().out
    assert "Chances of winning by place in turn order: 25.77%" in out
    assert "Settled after 89 sweeps of the race" in out  # what maxn's own command told
    assert solutions.cached(PLAIN, 4) is not None
    make_agent("perfect", 0).prepare(game)  # the table is where players look


def test_the_refusal_names_the_solve_command_of_the_wall_and_reads_in_japanese(capsys):
    game = stairgames.load(
        "ishigaki_race", players=4, goal=12, crumbling_wall=True, crumbling_squares=(3, 7)
    )
    with pytest.raises(InvalidOptionError) as refused:
        make_agent("perfect", 0).prepare(game)
    command = (
        "stairgames solve ishigaki_race --players 4 --crumbling-wall --goal 12 "
        "--crumbling-squares 3,7"
    )
    assert refused.value.arguments["command"] == command
    assert "(crumbling wall, goal 12)" in str(refused.value)
    set_language("ja")
    japanese = translate(refused.value)
    assert "くずれそうな石垣、ごおる 12" in japanese and f"`{command}`" in japanese
    set_language("en")
    assert main(command.split()[1:]) == 0  # the command it names builds the table
    capsys.readouterr()
    make_agent("perfect", 0).prepare(game)


def test_walls_too_big_and_other_player_counts_are_refused_with_catalog_messages():
    with pytest.raises(InvalidOptionError, match="2,560,000 race positions") as refused:
        solutions.for_game(Board(goal=40), 4)
    assert refused.value.message_id is not None
    assert refused.value.arguments["states"] == "2,560,000"
    with pytest.raises(InvalidOptionError, match="for 2 to 4 players, got 5") as refused:
        maxn.compute(PLAIN, 5)
    assert refused.value.message_id is not None


def test_the_perfect_player_plays_the_solved_policy_with_three_players():
    game = stairgames.load("ishigaki_race", players=3, first_player=0)
    solved = solutions.for_game(PLAIN, 3)
    hook = maxn_play.perfect_play(game)
    agents = [make_agent("perfect", seat, seed=seat) for seat in range(3)]
    rng = random.Random(5)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            continue
        assert isinstance(state, IshigakiRaceState)
        race = state.race
        values = hook.action_values(state)
        stop, roll = solved.decision_values(race)
        assert values == {0: list(stop), 1: list(roll)}
        action = agents[state.current_player()].step(state)
        if abs(roll[race.turn] - stop[race.turn]) > 1e-9:
            assert action == (1 if solved.chooses_roll(race) else 0)
        state.apply_action(action)
        decisions += 1
    assert decisions > 5
    line = hook.principal_variation(game.new_initial_state(), limit=30)
    assert len(line) == 30 and line[0] == 1  # a die of 1 comes first, then roll (nothing to lose)


@pytest.mark.slow
def test_the_plain_wall_roll_table_is_roll_on_low_dice_and_reproduces_the_policy():
    """The docs' rule: roll on 1-3, stop on 4-6, stop one step below the goal."""
    table, weighted, counted = maxn.roll_table(maxn.compute(PLAIN, 3))
    assert table[0].tolist() == [1, 1, 1, 0, 0, 0]
    assert table[19].tolist() == [0] * 6
    rule = np.array([[1, 1, 1, 0, 0, 0]] * 19 + [[0] * 6])
    assert (table != rule).sum() <= 1  # at 15 a 4 is rolled too
    assert 0.95 < weighted <= 1.0 and 0.8 < counted < weighted


# ----- the evaluation (greedy and the levels) from the max^n solution -------------------


def decision_states(game: Game, seed: int, count: int) -> list[State]:
    """``count`` decisions (a first die seen) met in games of random play, seeded."""
    rng = random.Random(seed)
    found: list[State] = []
    state = game.new_initial_state()
    while len(found) < count:
        if state.is_terminal():
            state = game.new_initial_state()
        elif state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            found.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return found


def test_greedy_plays_the_maxn_decision_with_three_players():
    """With the exact evaluation, one decision ahead is the solved policy: greedy decides
    as the perfect player wherever the two choices are not (nearly) equal."""
    game = stairgames.load("ishigaki_race", players=3)
    perfect = maxn_play.perfect_play(game)
    compared = 0
    for number, state in enumerate(decision_states(game, seed=11, count=150)):
        values = perfect.action_values(state)
        mover = state.current_player()
        if abs(values[1][mover] - values[0][mover]) < 1e-6:
            continue
        best = max(values, key=lambda action: values[action][mover])
        assert make_agent("greedy", mover, seed=number).step(state) == best, state.position()
        assert make_agent("perfect", mover, seed=number).step(state) == best
        compared += 1
    assert compared > 100


def test_three_players_are_valued_by_the_maxn_solution_at_every_point():
    solved = maxn.compute(PLAIN, 3)
    races = [
        rules.choose_start(rules.initial_race(3, None), 1),
        Race((4, 9, 2), turn=1),
        Race((4, 9, 2), turn=1, first_die=3),
        Race((4, 9, 2), turn=1, first_die=3, rolling=True),
        Race((20, 18, 0), phase=Phase.GOAL, turn=1, arrived=(0,)),
        rules.initial_race(3, None),
    ]
    for race in races:
        assert evaluate.chance_of_winning(PLAIN, race) == pytest.approx(solved.value(race))
    assert evaluate.exact_solution(PLAIN, 3) is not None
    assert not solutions.cache_dir().exists()  # solved in the process, not written


@pytest.mark.slow
def test_four_players_are_estimated_until_their_table_is_built_then_exact():
    """A wall of 11 steps: 14,641 race positions with four ninjas, too many to solve on
    demand, so the evaluation estimates until the table is in the solved-tables folder."""
    board = Board(goal=11)
    race = Race((3, 7, 0, 5), turn=2)
    assert evaluate.exact_solution(board, 4) is None
    estimate = evaluate.chance_of_winning(board, race)
    assert estimate == pytest.approx(evaluate._pairwise(board, race))
    goal_round = Race((11, 9, 4, 8), phase=Phase.GOAL, turn=1, arrived=(0,))
    searched = evaluate._to_the_end(board, goal_round, evaluate.ROLLOFF_REPEATS)
    assert evaluate.chance_of_winning(board, goal_round) == searched
    assert not solutions.cache_dir().exists()  # nothing built or written

    solved = maxn.compute(board, 4)
    solutions.save(solved)
    forget_evaluations()
    assert evaluate.chance_of_winning(board, race) == pytest.approx(solved.value(race))
    assert evaluate.chance_of_winning(board, race) != pytest.approx(estimate, abs=1e-4)
    assert evaluate.chance_of_winning(board, goal_round) == pytest.approx(solved.value(goal_round))


def test_a_move_never_builds_the_four_player_table(monkeypatch):
    def refuse(board, players):
        raise AssertionError(f"built {players} players on a wall of {board.goal} from a move")

    monkeypatch.setattr(maxn, "compute", refuse)
    for crumbling in (False, True):
        game = stairgames.load("ishigaki_race", players=4, crumbling_wall=crumbling)
        for state in decision_states(game, seed=3, count=5):
            make_agent("greedy", state.current_player(), seed=1).step(state)
    assert not solutions.cache_dir().exists()
