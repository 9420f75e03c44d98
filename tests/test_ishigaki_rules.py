"""Ishigaki Race: one test per ruling I1-I9 and per rule sentence, with the chance nodes
driven by chosen dice."""

from __future__ import annotations

import pytest

import stairgames
from stairgames import IllegalMoveError, InvalidOptionError
from stairgames.core.game import CHANCE, TERMINAL
from stairgames.games.ishigaki_race import (
    ROLL,
    STOP,
    IshigakiRaceState,
    Phase,
    climb_steps,
    max_game_length,
    rolloff_score,
)
from stairgames.games.ishigaki_race.rules import CLIMB_TABLE, Board, turn_effect


def new_state(**options: object) -> IshigakiRaceState:
    state = stairgames.load("ishigaki_race", **options).new_initial_state()
    assert isinstance(state, IshigakiRaceState)
    return state


def at(text: str, **options: object) -> IshigakiRaceState:
    state = stairgames.load("ishigaki_race", **options).state_from_position(text)
    assert isinstance(state, IshigakiRaceState)
    return state


def play(state: IshigakiRaceState, *moves: str) -> IshigakiRaceState:
    for move in moves:
        state.apply_move(move)
    return state


def turn(state: IshigakiRaceState, first: int, second: int | None = None) -> IshigakiRaceState:
    """One roll with chosen dice: stop on ``first``, or roll ``second`` after it."""
    if second is None:
        return play(state, f"die:{first}", "stop")
    return play(state, f"die:{first}", "roll", f"die:{second}")


RISING_PAIRS = [(a, b) for a in range(1, 7) for b in range(1, 7) if b > a]
FALLING_PAIRS = [(a, b) for a in range(1, 7) for b in range(1, 7) if b < a]


# ----- the climb table (I1) -------------------------------------------------------


def test_climb_table_in_full():
    assert CLIMB_TABLE == {1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2, 7: 3, 8: 3, 9: 4, 10: 5, 11: 6}
    assert [climb_steps(total) for total in range(1, 12)] == [1, 1, 1, 2, 2, 2, 3, 3, 4, 5, 6]


@pytest.mark.parametrize(("face", "steps"), [(1, 1), (2, 1), (3, 1), (4, 2), (5, 2), (6, 2)])
def test_i1_one_die_climbs_by_the_table_on_its_value(face, steps):
    state = turn(at("race ninjas=3,0 turn=red dice=-"), face)
    assert state.heights() == (3 + steps, 0)


@pytest.mark.parametrize(("first", "second"), RISING_PAIRS)
def test_i1_higher_second_die_climbs_by_the_table_on_the_sum(first, second):
    state = turn(at("race ninjas=2,0 turn=red dice=-"), first, second)
    assert state.heights() == (2 + CLIMB_TABLE[first + second], 0)


def test_i1_rising_sums_cover_3_to_11_and_each_climbs_as_the_rulebook_says():
    by_sum = {a + b: climb_steps(a + b) for a, b in RISING_PAIRS}
    assert sorted(by_sum) == list(range(3, 12))
    assert by_sum == {3: 1, 4: 2, 5: 2, 6: 2, 7: 3, 8: 3, 9: 4, 10: 5, 11: 6}


def test_i1_the_decision_comes_after_seeing_the_first_die():
    state = play(at("race ninjas=0,0 turn=red dice=-"), "die:3")
    assert state.current_player() == 0
    assert state.legal_actions() == [STOP, ROLL]
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["stop", "roll"]
    state.apply_move("roll")
    assert state.current_player() == CHANCE
    assert state.legal_actions() == []


# ----- slipping (I2) ----------------------------------------------------------------


@pytest.mark.parametrize(("first", "second"), FALLING_PAIRS)
def test_i2_lower_second_die_slips_one_step(first, second):
    state = turn(at("race ninjas=6,9 turn=red dice=-"), first, second)
    assert state.heights() == (5, 9)


def test_i2_slipping_never_goes_below_start():
    state = turn(at("race ninjas=0,4 turn=red dice=-"), 5, 2)
    assert state.heights() == (0, 4)


# ----- doubles (I3) -----------------------------------------------------------------


@pytest.mark.parametrize("face", range(1, 7))
def test_i3_doubles_knock_the_highest_ninja_down_3_and_leave_the_roller(face):
    state = turn(at("race ninjas=2,10,4 turn=red dice=-", players=3), face, face)
    assert state.heights() == (2, 7, 4)


