"""A page opened while the server cannot reach its database (issue 55): the header says
it is reconnecting, never "You have no name yet", and asks again, later each time, until
the server answers; then the player is shown as usual."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_helpers import expect, serving

OUTAGE = {
    "error": {
        "code": "database_unavailable",
        "id": "the database cannot be reached now; try again in a few seconds",
        "message": "the database cannot be reached now; try again in a few seconds",
        "args": {},
    }
}


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    data_dir: Path = tmp_path_factory.mktemp("outage-web")
    with serving(
        create_app(Settings(data_dir=data_dir, computer_workers=0, loop_guard=True))
    ) as made:
        yield made


def test_a_page_opened_in_an_outage_says_reconnecting_then_shows_the_player(
    browser: Any, url: str
) -> None:
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    asked: list[int] = []
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    def database_down_twice(route: Any) -> None:
        asked.append(1)
        if len(asked) <= 2:
            route.fulfill(
                status=503,
                headers={"Retry-After": "5", "content-type": "application/json"},
                body=json.dumps(OUTAGE),
            )
        else:
            route.continue_()

    page.route("**/api/me", database_down_twice)
    page.goto(url + "/")
    expect(page.locator("#me-status")).to_have_text("Reconnecting…")
    # the server answers again: the header is the usual one (a new browser: no name)
    expect(page.locator("#me-status")).to_have_text("You have no name yet")
    assert len(asked) >= 3
    context.close()
    assert not errors
