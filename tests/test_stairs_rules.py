"""Stairs: one test per rule sentence of the rulebook and per ruling S1-S7."""

from __future__ import annotations

import pytest

import stairgames
from stairgames import IllegalMoveError, InvalidPositionError
from stairgames.core.game import TERMINAL
from stairgames.games.stairs import INITIAL_POSITION, PASS, StairsState
from stairgames.games.stairs.rules import (
    DARK,
    LIGHT,
    Decision,
    Move,
    apply_move,
    initial_board,
    verdict,
)
from tests.stairs_helpers import board_of, build, moves_of, sq


def new_state(**options: bool) -> StairsState:
    state = stairgames.load("stairs", **options).new_initial_state()
    assert isinstance(state, StairsState)
    return state


# ----- components and set-up ------------------------------------------------


def test_components_18_pieces_of_each_colour_on_6x6():
    board = initial_board()
    assert len(board.stacks) == 36
    assert board.count(LIGHT) == 18 and board.count(DARK) == 18


def test_s1_a1_is_dark_and_the_setup_is_checkered():
    board = initial_board()
    assert board.stacks[sq("a1")] == DARK
    assert board.stacks[sq("b1")] == LIGHT
    assert board.stacks[sq("a2")] == LIGHT
    for square in range(36):
        file, rank = square % 6, square // 6
        assert board.stacks[square] == (DARK if (file + rank) % 2 == 0 else LIGHT)


def test_s1_initial_position_text():
    assert new_state().position() == INITIAL_POSITION


def test_setup_who_plays_which_colour_is_decided_outside_the_game_seat_0_takes_light():
    # "Decide which player will use which color in an appropriate manner": the players
    # choose their seats (--light / --dark); seat 0 plays light, seat 1 dark.
    game = stairgames.load("stairs")
    assert game.info().seat_names == ("light", "dark")
    state = new_state()
    assert (state.colour_of(0), state.colour_of(1)) == (LIGHT, DARK)
    assert not state.swapped()


# ----- gameplay ---------------------------------------------------------------


def test_light_plays_first():
    state = new_state()
    assert state.current_player() == 0
    assert state.colour_of(0) == LIGHT
    assert state.board.to_move == LIGHT


def test_turns_alternate():
    state = new_state()
    state.apply_move("d3-c4")
    assert state.current_player() == 1 and state.board.to_move == DARK
    state.apply_move("c3-b3")
    assert state.current_player() == 0 and state.board.to_move == LIGHT


def test_rule1_fig2_a_piece_can_move_in_any_of_eight_directions():
    state = new_state()
    state.apply_move("f1-f2")
    from_c3 = sorted(m for m in moves_of(state) if m.startswith("c3-"))
    assert from_c3 == sorted(
        ["c3-c4", "c3-d4", "c3-d3", "c3-d2", "c3-c2", "c3-b2", "c3-b3", "c3-b4"]
    )


def test_rule1_pieces_move_onto_pieces_of_either_colour():
    state = new_state()
    state.apply_move("d3-c4")  # light onto light (c4 is light)
    assert state.board.stacks[sq("c4")] == "LL"
    state.apply_move("c3-b3")  # dark onto light
    assert state.board.stacks[sq("b3")] == "LD"


def test_rule_a_player_moves_only_pieces_of_their_colour():
    state = new_state()
    with pytest.raises(IllegalMoveError, match="not yours"):
        state.apply_move("c3-d4")
    assert state.position() == INITIAL_POSITION


def test_s2_no_wrap_at_the_edges():
    state = new_state()
    from_f1 = sorted(m for m in moves_of(state) if m.startswith("f1-"))
    assert from_f1 == ["f1-e1", "f1-e2", "f1-f2"]


def test_rule2_only_the_topmost_piece_moves():
    # d3 holds light under dark: the light piece underneath can never be moved.
    state = build({"d3": "LD", "d4": "DL", "c2": "L"}, to_move=LIGHT)
    assert not any(m.startswith("d3-") for m in moves_of(state))
    with pytest.raises(IllegalMoveError, match="not yours"):
        state.apply_move("d3-d4")


