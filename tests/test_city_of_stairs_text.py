"""City of Stairs text forms: notation, position text, observations (C8), renderer, narration."""

from __future__ import annotations

import dataclasses
import io
import random
import re
from pathlib import Path
from typing import Any

import pytest

import stairgames
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.errors import IllegalMoveError, InvalidPositionError
from stairgames.core.record import GameRecord, final_state
from stairgames.core.registry import get_spec
from stairgames.games.city_of_stairs import CityOfStairsState, narrate, render_terminal
from stairgames.games.city_of_stairs.rules import NodeKind
from stairgames.games.city_of_stairs.view.terminal import WIDTH, _card_lines, trace
from stairgames.terminal import TerminalSession
from tests.record_helpers import play_random
from tests.test_city_of_stairs_helpers import (
    card_file,
    full_city,
    moves,
    new_state,
    passage,
    row,
    stroll_state,
)

EMPTY_CITY = "/".join([",".join("." * 7)] * 4)


def built(players: int = 2, first_player: int = 0) -> CityOfStairsState:
    state = new_state(players=players, first_player=first_player)
    state.apply_move("draw P03")
    state.apply_move("draw E07")
    for seat in range(players):
        state.apply_move(f"deal {seat + 2} to {state.table.colours[seat]}")
    return state


# ----- notation -------------------------------------------------------------------------


def test_placement_notation_and_its_variants():
    state = built()
    assert state.string_to_action("P03@c1") == state.string_to_action(" p03 @ C1 ")
    assert state.string_to_action("P03 c1") == state.string_to_action("P03@c1")
    action = state.apply_move("e07@d1")
    assert state.history_strings()[-1] == "E07@d1"
    assert action == 28 + 3


def test_stroll_notation_accepts_arrows_and_words():
    state = stroll_state({}, (1, 2))
    assert state.string_to_action("↗") == state.string_to_action("NE") == 57
    assert state.string_to_action("up-left") == 56


def test_malformed_and_illegal_moves_say_why_and_change_nothing():
    state = built()
    before = state.position()
    with pytest.raises(IllegalMoveError, match="malformed move 'jump'"):
        state.apply_move("jump")
    with pytest.raises(IllegalMoveError, match="P09 is not in the stock"):
        state.apply_move("P09@a1")
    with pytest.raises(IllegalMoveError, match="not next to the seaside"):
        state.apply_move("P03@c3")
    with pytest.raises(IllegalMoveError, match="time to place a stock card"):
        state.apply_move("nw")
    strolling = stroll_state(row(1, ". P05 . . . . ."), (1, 2))
    with pytest.raises(IllegalMoveError, match="at the seaside you may choose nw, ne"):
        strolling.apply_move("turn")
    with pytest.raises(IllegalMoveError, match="the city is built"):
        strolling.apply_move("P03@a1")
    assert state.position() == before


def test_chance_notation():
    state = new_state(players=2)
    assert [state.action_to_string(a) for a, _ in state.chance_outcomes()] == [
        "start red",
        "start blue",
    ]
    state.apply_move("start blue")
    assert state.table.start == 1
    state.apply_move("draw P14")
    state.apply_move("draw E14")
    state.apply_move("deal 7 to red")
    assert state.table.departures == (7, None)


# ----- position text ------------------------------------------------------------------------


def test_position_text_of_the_initial_state():
    state = new_state(players=3)
    expected = f"start=- departures=-,-,- stock=-,- city={EMPTY_CITY} strolls=-/-/-"
    assert state.position() == expected
    again = stairgames.load("city_of_stairs", players=3).state_from_position(expected)
    assert again.position() == expected


def test_position_text_of_a_stroll_in_progress():
    state = stroll_state(row(1, ". P05 . . . . ."), (1, 2), strolls=("ne", "-"))
    assert state.position().endswith("strolls=ne/-")
    assert moves(state) == ["nw", "ne"]
    copy = stairgames.load("city_of_stairs").state_from_position(state.position())
    assert copy.position() == state.position()


