"""Tournaments in Chromium (issue 53; docs/tournaments.md, "On the site"): Ann (an
account, in English, in New York) creates a Swiss of Stairs on /tournaments, a refusal
first; Bob (an account, in Japanese, in Tokyo, on a phone) joins it from the list; the
server's fake wall clock moves past the start, the server's own sweep pairs the round,
both see the pairing with "Your game", Bob follows it and resigns, and both see the
standings with the points and the tournament finished. Times show in each reader's time
zone. A Japanese phone-sized screenshot of the tournament page is kept
(``test-artifacts/tournament-ja-phone*.png``). Needs Debian's Chromium
(``tests/browser_helpers.py``); skips without it."""

from __future__ import annotations

import concurrent.futures
import datetime
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest

from stairgames.server.people.players import COOKIE
from tests.browser_helpers import expect, serving, shot, watch_content_security_policy
from tests.server_helpers import FakeClock

T0 = 1_800_000_000.0
"""The server's fake wall clock at the start (2027-01-15 08:00 UTC); the browsers keep
their own clocks: the start is typed as the reader's local time of the server's."""
START = T0 + 600


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Any, FakeClock]]:
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    clock = FakeClock(T0)
    # the server's own sweep looks at the tournaments often: it starts and pairs them
    # as soon as the fake clock says so (docs/web.md, "Tournaments")
    settings = Settings(
        data_dir=tmp_path,
        computer_workers=0,
        loop_guard=True,
        wall_clock=clock,
        tournament_sweep_seconds=0.2,
    )
    app = create_app(settings)
    with serving(app, settings) as base:
        yield base, app, clock


def account(app: Any, name: str) -> str:
    """A player with a password (an account): their session's secret. (Made in a thread
    of its own: Playwright runs an event loop in the test's, where the server's
    ``loop_guard`` refuses database calls.)"""

    def make() -> str:
        players = app.state.players
        made, secret = players.create(name)
        players.add_password(made, "a long password")
        secret_text: str = secret
        return secret_text

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(make).result()


def browser_of(
    browser: Any, base: str, secret: str, violations: list[str], errors: list[str], **options: Any
) -> Any:
    """A page of a new context that plays as the player of ``secret``."""
    context = browser.new_context(**options)
    host = base.split("//")[1].split(":")[0]
    context.add_cookies(
        [{"name": COOKIE, "value": secret, "domain": host, "path": "/", "secure": True}]
    )
    watch_content_security_policy(context, violations)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def local(seconds: float, zone: str) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(seconds, ZoneInfo(zone))


def clock_text(moment: datetime.datetime, twelve_hours: bool) -> str:
    """The hour and minutes as the page's Intl formats them in that language."""
    hour = (moment.hour % 12 or 12) if twelve_hours else moment.hour
    return f"{hour}:{moment.minute:02d}"


def standings(page: Any) -> list[tuple[str, str]]:
    rows = page.locator("#tr-standings tr")
    return [
        (rows.nth(i).get_attribute("data-player"), rows.nth(i).locator(".tr-points").inner_text())
        for i in range(rows.count())
    ]