def test_i3_doubles_knock_down_every_ninja_tied_highest():
    state = turn(at("race ninjas=2,10,10,5 turn=red dice=-", players=4), 3, 3)
    assert state.heights() == (2, 7, 7, 5)


def test_i3_the_roller_falls_when_it_is_among_the_highest():
    state = turn(at("race ninjas=8,8,1 turn=red dice=-", players=3), 6, 6)
    assert state.heights() == (5, 5, 1)


def test_i3_nobody_falls_below_start():
    state = turn(at("race ninjas=2,1 turn=blue dice=-"), 4, 4)
    assert state.heights() == (0, 1)


def test_i3_doubles_with_everyone_on_the_start_move_nobody():
    state = turn(at("race ninjas=0,0,0 turn=yellow dice=-", players=3), 1, 1)
    assert state.heights() == (0, 0, 0)
    assert state.race.turn == 0


def test_i3_doubles_never_climb():
    effect = turn_effect(Board(), (4, 0), 0, 6, 6)
    assert [(m.seat, m.end) for m in effect.moves] == [(0, 1)]


# ----- the goal (I4) ----------------------------------------------------------------


def test_i4_passing_the_goal_puts_the_ninja_on_the_goal():
    state = turn(at("race ninjas=19,0 turn=red dice=-"), 5, 6)
    assert state.heights() == (20, 0)


def test_i4_an_exact_roll_reaches_the_goal_too():
    state = turn(at("race ninjas=18,0 turn=red dice=-"), 4)
    assert state.heights() == (20, 0)
    assert state.phase == Phase.GOAL


def test_i4_one_step_short_stays_on_the_wall():
    state = turn(at("race ninjas=17,0 turn=red dice=-"), 1, 6)
    assert state.heights() == (20, 0)
    state = turn(at("race ninjas=17,0 turn=red dice=-"), 4)
    assert state.heights() == (19, 0)
    assert state.phase == Phase.RACE


# ----- the goal round (I5) ----------------------------------------------------------


def test_i5_reaching_the_goal_starts_the_goal_round_for_everyone_else_in_turn_order():
    state = turn(at("race ninjas=19,0,0,0 turn=red dice=-", players=4), 6)
    assert state.phase == Phase.GOAL
    assert state.race.arrived == (0,)
    assert state.race.goal_round_left() == (1, 2, 3)
    seen = []
    while not state.is_terminal():
        seen.append(state.race.turn)
        turn(state, 1)
    assert seen == [1, 2, 3]
    assert state.returns() == [1.0, 0.0, 0.0, 0.0]


def test_i5_the_goal_round_wraps_around_the_table():
    state = turn(at("race ninjas=0,0,18,0 turn=yellow dice=-", players=4), 6)
    assert state.race.goal_round_left() == (3, 0, 1)
    assert state.position() == (
        "goal ninjas=0,0,20,0 turn=green dice=- arrived=yellow left=green,red,blue"
    )
    for _ in range(3):
        turn(state, 2)
    assert state.is_terminal() and state.race.winner == 2


def test_i5_the_ninja_on_the_goal_takes_no_further_turn():
    state = turn(at("race ninjas=0,19 turn=blue dice=-"), 3)
    assert state.race.goal_round_left() == (0,)
    turn(state, 1)
    assert state.is_terminal()
    assert state.heights() == (1, 20)


def test_i5_every_other_player_plays_exactly_once_even_after_reaching_the_goal():
    state = turn(at("race ninjas=0,19,18 turn=blue dice=-", players=3), 2)
    turn(state, 6)  # yellow reaches the goal in the goal round
    assert state.race.arrived == (1, 2)
    assert state.race.turn == 0
    turn(state, 1)  # red's last turn
    assert state.phase == Phase.ROLLOFF


def test_i5_doubles_in_the_goal_round_spare_the_goal_and_hit_the_highest_below_it():
    state = at("goal ninjas=20,12,9,12 turn=yellow dice=- arrived=red left=yellow,green", players=4)
    turn(state, 5, 5)
    assert state.heights() == (20, 9, 9, 9)