def test_position_text_round_trips_in_every_phase():
    """Setup (start, stock, deals), building, strolling and over: each prints and parses back."""
    state = new_state(players=3)
    game = state.get_game()
    rng = random.Random(8)
    seen: dict[str, list[tuple[str, int, list[int]]]] = {}
    while True:
        now = (state.position(), state.current_player(), state.legal_actions())
        seen.setdefault(state.phase(), []).append(now)
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert list(seen) == ["setup", "building", "strolling", "over"]
    for phase, entries in seen.items():
        for text, player, legal in entries:
            again = game.state_from_position(text)
            assert isinstance(again, CityOfStairsState)
            assert again.position() == text
            assert again.phase() == phase
            assert again.current_player() == player
            assert again.legal_actions() == legal
    assert seen["setup"][0][0].startswith("start=- departures=-,-,- stock=-,-")
    final = game.state_from_position(seen["over"][0][0])
    assert final.is_terminal() and final.returns() == state.returns()


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("start=0", "needs 5 space-separated fields"),
        (f"begin=0 departures=1,2 stock=-,- city={EMPTY_CITY} strolls=-/-", "'start='"),
        (f"start=5 departures=1,2 stock=P01,E01 city={EMPTY_CITY} strolls=-/-", "seat 0-1"),
        (f"start=0 departures=1,1 stock=P01,E01 city={EMPTY_CITY} strolls=-/-", "dealt twice"),
        (f"start=0 departures=1,9 stock=P01,E01 city={EMPTY_CITY} strolls=-/-", "1-7"),
        (f"start=0 departures=-,1 stock=P01,E01 city={EMPTY_CITY} strolls=-/-", "seat order"),
        (f"start=0 departures=1,2 stock=E01,P01 city={EMPTY_CITY} strolls=-/-", "not a passage"),
        (f"start=0 departures=1,2 stock=P99,E01 city={EMPTY_CITY} strolls=-/-", "unknown card"),
        (f"start=- departures=-,- stock=P01,- city={EMPTY_CITY} strolls=-/-", "start player"),
        (f"start=0 departures=1,2 stock=-,- city={EMPTY_CITY} strolls=-/-", "after the stock"),
        (f"start=0 departures=-,- stock=-,E01 city={EMPTY_CITY} strolls=-/-", "passage card is"),
        (f"start=0 departures=1,2 stock=P01,E01 city={EMPTY_CITY} strolls=ne/-", "strolls begin"),
        ("start=0 departures=1,2 stock=P01,E01 city=./././. strolls=-/-", "7 cells"),
        (
            "start=0 departures=1,2 stock=P01,E01 "
            "city=.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,.,.,./P02,P03,P04,P05,.,.,. strolls=-/-",
            "row 1 has 4 stairs",
        ),
        (
            "start=0 departures=1,2 stock=P01,E01 "
            "city=.,.,.,.,.,.,./.,.,.,.,.,.,./.,.,.,.,.,.,./P01,.,.,.,.,.,. strolls=-/-",
            "appears twice",
        ),
        (f"start=0 departures=1,2 stock=P01,E01 city={EMPTY_CITY} strolls=up/-", "'up' is not"),
    ],
)
def test_bad_positions_are_refused_with_the_reason(text: str, fragment: str):
    game = stairgames.load("city_of_stairs")
    with pytest.raises(InvalidPositionError) as info:
        game.state_from_position(text)
    assert fragment in str(info.value)


def test_bad_stroll_choices_in_a_position_are_refused():
    city = full_city(row(1, ". P05 . . . . ."))
    game = stairgames.load("city_of_stairs")
    base = f"start=0 departures=1,2 stock=-,- city={city}"
    with pytest.raises(InvalidPositionError, match="choice 2 \\('turn'\\) is not open"):
        game.state_from_position(f"{base} strolls=ne,turn/-")
    trapped_city = full_city(row(1, "E01 E03 P04 P06 P08 E05 E06"))
    with pytest.raises(InvalidPositionError, match="choices left over"):
        game.state_from_position(
            f"start=0 departures=1,2 stock=-,- city={trapped_city} strolls=ne,ne/-"
        )
    with pytest.raises(InvalidPositionError, match="before its turn to stroll"):
        game.state_from_position(f"{base} strolls=-/ne")


def test_first_player_option_must_agree_with_the_position():
    game = stairgames.load("city_of_stairs", first_player=1)
    with pytest.raises(InvalidPositionError, match="first_player option"):
        game.state_from_position(f"start=0 departures=-,- stock=-,- city={EMPTY_CITY} strolls=-/-")


def test_repr_pastes_back():
    state = built(players=3)
    copy = eval(repr(state), {"stairgames": stairgames})
    assert copy.position() == state.position()


# ----- hidden information (C8) -------------------------------------------------------------


def with_departures(state: CityOfStairsState, departures: tuple[int | None, ...]):
    table = dataclasses.replace(state.table, departures=departures)
    return state.get_game().state_from_position(
        type(state)(state.get_game(), table).position()  # type: ignore[arg-type]
    )


