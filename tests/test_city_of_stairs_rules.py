"""City of Stairs rules: rulings C1-C9 and the rulebook's worked examples, each by name."""

from __future__ import annotations

import random

import pytest

import stairgames
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.errors import IllegalMoveError
from stairgames.core.game import CHANCE
from stairgames.core.registry import player_hooks
from stairgames.games.city_of_stairs import CityOfStairsState, rules
from stairgames.games.city_of_stairs.game import max_game_length
from stairgames.games.city_of_stairs.play.evaluate import best_stroll, evaluate
from stairgames.games.city_of_stairs.rules import End, Placement
from tests.test_city_of_stairs_helpers import (
    events,
    moves,
    new_state,
    row,
    stroll_state,
)


def building_state(
    city: str, *, stock: str = "P03,E07", players: int = 2, start: int = 0
) -> CityOfStairsState:
    """A building-phase state from a city field (rows 4 to 1) and a stock."""
    game = stairgames.load("city_of_stairs", players=players)
    text = (
        f"start={start} departures={','.join(str(d + 1) for d in range(players))} "
        f"stock={stock} city={city} strolls={'/'.join('-' * players)}"
    )
    state = game.state_from_position(text)
    assert isinstance(state, CityOfStairsState)
    return state


EMPTY_ROW = ".,.,.,.,.,.,."


def city_rows(
    row4: str = EMPTY_ROW, row3: str = EMPTY_ROW, row2: str = EMPTY_ROW, row1: str = EMPTY_ROW
) -> str:
    return f"{row4}/{row3}/{row2}/{row1}"


ALL_BUT_C1 = city_rows(
    "P13,E11,E07,P05,P10,P06,P14",
    "E08,P09,E14,P07,E10,P12,E13",
    "E02,E05,P04,E06,E01,P08,P11",
    "E03,E04,.,P01,P02,E09,E12",
)
"""A city of 27 cards: only c1 is free, and P03 (the last stairs) fits there."""


def setup_done(players: int = 2, first_player: int = 0) -> CityOfStairsState:
    """The state right after setup: start chosen, stock drawn, departures dealt."""
    state = new_state(players=players, first_player=first_player)
    state.apply_move("draw P03")
    state.apply_move("draw E07")
    for seat in range(players):
        state.apply_action(state.chance_outcomes()[seat][0])
    return state


# ----- C1, C9: components and setup ---------------------------------------------------


def test_c9_start_player_is_a_chance_node_unless_given():
    state = new_state(players=3)
    assert state.current_player() == CHANCE
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()] == [
        "start red",
        "start blue",
        "start green",
    ]
    assert all(p == pytest.approx(1 / 3) for _, p in state.chance_outcomes())
    given = new_state(players=3, first_player=2)
    assert given.table.start == 2
    assert given.action_to_string(given.chance_outcomes()[0][0]).startswith("draw ")


def test_c9_characters_default_to_seat_order_and_can_be_chosen():
    assert new_state(players=3).table.colours == ("red", "blue", "green")
    chosen = new_state(players=2, characters="yellow, Green")
    assert chosen.table.colours == ("yellow", "green")
    assert stairgames.load("city_of_stairs", characters="blue,red").info().seat_names == (
        "blue",
        "red",
    )


def test_c9_play_goes_in_seat_order_from_the_start_player_in_both_phases():
    state = setup_done(players=3, first_player=1)
    order = []
    for _ in range(3):
        order.append(state.current_player())
        state.apply_action(state.legal_actions()[0])
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
    assert order == [1, 2, 0]
    strolling = stroll_state({}, (1, 4, 7), start=2)
    assert strolling.table.turn_order() == (2, 0, 1)
    assert strolling.current_player() == 2