def test_i5_doubles_in_the_goal_round_can_knock_the_roller_down():
    state = at("goal ninjas=20,15 turn=blue dice=- arrived=red left=blue")
    turn(state, 2, 2)
    assert state.heights() == (20, 12)
    assert state.is_terminal() and state.race.winner == 0


def test_i5_doubles_before_the_goal_round_hit_the_highest_on_the_wall():
    effect = turn_effect(Board(), (19, 15), 1, 2, 2)
    assert [m.seat for m in effect.moves] == [0]


# ----- winning and the roll-off (I6) ----------------------------------------------


def test_i6_a_lone_ninja_on_the_goal_after_the_round_wins():
    state = at("goal ninjas=20,18 turn=blue dice=- arrived=red left=blue")
    turn(state, 1)
    assert state.is_terminal()
    assert state.returns() == [1.0, 0.0]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert "alone on the goal" in outcome.reason


def test_i6_several_on_the_goal_roll_off_the_latest_to_arrive_first():
    state = at("goal ninjas=20,18,0 turn=blue dice=- arrived=red left=blue,yellow", players=3)
    turn(state, 4)  # blue reaches the goal second
    turn(state, 1)  # yellow ends the round
    assert state.phase == Phase.ROLLOFF
    assert state.race.rollers == (1, 0)
    assert state.position() == "rolloff ninjas=20,20,1 turn=blue dice=- rollers=blue,red"


def test_i6_rolloff_order_reverses_the_arrivals_of_three():
    state = at(
        "goal ninjas=19,20,20,0 turn=green dice=- arrived=blue,yellow left=green,red", players=4
    )
    turn(state, 1)
    turn(state, 4)
    assert state.race.rollers == (0, 2, 1)


@pytest.mark.parametrize(
    ("first", "second", "score"),
    [
        (5, None, 5),
        (1, None, 1),
        (2, 6, 8),
        (5, 6, 11),
        (6, 2, 0),
        (2, 1, 0),
        (3, 3, 6),
        (6, 6, 12),
    ],
)
def test_i6_rolloff_score_is_the_die_the_rising_sum_zero_or_the_doubles_sum(first, second, score):
    assert rolloff_score(first, second) == score
    state = at("rolloff ninjas=20,20 turn=blue dice=- rollers=blue,red")
    turn(state, first, second)
    assert state.race.scores == (score,)
    assert state.position() == f"rolloff ninjas=20,20 turn=red dice=- rollers=blue:{score},red"


def test_i6_rolloff_scores_the_dice_not_the_climb_table():
    state = at("rolloff ninjas=20,20 turn=blue dice=- rollers=blue,red")
    turn(state, 4, 6)  # 10 points, not the 5 steps of the table
    turn(state, 6)  # 6 points
    assert state.is_terminal() and state.race.winner == 1


def test_i6_doubles_in_the_rolloff_move_no_ninja():
    state = at("rolloff ninjas=20,20,7 turn=blue dice=- rollers=blue,red", players=3)
    turn(state, 6, 6)
    turn(state, 2)
    assert state.heights() == (20, 20, 7)
    assert state.race.winner == 1


def test_i6_the_highest_score_wins_the_rolloff():
    state = at("rolloff ninjas=20,20,4,20 turn=green dice=- rollers=green,red,blue", players=4)
    turn(state, 3)
    turn(state, 2, 5)
    turn(state, 4, 1)
    assert state.is_terminal()
    assert state.returns() == [1.0, 0.0, 0.0, 0.0]
    outcome = state.outcome()
    assert outcome is not None and "roll-off" in outcome.reason


def test_i6_tied_leaders_roll_off_again_in_the_same_order_without_the_others():
    state = at("rolloff ninjas=20,20,20,3 turn=yellow dice=- rollers=yellow,blue,red", players=4)
    turn(state, 5)
    turn(state, 2)
    turn(state, 5)
    assert state.phase == Phase.ROLLOFF
    assert state.race.rollers == (2, 0)
    assert state.position() == "rolloff ninjas=20,20,20,3 turn=yellow dice=- rollers=yellow,red"
    turn(state, 1)
    turn(state, 1, 2)
    assert state.is_terminal() and state.race.winner == 0


def test_i6_rolloff_repeats_until_there_is_a_winner():
    state = at("rolloff ninjas=20,20 turn=red dice=- rollers=red,blue")
    for _ in range(5):
        turn(state, 4)
        turn(state, 4)
        assert state.phase == Phase.ROLLOFF and state.race.scores == ()
    turn(state, 4)
    turn(state, 6, 1)
    assert state.race.winner == 0