def test_c8_observation_does_not_depend_on_another_seats_hidden_card():
    state = built(players=3)
    assert state.table.departures == (2, 3, 4)
    other = with_departures(state, (2, 6, 4))
    assert state.observation_string(0) == other.observation_string(0)
    assert state.observation_string(2) == other.observation_string(2)
    assert state.observation_string(1) != other.observation_string(1)
    assert "departures=2,?,?" in state.observation_string(0)
    assert "departures=?,3,?" in state.observation_string(1)


def test_c8_a_departure_card_is_revealed_when_its_owners_stroll_begins():
    state = stroll_state({}, (3, 6), start=1)
    assert "departures=3,6" in state.observation_string(0)  # seat 1 strolls first
    assert "departures=?,6" in state.observation_string(1)  # seat 0 not yet
    while state.current_player() == 1:
        state.apply_action(state.legal_actions()[0])
    assert "departures=3,6" in state.observation_string(1)


def test_c8_renderer_shows_only_the_viewers_departure_card():
    state = built(players=3)
    for viewer in range(3):
        picture = render_terminal(state, colour=False, viewer=viewer)
        own = state.table.departures[viewer]
        assert own is not None
        # while the city is built only the viewer's own card is named; the others are
        # all hidden, so their seat lines say nothing of them
        assert len(re.findall("departure [①-⑦]", picture)) == 1
        assert f"departure {'①②③④⑤⑥⑦'[own - 1]}" in picture
    public = render_terminal(state, colour=False, viewer=None)
    assert not re.search("departure [①-⑦]", public)


def test_c8_narration_of_a_deal_never_names_the_card():
    state = new_state(players=2, first_player=0)
    state.apply_move("draw P03")
    state.apply_move("draw E07")
    before = state.clone()
    action = state.apply_move("deal 5 to red")
    lines = narrate(before, action, state)
    assert lines == ["red is dealt a departure card, face down."]
    assert "5" not in " ".join(lines) and "⑤" not in " ".join(lines)


# ----- renderer and narration ------------------------------------------------------------


def test_renderer_draws_the_grid_with_icons_stock_and_legal_spaces():
    state = built()
    picture = render_terminal(state, colour=False, viewer=0)
    assert "★ lighthouse (3 points) ★" in picture
    assert "~①~" in picture and "~⑦~" in picture
    assert "Stock: P03 stairs ↗|- (13 in deck); E07 cafe (13 in deck)" in picture
    assert "P E" in picture  # row 1 accepts both stock cards
    assert "red to place a stock card" in picture
    state.apply_move("P03@c1")
    picture = render_terminal(state, colour=False, viewer=0)
    assert "P03 stairs" in picture and "↗" in picture


def test_renderer_never_cuts_off_an_icon_or_the_stairs_of_a_crowded_card(tmp_path: Path):
    def crowd(data: dict[str, Any]) -> None:
        passage(data, "P13").update(
            left=["red:turn", "green:turn", "blue:turn", "yellow:turn"],
            right=["red:turn", "green:turn", "blue:turn"],
        )
        passage(data, "P07").update(id="passage-long-07")

    game = stairgames.load("city_of_stairs", players=2, cards=card_file(tmp_path, crowd))
    row1 = "P13,passage-long-07,P01,.,.,.,."
    state = game.state_from_position(
        f"start=0 departures=1,2 stock=P03,E07 city={EMPTY_CITY[:-13]}{row1} strolls=-/-"
    )
    assert isinstance(state, CityOfStairsState)
    for card_id in ("P13", "passage-long-07", "P01"):
        card = state.cards.by_id[card_id]
        box = _card_lines(card, "")
        assert all(len(line) == WIDTH for line in box), box
        icons = "".join(box[2:]).replace(" ", "")
        symbols = [i.symbol() for i in card.left + card.right]
        assert sorted(icons) == sorted("".join(symbols)), (box, symbols)
        assert card.stairs == ("stairs" in "".join(box[:2])), box
    picture = render_terminal(state, colour=False, viewer=0)
    grid = picture.split("Stock:")[0]
    assert grid.count("↺") == 7  # every turn-around icon of P13, over two lines
    rows = [line for line in grid.splitlines() if line.startswith(("1 |", "  |"))]
    assert len({len(line) for line in rows}) == 1  # the taller row stays a grid


