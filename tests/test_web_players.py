"""The player in the page's header (issue 29): choosing and changing a name in Chromium."""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_helpers import expect, serving, shot

MARKUP_NAME = '<img src=x onerror="window.__owned=1">'[:24]


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    data_dir: Path = tmp_path_factory.mktemp("players-web")
    # Light never moves in the lobby game below, which a loaded machine may take over the
    # real-time first-move limit (30 s) to walk through: the abort is
    # tests/test_web_seek_abort.py's subject, on a clock of its own; not this module's.
    settings = Settings(
        data_dir=data_dir, computer_workers=0, loop_guard=True, first_move_seconds=86_400.0
    )
    with serving(create_app(settings), settings) as url:
        yield url


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
    # the header's name leads to the player's own profile
    page.locator("#me-name").click()
    expect(page).to_have_url(re.compile(r"/p/Kato$"))
    expect(page.locator("#profile-name")).to_have_text("Kato")
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


def test_two_strangers_meet_in_the_lobby_and_play(browser: Any, app_url: str) -> None:
    ann_context = browser.new_context(locale="en-GB", viewport={"width": 1100, "height": 800})
    bob_context = browser.new_context(locale="en-GB", viewport={"width": 1100, "height": 800})
    errors: list[str] = []
    ann, bob = ann_context.new_page(), bob_context.new_page()
    for page in (ann, bob):
        page.on("pageerror", lambda error: errors.append(str(error)))
    ann.goto(app_url + "/")
    choose_name(ann, "Lobby Ann")
    ann.get_by_role("link", name="Lobby", exact=True).click()
    expect(ann.locator("#lobby")).to_be_visible()
    ann.locator("#challenge-game").select_option("stairs")
    ann.locator("#challenge-rated").check()
    ann.get_by_role("button", name="Open the game").click()
    ann.wait_for_url(re.compile(r"/m/"))
    expect(ann.locator("#invite")).to_be_visible()  # waiting for someone
    bob.goto(app_url + "/lobby")
    row = bob.locator(".challenge").filter(has_text="Lobby Ann")
    expect(row).to_contain_text("rated")
    expect(row).to_contain_text("1 of 2 seats taken")
    shot(bob, "lobby")
    row.get_by_role("button", name="Accept").click()
    bob.wait_for_url(re.compile(r"/m/"))
    expect(bob.locator("#me-name")).to_have_text(re.compile(r"Anonymous \d+"))
    expect(ann.locator("#invite")).to_be_hidden()
    expect(bob.locator("#board")).to_be_visible()
    # light (Ann) to move: her tab says so, and her "My games" counts one waiting game
    expect(ann).to_have_title(re.compile(r"^\(1\) Your turn · Stairs$"))
    expect(bob).to_have_title("Stairs · stairgames")
    ann.reload()
    expect(ann.locator("#my-games-badge")).to_have_text("1")
    expect(bob.locator("#my-games-badge")).to_be_hidden()
    expect(bob.locator("#seats")).to_contain_text("Lobby Ann")
    bob_name = bob.locator("#me-name").inner_text()
    bob.locator("#me-password").click()
    bob.get_by_label("New password", exact=True).fill("bob's secret")
    bob.get_by_role("button", name="Save").click()
    expect(bob.locator("#me-logout")).to_be_visible()
    bob.goto(app_url + "/lobby")
    expect(bob.locator(".challenge").filter(has_text="Lobby Ann")).to_have_count(0)
    # Bob on another device: logs in, finds the game in "My games", plays his seat
    phone_context = browser.new_context(locale="en-GB", viewport={"width": 400, "height": 800})
    phone = phone_context.new_page()
    phone.on("pageerror", lambda error: errors.append(str(error)))
    phone.goto(app_url + "/")
    phone.locator("#me-login").click()
    phone.locator("#login-name").fill(bob_name)
    phone.locator("#login-password").fill("bob's secret")
    phone.locator("#login-form").get_by_role("button", name="Log in").click()
    expect(phone.locator("#me-name")).to_have_text(bob_name)
    phone.get_by_role("link", name="My games").click()
    game = phone.locator(".my-game").filter(has_text="Lobby Ann")
    expect(game).to_contain_text("Waiting for the others")
    shot(phone, "my-games")
    game.get_by_role("link").click()
    # a rated game: each name with its rating, a newcomer's 1500 provisional
    expect(phone.locator("#seats li")).to_have_text(["light: Lobby Ann 1500?", "dark (you) 1500?"])
    # a spectator follows the game from the lobby, and looks at a player's profile
    spectator_context = browser.new_context(locale="en-GB")
    spectator = spectator_context.new_page()
    spectator.on("pageerror", lambda error: errors.append(str(error)))
    spectator.goto(app_url + "/lobby")
    live = spectator.locator(".live-game").filter(has_text="Lobby Ann")
    expect(live).to_contain_text(bob_name)
    live.get_by_role("link", name="Watch").click()
    expect(spectator.locator("#watching")).to_be_visible()
    expect(spectator.locator("#seats li")).to_have_text(
        ["light: Lobby Ann 1500?", f"dark: {bob_name} 1500?"]
    )
    # each player's name on the game page leads to their profile
    spectator.locator("#seats a.seat-player", has_text="Lobby Ann").click()
    expect(spectator).to_have_url(re.compile(r"/p/Lobby%20Ann$"))
    expect(spectator.locator("#profile-name")).to_have_text("Lobby Ann")
    expect(spectator.locator("#profile-games li")).to_have_count(1)
    # a recent game says what it came to for this player, and the day it was made
    expect(spectator.locator("#profile-games li .outcome")).to_have_text("Going on")
    expect(spectator.locator("#profile-games li")).to_contain_text(
        re.compile(r" · \d{1,2} [A-Z][a-z]{2} \d{4}$")
    )
    expect(spectator.locator("#profile-no-ratings")).to_be_visible()  # not over yet
    shot(spectator, "profile")
    for context in (ann_context, bob_context, phone_context, spectator_context):
        context.close()
    assert not errors


