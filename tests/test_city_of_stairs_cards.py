"""City of Stairs card sets: the default set meets C1-C2, and bad files are refused clearly."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stairgames
from stairgames.cli import main
from stairgames.core.errors import InvalidOptionError
from stairgames.games.city_of_stairs import load_card_set
from stairgames.games.city_of_stairs.cards import (
    ARROWS,
    FORMAT,
    IGNORE,
    LIGHTHOUSE,
    TURN,
    VERSION,
    Icon,
    parse_card_set,
)
from stairgames.games.city_of_stairs.research.card_use import measure, resolved_icons
from stairgames.games.city_of_stairs.rules import movement_options
from stairgames.i18n import set_language, translate
from tests.record_helpers import play_random
from tests.test_city_of_stairs_helpers import (
    card_file,
    default_data,
    passage,
    row,
    stroll_state,
    to_toml,
)


def test_c1_default_set_has_every_component():
    cards = load_card_set()
    assert cards.seaside == (1, 2, 3, 4, 5, 6, 7)
    assert sorted(cards.departures) == [1, 2, 3, 4, 5, 6, 7]
    passage_cards = cards.of_kind("passage")
    experience_cards = cards.of_kind("experience")
    assert len(passage_cards) == 14
    assert sum(card.stairs for card in passage_cards) == 12
    assert len(experience_cards) == 14
    assert all(card.experience in cards.icons and not card.stairs for card in experience_cards)
    assert len(cards.icons) == 10
    assert sorted(cards.diary) == sorted([*cards.icons, LIGHTHOUSE])
    assert len(cards.diary) == 11
    assert cards.colours() == ("red", "blue", "green", "yellow")
    assert all(set(c.interests) <= set(cards.icons) for c in cards.characters)
    assert cards.lighthouse_points == 3


def test_c2_default_set_has_every_kind_of_movement_icon_for_every_colour():
    cards = load_card_set()
    icons = {icon for card in cards.cards for icon in card.left + card.right}
    assert Icon("nw") in icons and Icon("ne") in icons
    for colour in cards.colours():
        kinds = {icon.kind for icon in icons if icon.colour == colour}
        assert kinds == {"nw", "ne", IGNORE, TURN}, colour


def test_default_set_no_movement_icon_is_useless():
    """Every icon changes what some colour may do when entering its corner."""
    cards = load_card_set()
    for card in cards.cards:
        for side in ("left", "right"):
            corner = card.corner(side)
            for icon in corner:
                without = tuple(i for i in corner if i != icon)
                stripped = type(card)(
                    card.index,
                    card.id,
                    card.kind,
                    card.stairs,
                    card.experience,
                    without if side == "left" else card.left,
                    without if side == "right" else card.right,
                )
                assert any(
                    movement_options(card, side, colour) != movement_options(stripped, side, colour)
                    for colour in cards.colours()
                ), (card.id, side, icon)


def test_default_set_is_balanced_between_characters():
    """Each character's interests cover the same number of experience cards."""
    cards = load_card_set()
    covered = {
        c.colour: sum(card.experience in c.interests for card in cards.of_kind("experience"))
        for c in cards.characters
    }
    assert set(covered.values()) == {4}, covered


def test_cards_option_loads_a_card_file(tmp_path: Path):
    path = card_file(tmp_path, lambda data: passage(data, "P01").update(left=["ne"]))
    game = stairgames.load("city_of_stairs", players=3, cards=path)
    assert game.cards.by_id["P01"].left == (Icon("ne"),)  # type: ignore[attr-defined]
    assert load_card_set(None).by_id["P01"].left == (Icon("nw"),)


def test_the_default_file_round_trips_through_the_writer():
    assert parse_card_set(to_toml(default_data()), source="default card set") == load_card_set()


def refused(tmp_path: Path, change: Any, *fragments: str) -> str:
    path = card_file(tmp_path, change)
    with pytest.raises(InvalidOptionError) as info:
        stairgames.load("city_of_stairs", cards=path)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, message
    return message


