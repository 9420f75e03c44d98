"""The lobby's challenge form offers an option that takes a file as the home page does
(issue 50): City of Stairs' card file is uploaded from the form, the unrated challenge
plays it, and the lobby's row tells it by its summary, never by a server path; a rated
game is played with the game's own cards, so "Rated" is not offered with a file chosen."""

from __future__ import annotations

import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_helpers import checked_page, expect, serving


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """The real web app on a temporary SQLite, served: its base URL."""
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    settings = Settings(data_dir=tmp_path / "data", computer_workers=0, loop_guard=True)
    with serving(create_app(settings), settings) as url:
        yield url


def test_a_challenge_plays_a_card_file_uploaded_from_the_lobby_form(
    browser: Any, served: str, tmp_path: Path
) -> None:
    from stairgames.games.city_of_stairs.cards import default_cards_text

    cards = tmp_path / "mine.toml"
    text = default_cards_text().replace('name = "Red"', 'name = "Crimson Family"', 1)
    cards.write_text(text, encoding="utf-8")
    with checked_page(browser, served) as ann, checked_page(browser, served) as bob:
        ann.goto(served + "/lobby")
        form = ann.locator("#challenge-form")
        ann.locator("#challenge-game").select_option("city_of_stairs")
        rated = form.get_by_label("Rated", exact=True)
        expect(rated).to_be_enabled()
        form.get_by_label("Upload a card file (TOML)", exact=True).set_input_files(str(cards))
        chosen = form.get_by_label("Card set", exact=True)
        expect(chosen).to_have_id("challenge-option-cards")  # not the home page's ids
        expect(form.get_by_role("status")).to_contain_text("is ready")
        expect(chosen.locator("option:checked")).to_contain_text("(mine.toml)")
        expect(rated).to_be_disabled()
        form.get_by_role("button", name="Open the game").click()
        ann.wait_for_url(re.compile(r"/m/[^/]+$"))
        bob.goto(served + "/lobby")
        row = bob.locator(".challenge").filter(has_text="City of Stairs")
        expect(row).to_contain_text("an uploaded card set")
        assert str(tmp_path) not in row.inner_text() and ".toml" not in row.inner_text()
        row.get_by_role("button").first.click()
        bob.wait_for_url(re.compile(r"/m/[^/]+$"))
        match = bob.url.rsplit("/", 1)[1]
        with urllib.request.urlopen(f"{served}/api/matches/{match}", timeout=30) as reply:
            view = reply.read().decode()
        assert "Crimson Family" in view  # the match plays the uploaded cards