HOSTILE = "<svg onload=alert(1)>"
"""A name that is markup and script (24 characters at most, as names are; no ``/``,
which names may not hold: issue 51)."""


def test_a_name_of_markup_and_script_is_text_everywhere_it_shows(
    browser: Any, app_url: str
) -> None:
    dialogs: list[str] = []
    contexts = [browser.new_context(locale="en-GB") for _ in range(3)]
    evil, bob, watcher = (context.new_page() for context in contexts)

    def refuse(dialog: Any) -> None:  # a script that ran would open one
        dialogs.append(dialog.message)
        dialog.dismiss()

    for page in (evil, bob, watcher):
        page.on("dialog", refuse)
    evil.goto(app_url + "/")
    choose_name(evil, HOSTILE)
    expect(evil.locator("#me-name")).to_have_text(HOSTILE)
    evil.goto(app_url + "/lobby")
    evil.locator("#challenge-game").select_option("stairs")
    evil.get_by_role("button", name="Open the game").click()
    evil.wait_for_url(re.compile(r"/m/"))
    bob.goto(app_url + "/lobby")
    row = bob.locator(".challenge").filter(has_text=HOSTILE)
    expect(row).to_have_count(1)  # the lobby
    row.get_by_role("button", name="Accept").click()
    bob.wait_for_url(re.compile(r"/m/"))
    expect(bob.locator("#seats")).to_contain_text(HOSTILE)  # the seats
    watcher.goto(app_url + "/lobby")
    expect(watcher.locator(".live-game").filter(has_text=HOSTILE)).to_have_count(1)
    bob.goto(app_url + "/my")
    expect(bob.locator(".my-game").filter(has_text=HOSTILE)).to_have_count(1)  # my games
    watcher.goto(app_url + "/p/" + urllib.parse.quote(HOSTILE, safe=""))
    expect(watcher.locator("#profile-name")).to_have_text(HOSTILE)  # the profile
    for page in (evil, bob, watcher):
        assert page.locator("svg[onload]").count() == 0
    assert dialogs == []
    for context in contexts:
        context.close()


RATED_GAMES = [
    ("stairs", "Stairs", 2, "stairs size=6"),
    ("twenty_seven", "27", 2, "twenty_seven variant=basic"),
    ("ishigaki_race", "Ishigaki Race", 3, "ishigaki_race"),
    ("city_of_stairs", "City of Stairs", 2, "city_of_stairs"),
]


def resign(page: Any) -> None:
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()


def test_strangers_play_a_rated_game_of_each_game_and_their_ratings_change(
    browser: Any, app_url: str
) -> None:
    """Each of the four games from the lobby, rated, one of them with three seats; every
    person resigns in turn until the game is over; the profiles then show a rating for
    each game, and "My games" the finished games."""
    contexts = [browser.new_context(locale="en-GB") for _ in range(3)]
    pages = [context.new_page() for context in contexts]
    errors: list[str] = []
    names = [f"Rater {letter}" for letter in "ABC"]
    for page, name in zip(pages, names, strict=True):
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(app_url + "/")
        choose_name(page, name)
        expect(page.locator("#me-name")).to_have_text(name)
    for game, title, seats, _pool in RATED_GAMES:
        opener, *others = pages[:seats]
        opener.goto(app_url + "/lobby")
        opener.locator("#challenge-game").select_option(game)
        if seats > 2:
            opener.locator("#challenge-players").select_option(str(seats))
            opener.locator("#challenge-people").select_option(str(seats))
        opener.locator("#challenge-rated").check()
        opener.get_by_role("button", name="Open the game").click()
        opener.wait_for_url(re.compile(r"/m/"))
        for page in others:
            page.goto(app_url + "/lobby")
            row = page.locator(".challenge").filter(has_text=title).filter(has_text=names[0])
            row.get_by_role("button", name="Accept").click()
            page.wait_for_url(re.compile(r"/m/"))
        for page in pages[:seats]:  # each resigns while the game goes on
            over_or_playing = page.locator("#result:visible, #resign:visible")
            expect(over_or_playing.first).to_be_visible()
            if page.locator("#resign").is_visible():
                resign(page)
                expect(page.get_by_role("button", name="Resign")).to_be_hidden()
        for page in pages[:seats]:
            expect(page.locator("#result")).to_be_visible()
    pages[1].goto(app_url + "/p/" + urllib.parse.quote(names[0]))
    rows = pages[1].locator("#profile-ratings tr")
    expect(rows).to_have_count(len(RATED_GAMES))
    shown = {row.locator("td").first.inner_text() for row in rows.all()}
    assert shown == {"Stairs · 6×6 board", "27 · basic variant", "Ishigaki Race", "City of Stairs"}
    for row in rows.all():  # provisional after one rated game; "1" rated game
        cells = [cell.inner_text() for cell in row.locator("td").all()]
        assert cells[1].endswith("?") and cells[3] == "1", cells
    pages[0].goto(app_url + "/my")
    expect(pages[0].locator(".my-game")).to_have_count(len(RATED_GAMES))
    shot(pages[1], "profile-after-four-rated-games")
    for context in contexts:
        context.close()
    assert not errors