def test_i6_both_rolling_zero_is_a_tie_too():
    state = at("rolloff ninjas=20,20 turn=red dice=- rollers=red,blue")
    turn(state, 6, 5)
    turn(state, 3, 2)
    assert state.phase == Phase.ROLLOFF and state.race.rollers == (0, 1)


def test_i6_rolloff_rollers_decide_like_in_a_turn():
    state = play(at("rolloff ninjas=20,20 turn=red dice=- rollers=red,blue"), "die:2")
    assert state.current_player() == 0
    assert state.legal_actions() == [STOP, ROLL]


# ----- the crumbling wall (I7) --------------------------------------------------------


def test_i7_stopping_on_a_minus_2_square_drops_the_ninja_2_steps():
    state = turn(at("race ninjas=3,0 turn=red dice=-", crumbling_wall=True), 4)
    assert state.heights() == (3, 0)


def test_i7_climbing_over_a_minus_2_square_is_safe():
    state = turn(at("race ninjas=3,0 turn=red dice=-", crumbling_wall=True), 1, 6)
    assert state.heights() == (6, 0)


def test_i7_without_the_crumbling_wall_the_squares_do_nothing():
    state = turn(at("race ninjas=3,0 turn=red dice=-"), 4)
    assert state.heights() == (5, 0)


def test_i7_slipping_onto_a_minus_2_square_drops_2_more():
    state = turn(at("race ninjas=10,0 turn=red dice=-", crumbling_wall=True), 4, 2)
    assert state.heights() == (7, 0)


def test_i7_doubles_onto_a_minus_2_square_drop_2_more():
    state = turn(at("race ninjas=0,8 turn=red dice=-", crumbling_wall=True), 3, 3)
    assert state.heights() == (0, 3)


def test_i7_falls_chain_over_several_minus_2_squares():
    options = {"crumbling_wall": True, "crumbling_squares": (3, 5, 7)}
    state = turn(at("race ninjas=6,0 turn=red dice=-", **options), 2, 1)
    assert state.heights() == (1, 0)  # 6 slips to 5, drops to 3, drops to 1


def test_i7_doubles_start_a_chain_of_drops():
    options = {"crumbling_wall": True, "crumbling_squares": (2, 4, 6)}
    state = turn(at("race ninjas=9,0 turn=blue dice=-", **options), 5, 5)
    assert state.heights() == (0, 0)  # 9 falls 3 to 6, then 4, 2, 0


def test_i7_a_chain_of_drops_stops_at_the_start():
    options = {"crumbling_wall": True, "crumbling_squares": (1, 3)}
    state = turn(at("race ninjas=2,0 turn=red dice=-", **options), 1)
    assert state.heights() == (0, 0)  # 3, drops to 1, drops to the start


def test_i7_doubles_in_the_goal_round_drop_from_minus_2_squares_too():
    state = at("goal ninjas=20,12 turn=blue dice=- arrived=red left=blue", crumbling_wall=True)
    turn(state, 1, 1)
    assert state.heights() == (20, 7)


# ----- the board (I8) ---------------------------------------------------------------


def test_i8_the_default_wall_runs_from_0_to_20_with_minus_2_squares_at_5_9_13_17():
    game = stairgames.load("ishigaki_race", crumbling_wall=True)
    assert game.board == Board(goal=20, crumbling=frozenset({5, 9, 13, 17}))  # type: ignore[attr-defined]
    plain = stairgames.load("ishigaki_race")
    assert plain.board == Board(goal=20, crumbling=frozenset())  # type: ignore[attr-defined]