def test_c1_setup_draws_one_stock_card_from_each_deck_then_deals():
    state = new_state(players=2, first_player=0)
    outcomes = state.chance_outcomes()
    assert [state.action_to_string(a) for a, _ in outcomes][:2] == ["draw P01", "draw P02"]
    assert len(outcomes) == 14
    state.apply_move("draw P03")
    assert len(state.chance_outcomes()) == 14
    assert state.action_to_string(state.chance_outcomes()[0][0]) == "draw E01"
    state.apply_move("draw E07")
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()][:2] == [
        "deal 1 to red",
        "deal 2 to red",
    ]
    assert len(state.chance_outcomes()) == 7


def test_c8_departure_deals_are_chance_over_the_cards_not_yet_dealt():
    state = new_state(players=3, first_player=0)
    state.apply_move("draw P03")
    state.apply_move("draw E07")
    state.apply_move("deal 4 to red")
    dealt = [state.action_to_string(a) for a, _ in state.chance_outcomes()]
    assert dealt == [f"deal {d} to blue" for d in (1, 2, 3, 5, 6, 7)]
    assert all(p == pytest.approx(1 / 6) for _, p in state.chance_outcomes())


# ----- C3: building -----------------------------------------------------------------


def test_c3_first_placements_are_in_row_1_next_to_the_seaside():
    state = setup_done()
    cells = {m.split("@")[1] for m in moves(state)}
    assert cells == {f"{f}1" for f in "abcdefg"}
    assert moves(state)[:2] == ["P03@a1", "P03@b1"]
    assert "E07@g1" in moves(state)


def test_c3_a_card_goes_orthogonally_next_to_a_card_not_diagonally():
    state = building_state(city_rows(row1="P01,.,.,.,.,.,."))
    cells = {m.split("@")[1] for m in moves(state)}
    assert "a2" in cells
    assert "b2" not in cells  # only diagonally next to a1
    assert cells == {"a2", "b1", "c1", "d1", "e1", "f1", "g1"}
    with pytest.raises(IllegalMoveError, match="not next to the seaside or a city card"):
        state.apply_move("P03@b2")


def test_c3_while_building_the_ends_of_a_row_do_not_touch():
    state = building_state(
        city_rows(row2="P01,.,.,.,.,.,.", row1="P02,E01,E02,E03,P04,E04,P05"), stock="P03,E07"
    )
    cells = {m.split("@")[1] for m in moves(state)}
    assert "b2" in cells and "a3" in cells
    assert "g2" in cells  # above g1, not because of a2
    state = building_state(
        city_rows(
            row3="P01,.,.,.,.,.,.", row2="P02,.,.,.,.,.,.", row1="P06,E01,E02,E03,P04,E04,P05"
        )
    )
    cells = {m.split("@")[1] for m in moves(state)}
    assert "g3" not in cells and "g2" in cells


def test_rulebook_placement_example_a_row_with_three_stairs_accepts_only_an_experience_card():
    row2 = "P01,P02,P04,.,.,.,."
    state = building_state(city_rows(row2=row2, row1="P05,P06,P07,E01,E02,E03,E04"))
    legal = moves(state)
    assert "E07@d2" in legal
    assert "P03@d2" not in legal
    with pytest.raises(IllegalMoveError, match="row 2 already has 3 stairs"):
        state.apply_move("P03@d2")
    stairless = building_state(
        city_rows(row2=row2, row1="P05,P06,P07,E01,E02,E03,E04"), stock="P13,E07"
    )
    assert "P13@d2" in moves(stairless)  # "nor do the two passage cards" without stairs


def test_c3_a_row_holds_at_most_four_cards_without_stairs():
    state = building_state(city_rows(row1="E01,E02,E03,E04,.,.,."), stock="P13,E07")
    legal = moves(state)
    assert not any(m.endswith("1") for m in legal)
    assert "E07@a2" in legal and "P13@a2" in legal
    with pytest.raises(IllegalMoveError, match="4 cards without stairs"):
        state.apply_move("E07@e1")
    with_stairs = building_state(city_rows(row1="E01,E02,E03,E04,.,.,."), stock="P03,E07")
    assert "P03@e1" in moves(with_stairs)


