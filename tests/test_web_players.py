"""The player in the page's header (issue 29): choosing and changing a name in Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_helpers import chromium, expect, serving, shot

MARKUP_NAME = '<img src=x onerror="window.__owned=1">'[:24]


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from stairgames.server.app import Settings, create_app

    data_dir: Path = tmp_path_factory.mktemp("players-web")
    settings = Settings(data_dir=data_dir, computer_workers=0)
    with serving(create_app(settings), settings) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def choose_name(page: Any, name: str) -> None:
    page.locator("#me-edit").click()
    page.get_by_label("Your name", exact=True).fill(name)
    page.get_by_role("button", name="Save").click()


def test_a_visitor_chooses_a_name_that_stays_and_is_shown_as_text(
    browser: Any, app_url: str
) -> None:
    context = browser.new_context(locale="en-GB", viewport={"width": 1100, "height": 800})
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(app_url + "/")
    expect(page.locator("#me-status")).to_have_text("You have no name yet")
    expect(page.locator("#me-edit")).to_have_text("Choose a name")
    choose_name(page, "Kato")
    expect(page.locator("#me-name")).to_have_text("Kato")
    expect(page.locator("#me-status")).to_have_text("Playing as")
    page.reload()
    expect(page.locator("#me-name")).to_have_text("Kato")  # the cookie keeps the player
    choose_name(page, MARKUP_NAME)
    expect(page.locator("#me-name")).to_have_text(MARKUP_NAME)
    assert page.locator("#me img").count() == 0
    assert page.evaluate("window.__owned") is None
    shot(page, "players-header")
    context.close()
    assert not errors


def test_a_name_taken_by_another_player_is_refused_in_the_page(browser: Any, app_url: str) -> None:
    first = browser.new_context(locale="en-GB")
    second = browser.new_context(locale="en-GB")
    page_one, page_two = first.new_page(), second.new_page()
    page_one.goto(app_url + "/")
    choose_name(page_one, "Suga")
    expect(page_one.locator("#me-name")).to_have_text("Suga")
    page_two.goto(app_url + "/")
    choose_name(page_two, "SUGA")
    expect(page_two.locator("#me-error")).to_have_text("that name is taken")
    expect(page_two.locator("#me-status")).to_have_text("You have no name yet")
    page_two.get_by_role("button", name="Cancel").click()
    expect(page_two.locator("#me-form")).to_be_hidden()
    first.close()
    second.close()