def test_i8_goal_and_minus_2_squares_are_parameters():
    state = turn(
        at("race ninjas=6,0 turn=red dice=-", goal=8, crumbling_wall=True, crumbling_squares=(7,)),
        5,
        6,
    )
    assert state.heights() == (8, 0)
    state = turn(
        at("race ninjas=5,0 turn=red dice=-", goal=8, crumbling_wall=True, crumbling_squares=(7,)),
        4,
    )
    assert state.heights() == (5, 0)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"crumbling_squares": (0, 9)}, "strictly between"),
        ({"crumbling_squares": (5, 20)}, "strictly between"),
        ({"crumbling_squares": (25,)}, "strictly between"),
        ({"crumbling_squares": (-1,)}, "strictly between"),
        ({"crumbling_squares": (5, 5)}, "twice"),
        ({"goal": 3}, "goal"),
        ({"goal": 101}, "goal"),
        ({"goal": 8}, "strictly between"),  # the default squares 9, 13, 17 lie beyond it
        ({"players": 1}, "2 to 4 players"),
        ({"players": 5}, "2 to 4 players"),
        ({"first_player": 2}, "first_player"),
        ({"players": 3, "first_player": -1}, "first_player"),
        ({"crumbling_wall": "yes"}, "true or false"),
    ],
)
def test_i8_an_invalid_board_or_option_is_refused_clearly(options, message):
    with pytest.raises(InvalidOptionError, match=message):
        stairgames.load("ishigaki_race", **options)


def test_i8_a_goal_below_the_default_minus_2_squares_says_how_to_fix_it():
    with pytest.raises(
        InvalidOptionError, match=r"9 is not a step .*crumbling_squares=\(\) for none"
    ):
        stairgames.load("ishigaki_race", goal=8)
    game = stairgames.load("ishigaki_race", goal=8, crumbling_squares=())
    assert game.board == Board(goal=8)  # type: ignore[attr-defined]


def test_i8_the_smallest_goal_is_4():
    state = turn(at("race ninjas=2,0 turn=red dice=-", goal=4, crumbling_squares=(2,)), 6)
    assert state.heights() == (4, 0)


# ----- the start player and turn order (I9) ---------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_i9_the_start_player_is_a_fair_chance_node(players):
    state = new_state(players=players)
    assert state.current_player() == CHANCE
    assert state.position() == "setup ninjas=" + ",".join(["0"] * players)
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(players))
    assert all(p == pytest.approx(1 / players) for _, p in outcomes)
    assert [state.action_to_string(a) for a, _ in outcomes] == [
        f"start:{s}" for s in range(players)
    ]


def test_i9_the_drawn_start_player_rolls_first():
    state = play(new_state(players=3), "start:2")
    assert state.race.turn == 2
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(face, 1 / 6) for face in range(1, 7)]


def test_i9_a_given_start_player_skips_the_draw():
    state = new_state(players=4, first_player=3)
    assert state.position() == "race ninjas=0,0,0,0 turn=green dice=-"
    with pytest.raises(IllegalMoveError):
        state.apply_move("start:1")


def test_i9_turns_go_in_seat_order_and_wrap():
    state = new_state(players=3, first_player=1)
    order = []
    for _ in range(6):
        order.append(state.race.turn)
        turn(state, 1)
    assert order == [1, 2, 0, 1, 2, 0]


# ----- decisions, returns, length -------------------------------------------------------


def test_a_die_is_a_chance_node_with_six_equally_likely_faces():
    state = at("race ninjas=0,0 turn=red dice=-")
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(face, 1 / 6) for face in range(1, 7)]
    assert [state.action_to_string(a) for a in range(1, 7)] == [f"die:{f}" for f in range(1, 7)]
    play(state, "die:5", "roll")
    assert state.chance_outcomes() == [(face, 1 / 6) for face in range(1, 7)]


def test_returns_one_for_the_winner_and_zero_for_every_other_seat():
    state = at("rolloff ninjas=20,20,20 turn=red dice=- rollers=red,blue", players=3)
    assert state.returns() == [0.0, 0.0, 0.0]
    turn(state, 2)
    turn(state, 3)
    assert state.current_player() == TERMINAL
    assert state.returns() == [0.0, 1.0, 0.0]
    assert state.legal_actions() == [] and state.chance_outcomes() == []


def test_the_game_over_refuses_further_actions():
    state = at("over ninjas=20,3 winner=red")
    with pytest.raises(IllegalMoveError, match="over"):
        state.apply_move("die:1")


@pytest.mark.parametrize(("players", "goal"), [(2, 20), (4, 20), (3, 4), (4, 100)])
def test_max_game_length_is_the_documented_probabilistic_bound(players, goal):
    game = stairgames.load("ishigaki_race", players=players, goal=goal, crumbling_squares=())
    assert game.info().max_game_length == max_game_length(players, goal) == 1000 * players * goal