def test_c3_refill_is_a_chance_outcome_over_the_cards_left_in_that_deck():
    state = setup_done()
    state.apply_move("P03@c1")
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    drawn = [state.action_to_string(a) for a, _ in outcomes]
    assert drawn == [f"draw P{n:02d}" for n in range(1, 15) if n != 3]
    assert all(p == pytest.approx(1 / 13) for _, p in outcomes)
    state.apply_move("draw P13")
    assert state.table.stock == (state.cards.by_id["P13"].index, state.cards.by_id["E07"].index)
    assert state.current_player() == 1


def test_rulebook_placement_example_1_an_experience_card_is_refilled_from_the_experience_deck():
    state = setup_done()
    assert {m.split("@")[1] for m in moves(state) if m.startswith("E07")} == {
        f"{f}1" for f in "abcdefg"
    }
    state.apply_move("E07@d1")
    outcomes = state.chance_outcomes()
    drawn = [state.action_to_string(a) for a, _ in outcomes]
    assert drawn == [f"draw E{n:02d}" for n in range(1, 15) if n != 7]
    assert all(p == pytest.approx(1 / 13) for _, p in outcomes)
    state.apply_move("draw E02")
    assert state.table.stock == (state.cards.by_id["P03"].index, state.cards.by_id["E02"].index)


def test_c3_cards_are_placed_only_inside_the_7x4_grid():
    state = setup_done()
    before = state.position()
    for outside in ("P03@h1", "P03@a5", "P03@a0", "E07@z9"):
        with pytest.raises(IllegalMoveError, match="malformed move"):
            state.apply_move(outside)
    assert state.position() == before
    full = building_state(
        ALL_BUT_C1,
        stock="P03,-",
    )
    assert moves(full) == ["P03@c1"]  # the last free cell of the 28


def test_c3_deck_exhaustion_leaves_the_slot_empty():
    state = setup_done()
    passage_ids = [f"P{n:02d}" for n in range(1, 15)]
    # play passage cards until the passage deck is empty
    while True:
        legal = moves(state)
        pick = next((m for m in legal if m.startswith("P")), None)
        if pick is None:
            break
        state.apply_move(pick)
        if state.is_chance_node():
            remaining = [state.action_to_string(a) for a, _ in state.chance_outcomes()]
            state.apply_move(remaining[0])
    assert state.table.stock[rules.PASSAGE_SLOT] is None
    assert not rules.deck(state.table, state.cards, rules.PASSAGE_SLOT)
    assert not state.is_chance_node()
    assert all(m.startswith("E") for m in moves(state))
    placed = {state.cards.cards[i].id for i in state.table.city if i is not None}
    assert set(passage_ids) <= placed


def test_c3_adjacency_waiver_applies_only_when_no_stock_card_fits_next_to_the_city(monkeypatch):
    state = setup_done()
    assert not rules.adjacency_waived(state.table, state.cards)
    monkeypatch.setattr(rules, "touches_city", lambda table, cell: cell == 27)
    assert not rules.adjacency_waived(state.table, state.cards)
    assert rules.placements(state.table, state.cards) == [Placement(0, 27), Placement(1, 27)]
    monkeypatch.setattr(rules, "touches_city", lambda table, cell: False)
    assert rules.adjacency_waived(state.table, state.cards)
    waived = rules.placements(state.table, state.cards)
    assert len(waived) == 2 * 28  # every empty cell, within the caps


def test_c3_adjacency_waiver_is_never_needed_in_play():
    """Our finding: within the caps, some stock card always fits next to the city (docs)."""
    for seed in range(6):
        rng = random.Random(seed)
        state = new_state(players=2 + seed % 3)
        while not state.table.city_complete():
            if state.is_chance_node():
                state.apply_action(sample_chance_outcome(state, rng))
                continue
            assert not rules.adjacency_waived(state.table, state.cards)
            state.apply_action(rng.choice(state.legal_actions()))