def test_bad_card_file_unknown_icon_names_card_and_field(tmp_path: Path):
    refused(
        tmp_path,
        lambda d: passage(d, "P03").update(left=["up"]),
        "passage card 3 (P03) field 'left'",
        "unknown icon 'up'",
    )


def test_bad_card_file_unknown_colour_is_refused(tmp_path: Path):
    refused(
        tmp_path,
        lambda d: passage(d, "P07").update(right=["purple:nw"]),
        "passage card 7 (P07) field 'right'",
        "'purple'",
    )


def test_bad_card_file_turn_needs_a_colour(tmp_path: Path):
    refused(tmp_path, lambda d: passage(d, "P13").update(left=["turn"]), "COLOUR:turn")


def test_c1_bad_card_file_wrong_number_of_stairs(tmp_path: Path):
    def change(d: dict[str, Any]) -> None:
        card = passage(d, "P13")
        card.update(stairs=True, left=["nw"], right=[])

    refused(tmp_path, change, "section [[passage]]", "12 passage cards have stairs, got 13")


def test_bad_card_file_stairs_without_arrows_is_inconsistent(tmp_path: Path):
    refused(
        tmp_path,
        lambda d: passage(d, "P03").update(left=["red:turn"]),
        "passage card 3 (P03)",
        "needs a ↖ or ↗",
    )


def test_bad_card_file_ignore_needs_an_arrow_in_its_corner(tmp_path: Path):
    refused(
        tmp_path,
        lambda d: passage(d, "P03").update(right=["blue:ignore"]),
        "passage card 3 (P03) field 'right'",
        "no ↖ or ↗ for blue to ignore",
    )


def test_bad_card_file_experience_icon_must_be_known(tmp_path: Path):
    def change(d: dict[str, Any]) -> None:
        d["experience"][0]["icon"] = "dragon"

    refused(tmp_path, change, "experience card 1 (E01) field 'icon'", "'dragon'")


def test_bad_card_file_duplicate_id(tmp_path: Path):
    def change(d: dict[str, Any]) -> None:
        d["experience"][1]["id"] = "E01"

    refused(tmp_path, change, "experience card E01", "used twice")


def test_bad_card_file_wrong_counts_and_many_problems_at_once(tmp_path: Path):
    def change(d: dict[str, Any]) -> None:
        d["experience"].pop()
        d["seaside"].pop()
        d["icons"].append("kite2")

    message = refused(
        tmp_path,
        change,
        "14 experience cards, got 13",
        "7 seaside cards, got 6",
        "10 experience icons, got 11",
    )
    assert message.count("\n  - ") >= 3


def test_bad_card_file_format_version_and_unknown_keys(tmp_path: Path):
    def change(d: dict[str, Any]) -> None:
        d["version"] = 99
        d["colour_scheme"] = "dark"
        passage(d, "P02")["cost"] = 3

    refused(
        tmp_path,
        change,
        "field 'version'",
        "top level key 'colour_scheme'",
        "passage card 2 (P02) field 'cost'",
    )


def test_bad_card_file_character_interest_unknown(tmp_path: Path):
    def change(d: dict[str, Any]) -> None:
        d["character"][1]["interests"] = ["flowers", "pizza"]

    refused(tmp_path, change, "character 2 (blue) field 'interests'", "'pizza'")


def test_bad_card_file_diary_must_match_icons(tmp_path: Path):
    def change(d: dict[str, Any]) -> None:
        d["diary"]["icons"] = d["diary"]["icons"][:-1]

    refused(tmp_path, change, "section [diary]", "plus the lighthouse")


def test_bad_card_file_not_toml_or_missing(tmp_path: Path):
    broken = tmp_path / "broken.toml"
    broken.write_text("format = [", encoding="utf-8")
    with pytest.raises(InvalidOptionError, match="not valid TOML"):
        stairgames.load("city_of_stairs", cards=str(broken))
    with pytest.raises(InvalidOptionError, match="cannot read card file"):
        stairgames.load("city_of_stairs", cards=str(tmp_path / "nowhere.toml"))


