"""Each game's options described for the browser's forms from the game's own
declaration (``stairgames.core.options.option``): their words, kinds and bounds come
from the options class, so no shared code names a game's option (issue 50)."""

from __future__ import annotations

import dataclasses
from typing import Any

import stairgames
from stairgames.core import registry
from stairgames.core.options import changed_options, option, option_listing
from stairgames.i18n import N_


def listing_of(game: str) -> dict[str, dict[str, Any]]:
    games = {g["name"]: g for g in stairgames.list_games()}
    return {option["name"]: option for option in games[game]["option_listing"]}


def test_every_option_of_every_game_has_words_a_kind_and_is_offered():
    for game in stairgames.list_games():
        for described in game["option_listing"]:
            assert described["label"] and described["label"] != described["name"], described
            assert described["kind"] in {"flag", "choice", "number", "list", "text", "seat", "file"}
            assert described["offered"] is True


def test_the_kinds_bounds_and_roles_come_from_the_games_declarations():
    stairs = listing_of("stairs")
    assert stairs["size"]["kind"] == "number"
    assert (stairs["size"]["min"], stairs["size"]["max"], stairs["size"]["default"]) == (3, 8, 6)
    assert stairs["pie_rule"]["kind"] == "flag" and stairs["pie_rule"]["help"]
    variant = listing_of("twenty_seven")["variant"]
    assert variant["kind"] == "choice" and variant["choices"] == ["basic", "advanced", "expert"]
    assert variant["choice_labels"]["expert"] == "expert"
    ishigaki = listing_of("ishigaki_race")
    assert ishigaki["goal"]["kind"] == "number" and ishigaki["goal"]["max"] == 100
    assert ishigaki["crumbling_squares"]["kind"] == "list"
    assert ishigaki["crumbling_squares"]["default"] == [5, 9, 13, 17]
    assert ishigaki["players"]["seats_from"] is True
    assert ishigaki["first_player"]["kind"] == "seat" and ishigaki["first_player"]["optional"]
    city = listing_of("city_of_stairs")
    assert city["cards"]["kind"] == "file" and city["characters"]["placeholder"]


def test_a_file_option_s_words_are_its_game_s():
    """What City of Stairs' card file says on the page is declared with its option, as
    the page said it before (issue 50: setup.js names no game); other options say none."""
    cards = listing_of("city_of_stairs")["cards"]
    assert {k: cards[k] for k in ("default_label", "upload_label", "checking", "ready")} == {
        "default_label": "the default cards",
        "upload_label": "Upload a card file (TOML)",
        "checking": "Checking the card file…",
        "ready": "Card set {name} is ready.",
    }
    size = listing_of("stairs")["size"]
    assert (size["default_label"], size["upload_label"], size["checking"], size["ready"]) == (
        ("",) * 4
    )


def test_the_listing_keeps_the_keys_the_page_read_before():
    """name, type, default and choices, as the server's listing has said them."""
    size = listing_of("stairs")["size"]
    assert {k: size[k] for k in ("name", "type", "default", "choices")} == {
        "name": "size",
        "type": "int",
        "default": 6,
        "choices": None,
    }
    assert listing_of("city_of_stairs")["cards"]["type"] == "str | None"


def test_an_option_declared_without_words_is_labelled_by_its_name():
    @dataclasses.dataclass(frozen=True)
    class Bare:
        depth: int = 3
        named: bool = option(False, label=N_("Named"))

    listed = {o["name"]: o for o in option_listing(Bare)}
    assert listed["depth"]["label"] == "depth" and listed["depth"]["kind"] == "number"
    assert listed["named"]["label"] == "Named" and listed["named"]["kind"] == "flag"


def test_changed_options_compare_lists_by_value():
    options_class = registry.get_spec("ishigaki_race").options_class
    same = {"crumbling_squares": [5, 9, 13, 17], "goal": 20, "players": 3}
    assert changed_options(options_class, same) == {"players": 3}


def test_every_label_help_and_summary_has_a_japanese_translation():
    from babel.messages.pofile import read_po

    from stairgames.i18n import catalog_path

    with catalog_path("ja").open("rb") as po:
        translated = {m.id for m in read_po(po, locale="ja") if m.id and m.string}
    words = {
        text
        for game in stairgames.list_games()
        for described in game["option_listing"]
        for text in (
            described["label"],
            described["help"],
            described["summary"],
            *described["choice_labels"].values(),
            described["default_label"],
            described["upload_label"],
            described["checking"],
            described["ready"],
        )
        if text
    }
    assert not words - translated, sorted(words - translated)


def test_the_fifth_game_s_options_are_listed_and_change_its_play(tictactoe):
    listed = listing_of("tictactoe")
    assert listed["opening"]["kind"] == "choice" and listed["opening"]["label"] == "Who starts"
    assert listed["misere"]["kind"] == "flag"
    state = stairgames.load("tictactoe", opening="O", misere=True).new_initial_state()
    assert state.current_player() == 1
    for move in ("a1", "b1", "a2", "b2", "c3", "b3"):  # O: a1 a2 c3; X: b1 b2 b3
        state.apply_move(move)
    assert state.is_terminal() and state.returns() == [-1.0, 1.0]  # X's row loses X the game