# ----- C4-C6: strolling -----------------------------------------------------------------


def test_c4_at_the_seaside_the_walker_chooses_nw_or_ne():
    state = stroll_state({}, (3, 5))
    assert state.current_player() == 0
    assert moves(state) == ["nw", "ne"]
    state.apply_move("↖")
    assert events(state, 0)[:3] == ["depart 3", "move nw", "enter b1 right"]


def test_c4_rows_wrap_for_walking_diagonal_steps_included():
    state = stroll_state({}, (1, 7))
    state.apply_move("nw")
    assert events(state, 0)[2] == "enter g1 right"
    other = stroll_state({}, (7, 1))
    other.apply_move("ne")
    assert events(other, 0)[2] == "enter a1 left"


def test_rulebook_movement_example_1_icons_resolve_only_on_the_side_entered():
    # card 1 = b1, card 2 = c1 with an icon bottom right only, card 3 = d1 with ↖ bottom left
    cells = {**row(1, ". E01 P04 P01 . . ."), "c2": "E03"}
    state = stroll_state(cells, (1, 2))
    state.apply_move("ne")
    assert events(state, 0)[2:11] == [
        "enter b1 left",
        "diary cat",
        "move next",
        "enter c1 left",  # P04's ↖ is bottom right: not resolved from the left
        "move next",
        "enter d1 left",
        "move nw",  # P01's ↖ bottom left: resolved, up to row 2 moving left
        "enter c2 right",
        "diary flowers",
    ]


def test_rulebook_movement_example_2_turn_around_then_enter_from_the_other_side():
    # green walks left: f1 (card 1), e1 (card 2: bottom left ↗ and red's ↖), d1 (card 3: no
    # movement icons), c1 (card 4: green's turn around bottom right)
    cells = row(1, ". . P14 E01 P07 E03 .")
    state = stroll_state(cells, (7, 1), characters="green,red")
    state.apply_move("nw")
    assert events(state, 0)[2:16] == [
        "enter f1 right",
        "diary flowers",
        "move next",
        "enter e1 right",  # the two icons are bottom left: not resolved from the right
        "move next",
        "enter d1 right",
        "diary cat",
        "move next",  # no movement icons: on to card 4
        "enter c1 right",
        "move turn",  # green's turn around
        "enter d1 left",
        "move next",
        "enter e1 left",
        "move ne",  # red's ↖ does not apply to green: ↗, automatically
    ]
    assert events(state, 0)[16] == "enter f2 left"


def test_rulebook_trapped_example_unable_to_move_to_the_next_row():
    # red moves right from card 1; stairs on c1, d1, e1 resolve only when entered from the right
    cells = row(1, "E01 E03 P04 P06 P08 E05 E06")
    state = stroll_state(cells, (1, 2), characters="red,blue")
    state.apply_move("ne")
    walk = state.walk(0)
    assert walk is not None and walk.end is End.TRAPPED
    assert events(state, 0)[-1] == "trapped b1 left"
    assert walk.diary == ("flowers", "bakery", "shrine", "cat")
    assert state.current_player() == 1  # the next stroll begins


def test_c6_trapped_means_the_same_side_twice_in_one_row_not_the_same_card():
    # red turns around on P13 (red's turn, bottom left) and passes cards again from the other side
    cells = row(1, "E01 E03 P13 P04 P06 P08 E05")
    state = stroll_state(cells, (1, 2), characters="red,blue")
    state.apply_move("ne")
    trail = events(state, 0)
    assert "enter c1 left" in trail and "move turn" in trail
    assert "enter b1 right" in trail  # b1 again, from the other side: not trapped
    assert trail.count("enter b1 left") == 1