def test_rule3_fig3_a_piece_moves_only_onto_a_stack_of_its_own_height():
    state = build({"d3": "LL", "c2": "L", "c3": "DD", "d2": "DD", "e4": "LD", "c4": "LDL"})
    assert sorted(moves_of(state)) == ["d3-c3", "d3-d2", "d3-e4"]
    with pytest.raises(IllegalMoveError, match="3 high"):
        state.apply_move("d3-c4")


def test_rule3_fig3_2_the_moved_piece_ends_one_level_higher():
    state = build({"d3": "LL", "c2": "L", "c3": "DD", "d2": "DD", "e4": "LD", "c4": "LDL"})
    state.apply_move("d3-e4")
    assert state.board.stacks[sq("e4")] == "LDL"
    assert state.board.stacks[sq("d3")] == "L"


def test_s2_never_onto_an_empty_square():
    state = build({"d3": "L", "c2": "L", "d4": "DD"})
    assert "d3-e3" not in moves_of(state)
    with pytest.raises(IllegalMoveError, match="empty"):
        state.apply_move("d3-e3")


def test_s3_only_lowest_pieces_move():
    # Light: c2 at height 1 cannot move; e2 (height 2) and c4 (height 3) can.
    state = build({"c2": "L", "e2": "LL", "e3": "DD", "c4": "LDL", "c5": "DLD"})
    assert moves_of(state) == ["e2-e3"]
    with pytest.raises(IllegalMoveError, match="lowest"):
        state.apply_move("c4-c5")


def test_s3_lowest_means_source_height_before_the_move():
    # Both light stacks are movable; the lower source (height 1) must move, even
    # though its destination ends at height 2, the height of the other source.
    state = build({"c2": "L", "c3": "D", "e3": "DL", "e4": "LD"})
    assert sorted(moves_of(state)) == ["c2-c3"]


def test_rule4_fig4_dark_must_move_its_lowest_movable_pieces():
    # Dark: b2 (height 1) is stuck; c3 and e3 are movable at height 2; d5 at height 3.
    state = build(
        {"b2": "D", "c3": "DD", "d3": "LL", "e3": "DD", "d5": "LLD", "d4": "DLL"},
        to_move=DARK,
    )
    assert {m.split("-")[0] for m in moves_of(state)} == {"c3", "e3"}


# ----- passing and the end --------------------------------------------------


def test_s4_a_player_with_no_move_must_pass():
    state = build({"c2": "L", "b2": "DD", "c3": "DD"})
    assert moves_of(state) == ["pass"]
    state.apply_move("pass")
    assert state.board.to_move == DARK and not state.is_terminal()


def test_s4_passing_is_otherwise_illegal():
    state = new_state()
    assert "pass" not in moves_of(state)
    with pytest.raises(IllegalMoveError, match="passing is allowed only"):
        state.apply_move("pass")


def test_s4_game_ends_when_neither_player_can_move():
    state = build({"c2": "L", "b4": "DD"})
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    with pytest.raises(IllegalMoveError, match="over"):
        state.apply_move("pass")


def test_s4_the_blocked_player_moves_again_when_a_move_appears():
    # Light cannot move; dark's move c3-b2... here dark moves onto b2, then light can.
    state = build({"c2": "L", "b2": "DD", "c3": "DD", "d3": "LDL"})
    state.apply_move("pass")
    state.apply_move("c3-b2")  # dark; c3 now height 1 next to c2 (height 1)
    assert "c2-c3" in moves_of(state)


# ----- deciding the winner (S5) ----------------------------------------------


def test_s5_step1_the_highest_stack_wins():
    board = board_of({"c3": "DDL", "d4": "DL", "e5": "DL"}, arrival=LIGHT)
    result = verdict(board)
    assert result is not None
    assert (result.winner, result.decision) == (LIGHT, Decision.HEIGHT)


def test_s5_step2_more_stacks_at_the_greatest_height_wins():
    board = board_of({"c3": "DDL", "d4": "DLD", "e5": "DLD"}, arrival=LIGHT)
    result = verdict(board)
    assert result is not None
    assert (result.winner, result.decision) == (DARK, Decision.COUNT)
    assert (result.light_count, result.dark_count) == (1, 2)