def test_length_bound_is_declared_practical_not_proven():
    info = stairgames.load("ishigaki_race").info()
    assert info.max_game_length_proven is False
    assert stairgames.load("stairs").info().max_game_length_proven is True


# ----- more branches of the goal round and the roll-off (I5, I6) -------------------------


def test_i5_doubles_in_the_goal_round_spare_every_ninja_on_the_goal():
    # Red arrived first, blue during the round; yellow's doubles pass over both.
    state = at(
        "goal ninjas=20,20,6,11 turn=yellow dice=- arrived=red,blue left=yellow,green", players=4
    )
    turn(state, 4, 4)
    assert state.heights() == (20, 20, 6, 8)


def test_i5_the_last_player_of_the_goal_round_reaching_the_goal_starts_a_rolloff():
    state = at("goal ninjas=20,18 turn=blue dice=- arrived=red left=blue")
    turn(state, 6)
    assert state.phase == Phase.ROLLOFF
    assert state.position() == "rolloff ninjas=20,20 turn=blue dice=- rollers=blue,red"


def test_i5_a_slip_in_the_goal_round_still_uses_up_the_turn():
    state = at("goal ninjas=20,5,9 turn=blue dice=- arrived=red left=blue,yellow", players=3)
    turn(state, 5, 1)
    assert state.heights() == (20, 4, 9)
    assert state.race.goal_round_left() == (2,)


def test_i6_three_arrivals_roll_off_latest_first_and_the_fourth_is_left_out():
    state = at("race ninjas=3,17,17,17 turn=blue dice=-", players=4)
    turn(state, 5, 6)  # blue arrives first
    turn(state, 4, 6)  # yellow
    turn(state, 3, 6)  # green
    turn(state, 2, 6)  # red climbs 3 from 3: not on the goal
    assert state.race.rollers == (3, 2, 1)
    assert (
        state.position() == "rolloff ninjas=6,20,20,20 turn=green dice=- rollers=green,yellow,blue"
    )


def test_i6_all_four_on_the_goal_roll_off_in_reverse_order_of_arrival():
    state = at(
        "goal ninjas=17,20,17,17 turn=yellow dice=- arrived=blue left=yellow,green,red", players=4
    )
    turn(state, 5, 6)  # yellow
    turn(state, 5, 6)  # green
    turn(state, 5, 6)  # red
    assert state.phase == Phase.ROLLOFF
    assert state.race.rollers == (0, 3, 2, 1)
    assert state.race.turn == 0


def test_i6_a_three_way_tie_for_the_best_score_rolls_off_again_among_all_three():
    state = at("rolloff ninjas=20,20,20 turn=yellow dice=- rollers=yellow,blue,red", players=3)
    turn(state, 4)
    turn(state, 4)
    turn(state, 1, 3)
    assert state.phase == Phase.ROLLOFF
    assert state.race.rollers == (2, 1, 0) and state.race.scores == ()


def test_i6_a_tie_below_the_best_score_does_not_matter():
    state = at("rolloff ninjas=20,20,20 turn=yellow dice=- rollers=yellow,blue,red", players=3)
    turn(state, 3)
    turn(state, 6, 5)  # 0
    turn(state, 6, 2)  # 0
    assert state.is_terminal() and state.race.winner == 2


def test_i6_the_last_roller_can_overtake_the_leader():
    state = at("rolloff ninjas=20,20 turn=blue dice=- rollers=blue,red")
    turn(state, 6)
    turn(state, 5, 6)
    assert state.is_terminal() and state.race.winner == 0
    assert state.heights() == (20, 20)


# ----- chained falls, start and goal edges (I3, I4, I7) ------------------------------------


def test_i7_doubles_drop_every_tied_leader_that_lands_on_a_minus_2_square():
    options = {"crumbling_wall": True, "crumbling_squares": (5, 7)}
    state = turn(at("race ninjas=8,10,10 turn=red dice=-", players=3, **options), 2, 2)
    assert state.heights() == (8, 3, 3)  # both fall 10 -> 7, drop to 5, drop to 3


def test_i7_a_minus_2_square_just_below_the_goal_is_climbed_over_onto_the_goal():
    options = {"crumbling_wall": True, "crumbling_squares": (19,)}
    state = turn(at("race ninjas=18,0 turn=red dice=-", **options), 1)
    assert state.heights() == (17, 0)  # 18 + 1 = 19 drops to 17
    state = turn(at("race ninjas=18,0 turn=red dice=-", **options), 4)
    assert state.heights() == (20, 0) and state.phase == Phase.GOAL