def test_format_constants():
    assert (FORMAT, VERSION) == ("city-of-stairs-cards", 1)
    assert ARROWS == ("nw", "ne")


# ----- options --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"players": 1}, "2 to 4 players"),
        ({"players": 5}, "2 to 4 players"),
        ({"players": 3, "first_player": 3}, "first_player must be a seat 0-2"),
        ({"characters": "red,purple"}, "unknown colour 'purple'"),
        ({"characters": "red,red"}, "its own colour"),
        ({"characters": "red"}, "one colour per seat"),
        ({"cards": 3}, "expects a string"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], fragment: str):
    with pytest.raises(InvalidOptionError, match=fragment):
        stairgames.load("city_of_stairs", **options)


def test_default_set_reaches_the_lighthouse_in_a_fair_share_of_strolls():
    """Design goal of the reconstruction, measured with random play (fixed seed)."""
    figures = measure(2, 60, seed=11)
    assert sum(figures.ends.values()) == pytest.approx(1.0)
    assert 0.25 <= figures.ends["lighthouse"] <= 0.65, figures.ends
    assert figures.ends["trapped"] < 0.25
    assert set(figures.diary) == {*load_card_set().icons, LIGHTHOUSE}  # every diary card turns up
    assert "lighthouse" in figures.report()


def test_bad_card_file_sections_of_the_wrong_type_are_reported_not_crashed(tmp_path: Path):
    def change(d: dict[str, Any]) -> None:
        d["departure"] = 3
        d["character"] = "red"
        d["lighthouse"] = {"points": 0}

    refused(
        tmp_path,
        change,
        "section [[departure]]: must be an array of tables",
        "section [[character]]: must be an array of tables",
        "section [lighthouse] field 'points'",
    )


def test_default_set_every_experience_icon_interests_some_character():
    """No experience icon is useless: each is worth 2 points to some character."""
    cards = load_card_set()
    interests = {icon for character in cards.characters for icon in character.interests}
    assert interests == set(cards.icons)


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.slow
def test_default_set_no_movement_icon_is_useless_in_random_play(players: int):
    """Every movement icon that applies to a colour in play decides some stroll's step
    (measured with random play, fixed seed; `python -m ...city_of_stairs.analysis`)."""
    figures = measure(players, 100, seed=7)
    colours = ("red", "blue", "green", "yellow")[:players]
    expected = {
        f"{card.id} {side} {icon.token()}"
        for card in load_card_set().cards
        for side in ("left", "right")
        for icon in card.corner(side)
        if icon.colour is None or icon.colour in colours
    }
    assert set(figures.movement) == expected
    assert figures.unused_icons() == [], figures.report()
    assert "movement icons" in figures.report()


def test_resolved_icons_names_the_icons_that_decided_each_step():
    """The measurement behind the test above: which icons a stroll resolved."""
    # green, movement example 2: green's turn around on P14, then the plain ↗ of P07
    green = stroll_state(row(1, ". . P14 E01 P07 E03 ."), (7, 1), characters="green,red")
    green.apply_move("nw")
    walk = green.walk(0)
    assert walk is not None
    used = resolved_icons(green.cards, green.table.city, "green", walk)
    assert {"P14 right green:turn", "P07 left ne"} <= used
    assert "P07 left red:nw" not in used and "P14 left blue:turn" not in used
    # red takes its "may ignore" on P09: the ignore is resolved, the ↗ is not
    red = stroll_state(row(1, ". P09 . . . . ."), (1, 2), characters="red,blue")
    red.apply_move("ne")
    red.apply_move("on")
    walk = red.walk(0)
    assert walk is not None
    used = resolved_icons(red.cards, red.table.city, "red", walk)
    assert "P09 left red:ignore" in used and "P09 left ne" not in used
    # the trapped example resolves no movement icon at all
    trapped = stroll_state(row(1, "E01 E03 P04 P06 P08 E05 E06"), (1, 2))
    trapped.apply_move("ne")
    walk = trapped.walk(0)
    assert walk is not None
    assert resolved_icons(trapped.cards, trapped.table.city, "red", walk) == set()


