"""27: one test per rule sentence of the rulebook and per ruling T1-T7."""

from __future__ import annotations

import random

import pytest

import stairgames
from stairgames import IllegalMoveError
from stairgames.core.game import TERMINAL
from stairgames.core.testing import perft
from stairgames.games.twenty_seven import INITIAL_POSITION, PASS, TwentySevenState
from stairgames.games.twenty_seven.rules import (
    BLACK,
    DISC_COUNTS,
    GREY,
    RED,
    WHITE,
    destination,
    initial_line,
    legal_moves,
    score,
    stack_count,
    target_field,
)


def new_state(variant: str = "basic") -> TwentySevenState:
    state = stairgames.load("twenty_seven", variant=variant).new_initial_state()
    assert isinstance(state, TwentySevenState)
    return state


def at(text: str, variant: str = "basic") -> TwentySevenState:
    state = stairgames.load("twenty_seven", variant=variant).state_from_position(text)
    assert isinstance(state, TwentySevenState)
    return state


def moves_of(state: TwentySevenState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def play(state: TwentySevenState, *moves: str) -> TwentySevenState:
    for move in moves:
        state.apply_move(move)
    return state


# ----- components and preparation ---------------------------------------------


def test_components_27_discs_9_black_9_white_7_grey_2_red():
    line = initial_line()
    assert {disc: line.count(disc) for disc in DISC_COUNTS} == {
        RED: 2,
        GREY: 7,
        WHITE: 9,
        BLACK: 9,
    }
    assert sum(len(stack) for stack in line.fields) == 27


def test_preparation_grey_line_with_a_red_disc_at_both_ends():
    bases = [stack[0] for stack in initial_line().fields]
    assert bases == [RED] + [GREY] * 7 + [RED]


def test_preparation_each_player_stacks_nine_discs_on_the_red_disc_in_front():
    line = initial_line()
    assert line.fields[0] == RED + WHITE * 9
    assert line.fields[-1] == RED + BLACK * 9


def test_preparation_the_first_player_is_nominated():
    # the first player is seat 0, on white, on field 0; seat 1 moves only after it
    state = new_state()
    assert state.current_player() == 0 and state.line.to_move == WHITE
    assert state.line.fields[0].endswith(WHITE)
    with pytest.raises(IllegalMoveError, match="topped by black, not by white"):
        state.apply_move("8:1")  # black's stack cannot open the game
    play(state, "0:1")
    assert state.current_player() == 1


def test_t1_nine_fields_white_first_on_field_0_black_on_field_8():
    state = new_state()
    assert len(state.line) == 9
    assert state.position() == INITIAL_POSITION
    assert state.current_player() == 0 and state.colour_of(0) == WHITE
    assert state.colour_of(1) == BLACK
    assert state.get_game().info().seat_names == ("white", "black")


def test_t1_white_moves_towards_field_8_and_black_towards_field_0():
    state = play(new_state(), "0:2")
    assert state.line.fields[1] == GREY + WHITE * 2
    play(state, "8:3")
    assert state.line.fields[7] == GREY + BLACK * 3


def test_object_each_target_is_the_red_field_at_the_opposite_end():
    line = initial_line()
    assert target_field(line, WHITE) == 8 and line.fields[8][0] == RED
    assert target_field(line, BLACK) == 0 and line.fields[0][0] == RED


# ----- play -------------------------------------------------------------------


def test_play_in_the_first_round_the_number_of_stacks_is_1():
    state = new_state()
    assert state.stacks_of(WHITE) == 1
    assert moves_of(state) == [f"0:{k}" for k in range(1, 10)]
    play(state, "0:9")
    assert state.stacks_of(BLACK) == 1
    assert moves_of(state) == [f"8:{k}" for k in range(1, 10)]


def test_play_your_stacks_are_those_with_your_colour_on_top():
    state = at("RWWWWWB/GW/G/GBW/G/GWB/G/G/RBBBBBBW B")
    assert state.stacks_of(WHITE) == 3  # fields 1, 3 and 8
    assert state.stacks_of(BLACK) == 2  # fields 0 and 5


def test_play_single_discs_count_as_stacks():
    state = play(new_state(), "0:8")
    assert state.line.fields[:2] == ("RW", "G" + "W" * 8)
    assert state.stacks_of(WHITE) == 2


def test_play_move_a_whole_stack_or_some_of_its_discs_exactly_n_steps():
    state = play(new_state(), "0:5", "8:1")  # white has 2 stacks, black 2
    assert state.stacks_of(WHITE) == 2
    assert moves_of(state) == ["0:1", "0:2", "0:3", "0:4", "1:1", "1:2", "1:3", "1:4", "1:5"]
    play(state, "1:3")
    assert state.line.fields[1] == "GWW" and state.line.fields[3] == "GWWW"


def test_play_the_opponent_follows_the_same_rule():
    state = play(new_state(), "0:5", "8:1", "0:1")
    assert state.stacks_of(BLACK) == 2
    assert all(move.startswith(("8:", "7:")) for move in moves_of(state))
    play(state, "7:1")
    assert state.line.fields[5] == "GB"


def test_play_going_backwards_is_not_allowed():
    state = at("RWWW/G/G/GWWWWWW/G/GBB/G/G/RBBBBBBB W")
    # white has 2 stacks: from field 3 it may only go to field 5, never back to field 1
    assert {m.split(":")[0] for m in moves_of(state)} == {"0", "3"}
    with pytest.raises(IllegalMoveError):
        state.apply_move("5:1")
    play(state, "3:2")
    assert state.line.fields[5] == "GBBWW"


def test_play_discs_land_on_top_of_the_discs_already_on_a_field():
    state = at("RWWW/G/GWWWWWW/G/GBB/G/G/G/RBBBBBBB W")
    play(state, "2:1")
    assert state.line.fields[4] == "GBBW"


def test_play_opponent_discs_in_the_moved_part_go_along():
    state = at("RWWW/G/GWWWWB/G/GBWW/G/G/G/RBBBBBBB W")
    play(state, "4:3")  # white has 2 stacks: fields 0 and 4; B and two W go along
    assert state.line.fields[4] == "G" and state.line.fields[6] == "GBWW"


def test_important_the_red_target_must_be_reached_with_exactly_the_number_of_fields():
    # white has 3 stacks (fields 5, 6, 7): only field 5 is exactly 3 fields from the target
    state = at("RBBB/G/G/G/G/GWWW/GWWW/GWWW/RBBBBBB W")
    assert state.stacks_of(WHITE) == 3
    assert moves_of(state) == ["5:1", "5:2", "5:3"]  # fields 6 and 7 may not stop short
    play(state, "5:3")
    assert state.line.fields[8] == "RBBBBBBWWW" and state.score(WHITE) == 9


def test_important_a_stack_that_would_move_beyond_the_red_target_cannot_be_moved():
    state = at("RBBB/G/G/G/G/GWWW/GWWW/GWWW/RBBBBBB W")
    for field in (6, 7):
        with pytest.raises(IllegalMoveError, match="pass the end of the line"):
            state.apply_move(f"{field}:1")
    assert state.position() == "RBBB/G/G/G/G/GWWW/GWWW/GWWW/RBBBBBB W"


# ----- the two worked examples of the rulebook ----------------------------------


def test_example1_two_black_stacks_must_move_two_fields():
    state = at("RWWWWWW/G/GWWW/G/G/GB/G/G/RBBBBBBBB B")
    assert state.stacks_of(BLACK) == 2
    assert all(destination(state.line, move) == move.field - 2 for move in state.moves())
    assert moves_of(state) == ["5:1"] + [f"8:{k}" for k in range(1, 9)]
    play(state, "5:1")  # black decides to move with his 2nd stack
    assert state.line.fields[5] == "G" and state.line.fields[3] == "GB"


def test_example2_white_with_three_stacks_may_move_only_stacks_1_or_2():
    state = at("RWWWBBB/GW/G/GWWW/G/G/GWW/G/RBBBBBB W")
    assert state.stacks_of(WHITE) == 3
    # stack 3 (field 6) would go to field 9, past the target: it cannot move
    assert moves_of(state) == ["1:1", "3:1", "3:2", "3:3"]
    with pytest.raises(IllegalMoveError, match="pass the end"):
        state.apply_move("6:1")


def test_example2_white_moves_part_of_its_2nd_stack_onto_its_3rd_stack():
    state = at("RWWWBBB/GW/G/GWWW/G/G/GWW/G/RBBBBBB W")
    play(state, "3:2")
    assert state.line.fields[3] == "GW" and state.line.fields[6] == "GWWWW"


# ----- T2 and T3 -----------------------------------------------------------------


def test_t2_stacks_on_both_red_fields_count():
    state = at("RWWWWWWWWB/G/G/G/G/G/GB/G/RBBBBBBBW B")
    # black tops field 0 (its own target) and field 6; white tops field 8 (its target)
    assert stack_count(state.line, BLACK) == 2
    assert stack_count(state.line, WHITE) == 1
    assert moves_of(state) == ["6:1"]


def test_t2_move_at_least_one_disc():
    with pytest.raises(IllegalMoveError, match="at least one disc"):
        new_state().apply_move("0:0")


def test_t2_the_top_disc_must_be_your_colour():
    state = at("RWWWWWWWWB/G/G/G/G/G/GB/G/RBBBBBBBW B")
    with pytest.raises(IllegalMoveError, match="topped by white"):
        state.apply_move("8:1")


def test_t3_no_move_may_pass_the_end_of_the_line():
    state = at("RWWWBBB/GW/G/GWWW/G/G/GWW/G/RBBBBBB W")
    assert all(move.field + 3 <= 8 for move in state.moves())


def test_t3_a_stack_on_its_target_never_moves():
    state = at("RBBBBBBB/G/G/G/GB/G/G/GWWW/RBWWWWWW W")
    # white has 2 stacks: field 7 would overshoot and field 8 is its target
    assert state.legal_actions() == [PASS]
    black = at("RWWWBB/G/GBBBB/G/G/G/G/G/RWWWWWWBBB B")
    # black has 3 stacks: field 2 would overshoot and field 0 is its target
    assert {m.field for m in black.moves()} == {8}


# ----- T4: passing and the end of the game -------------------------------------


def test_t4_a_player_who_cannot_move_passes():
    state = at("RWWWWWWWWB/G/G/G/GWB/G/G/G/RBBBBBBB W")
    assert state.stacks_of(WHITE) == 0
    assert state.current_player() == 0
    assert moves_of(state) == ["pass"]
    play(state, "pass")
    assert state.current_player() == 1 and state.line.to_move == BLACK


def test_t4_passing_is_otherwise_illegal():
    with pytest.raises(IllegalMoveError, match="only with no move"):
        new_state().apply_move("pass")


def test_t4_a_blocked_player_cannot_move_a_disc():
    state = at("RWWWWWWWWB/G/G/G/GWB/G/G/G/RBBBBBBB W")
    with pytest.raises(IllegalMoveError, match="must pass"):
        state.apply_move("4:1")


def test_t4_the_other_player_keeps_playing_while_one_is_blocked():
    state = at("RWWWWWWWWWB/G/G/G/G/G/G/G/RBBBBBBBB W")
    play(state, "pass", "8:1", "pass")
    assert state.line.to_move == BLACK and state.current_player() == 1


def test_t4_the_blocked_player_moves_again_as_soon_as_a_move_exists():
    state = at("RWWWWWWWWB/G/G/G/GWB/G/G/G/RBBBBBBB W")
    play(state, "pass", "4:1")  # black uncovers the white disc on field 4
    assert state.stacks_of(WHITE) == 1
    assert moves_of(state) == ["4:1"]


def test_t4_the_game_ends_when_neither_player_can_move():
    state = at("RBBBB/G/G/G/G/G/G/G/RBBBBBWWWWWWWWW W")
    assert state.current_player() == TERMINAL and state.is_terminal()
    assert state.legal_actions() == []
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.apply_move("pass")


# ----- T5: scores ----------------------------------------------------------------


def test_t5_the_higher_stack_on_its_target_wins():
    state = at("RBBBB/G/G/G/G/G/G/G/RBBBBBWWWWWWWWW W")
    assert state.returns() == [1.0, -1.0]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert outcome.details["scores"] == (14, 4)
    assert "White wins 14 to 4" in outcome.reason


def test_t5_both_colours_count_and_the_base_does_not():
    line = at("RBBBB/G/G/G/G/G/G/G/RBBBBBWWWWWWWWW W").line
    assert score(line, WHITE) == 14  # 5 black and 9 white discs on the red base
    assert score(line, BLACK) == 4


def test_t5_black_wins_with_the_higher_stack():
    state = at("RWBBBBBBBBB/G/G/G/G/G/G/G/RWWWWWWWW B")
    assert state.is_terminal()
    assert state.returns() == [-1.0, 1.0]
    outcome = state.outcome()
    assert outcome is not None and outcome.details["scores"] == (8, 10)
    assert "Black wins 10 to 8" in outcome.reason


def test_t5_equal_heights_draw():
    state = at("RBBBBBBBBB/G/G/G/G/G/G/G/RWWWWWWWWW W")
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == ()
    assert "Draw: 9 to 9" in outcome.reason


# ----- T6: advanced -----------------------------------------------------------------


def test_t6_basic_grey_and_red_bases_never_move():
    state = play(new_state(), "0:3", "8:1", "0:2")
    assert "7:2" not in moves_of(state)
    with pytest.raises(IllegalMoveError, match="grey base disc stays"):
        state.apply_move("7:2")
    with pytest.raises(IllegalMoveError, match="red base disc stays"):
        state.apply_move("8:9")


def test_t6_advanced_the_grey_base_moves_with_the_stack_on_it():
    state = play(new_state("advanced"), "0:3", "8:1", "0:2")
    assert "7:2" in moves_of(state)
    assert "8:9" not in moves_of(state)  # the red base still stays


def test_t6_example_taking_the_grey_disc_shortens_the_path_to_8_fields():
    state = play(new_state("advanced"), "0:3", "8:1", "0:2")
    assert state.line.fields[7] == "GB" and state.stacks_of(BLACK) == 2
    play(state, "7:2")  # black moves its stack and takes the grey disc with it
    assert len(state.line) == 8
    assert state.position() == "RWWWW/GWWW/GWW/G/G/GGB/G/RBBBBBBBB W"


def test_t6_distances_are_counted_in_the_fields_that_remain():
    state = play(new_state("advanced"), "0:3", "8:1", "0:2", "7:2")
    # white has 3 stacks: 3 fields in the shortened line take field 2 to field 5 (the GGB)
    assert state.stacks_of(WHITE) == 3
    play(state, "2:1")
    assert state.line.fields[5] == "GGBW"
    assert state.line.fields[-1][0] == RED


def test_t6_a_carried_grey_disc_counts_in_the_score():
    state = at("RBBBBBBBB/G/G/G/G/RBGGGWWWWWWWWW W", "advanced")
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.details["scores"] == (13, 8)  # 1 black, 3 carried grey, 9 white


def test_t6_a_bare_grey_disc_is_nobodys_stack():
    state = at("RWWWW/GWG/G/GBG/G/GWWWWB/RBBBBBBB W", "advanced")
    assert stack_count(state.line, WHITE) == 1  # field 0; field 1 is topped by grey
    assert stack_count(state.line, BLACK) == 2  # fields 5 and 6; field 3 is topped by grey
    assert [m.field for m in state.moves()] == [0, 0, 0, 0]


@pytest.mark.parametrize("seed", range(6))
def test_advanced_the_object_and_all_other_rules_remain_unchanged(seed):
    # along an advanced game: the advanced moves are the basic ones plus the moves that
    # take a grey base (the whole stack); targets and scores are read as in the basic game
    rng = random.Random(seed)
    state = new_state("advanced")
    while not state.is_terminal():
        line = state.line
        for colour in (WHITE, BLACK):
            advanced = legal_moves(line, colour, "advanced")
            with_base = [m for m in advanced if m.count == len(line.fields[m.field])]
            assert all(line.fields[m.field][0] == GREY for m in with_base)
            assert [m for m in advanced if m not in with_base] == legal_moves(line, colour, "basic")
        assert line.fields[0][0] == RED and line.fields[-1][0] == RED
        assert (target_field(line, WHITE), target_field(line, BLACK)) == (len(line) - 1, 0)
        state.apply_action(rng.choice(state.legal_actions()))


def test_t6_advanced_positions_may_not_carry_red_discs():
    with pytest.raises(ValueError, match="red disc"):
        at("RWWWWWWWWW/G/G/G/G/G/G/GRBBBBBBBBB W", "advanced")


# ----- T7: expert -------------------------------------------------------------------


def test_t7_expert_red_bases_move_like_grey_ones():
    state = new_state("expert")
    assert "0:10" in moves_of(state)
    play(state, "0:10")
    assert state.position() == "GRWWWWWWWWW/G/G/G/G/G/G/RBBBBBBBBB B"


def test_t7_the_target_is_whatever_field_is_last_at_the_far_end():
    state = play(new_state("expert"), "0:1", "8:10")
    assert len(state.line) == 8
    assert state.line.fields[-1] == "GRBBBBBBBBB"
    assert score(state.line, WHITE) == 10  # the grey field is white's target now
    play(state, "0:1")  # white has 2 stacks now (fields 0 and 1)
    assert state.line.fields[2] == "GW"


def test_t7_expert_grey_bases_still_move_with_their_stack():
    state = play(new_state("expert"), "0:3", "8:1", "0:2")
    assert "7:2" in moves_of(state)
    play(state, "7:2")
    assert len(state.line) == 8 and state.line.fields[5] == "GGB"


def test_t5_carried_red_discs_count_in_the_expert_score():
    # black's target (now a grey-based field 0) holds a carried red disc and 8 black ones
    state = at("GRBBBBBBBB/G/G/G/G/G/G/RBWWWWWWWWW W", "expert")
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome is not None and outcome.details["scores"] == (10, 9)
    assert state.returns() == [1.0, -1.0]


def test_t7_one_field_left_is_both_targets_and_a_draw():
    state = at("RWWWWWWWWWGGGGGGBBBBBBBBBGR W", "expert")
    assert state.is_terminal()
    assert state.returns() == [0.0, 0.0]


def test_t7_red_fields_stay_at_the_ends():
    with pytest.raises(ValueError, match="not at an end"):
        at("GWWWWWWWWW/G/RG/G/G/G/G/RBBBBBBBBB W", "expert")


# ----- move-tree counts (perft) -----------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "counts"),
    [
        # each side has one stack of 9 above a red base: 9 moves, then 9 replies; then 9 again
        # (the two stacks of a split still hold 9 discs above their bases)
        ("basic", [9, 81, 729, 6561]),
        # the same, but a split stack on a grey field may take its grey base: 10 moves each
        ("advanced", [9, 81, 810, 8100]),
        # the red bases move too: 10 first moves and 10 replies; then 10 or 11
        ("expert", [10, 100, 1090, 11881]),
    ],
)
def test_move_tree_counts_from_the_start(variant, counts):
    state = new_state(variant)
    assert [perft(state, depth) for depth in range(1, 5)] == counts