def test_i7_a_minus_2_square_on_step_1_drops_to_the_start():
    options = {"crumbling_wall": True, "crumbling_squares": (1,)}
    state = turn(at("race ninjas=0,0 turn=red dice=-", **options), 3)
    assert state.heights() == (0, 0)
    state = turn(at("race ninjas=2,0 turn=red dice=-", **options), 2, 1)
    assert state.heights() == (0, 0)


def test_i4_a_climb_from_the_start_to_a_small_goal_in_one_turn():
    state = turn(at("race ninjas=0,0 turn=red dice=-", goal=4, crumbling_squares=()), 4, 6)
    assert state.heights() == (4, 0) and state.phase == Phase.GOAL


def test_i3_doubles_from_step_1_or_2_stop_at_the_start():
    state = turn(at("race ninjas=1,1,0 turn=yellow dice=-", players=3), 6, 6)
    assert state.heights() == (0, 0, 0)


# ----- rulebook sentences the rulings do not restate (ishigaki_race.ja.txt) ---------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("first_player", [None, 0])
def test_rulebook_every_ninja_is_placed_on_the_start(players, first_player):
    # 各プレイヤーは好みの色のコマを選び、「すたあと」の場所に置きます。
    state = new_state(players=players, first_player=first_player)
    assert state.heights() == (0,) * players
    if first_player is None:
        play(state, "start:1")
        assert state.heights() == (0,) * players


@pytest.mark.parametrize("drawn", [0, 1, 2, 3])
def test_rulebook_play_goes_clockwise_from_the_drawn_start_player(drawn):
    # ジャンケンやサイコロ等でスタートプレイヤーを決めます。その人から時計回りに…
    state = play(new_state(players=4), f"start:{drawn}")
    order = []
    for _ in range(8):
        order.append(state.race.turn)
        turn(state, 2)
    assert order == [(drawn + k) % 4 for k in range(8)]


def test_rulebook_a_turn_starts_with_one_die_and_nobody_decides_before_it():
    # まず、サイコロを1個振ります。
    state = at("race ninjas=0,0 turn=red dice=-")
    assert state.is_chance_node() and state.legal_actions() == []
    for move in ("stop", "roll"):
        with pytest.raises(IllegalMoveError, match="a die is rolled for red next"):
            state.apply_move(move)
    assert state.position() == "race ninjas=0,0 turn=red dice=-"


def test_rulebook_the_second_die_settles_the_roll():
    # 2個めのサイコロを振ったら、出目が確定します。 No third die and no decision after it:
    # the next player's turn begins with its first die.
    state = play(at("race ninjas=0,0 turn=red dice=-"), "die:2", "roll", "die:5")
    assert state.heights() == (3, 0)
    assert state.position() == "race ninjas=3,0 turn=blue dice=-"
    assert state.is_chance_node()
    for move in ("roll", "stop"):
        with pytest.raises(IllegalMoveError):
            state.apply_move(move)
    assert state.history_strings() == ["die:2", "roll", "die:5"]


def test_rulebook_stopping_on_one_die_ends_the_turn_at_once():
    # サイコロを1個しか振らなかった → 登る。その後は次の手番。
    state = play(at("race ninjas=0,0 turn=red dice=-"), "die:6", "stop")
    assert state.position() == "race ninjas=2,0 turn=blue dice=-"


def test_rulebook_the_plain_side_has_no_minus_2_squares_even_when_squares_are_named():
    # 使わない場合は「−2」の印刷されたマスがない側を表にしてください。
    game = stairgames.load("ishigaki_race", crumbling_squares=(2, 3))
    assert game.board.crumbling == frozenset()  # type: ignore[attr-defined]
    state = turn(at("race ninjas=1,0 turn=red dice=-", crumbling_squares=(2, 3)), 1)
    assert state.heights() == (2, 0)


def test_rulebook_a_double_three_scores_6_and_a_double_six_12_in_the_rolloff():
    # たとえば3のゾロ目の出目は6、6のゾロ目の出目は12です
    state = at("rolloff ninjas=20,20 turn=red dice=- rollers=red,blue")
    turn(state, 3, 3)
    turn(state, 6, 6)
    assert state.is_terminal() and state.race.winner == 1