def test_two_accounts_meet_in_a_swiss_made_and_joined_on_the_pages(
    site: tuple[str, Any, FakeClock], browser: Any
) -> None:
    base, app, clock = site
    violations: list[str] = []
    errors: list[str] = []
    ann = browser_of(
        browser,
        base,
        account(app, "Ann"),
        violations,
        errors,
        viewport={"width": 1100, "height": 800},
        locale="en-GB",
        timezone_id="America/New_York",
    )
    bob = browser_of(
        browser,
        base,
        account(app, "Bob"),
        violations,
        errors,
        viewport={"width": 390, "height": 844},
        has_touch=True,
        locale="ja-JP",
        timezone_id="Asia/Tokyo",
    )

    # Ann finds the page from the site's navigation: no tournament yet
    ann.goto(base + "/")
    ann.locator("#tournaments-link").click()
    expect(ann.locator("#tournaments h1")).to_have_text("Tournaments")
    expect(ann.locator("#tn-none")).to_be_visible()

    # the form: a Swiss of Stairs on a 4×4 board, 3+2, starting in ten minutes
    ann.locator("#tn-kind").select_option("swiss")
    expect(ann.locator("#tn-rounds-label")).to_be_visible()
    expect(ann.locator("#tn-minutes-label")).to_be_hidden()
    ann.locator("#tn-game").select_option("stairs")
    ann.locator('#tn-options [data-option="size"]').fill("4")
    ann.locator("#tn-clock").select_option("realtime:3:2")
    ann.locator("#tn-rounds").fill("1")
    # a refusal first (too far ahead on the server's clock), said in words; nothing made
    too_far = local(T0 + 40 * 86_400, "America/New_York")
    ann.locator("#tn-start").fill(too_far.strftime("%Y-%m-%dT%H:%M"))
    ann.locator("#tn-form button[type=submit]").click()
    expect(ann.locator("#tn-form-error")).to_have_text("a tournament starts within 30 days")
    assert httpx.get(f"{base}/api/tournaments").json()["tournaments"] == []
    starts = local(START, "America/New_York")
    ann.locator("#tn-start").fill(starts.strftime("%Y-%m-%dT%H:%M"))
    ann.locator("#tn-form button[type=submit]").click()
    ann.wait_for_url(re.compile(r"/tournaments/[0-9a-f]+$"))
    tournament = ann.url.rsplit("/", 1)[1]
    expect(ann.locator("#tr-title")).to_have_text("Stairs · Swiss")
    facts = ann.locator("#tr-facts")
    expect(facts).to_contain_text("4×4 board")
    expect(facts).to_contain_text("3+2")
    expect(facts).to_contain_text("1 round")
    expect(facts).to_contain_text(clock_text(starts, twelve_hours=True))  # New York's time
    expect(ann.locator("#tr-status")).to_have_text("Not started yet")
    expect(ann.locator("#tr-nobody")).to_be_visible()
    ann.locator("#tr-join").click()
    expect(ann.locator("#tr-leave")).to_be_visible()
    expect(ann.locator("#tr-join")).to_be_hidden()
    assert standings(ann) == [("Ann", "0")]

    # Bob joins from the list, in Japanese, and reads the start in Tokyo's time
    bob.goto(base + "/tournaments")
    row = bob.locator(f'#tn-list li[data-tournament="{tournament}"]')
    expect(row).to_contain_text("ステアー")
    expect(row).to_contain_text(clock_text(local(START, "Asia/Tokyo"), twelve_hours=False))
    shot(bob, "tournaments-ja-phone-list")
    assert bob.evaluate("document.documentElement.scrollWidth") <= 390
    row.locator(".tn-join").click()
    bob.wait_for_url(re.compile(rf"/tournaments/{tournament}$"))
    expect(bob.locator("#tr-standings tr")).to_have_count(2)
    expect(bob.locator("#tr-leave")).to_be_visible()
    expect(bob.locator("#tr-your-game")).to_be_hidden()
    # leaving before the start strikes him off; he joins again from the page
    bob.locator("#tr-leave").click()
    expect(bob.locator("#tr-standings tr")).to_have_count(1)
    expect(bob.locator("#tr-leave")).to_be_hidden()
    bob.locator("#tr-join").click()
    expect(bob.locator("#tr-standings tr")).to_have_count(2)
    expect(bob.locator("#tr-leave")).to_be_visible()

    # the server's clock reaches the start: its sweep pairs the round, the pages see it
    clock.now = START
    for page in (ann, bob):
        expect(page.locator("#tr-rounds .tr-game")).to_have_count(1)
        expect(page.locator("#tr-your-game")).to_be_visible()
    game = ann.locator("#tr-rounds .tr-game")
    expect(game).to_contain_text("Ann")
    expect(game).to_contain_text("Bob")
    expect(ann.locator("#tr-status")).to_have_text("Round 1 of 1")
    match = game.get_attribute("data-match")
    shot(bob, "tournament-ja-phone-paired")
    assert bob.evaluate("document.documentElement.scrollWidth") <= 390

    # Bob follows "Your game" and resigns there
    bob.locator("#tr-your-game").click()
    bob.wait_for_url(re.compile(rf"/m/{match}"))
    bob.on("dialog", lambda dialog: dialog.accept())
    bob.locator("#resign").click()
    expect(bob.locator("#result")).to_be_visible()

    # the standings show the points, on Ann's page as it reads them again, and Bob's
    expect(ann.locator("#tr-status")).to_have_text("Finished")
    assert standings(ann) == [("Ann", "1"), ("Bob", "0")]
    expect(ann.locator("#tr-your-game")).to_be_hidden()
    expect(ann.locator("#tr-leave")).to_be_hidden()
    played = re.compile(r"^(Ann 1 – Bob 0|Bob 0 – Ann 1) · over$")
    expect(ann.locator("#tr-rounds .tr-game")).to_have_text(played)
    shot(ann, "tournament-en-finished")
    bob.go_back()
    expect(bob.locator("#tr-standings tr")).to_have_count(2)
    assert standings(bob) == [("Ann", "1"), ("Bob", "0")]
    expect(bob.locator("#tr-status")).to_have_text("終了")  # "Finished", in Japanese
    expect(bob.locator("#tr-title")).to_have_text("ステアー・スイス式")
    shot(bob, "tournament-ja-phone")
    assert bob.evaluate("document.documentElement.scrollWidth") <= 390
    assert not errors, errors
    assert not violations, violations