def test_renderer_traces_each_stroll():
    state = stroll_state(row(1, "E01 E03 P04 P06 P08 E05 E06"), (1, 2))
    state.apply_move("ne")
    picture = render_terminal(state, colour=False, viewer=None)
    traced = " ".join(line.strip() for line in picture.splitlines() if line.startswith("    "))
    assert "stroll: ① ↗ b1(flowers) › c1 › d1 › e1 › f1(bakery) › g1(shrine) › a1(cat) ›" in traced
    assert "b1 again: trapped" in traced
    assert "blue strolls, at the seaside: choose nw or ne" in picture


def test_narration_of_a_stroll_reports_every_step_and_the_end():
    state = stroll_state(row(1, ". P05 . . . . ."), (1, 2))
    before = state.clone()
    action = state.apply_move("ne")
    lines = narrate(before, action, state)
    assert lines == [
        "red chooses ↗ from the seaside.",
        "red enters b1 (P05 stairs ↖↗|-) from the left.",
    ]
    before = state.clone()
    action = state.apply_move("nw")
    lines = narrate(before, action, state)
    assert lines[0] == "red chooses ↖ up a row, moving left on b1."
    assert lines[1].startswith("red enters a2 (")


def test_narration_reports_the_stroll_end_and_the_next_departure():
    state = stroll_state(row(1, "E01 E03 P04 P06 P08 E05 E06"), (1, 4))
    before = state.clone()
    action = state.apply_move("ne")
    lines = narrate(before, action, state)
    assert "red enters b1 from the left a second time in this row: trapped." in lines
    assert (
        "red's stroll ends (trapped: entered a card from the same side a second time in "
        "this row): flowers, bakery, shrine, cat, 6 points." in lines
    )
    assert lines[-1] == "blue reveals departure card ④ and stands at the seaside."


def test_terminal_play_of_a_whole_game(tmp_path: Path):
    game = stairgames.load("city_of_stairs", players=3)
    out = io.StringIO()
    session = TerminalSession(
        game, ["random"] * 3, seed=5, output=out, record_path=tmp_path / "game.json"
    )
    final = session.run()
    text = out.getvalue()
    assert final.is_terminal()
    assert "The city is complete" in text and "reveals departure card" in text
    assert text.count("Game over.") == 1
    record = GameRecord.load(tmp_path / "game.json")
    assert final_state(record).position() == final.position()


def test_terminal_human_sees_the_board_and_can_place(tmp_path: Path):
    game = stairgames.load("city_of_stairs", players=2, first_player=0)
    out = io.StringIO()
    answers = iter(["moves", "P99@a1", "quit"])
    session = TerminalSession(
        game,
        ["human", "random"],
        seed=3,
        output=out,
        record_path=tmp_path / "g.json",
        input_fn=lambda prompt: next(answers),
    )
    session.run()
    text = out.getvalue()
    assert "Legal moves" in text and "Not accepted" in text
    assert len(re.findall("departure [①-⑦]", text)) >= 1  # the human's own card


def test_registry_spec():
    spec = get_spec("city-of-stairs")
    assert spec.name == "city_of_stairs"
    assert spec.option_sets == ({"players": 2}, {"players": 3}, {"players": 4})
    state = play_random(new_state(players=2), 1)
    assert state.node().kind is NodeKind.OVER


def test_c8_resample_hidden_keeps_what_the_seat_knows_and_redraws_the_rest():
    state = built(players=3)  # departures 2, 3, 4
    rng = random.Random(4)
    seen: set[tuple[int | None, ...]] = set()
    for _ in range(40):
        world = state.resample_hidden(0, rng)
        departures = world.table.departures
        assert departures[0] == 2
        assert 2 not in departures[1:]
        assert world.observation_string(0) == state.observation_string(0)
        assert f"deal {departures[1]} to blue" in world.history_strings()
        seen.add(departures)
    assert len(seen) > 10
    assert state.table.departures == (2, 3, 4)  # the original is untouched


def test_c8_resampled_walks_follow_the_redrawn_departure_cards():
    state = stroll_state({}, (2, 5, 6))
    for seat in range(3):
        assert state.walk(seat) is not None  # fill the cache
    rng = random.Random(1)
    for _ in range(10):
        world = state.resample_hidden(0, rng)
        for seat in (1, 2):
            walk = world.walk(seat)
            assert walk is not None
            assert walk.events[0].detail == str(world.table.departures[seat])