# ----- any card file is loaded or refused clearly, never crashes --------------------------

_JUNK = st.one_of(
    st.booleans(),
    st.integers(-2, 16),
    st.sampled_from(["", "nw", "ne", "red:turn", "red:ignore", "cat", "lighthouse", "P01"]),
    st.text(alphabet="abcnwe:rd-_ 01", max_size=8),
    st.lists(
        st.one_of(
            st.integers(0, 8),
            st.sampled_from(["nw", "ne", "blue:nw", "green:turn", "cat", "kite", "x"]),
        ),
        max_size=3,
    ),
)


def _mutate(doc: dict[str, Any], data: st.DataObject) -> None:
    """One random change somewhere in the card-set document: delete, replace, add, copy."""
    key = data.draw(st.sampled_from(sorted(doc)))
    value = doc[key]
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        index = data.draw(st.integers(0, len(value) - 1))
        action = data.draw(st.sampled_from(["delete entry", "copy entry", "field"]))
        if action == "delete entry":
            del value[index]
        elif action == "copy entry":
            value.append(dict(value[index]))
        else:
            _mutate_table(value[index], data)
    elif isinstance(value, dict):
        _mutate_table(value, data)
    elif data.draw(st.booleans()):
        del doc[key]
    else:
        doc[key] = data.draw(_JUNK)


def _mutate_table(table: dict[str, Any], data: st.DataObject) -> None:
    names = [*sorted(table), "extra"]
    field = data.draw(st.sampled_from(names))
    if field in table and data.draw(st.booleans()):
        del table[field]
    else:
        table[field] = data.draw(_JUNK)


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_any_card_file_is_loaded_or_refused_with_card_and_field(data: st.DataObject):
    doc = default_data()
    for _ in range(data.draw(st.integers(1, 3))):
        _mutate(doc, data)
    text = to_toml(doc)
    try:
        cards = parse_card_set(text, source="fuzz.toml")
    except InvalidOptionError as exc:
        lines = str(exc).splitlines()
        assert lines[0].startswith("fuzz.toml"), lines
        problems = [line for line in lines[1:] if not line.startswith("  ... and ")]
        assert problems
        for line in problems:
            assert line.startswith("  - "), line
            assert ": " in line, line  # where (section, card, field): what is wrong
        return
    # accepted: it must still meet C1 and play a whole game
    assert len(cards.of_kind("passage")) == 14 and len(cards.of_kind("experience")) == 14
    assert sum(card.stairs for card in cards.cards) == 12
    assert len(cards.icons) == 10 and len(cards.characters) == 4
    assert len(cards.seaside) == 7 and sorted(cards.departures) == list(range(1, 8))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.toml"
        path.write_text(text, encoding="utf-8")
        state = stairgames.load("city_of_stairs", players=4, cards=str(path)).new_initial_state()
        assert play_random(state, 1).is_terminal()


# ----- the problems of a card file in the player's language --------------------------------


def _many_problems(d: dict[str, Any]) -> None:
    """A card file with one problem of nearly every kind."""
    d["version"] = 99
    d["colour_scheme"] = "dark"
    d["icons"] = [*d["icons"], "lighthouse"]
    d["character"][1]["interests"] = ["flowers", "pizza", "flowers"]
    d["character"][2]["name"] = 3
    d["seaside"][0]["offers"] = ["nw"]
    d["departure"][1]["seaside"] = d["departure"][0]["seaside"]
    d["diary"]["icons"] = d["diary"]["icons"][:-1]
    d["lighthouse"] = {"points": 0}
    passage(d, "P02")["cost"] = 3
    passage(d, "P03").update(left=["up"])
    passage(d, "P04").update(left=["nw", "nw"])
    passage(d, "P07").update(right=["purple:nw"])
    passage(d, "P09").update(right=["red:ignore"])
    passage(d, "P13").update(left=["turn"])
    d["experience"][0]["icon"] = "dragon"
    d["experience"][1].update(stairs="yes", id="E01")
    d["experience"][3]["id"] = "-bad"