def test_s5_step3_equal_counts_the_first_to_reach_them_wins():
    board = board_of({"c3": "DDL", "d4": "DLD"}, arrival=DARK)
    result = verdict(board)
    assert result is not None
    assert (result.winner, result.decision) == (LIGHT, Decision.FIRST_ARRIVAL)
    assert "got there first" in result.explain()


def test_s5_the_most_recent_arrival_at_the_greatest_height_is_tracked():
    board = initial_board()
    board = apply_move(board, Move(sq("d3"), sq("c4")))  # light reaches 2
    assert board.last_arrival == LIGHT
    board = apply_move(board, Move(sq("c3"), sq("b3")))  # dark reaches 2 as well
    assert board.last_arrival == DARK
    board = apply_move(board, Move(sq("c4"), sq("b3")))  # light... b3 has height 2
    assert board.stacks[sq("b3")] == "LDL"
    assert board.last_arrival == LIGHT


def test_s5_an_arrival_below_the_greatest_height_changes_nothing():
    state = build({"c2": "L", "c3": "D", "e3": "DLD", "e4": "LDL"})
    # the dumps are the tallest stacks; light's arrival at height 2 is below them
    before = state.board.last_arrival
    state.apply_move("c2-c3")
    assert state.board.last_arrival == before


def test_s5_stairs_has_no_draws_returns_by_seat():
    state = build({"c2": "L", "b4": "DD"})  # light's dump (17) is the tallest stack
    assert state.returns() == [1.0, -1.0]
    outcome = state.outcome()
    assert outcome is not None and "Light wins" in outcome.reason
    assert outcome.winners == (0,)


# ----- pie rule (S6) ------------------------------------------------------------


def test_s6_pie_rule_is_off_by_default():
    state = new_state()
    state.apply_move("d3-c4")
    assert "swap" not in moves_of(state)
    with pytest.raises(IllegalMoveError, match="pie rule"):
        state.apply_move("swap")


def test_s6_second_player_may_swap_right_after_the_first_move():
    state = new_state(pie_rule=True)
    assert "swap" not in moves_of(state)
    state.apply_move("d3-c4")
    assert moves_of(state)[-1] == "swap"
    state.apply_move("swap")
    assert state.swapped()
    assert state.colour_of(0) == DARK and state.colour_of(1) == LIGHT
    assert state.board.to_move == DARK
    assert state.current_player() == 0  # the original first player, now dark, moves next
    assert "swap" not in moves_of(state)


def test_s6_swap_is_only_available_once_right_after_the_first_move():
    state = new_state(pie_rule=True)
    state.apply_move("d3-c4")
    state.apply_move("c3-b3")  # second player declines by moving
    assert "swap" not in moves_of(state)
    state.apply_move("d1-d2")
    assert "swap" not in moves_of(state)


def test_s6_after_a_swap_returns_follow_the_seats():
    state = new_state(pie_rule=True)
    state.apply_move("d3-c4")
    state.apply_move("swap")
    state.apply_move("offer")  # seat 0 (dark now) offers; light (seat 1) leads at height 2
    state.apply_move("accept")
    assert state.returns() == [-1.0, 1.0]


def test_s6_a_state_built_from_a_position_keeps_the_pending_swap():
    game = stairgames.load("stairs", pie_rule=True)
    start = game.new_initial_state()
    start.apply_move("d3-c4")
    state = game.state_from_position(start.position())
    assert isinstance(state, StairsState)
    assert start.position().endswith(" D L 0 swap")
    assert "swap" in moves_of(state) and state.current_player() == 1


def test_s6_a_state_built_from_a_position_after_a_swap_keeps_the_seats():
    game = stairgames.load("stairs", pie_rule=True)
    start = game.new_initial_state()
    start.apply_move("d3-c4")
    start.apply_move("swap")
    state = game.state_from_position(start.position())
    assert isinstance(state, StairsState)
    assert start.position().endswith(" D L 1")
    assert state.colour_of(0) == DARK and state.current_player() == 0
    assert state.legal_actions() == start.legal_actions()


def test_s6_a_swapped_position_needs_the_pie_rule():
    swapped = new_state(pie_rule=True)
    swapped.apply_move("d3-c4")
    swapped.apply_move("swap")
    with pytest.raises(InvalidPositionError, match="without the pie rule"):
        stairgames.load("stairs").state_from_position(swapped.position())


