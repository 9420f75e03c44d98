"""A rated real-time game between two browsers, from the lobby to the result (issue 51,
item 3): one person opens a rated challenge, the other accepts it; both game pages show
both ratings beside the names (1500? for newcomers), and once one resigns, both show the
ratings after the game with the change it made, in the seat list and the result box (in
English, and once in Japanese)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stairgames.server.people.ratings import RatedResult, Rating, RatingBook, signed
from tests.browser_helpers import expect, serving, shot

POOL = "stairs size=6"


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    data_dir: Path = tmp_path_factory.mktemp("rated-game-web")
    settings = Settings(data_dir=data_dir, computer_workers=0, loop_guard=True)
    with serving(create_app(settings), settings) as url:
        yield url


def person(browser: Any, app_url: str, name: str, errors: list[str]) -> tuple[Any, Any]:
    """A browser context of its own whose page chose ``name``: (context, page)."""
    context = browser.new_context(locale="en-GB", viewport={"width": 1100, "height": 800})
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(app_url + "/")
    page.locator("#me-edit").click()
    page.get_by_label("Your name", exact=True).fill(name)
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#me-name")).to_have_text(name)
    return context, page


def shown_with_change(before: Rating, after: Rating) -> str:
    return f"{after.shown()} ({signed(after.change_from(before))})"


def test_a_rated_game_shows_both_ratings_then_their_changes(browser: Any, app_url: str) -> None:
    errors: list[str] = []
    ann_context, ann = person(browser, app_url, "Rated Ann", errors)
    bob_context, bob = person(browser, app_url, "Rated Bob", errors)
    ann.goto(app_url + "/lobby")
    ann.locator("#challenge-game").select_option("stairs")
    ann.locator("#challenge-rated").check()
    ann.locator("#challenge-time").select_option("realtime:5:3")
    ann.get_by_role("button", name="Open the game").click()
    ann.wait_for_url(re.compile(r"/m/"))
    bob.goto(app_url + "/lobby")
    row = bob.locator(".challenge").filter(has_text="Rated Ann")
    row.get_by_role("button", name="Accept").click()
    bob.wait_for_url(re.compile(r"/m/"))
    newcomer = Rating().shown()
    for page in (ann, bob):  # light (Ann, who opened it) and dark, both new
        expect(page.locator("#seats .seat-rating")).to_have_text([newcomer, newcomer])
        expect(page.locator("#seats .seat").first).to_contain_text(newcomer)
    ann.once("dialog", lambda dialog: dialog.accept())
    ann.get_by_role("button", name="Resign").click()
    changes = RatingBook().add(RatedResult(POOL, ("ann", "bob"), (-1.0, 1.0)))
    lost, won = (shown_with_change(*changes[who]) for who in ("ann", "bob"))
    assert lost.endswith(")") and "−" in lost and "+" in won  # the loser lost, the winner won
    for page in (ann, bob):
        expect(page.locator("#result")).to_be_visible()
        expect(page.locator("#seats .seat-rating")).to_have_text([lost, won])
        expect(page.locator("#result .rating-changes")).to_have_text(
            f"Ratings: Rated Ann {lost} · Rated Bob {won}"
        )
    shot(ann, "rated-game-over")
    bob.select_option("#lang", "ja")
    expect(bob.locator("#result .rating-changes")).to_have_text(
        f"レーティング：Rated Ann {lost} · Rated Bob {won}"
    )
    expect(bob.locator("#seats .seat-rating")).to_have_text([lost, won])
    bob.goto(app_url + "/p/Rated%20Bob")  # the profile says the same, on the same scale
    expect(bob.locator("#profile-ratings tr td").nth(1)).to_have_text(changes["bob"][1].shown())
    ann_context.close()
    bob_context.close()
    assert not errors
