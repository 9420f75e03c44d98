"""Every game's options reach the page from ``GET /api/games`` alone (issue 50): the fifth
game (``tests/tictactoe``), registered in a served app, shows its options labelled by
its own words (translated where the catalog has them) and set from the home page with
no change to shared JavaScript; the home page and the lobby's challenge form offer
every option the four games offer, and the lobby tells a challenge's options in the
reader's language, a list unchanged by value not told at all."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stairgames.core.registry import GameSpec
from tests.browser_helpers import checked_page, expect, serving

MISERE = "Misère (three in a row loses)"
"""The fifth game's label that no catalog translates (a test game's words are not
extracted): the page shows it as its id in every language."""


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as reply:
        return json.load(reply)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """The real web app on a temporary SQLite, served: its base URL."""
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    settings = Settings(data_dir=tmp_path, computer_workers=0, loop_guard=True)
    with serving(create_app(settings), settings) as url:
        yield url


def started_options(page: Any) -> dict[str, Any]:
    """Start the home page's game (two people at this screen): the options the server's
    match holds."""
    page.locator('input[name="opponent"][value="human"]').check()
    page.locator("#start").click()
    page.wait_for_url(re.compile(r"/m/[^/]+$"))
    match = page.url.rsplit("/", 1)[1]
    options: dict[str, Any] = get_json(f"{page.base_url}/api/matches/{match}")["options"]
    return options


def test_the_fifth_games_options_show_translated_and_reach_the_server(
    browser: Any, tictactoe: GameSpec, served: str
) -> None:
    japanese = get_json(f"{served}/api/i18n/ja")["messages"]
    who_starts = japanese["Who starts"]
    assert who_starts != "Who starts" and MISERE not in japanese
    with checked_page(browser, served) as page:
        page.goto(served + "/")
        page.locator('#game-list input[value="tictactoe"]').check()
        options = page.locator("#options")
        opening = options.get_by_label("Who starts", exact=True)
        assert opening.locator("option").all_inner_texts() == ["X", "O"]
        misere = options.get_by_label(MISERE, exact=True)
        expect(misere).not_to_be_checked()
        opening.select_option("O")
        misere.check()
        assert started_options(page) == {"opening": "O", "misere": True}

        page.goto(served + "/")
        page.locator("#lang").select_option("ja")
        page.locator('#game-list input[value="tictactoe"]').check()
        opening = options.get_by_label(who_starts, exact=True)
        expect(opening).to_be_visible()
        expect(options.get_by_label("Who starts", exact=True)).to_have_count(0)
        expect(options.get_by_label(MISERE, exact=True)).to_be_visible()
        opening.select_option("O")
        assert started_options(page) == {"opening": "O", "misere": False}


def offered(game: dict[str, Any]) -> set[str]:
    return {option["name"] for option in game["options"] if option["offered"]}


def test_the_home_page_and_the_lobby_offer_every_option_of_every_game(
    browser: Any, served: str
) -> None:
    listing = get_json(f"{served}/api/games")
    with checked_page(browser, served) as page:
        page.goto(served + "/")
        for game in listing:
            page.locator(f'#game-list input[value="{game["name"]}"]').check()
            expect(page.locator("#setup-heading")).to_contain_text(game["title"])
            drawn = page.locator("#options [data-option]").evaluate_all(
                "inputs => inputs.map(i => i.dataset.option)"
            )
            assert set(drawn) == offered(game), game["name"]
        page.goto(served + "/lobby")
        for game in listing:
            page.locator("#challenge-game").select_option(game["name"])
            drawn = page.locator("#challenge-options [data-option]").evaluate_all(
                "inputs => inputs.map(i => i.dataset.option)"
            )
            # the seat count is the form's own "How many play"
            kept_out = {o["name"] for o in game["options"] if o["seats_from"]}
            assert set(drawn) == offered(game) - kept_out, game["name"]
    everything = {name for game in listing for name in offered(game)}
    assert {"size", "pie_rule", "variant", "goal", "crumbling_wall"} <= everything
    assert {"crumbling_squares", "cards"} <= everything


def open_challenge(page: Any, game: str, setting: Any = None) -> None:
    """Open a challenge of ``game`` from the lobby, ``setting(form)`` done first."""
    page.goto(page.base_url + "/lobby")
    form = page.locator("#challenge-form")
    page.locator("#challenge-game").select_option(game)
    if setting:
        setting(form)
    form.get_by_role("button", name="Open the game").click()
    page.wait_for_url(re.compile(r"/m/[^/]+$"))


def test_the_lobby_tells_a_challenges_options_in_the_readers_language(
    browser: Any, served: str
) -> None:
    def small_board_with_pie_rule(form: Any) -> None:
        form.get_by_label("Board size (3 to 8 squares a side)", exact=True).fill("4")
        form.get_by_label("Pie rule (the second player may swap colours)").check()

    def default_squares(form: Any) -> None:
        squares = form.get_by_label("Crumbling squares (the −2 steps, comma-separated)")
        expect(squares).not_to_have_value("")  # the default list, as the form shows it

    japanese = get_json(f"{served}/api/i18n/ja")["messages"]
    with checked_page(browser, served) as ann, checked_page(browser, served) as bob:
        open_challenge(ann, "stairs", small_board_with_pie_rule)
        open_challenge(ann, "ishigaki_race", default_squares)
        bob.goto(served + "/lobby")
        bob.locator("#lang").select_option("ja")
        stairs = bob.locator(".challenge").filter(has_text=japanese["Stairs"])
        board = japanese["{value}×{value} board"].replace("{value}", "4")
        pie_rule = japanese["pie rule: {value}"].replace("{value}", japanese["yes"])
        expect(stairs).to_contain_text(f"{pie_rule} · {board}")
        ishigaki = bob.locator(".challenge").filter(has_text=japanese["Ishigaki Race"])
        expect(ishigaki).to_have_count(1)
        squares = japanese["−2 squares: {value}"].split("{value}")[0]
        assert squares not in ishigaki.inner_text()
        bob.locator("#lang").select_option("en")
        english = bob.locator(".challenge").filter(has_text="Stairs")
        expect(english).to_contain_text("pie rule: yes · 4×4 board")
