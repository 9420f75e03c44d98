"""An option that takes a file says its own game's words on the home page (issue 50):
what its chooser offers for no file, its upload's label, what it says while the server
checks a file and once it has kept it come from the option's declaration
(``core/options.py``), the page's own words (which name no game) where it declares none.
So the fifth game (``tests/tictactoe``) given a file option shows its words, and City of
Stairs' card file reads as it always has, in English and in Japanese."""

from __future__ import annotations

import dataclasses
import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stairgames.core import registry
from stairgames.core.options import option
from stairgames.core.registry import OptionFile
from tests.browser_helpers import checked_page, expect, serving
from tests.tictactoe import TicTacToeOptions

STATIC = Path(__file__).parents[1] / "src" / "stairgames" / "web" / "static"


@dataclasses.dataclass(frozen=True)
class Layout:
    """What the fifth game's reader makes of a file: its first line, as its name."""

    name: str


def read_layout(text: str, *, source: object) -> Layout:
    """The fifth game's reader of an uploaded layout or pattern file."""
    return Layout(text.splitlines()[0] if text else str(source))


@dataclasses.dataclass(frozen=True)
class FileOptions(TicTacToeOptions):
    """Tic-tac-toe's options and two that take a file: ``layout`` with words of its own,
    ``pattern`` with none (a test game's words are not extracted: no catalog has them)."""

    layout: str | None = option(
        None,
        label="Layout",
        role="file",
        default_label="the usual layout",
        upload_label="Upload a layout",
        checking="Checking the layout…",
        ready="Layout {name} is ready.",
    )
    pattern: str | None = option(None, label="Pattern", role="file")


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as reply:
        return json.load(reply)


@pytest.fixture
def file_options(tictactoe: registry.GameSpec) -> Iterator[registry.GameSpec]:
    """Tic-tac-toe registered with :class:`FileOptions` and their upload routes (forgotten
    after the test with the fifth game)."""
    reader = f"{__name__}:read_layout"
    spec = dataclasses.replace(
        tictactoe,
        options_class=FileOptions,
        option_files=(OptionFile("layout", reader), OptionFile("pattern", reader)),
    )
    registry.register(spec)
    yield spec


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """The real web app on a temporary SQLite, served: its base URL."""
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    settings = Settings(data_dir=tmp_path, computer_workers=0, loop_guard=True)
    with serving(create_app(settings), settings) as url:
        yield url


def chosen_status(page: Any, name: str) -> Any:
    """What the chooser of the file option ``name`` says of its upload."""
    chooser = page.locator(".file-choice").filter(has=page.locator(f"#option-{name}"))
    return chooser.get_by_role("status")


def test_no_shared_script_of_the_options_speaks_of_cards() -> None:
    """Not even in a sentence: a file option's words are its game's."""
    for name in ("setup.js", "optionform.js", "pagetext.js"):
        script = (STATIC / name).read_text(encoding="utf-8")
        assert not re.search(r"card", script, re.IGNORECASE), name


def test_a_file_option_says_its_game_s_words_or_the_page_s_own(
    browser: Any, file_options: registry.GameSpec, served: str, tmp_path: Path
) -> None:
    mine = tmp_path / "mine.txt"
    mine.write_text("corners first\n", encoding="utf-8")
    with checked_page(browser, served) as page:
        page.goto(served + "/")
        page.locator('#game-list input[value="tictactoe"]').check()
        options = page.locator("#options")
        layout = options.get_by_label("Layout", exact=True)
        expect(layout.locator("option")).to_have_text(["the usual layout"])
        pattern = options.get_by_label("Pattern", exact=True)
        expect(pattern.locator("option")).to_have_text(["no file"])
        expect(options.get_by_label("Upload a file", exact=True)).to_have_count(1)
        # uploaded to the layout's own route, which reads it as a layout
        options.get_by_label("Upload a layout", exact=True).set_input_files(str(mine))
        expect(layout).to_have_id("option-layout")  # the ids are the option's name's
        status = chosen_status(page, "layout")
        expect(status).to_have_text("Layout corners first is ready.")
        expect(layout.locator("option:checked")).to_have_text("corners first (mine.txt)")
        options.get_by_label("Upload a file", exact=True).set_input_files(str(mine))
        status = chosen_status(page, "pattern")
        expect(status).to_have_text("corners first is ready.")


def test_city_of_stairs_card_file_reads_as_it_did_in_english_and_japanese(
    browser: Any, served: str, tmp_path: Path
) -> None:
    from stairgames.games.city_of_stairs.cards import default_cards_text

    cards = tmp_path / "mine.toml"
    cards.write_text(default_cards_text(), encoding="utf-8")
    japanese = get_json(f"{served}/api/i18n/ja")["messages"]
    english = {
        "Card set": "Card set",
        "the default cards": "the default cards",
        "Upload a card file (TOML)": "Upload a card file (TOML)",
        "Card set {name} is ready.": "Card set {name} is ready.",
    }
    assert all(japanese[word] != word for word in english)
    with checked_page(browser, served) as page:
        page.goto(served + "/")
        for lang, words in (("en", english), ("ja", japanese)):
            page.locator("#lang").select_option(lang)
            page.locator('#game-list input[value="city_of_stairs"]').check()
            options = page.locator("#options")
            chooser = options.get_by_label(words["Card set"], exact=True)
            expect(chooser.locator("option")).to_have_text([words["the default cards"]])
            upload = options.get_by_label(words["Upload a card file (TOML)"], exact=True)
            upload.set_input_files(str(cards))
            ready = re.escape(words["Card set {name} is ready."]).replace(re.escape("{name}"), ".+")
            expect(options.locator(".file-status")).to_have_text(re.compile(f"^{ready}$"))