# ----- ending by agreement (S7) -------------------------------------------------


def two_moves_played(**options: bool) -> StairsState:
    """Both players have climbed once; dark arrived last, so light (seat 0) leads (S5)."""
    state = new_state(**options)
    state.apply_move("d3-c4")
    state.apply_move("c3-b3")
    return state


def test_s7_ending_by_agreement_scores_the_position_by_s5():
    state = two_moves_played()
    state.apply_move("offer")
    state.apply_move("accept")
    assert state.is_terminal() and state.legal_actions() == []
    # one stack each at height 2; dark arrived last, so light (seat 0) wins
    assert state.returns() == [1.0, -1.0]
    outcome = state.outcome()
    assert outcome is not None and "agreement" in outcome.reason
    assert state.ended_by_agreement()


def test_s7_offering_accepting_and_declining_are_moves_of_the_record():
    state = two_moves_played()
    assert "offer" in [state.action_to_string(a) for a in state.legal_actions()]
    state.apply_move("offer")
    state.apply_move("decline")
    state.apply_move("e2-f3")
    state.apply_move("offer")
    state.apply_move("accept")
    assert state.history_strings()[2:] == ["offer", "decline", "e2-f3", "offer", "accept"]


def test_s7_the_other_player_answers_an_offer_with_accept_or_decline_only():
    state = two_moves_played()
    state.apply_move("offer")
    assert state.current_player() == 1
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["accept", "decline"]
    with pytest.raises(IllegalMoveError, match="answer the offer"):
        state.apply_move("e2-f3")


def test_s7_after_a_declined_offer_the_offerer_moves_and_may_not_offer_again_first():
    state = two_moves_played()
    state.apply_move("offer")
    state.apply_move("decline")
    assert state.current_player() == 0
    assert "offer" not in [state.action_to_string(a) for a in state.legal_actions()]
    with pytest.raises(IllegalMoveError, match="declined"):
        state.apply_move("offer")
    state.apply_move("e2-f3")
    assert "offer" in [state.action_to_string(a) for a in state.legal_actions()]


def test_s7_no_offer_before_any_piece_has_climbed():
    state = new_state()
    assert "offer" not in [state.action_to_string(a) for a in state.legal_actions()]
    with pytest.raises(IllegalMoveError, match="no piece has climbed"):
        state.apply_move("offer")
    assert state.history() == []


def test_s7_no_offer_while_the_player_must_pass():
    # light has no move (S4): pass is the only action, an offer waits for a real turn
    state = build({"c2": "L", "b2": "DD", "c3": "DD"})
    assert state.board.max_height() > 1 and state.legal_actions() == [PASS]
    with pytest.raises(IllegalMoveError, match="must pass"):
        state.apply_move("offer")


def test_s7_answers_without_an_offer_are_illegal():
    state = two_moves_played()
    for word in ("accept", "decline"):
        with pytest.raises(IllegalMoveError, match="no offer to answer"):
            state.apply_move(word)


def test_s7_the_agreement_option_off_has_no_offers():
    state = two_moves_played(agreement=False)
    assert "offer" not in [state.action_to_string(a) for a in state.legal_actions()]
    with pytest.raises(IllegalMoveError, match="without ending by agreement"):
        state.apply_move("offer")


def test_s7_a_pending_offer_survives_the_position_text():
    state = two_moves_played()
    state.apply_move("offer")
    assert state.position().endswith(" L D 0 offer")
    again = stairgames.load("stairs").state_from_position(state.position())
    assert again.current_player() == 1 and again.legal_actions() == state.legal_actions()
    offer = again.agreement_offer()
    assert offer is not None and offer.returns == (1.0, -1.0)
    state.apply_move("decline")
    assert state.position().endswith(" L D 0 declined")
    again = stairgames.load("stairs").state_from_position(state.position())
    assert again.legal_actions() == state.legal_actions()


def test_s7_an_offer_in_a_position_needs_the_agreement_option():
    state = two_moves_played()
    state.apply_move("offer")
    with pytest.raises(InvalidPositionError, match="without agreement"):
        stairgames.load("stairs", agreement=False).state_from_position(state.position())