def test_c5_experience_icon_turns_up_its_diary_card_only_once():
    cells = row(1, "E01 E02 P04 P06 P08 E05 E06")  # two cat cards
    state = stroll_state(cells, (1, 2))
    state.apply_move("ne")
    walk = state.walk(0)
    assert walk is not None and walk.diary.count("cat") == 1


def test_c5_two_applicable_icons_are_the_walkers_choice():
    cells = row(1, ". P05 . . . . .")  # P05: ↖ and ↗ bottom left
    state = stroll_state(cells, (1, 2))
    state.apply_move("ne")
    assert moves(state) == ["nw", "ne"]
    assert state.walk(0).location == rules.cell_index(1, 0)  # type: ignore[union-attr]
    choice = state.clone()
    choice.apply_move("nw")
    assert events(choice, 0)[3:5] == ["move nw", "enter a2 right"]
    state.apply_move("ne")
    assert events(state, 0)[3:5] == ["move ne", "enter c2 left"]


def test_c2_a_colours_own_arrow_applies_to_that_colour_only():
    cells = row(1, ". P07 . . . . .")  # P07 bottom left: ↗ and red's ↖
    red = stroll_state(cells, (1, 2), characters="red,blue")
    red.apply_move("ne")
    assert moves(red) == ["nw", "ne"]
    blue = stroll_state(cells, (1, 2), characters="blue,red")
    blue.apply_move("ne")
    assert events(blue, 0)[3:5] == ["move ne", "enter c2 left"]


def test_c5_may_ignore_lets_that_colour_keep_going():
    cells = row(1, ". P09 . . . . .")  # P09 bottom left: ↗ and red may ignore
    red = stroll_state(cells, (1, 2), characters="red,blue")
    red.apply_move("ne")
    assert moves(red) == ["ne", "on"]
    red.apply_move("on")
    assert events(red, 0)[3:5] == ["move on", "enter c1 left"]
    blue = stroll_state(cells, (1, 2), characters="blue,red")
    blue.apply_move("ne")
    assert events(blue, 0)[3] == "move ne"


def test_c5_turn_around_applies_only_to_its_colour():
    cells = row(1, ". P13 . . . . .")  # P13 bottom left: red and green turn around
    red = stroll_state(cells, (1, 2), characters="red,blue")
    red.apply_move("ne")
    assert events(red, 0)[3:5] == ["move turn", "enter a1 right"]
    blue = stroll_state(cells, (1, 2), characters="blue,red")
    blue.apply_move("ne")
    assert events(blue, 0)[3:5] == ["move next", "enter c1 left"]


def test_c5_moving_up_from_row_4_reaches_the_lighthouse():
    cells = {"b1": "P03", "c2": "P10", "d3": "P09", "e4": "P02"}
    state = stroll_state(cells, (1, 2), characters="blue,red")
    state.apply_move("ne")
    walk = state.walk(0)
    assert walk is not None
    assert events(state, 0)[-2:] == ["move ne", "lighthouse"]
    assert walk.end is End.LIGHTHOUSE and walk.diary == ("lighthouse",)
    assert rules.score(state.cards, "blue", walk.diary) == 3


def test_c6_the_stroll_ends_at_once_on_the_fifth_diary_card():
    cells = {
        **row(1, "E01 E03 E05 E06 P03 . ."),
        **row(2, ". . . . . E07 E09"),
    }
    state = stroll_state(cells, (7, 1), characters="blue,red")
    state.apply_move("ne")  # a1 cat, b1 flowers, c1 bakery, d1 shrine, e1 ↗, f2 cafe
    walk = state.walk(0)
    assert walk is not None and walk.end is End.FIVE
    assert walk.diary == ("cat", "flowers", "bakery", "shrine", "cafe")
    assert events(state, 0)[-1] == "five"
    assert state.current_player() == 1


# ----- C7: scoring -------------------------------------------------------------------