def test_bad_card_file_problems_carry_message_ids_and_english_is_unchanged(tmp_path: Path):
    message = refused(tmp_path, _many_problems)
    lines = message.splitlines()
    assert lines[0].endswith("is not a valid City of Stairs card set:")
    assert "  - field 'version': this program reads version 1, got 99" in lines
    assert "  - passage card 4 (P04) field 'left': icon 'nw' is listed twice" in lines
    assert "  - experience card E01: field 'id': this id is used twice" in lines
    data = default_data()
    _many_problems(data)
    with pytest.raises(InvalidOptionError) as info:
        parse_card_set(to_toml(data), source="bad.toml")
    error = info.value
    assert error.message_id == "{source} is not a valid City of Stairs card set:\n{problems}"
    problems = error.arguments["problems"]
    assert [str(problem) for problem in problems.items] == [line[4:] for line in lines[1:]]
    first = problems.items[1]
    assert (first.message_id, first.arguments["problem"].message_id) == (
        "{where}: {problem}",
        "this program reads version {version}, got {value!r}",
    )
    assert translate(error) == str(error)


def test_bad_card_file_is_refused_all_in_japanese(tmp_path: Path):
    """Every problem is translated, where and what: only the file's own values (quoted,
    or names of keys and icons) stay as written."""
    path = card_file(tmp_path, _many_problems)
    with pytest.raises(InvalidOptionError) as info:
        stairgames.load("city_of_stairs", cards=path)
    english = str(info.value).splitlines()
    set_language("ja")
    japanese = translate(info.value).splitlines()
    assert japanese[0] == f"{path} は階段の街のカードセットとして正しくありません："
    assert len(japanese) == len(english) > 15
    assert "  - 項目 'version'：このプログラムが読めるのはバージョン1です（99 でした）" in japanese
    assert (
        "  - 4枚目の通路カード（P04）の項目 'left'：アイコン 'nw' が2回書かれています" in japanese
    )
    assert "  - 体験カード E01：項目 'id'：この id は2回使われています" in japanese
    for line in japanese[1:]:
        assert line.startswith("  - ") and re.search("[ぁ-んァ-ン一-龥]", line), line
        words = re.sub(r"'[^']*'|\[[^]]*\]", "", line)  # values as written in the file
        assert not re.search(r"[A-Za-z]{2,} [A-Za-z]{2,}", words), line


def test_bad_card_file_is_refused_in_japanese_on_the_command_line(tmp_path: Path, capsys):
    path = card_file(tmp_path, lambda d: passage(d, "P03").update(left=["up"]))
    assert main(["--lang", "ja", "play", "city_of_stairs", "--cards", path]) == 2
    assert capsys.readouterr().err == (
        f"エラー：{path} は階段の街のカードセットとして正しくありません：\n"
        "  - 3枚目の通路カード（P03）の項目 'left'：不明なアイコン 'up' です。"
        "nw、ne、色名:nw、色名:ne、色名:ignore、色名:turn のどれかを書いてください\n"
        "  - 3枚目の通路カード（P03）：階段のあるカードには ↖ か ↗ のアイコンが要ります"
        "（階段は上へ続きます）\n"
    )


def test_bad_card_file_with_too_many_problems_says_how_many_more_in_either_language():
    data = default_data()
    for number in range(30):
        data[f"extra{number}"] = number
    with pytest.raises(InvalidOptionError) as info:
        parse_card_set(to_toml(data))
    lines = str(info.value).splitlines()
    assert lines[0] == "card file is not a valid City of Stairs card set:"
    assert len(lines) == 1 + 25 + 1 and lines[-1] == "  ... and 5 more"
    set_language("ja")
    japanese = translate(info.value).splitlines()
    assert japanese[0] == "カードファイル は階段の街のカードセットとして正しくありません："
    assert japanese[-1] == "  …ほかに5件"