def test_s7_the_view_players_search_has_no_offers():
    state = two_moves_played()
    state.apply_move("offer")
    view = state.without_agreement()
    assert view.current_player() == 0
    assert "offer" not in [view.action_to_string(a) for a in view.legal_actions()]
    assert view.history_strings() == ["d3-c4", "c3-b3"]
    assert state.current_player() == 1  # the original is untouched


# ----- the lowest-piece rule across heights (rule 4, S3) -------------------------
# Positions met in random games where the player to move has movable pieces at
# several heights: only those of the lowest height may move.

LOWEST_ACROSS_HEIGHTS = [
    # (position, lowest movable height, the legal moves, moves that S3 forbids)
    (
        ".,.,LD,.,LLD,D/DD,LDL,.,.,.,L/.,.,LD,.,.,DD/DL,.,DD,LDL,.,LL/.,DL,LL,.,.,DL/"
        "D,LD,.,.,DL,. D D",
        1,
        ["f6-f5"],
        ["b1-b2", "b1-c2", "c3-b2", "c3-c2", "c3-c4", "c4-c3", "f4-f3"],
    ),
    (
        "L,DD,LL,D,.,DL/.,.,.,LLD,DDL,./LD,.,.,D,L,./DL,.,DDL,.,.,LD/L,DL,.,.,.,D/"
        ".,LD,.,LD,.,LDL D L",
        1,
        ["d4-e4"],
        ["a4-a3", "b1-b2", "b6-c6", "d5-e5"],
    ),
    (
        "LDL,.,L,.,LDD,./D,LDD,.,LDL,D,L/.,.,.,.,.,./D,.,.,LLDL,DDLL,./LL,.,L,.,LD,DL/"
        "D,.,DDD,.,.,. L L",
        1,
        ["f5-e5"],
        ["a6-b5", "d3-e3", "d5-e6", "e3-d3", "f2-e2"],
    ),
    (
        ".,.,LDL,.,.,D/DD,.,.,LL,DD,LLD/.,.,.,.,.,./DL,LLL,DLL,L,DD,./.,DDD,.,.,LLD,./"
        ".,LD,.,.,D,LDL D L",
        2,
        ["e5-d5"],
        ["b2-b3", "b2-c3", "e2-f1"],
    ),
    (
        ".,D,LDL,.,.,DD/.,.,.,.,.,LDL/LL,D,LLDD,.,LL,./.,LD,DDDL,.,.,./.,DD,L,DDL,LDL,./"
        ".,.,.,.,.,LDL L D",
        2,
        ["a4-b3"],
        ["c3-c4", "d2-e2", "e2-d2", "e2-f1", "f1-e2"],
    ),
    (
        ".,.,LD,.,.,DD/DD,.,.,LLDL,.,LLD/.,.,.,.,.,./D,LLLD,DLLL,L,DD,./.,DDD,.,.,LLD,./"
        ".,L,.,.,D,LDL L L",
        3,
        ["f1-e2"],
        ["c3-b3"],
    ),
]


@pytest.mark.parametrize(("position", "height", "legal", "forbidden"), LOWEST_ACROSS_HEIGHTS)
def test_rule4_s3_the_lowest_movable_pieces_move_across_heights(position, height, legal, forbidden):
    state = stairgames.load("stairs").state_from_position(position)
    assert isinstance(state, StairsState)
    assert moves_of(state) == legal
    assert {state.board.height(sq(m[:2])) for m in legal} == {height}
    for move in forbidden:
        assert state.board.height(sq(move[:2])) > height
        with pytest.raises(IllegalMoveError, match=f"lowest movable pieces \\(height {height}\\)"):
            state.apply_move(move)
    assert state.position() == position


def test_s3_any_legal_destination_of_a_lowest_piece_may_be_chosen():
    # Light's only lowest movable piece is d3 (height 2): every one of its three
    # destinations is legal, whatever the colour on top there.
    state = build({"d3": "LL", "c2": "L", "c3": "DD", "d2": "DD", "e4": "LD", "c4": "LDL"})
    assert sorted(moves_of(state)) == ["d3-c3", "d3-d2", "d3-e4"]
    for move in ("d3-c3", "d3-d2", "d3-e4"):
        child = state.clone()
        child.apply_move(move)
        assert child.board.height(sq(move[3:])) == 3