def test_c7_rulebook_scoring_interests_two_others_one_lighthouse_three():
    cards = new_state().cards
    assert cards.character("red").interests == ("cat", "bakery", "kite")
    diary = ("cat", "bakery", "flowers", "bell", "lighthouse")
    assert [rules.diary_points(cards, "red", i) for i in diary] == [2, 2, 1, 1, 3]
    assert rules.score(cards, "red", diary) == 9  # the rulebook's total for its example
    assert rules.score(cards, "blue", diary) == 1 + 1 + 2 + 1 + 3  # flowers interests blue


def test_c7_most_points_wins_and_ties_share_the_win():
    assert rules.winners((7, 5, 7)) == (0, 2)
    assert rules.winners((3, 9)) == (1,)
    trapped_row = row(1, "E01 E03 P04 P06 P08 E05 E06")
    state = stroll_state(trapped_row, (1, 2), characters="red,blue")
    state.apply_move("ne")  # red: cat, flowers, bakery, shrine -> 2 + 1 + 2 + 1 = 6
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    outcome = state.outcome()
    assert outcome is not None
    points = state.scores()
    best = max(points)
    assert outcome.returns == tuple(1.0 if p == best else 0.0 for p in points)
    assert state.returns() == list(outcome.returns)


def test_c7_returns_and_reason_of_a_tie():
    cells = row(1, "E01 E03 P04 P06 P08 E05 E06")
    state = stroll_state(cells, (1, 3), characters="blue,red")
    state.apply_move("ne")  # blue, trapped: flowers 2, bakery 1, shrine 2, cat 1
    state.apply_move("ne")  # red, trapped: bakery 2, shrine 1, cat 2, flowers 1
    assert state.is_terminal()
    assert state.scores() == (6, 6)
    assert state.returns() == [1.0, 1.0]
    outcome = state.outcome()
    assert outcome is not None and "share the win" in outcome.reason


# ----- the bound on the game's length ------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_max_game_length_is_the_documented_bound(players):
    assert max_game_length(players) == 1 + players + 28 + 28 + players * 57
    info = stairgames.load("city_of_stairs", players=players).info()
    assert info.max_game_length == max_game_length(players)


# ----- the evaluation for players that look ahead ------------------------------------


def test_best_stroll_searches_the_walkers_choices():
    cells = {**row(1, ". P05 . . . . ."), "a2": "E01", "c2": "E03"}
    state = stroll_state(cells, (1, 2), characters="red,blue")
    walk_best = best_stroll(state.cards, state.table.city, 1, "red")
    for first in ("nw", "ne"):
        trial = state.clone()
        trial.apply_move(first)
        while trial.current_player() == 0:
            trial.apply_action(trial.legal_actions()[0])
        walk = trial.walk(0)
        assert walk is not None
        assert rules.score(trial.cards, "red", walk.diary) <= walk_best
    trapped = stroll_state(row(1, "E01 E03 P04 P06 P08 E05 E06"), (1, 2), characters="red,blue")
    assert best_stroll(trapped.cards, trapped.table.city, 1, "red", ("ne",)) == 6


def test_evaluate_in_the_strolling_phase_is_the_games_evaluation_and_counts_best_play():
    """The value rises with the seat's best reachable points (tests/test_city_of_stairs_
    evaluate.py checks it in detail); here: the registry serves it, and it is a value."""
    state = stroll_state(row(1, "E01 E03 P04 P06 P08 E05 E06"), (1, 3), characters="blue,red")
    assert -1.0 < evaluate(state, 0) < 1.0
    assert player_hooks("city_of_stairs").evaluate is evaluate


