"""Issue 55: every channel crosses between server processes, seen in browsers.

Two apps on one PostgreSQL database (``tests/postgresql_helpers.py``), each served by
uvicorn on a port of its own, as two server processes behind a balancer that sent each
person elsewhere. Polling is set to an hour, so what reaches the other process came
through the fan-out. Ann's pages are all on the first, Bob's and Cat's on the second:
the lobby's list, the game, who watches it, the chat and each player's channel (the
"your turn" badge) cross; and an analysis's progress, and a client's allowance of new
games (the rate limits are kept in the database for every process).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_helpers import expect, serving, shot
from tests.postgresql_helpers import AN_HOUR, PostgreSQL, postgresql_server
from tests.test_web_analysis import blundered_stairs_game
from tests.test_web_e2e import play_a_move
from tests.test_web_told_everywhere import person

NEW_GAMES = 4
"""New games one client may start at once, over both processes together."""


@pytest.fixture(scope="module")
def postgresql() -> Iterator[PostgreSQL]:
    with postgresql_server() as server:
        yield server


@pytest.fixture(scope="module")
def two_urls(
    postgresql: PostgreSQL, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, str]]:
    from stairgames.server.app import create_app
    from stairgames.server.base.limits import Rate
    from stairgames.server.base.settings import Settings

    def settings(name: str) -> Settings:
        folder: Path = tmp_path_factory.mktemp(f"two-processes-{name}")
        return Settings(
            data_dir=folder,
            database_url=postgresql.url,
            computer_workers=0,
            loop_guard=True,
            follow_seconds=AN_HOUR,  # only the fan-out carries anything across
            matches_per_minute=Rate(per_minute=0.01, burst=NEW_GAMES),
            analysis_iterations=4,
        )

    first, second = settings("first"), settings("second")
    with (
        serving(create_app(first), first) as first_url,
        serving(create_app(second), second) as second_url,
    ):
        yield first_url, second_url


def test_the_lobby_a_game_its_watchers_chat_and_your_turn_cross_processes(
    browser: Any, two_urls: tuple[str, str]
) -> None:
    first, second = two_urls
    errors: list[str] = []
    ann_context, ann = person(browser, first, "Ann First", errors)
    bob_context, bob = person(browser, second, "Bob Second", errors)
    # the lobby: Ann's challenge, made on the first, is listed live on the second
    bob.goto(second + "/lobby")
    ann.goto(first + "/lobby")
    ann.locator("#challenge-game").select_option("stairs")
    ann.locator("#challenge-time").select_option("realtime:5:3")
    ann.get_by_role("button", name="Open the game").click()
    ann.wait_for_url(re.compile(r"/m/"))
    challenge = bob.locator(".challenge").filter(has_text="Ann First")
    challenge.get_by_role("button", name="Accept").click()
    bob.wait_for_url(re.compile(r"/m/"))
    match_path = bob.url.split(second, 1)[1]
    # the game: Ann's page (first) hears that Bob took the seat and goes on
    expect(ann.locator("#turn")).to_have_text("Your move")
    # who watches: Cat, on the second, is counted on Ann's page on the first
    cat_context = browser.new_context(locale="en-GB")
    cat = cat_context.new_page()
    cat.goto(second + match_path)
    expect(ann.get_by_text("Spectators: 1")).to_be_visible()
    cat_context.close()
    # each player's channel: Bob waits on the second's lobby; Ann moves on the first
    bob.goto(second + "/lobby")
    expect(bob.locator("#my-games-badge")).to_be_hidden()
    play_a_move(ann)
    expect(bob.locator("#my-games-badge")).to_have_text("1")
    expect(bob).to_have_title(re.compile(r"^\(1\) Your turn · "))
    # the chat: what Ann says on the first reaches Bob's game page on the second
    bob.goto(second + match_path)
    expect(bob.locator("#turn")).to_have_text("Your move")
    ann.locator("#chat-input").fill("said on the first process")
    ann.locator("#chat-form button[type=submit]").click()
    expect(bob.locator("#chat-messages li").last.locator(".chat-said")).to_have_text(
        "said on the first process"
    )
    # and Bob's move, made on the second, is Ann's turn on the first
    play_a_move(bob)
    expect(ann.locator("#turn")).to_have_text("Your move")
    shot(bob, "two-processes-bob")
    for context in (ann_context, bob_context):
        context.close()
    assert not errors


def test_an_analysis_and_an_allowance_of_new_games_cross_processes(
    browser: Any, two_urls: tuple[str, str]
) -> None:
    first, second = two_urls
    errors: list[str] = []
    ann_context, ann = person(browser, first, "Ann Analyses", errors)
    bob_context, bob = person(browser, second, "Bob Watches", errors)
    ann.base_url = first
    match = blundered_stairs_game(ann)  # a game Ann started on the first: one new game
    bob.goto(f"{second}/m/{match}")
    expect(bob.locator("#result")).to_be_visible()
    ann.get_by_role("button", name="Analyse this game").click()
    # the analysis, made on the first, is drawn on Bob's page on the second
    expect(bob.locator("#analysis-graph .graph-point").first).to_be_attached(timeout=60_000)
    # the allowance of new games is one for both processes: spent on the first ...
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "human"]}
    answers = [ann.request.post(f"{first}/api/matches", data=body).status for _ in range(NEW_GAMES)]
    assert answers[: NEW_GAMES - 1] == [200] * (NEW_GAMES - 1) and answers[-1] == 429
    # ... it is spent on the second too
    assert ann.request.post(f"{second}/api/matches", data=body).status == 429
    for context in (ann_context, bob_context):
        context.close()
    assert not errors
