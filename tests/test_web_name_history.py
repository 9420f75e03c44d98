"""A rated player's rename, as the profile shows it, in Chromium (issue 51, item 2).

A player with rated games renames once: their old name stays theirs, and the profile
under either name shows the line of names they had ("Beto → Roberto"), the address
moving to the name they have now. The rated game is recorded straight into the served
app's ratings (the lobby's rated games have their own browser tests).
"""

from __future__ import annotations

import concurrent.futures
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_helpers import expect, serving, shot


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    data_dir: Path = tmp_path_factory.mktemp("name-history-web")
    settings = Settings(data_dir=data_dir, computer_workers=0, loop_guard=True)
    app = create_app(settings)
    with serving(app, settings) as url:
        yield app, url


def choose_name(page: Any, name: str) -> None:
    page.locator("#me-edit").click()
    page.get_by_label("Your name", exact=True).fill(name)
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#me-name")).to_have_text(name)


def record_rated_win(app: Any, winner: str, loser: str) -> None:
    """A rated Stairs game ``winner`` won against ``loser`` (player ids), kept as the
    lobby keeps one."""
    from stairgames.server.base.store import Store
    from stairgames.server.people.ratings import RatedResult

    match = f"rated-{winner[:8]}-{loser[:8]}"
    Store(app.state.engine).create_match(match, "stairs", {}, 1, [])
    app.state.ratings.record(match, RatedResult("stairs size=6", (winner, loser), (1.0, -1.0)))


def test_a_rated_players_old_name_leads_to_their_profile_with_its_history(
    browser: Any, served: tuple[Any, str]
) -> None:
    app, url = served
    errors: list[str] = []
    contexts = [browser.new_context(locale="en-GB") for _ in range(3)]
    beto, other, visitor = (context.new_page() for context in contexts)
    for page in (beto, other, visitor):
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(url + "/")
    choose_name(beto, "Beto")
    choose_name(other, "Carla")
    ids = [
        page.evaluate("fetch('/api/me').then((r) => r.json()).then((me) => me.id)")
        for page in (beto, other)
    ]
    with concurrent.futures.ThreadPoolExecutor(1) as thread:  # Playwright's loop is here
        thread.submit(record_rated_win, app, *ids).result()
    choose_name(beto, "Roberto")  # the one rename a rated player has
    visitor.goto(url + "/p/Beto")
    expect(visitor).to_have_url(re.compile(r"/p/Roberto$"))
    expect(visitor.locator("#profile-name")).to_have_text("Roberto")
    expect(visitor.locator("#profile-names")).to_have_text("Beto → Roberto")
    expect(visitor.locator("#profile-names")).to_be_visible()
    shot(visitor, "profile-name-history")
    # the old name stays Roberto's: nobody else may take it
    choose_name_refused = visitor.locator("#me-edit")
    choose_name_refused.click()
    visitor.get_by_label("Your name", exact=True).fill("Beto")
    visitor.get_by_role("button", name="Save").click()
    expect(visitor.locator("#me-error")).to_have_text("that name is taken")
    # a player who never renamed shows no such line
    visitor.goto(url + "/p/Carla")
    expect(visitor.locator("#profile-name")).to_have_text("Carla")
    expect(visitor.locator("#profile-names")).to_be_hidden()
    for context in contexts:
        context.close()
    assert not errors