@pytest.mark.slow
def test_evaluate_stays_in_bounds_and_matches_the_end():
    for seed in range(4):
        state = new_state(players=2 + seed % 3)
        rng = random.Random(seed)
        while not state.is_terminal():
            for seat in range(state.table.players):
                assert -1.0 <= evaluate(state, seat) <= 1.0
            if state.is_chance_node():
                state.apply_action(sample_chance_outcome(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        for seat in range(state.table.players):
            assert evaluate(state, seat) == 2.0 * state.returns()[seat] - 1.0


def test_rulebook_movement_icon_resolution_example_entering_side_includes_diagonal_steps():
    # card 1 = c1 with a ↗ in its bottom-left corner only; b1 and d1 carry no icons
    cells = row(1, ". E01 P03 E03 . . .")

    def first_steps(departure: int, choice: str) -> list[str]:
        state = stroll_state(cells, (departure, 7 if departure != 7 else 6))
        state.apply_move(choice)
        return events(state, 0)

    # from the left: the card to its left (card 2) or diagonally from below left (card 3)
    assert first_steps(1, "ne")[2:8] == [
        "enter b1 left",
        "diary cat",
        "move next",
        "enter c1 left",
        "move ne",
        "enter d2 left",
    ]
    assert first_steps(2, "ne")[2:5] == ["enter c1 left", "move ne", "enter d2 left"]
    # from the right: the card to its right (card 4) or diagonally from below right (card 5)
    assert first_steps(5, "nw")[2:8] == [
        "enter d1 right",
        "diary flowers",
        "move next",
        "enter c1 right",
        "move next",
        "enter b1 right",
    ]
    assert first_steps(4, "nw")[2:5] == ["enter c1 right", "move next", "enter b1 right"]


# ----- rulebook sentences not named above ---------------------------------------------


def test_rulebook_a_card_without_applicable_movement_icons_moves_you_on_in_your_direction():
    # P08's bottom-left ↖ is green's own: red entering from the left moves on to the next card
    cells = row(1, ". P08 E01 . . . .")
    state = stroll_state(cells, (1, 2), characters="red,blue")
    state.apply_move("ne")
    assert events(state, 0)[2:6] == ["enter b1 left", "move next", "enter c1 left", "diary cat"]


def test_rulebook_leftmost_and_rightmost_cards_of_a_row_are_adjacent():
    right = stroll_state(row(1, "E01 . . . . . E03"), (6, 1))
    right.apply_move("ne")  # g1, then straight on to a1
    assert events(right, 0)[2:6] == ["enter g1 left", "diary flowers", "move next", "enter a1 left"]
    left = stroll_state(row(1, "E01 . . . . . E03"), (2, 1))
    left.apply_move("nw")  # a1, then straight on to g1
    assert events(left, 0)[2:6] == ["enter a1 right", "diary cat", "move next", "enter g1 right"]


@pytest.mark.parametrize("departure", range(1, 8))
def test_rulebook_moving_up_from_row_4_reaches_the_lighthouse_wherever_in_the_row(departure):
    # a diagonal of automatic ↗ (for blue) from the seaside: row 4 is left at column d+3
    columns = [(departure + step) % 7 for step in range(4)]
    cells = {
        f"{'abcdefg'[column]}{row_number}": card
        for row_number, column, card in zip(
            (1, 2, 3, 4), columns, ("P02", "P03", "P07", "P09"), strict=True
        )
    }
    state = stroll_state(cells, (departure, 1 + departure % 7), characters="blue,red")
    state.apply_move("ne")
    walk = state.walk(0)
    assert walk is not None and walk.end is End.LIGHTHOUSE
    assert events(state, 0)[-3:] == [
        f"enter {'abcdefg'[columns[3]]}4 left",
        "move ne",
        "lighthouse",
    ]


def test_rulebook_after_the_last_city_card_the_strolls_begin_with_the_start_player():
    state = building_state(
        ALL_BUT_C1,
        stock="P03,-",
        players=3,
        start=1,
    )
    assert state.phase() == "building" and state.current_player() == 1  # 27 placed: seat 1
    state.apply_move("P03@c1")
    assert state.phase() == "strolling" and state.table.city_complete()
    assert not state.is_chance_node()  # both decks are empty: no refill
    assert state.current_player() == 1 and moves(state) == ["nw", "ne"]