def test_an_arena_and_round_tables_are_made_on_the_page(
    site: tuple[str, Any, FakeClock], browser: Any
) -> None:
    base, app, _clock = site
    violations: list[str] = []
    errors: list[str] = []
    ann = browser_of(
        browser,
        base,
        account(app, "Ann"),
        violations,
        errors,
        viewport={"width": 1100, "height": 800},
        locale="en-GB",
        timezone_id="Europe/Paris",
    )
    starts = local(START, "Europe/Paris").strftime("%Y-%m-%dT%H:%M")
    ann.goto(base + "/tournaments")
    # an arena of 45 minutes: minutes asked, not rounds; two players a game, no table size
    ann.locator("#tn-kind").select_option("arena")
    expect(ann.locator("#tn-minutes-label")).to_be_visible()
    expect(ann.locator("#tn-rounds-label")).to_be_hidden()
    expect(ann.locator("#tn-count-label")).to_be_hidden()
    ann.locator("#tn-start").fill(starts)
    ann.locator("#tn-minutes").fill("45")
    ann.locator("#tn-form button[type=submit]").click()
    ann.wait_for_url(re.compile(r"/tournaments/[0-9a-f]+$"))
    arena = ann.url.rsplit("/", 1)[1]
    expect(ann.locator("#tr-facts")).to_contain_text("45 minutes")
    ann.locator("#tr-join").click()
    expect(ann.locator("#tr-standings tr")).to_have_count(1)
    expect(ann.locator("#tr-streak-head")).to_be_visible()  # an arena's wins in a row

    # round tables: only games of 3-4 seats, with how many sit at a table
    ann.locator("#tr-back").click()
    expect(ann.locator(f'#tn-list li[data-tournament="{arena}"]')).to_contain_text("Arena")
    ann.locator("#tn-kind").select_option("tables")
    titles = ann.locator("#tn-game option").all_inner_texts()
    assert "Stairs" not in titles and "City of Stairs" in titles
    ann.locator("#tn-game").select_option("city_of_stairs")
    expect(ann.locator("#tn-count-label")).to_be_visible()
    ann.locator("#tn-count").select_option("3")
    expect(ann.locator('#tn-options [data-option="first_player"]')).to_have_count(0)
    ann.locator("#tn-start").fill(starts)
    ann.locator("#tn-rounds").fill("3")
    ann.locator("#tn-form button[type=submit]").click()
    ann.wait_for_url(re.compile(r"/tournaments/[0-9a-f]+$"))
    tables = ann.url.rsplit("/", 1)[1]
    expect(ann.locator("#tr-title")).to_have_text("City of Stairs · Round tables")
    expect(ann.locator("#tr-streak-head")).to_be_hidden()
    made = httpx.get(f"{base}/api/tournaments/{tables}").json()
    assert (made["kind"], made["game"], made["rounds"]) == ("tables", "city_of_stairs", 3)
    assert made["options"]["players"] == 3
    assert not errors, errors
    assert not violations, violations