# ----- the end of real games, decided by each step of S5 ------------------------
# Final positions of random games (seeds noted): nobody can move, and the result
# says which step decided it.


def test_s5_step1_fig5_dark_wins_with_the_only_piece_at_height_5():
    # seed 2: dark alone tops a stack of height 5 (c3), as in Fig. 5
    state = stairgames.load("stairs").state_from_position(
        ".,.,LD,.,.,DD/DD,.,.,LLDL,.,LLD/.,.,.,.,.,./D,LL,DLLLD,L,DD,./.,DDDL,.,.,LLDL,./"
        ".,L,.,.,D,LD D D"
    )
    assert state.is_terminal() and state.legal_actions() == []
    assert state.returns() == [-1.0, 1.0]
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.reason == "Dark wins: only they reached height 5"
    assert outcome.details == {"decision": "height", "height": 5}


def test_s5_step2_end_of_game_more_stacks_at_the_greatest_height():
    # seed 372: three light stacks and one dark stack of height 3
    state = stairgames.load("stairs").state_from_position(
        ".,DLL,L,.,.,DD/DD,.,.,LD,.,L/.,.,LDL,.,LDL,DD/DL,.,DL,L,.,L/.,DLD,.,.,.,DD/"
        ".,LD,D,LL,.,L L L"
    )
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.reason == "Light wins: more stacks at height 3 (light 3, dark 1)"


def test_s5_step3_end_of_game_equal_counts_the_last_arrival_loses():
    # seed 131: one stack each at height 5; dark made the last arrival there
    state = stairgames.load("stairs").state_from_position(
        ".,D,LLLLL,D,.,./.,LDDD,DL,.,.,LDL/LD,.,.,.,.,./D,.,.,.,DD,./.,.,LL,D,LLL,./"
        "DL,.,.,LDDDD,.,LD L D"
    )
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.details["decision"] == "first arrival"
    assert "light 1, dark 1" in outcome.reason and "light got there first" in outcome.reason


def test_s5_step3_the_same_stacks_with_the_other_last_arrival_give_the_other_winner():
    position = (
        ".,D,LLLLL,D,.,./.,LDDD,DL,.,.,LDL/LD,.,.,.,.,./D,.,.,.,DD,./.,.,LL,D,LLL,./"
        "DL,.,.,LDDDD,.,LD L L"
    )
    state = stairgames.load("stairs").state_from_position(position)
    assert state.returns() == [-1.0, 1.0]


# ----- seats ----------------------------------------------------------------------


def test_seats_are_0_and_1_and_other_seats_are_refused():
    state = new_state()
    assert [state.seat_name(s) for s in (0, 1)] == ["light", "dark"]
    for seat in (-1, 2, True):
        with pytest.raises(ValueError, match="not a seat of stairs"):
            state.colour_of(seat)
        with pytest.raises(ValueError, match="not a seat of stairs"):
            state.observation_string(seat)


def test_s6_after_a_swap_seat_0_is_named_dark():
    state = new_state(pie_rule=True)
    state.apply_move("d3-c4")
    state.apply_move("swap")
    assert [state.seat_name(s) for s in (0, 1)] == ["dark", "light"]
    assert state.observation_string(0).endswith(" you:D")


def test_s7_the_drawing_says_who_answers_a_pending_offer():
    state = new_state()
    state.apply_move("d3-c4")
    state.apply_move("offer")  # dark offers; light answers
    assert "Dark offers to end the game here; light answers\n" in str(state) + "\n"
    assert "seat" not in str(state)


def test_s7_after_a_swap_the_drawing_names_the_player_who_answers_an_offer():
    state = new_state(pie_rule=True)
    state.apply_move("d3-c4")
    state.apply_move("swap")  # the second player now plays light, the first dark
    state.apply_move("c3-b3")
    state.apply_move("offer")  # light offers; dark, the first player, answers
    assert state.current_player() == 0
    assert (
        "Light offers to end the game here; dark answers: the first player (colours swapped)"
        in str(state)
    )