GOLDEN_MOVES = """
start green | draw P08 | draw E09 | deal 5 to red | deal 1 to blue | deal 6 to green |
E09@f1 | draw E01 | P08@f2 | draw P07 | E01@e2 | draw E04 | E04@b1 | draw E06 | E06@d2 |
draw E05 | E05@b2 | draw E10 | P07@d3 | draw P05 | P05@d4 | draw P12 | P12@f3 | draw P10 |
P10@e4 | draw P09 | E10@e3 | draw E12 | P09@b3 | draw P06 | E12@g1 | draw E13 | E13@g3 |
draw E07 | E07@c4 | draw E02 | E02@a2 | draw E14 | E14@c3 | draw E03 | E03@a1 | draw E11 |
P06@f4 | draw P02 | P02@e1 | draw P13 | E11@b4 | draw E08 | E08@a3 | P13@a4 | draw P04 |
P04@c2 | draw P03 | P03@c1 | draw P14 | P14@g4 | draw P11 | P11@g2 | draw P01 | P01@d1 |
ne | nw | ne
"""


def test_golden_playthrough_of_a_three_player_game():
    """A seeded random game, pinned: any change to the rules or notation shows here."""
    state = play_random(new_state(players=3), 20261122)
    moves_played = [m.strip() for m in GOLDEN_MOVES.replace("\n", " ").split("|")]
    assert state.history_strings() == moves_played
    assert state.position() == (
        "start=2 departures=5,1,6 stock=-,- city=P13,E11,E07,P05,P10,P06,P14/"
        "E08,P09,E14,P07,E10,P12,E13/E02,E05,P04,E06,E01,P08,P11/E03,E04,P03,P01,P02,E09,E12 "
        "strolls=nw/ne/ne"
    )
    traces = [trace(state.walk(seat)) for seat in (2, 0, 1)]  # type: ignore[arg-type]
    assert traces == [
        "⑥ ↗ g1(fishing) › a1(flowers) › b1 › c1 ↗ d2(shrine) › e2(cat) › f2 ↖ e3(bell) "
        "[five diary cards]",
        "⑤ ↖ d1 ↗ e2(cat) › f2 › g2 › a2 › b2(bakery) › c2 › d2(shrine) › e2 again: trapped",
        "① ↗ b1(flowers) › c1 ↗ d2(shrine) › e2(cat) › f2 › g2 › a2 › b2(bakery) › c2 › d2 "
        "again: trapped",
    ]
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.reason == "red 5, blue 6, green 6: blue and green share the win with 6 points"
    assert state.returns() == [0.0, 1.0, 1.0]
    replay = new_state(players=3)
    for move in moves_played:
        replay.apply_move(move)
    assert replay.position() == state.position()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_screen_of_a_game_fits_80_by_24(players: int):
    """The drawing with the prompt fits 24 lines of 80 columns in every phase: the
    lighthouse and the seaside sit on the city's edges, and the traces of the strolls
    and the legend come in only where there is room."""
    state = new_state(players=players)
    rng = random.Random(players)
    while True:
        for viewer in range(players):
            picture = render_terminal(state, colour=False, viewer=viewer).splitlines()
            assert len(picture) + 1 <= 24, "\n".join(picture)
            assert max(len(line) for line in picture) <= 80, "\n".join(picture)
            assert "★ lighthouse (3 points) ★" in picture[0]
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_one_point_is_not_written_as_points(tmp_path: Path):
    def one_point(data: dict[str, Any]) -> None:
        data["lighthouse"]["points"] = 1

    game = stairgames.load("city_of_stairs", players=2, cards=card_file(tmp_path, one_point))
    picture = render_terminal(game.new_initial_state(), colour=False, viewer=None)
    assert "★ lighthouse (1 point) ★" in picture


@pytest.mark.parametrize("language", ["en", "ja"])
def test_help_explains_the_marks_of_cards_placed_since_your_last_turn(language):
    from stairgames.i18n import _, set_language

    set_language(language)
    spec = get_spec("city_of_stairs")
    rng = random.Random(3)
    state = stairgames.load("city_of_stairs", players=4).new_initial_state()
    assert isinstance(state, CityOfStairsState)
    shown: set[str] = set()
    while not state.table.city_complete():
        shown |= set(re.findall(r"•[A-Z]", render_terminal(state, colour=False, viewer=0)))
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert shown == {"•R", "•B", "•Y", "•G"}
    explained = next(line for line in _(spec.help).splitlines() if "•" in line)
    assert all(mark in explained for mark in shown)
