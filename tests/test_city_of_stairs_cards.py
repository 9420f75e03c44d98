"""City of Stairs card sets: the default set meets C1-C2, and bad files are refused clearly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import stairgames
from stairgames.core.errors import InvalidOptionError
from stairgames.games.city_of_stairs import load_card_set
from stairgames.games.city_of_stairs.analysis import measure
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
from stairgames.games.city_of_stairs.rules import movement_options
from tests.test_city_of_stairs_helpers import card_file, default_data, passage, to_toml


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
