"""What new players ran into in the browser (issue 27): the move list of a long game, its
narration, the Rules panel, the results' capitals and the home page's game cards.

The real web app runs in a thread (uvicorn, SQLite in a temporary folder); each long game
is played to its end through the web contract (one WebSocket a seat, from inside the
page), then the page of seat 0 is opened on it. Screenshots of every game's page at the
end of its game and of the home page, on a desktop (1280×800) and a phone (390×844), in
English and Japanese, are kept under ``test-artifacts/`` (git-ignored). Debian's Chromium
at /usr/bin/chromium drives the pages; without it the tests skip and say why.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_helpers import expect, serving, shot, watch_content_security_policy

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SCREENS = {"desktop": DESKTOP, "phone": PHONE}
GAMES = {
    "stairs": ({}, 2),
    "twenty_seven": ({}, 2),
    "ishigaki_race": ({"players": 2}, 2),
    "city_of_stairs": ({"players": 2}, 2),
}

PLAY_TO_THE_END = """
async ({game, options, seats}) => {
  const made = await fetch("/api/matches", {method: "POST",
    headers: {"content-type": "application/json"},
    body: JSON.stringify({game, options, seats: Array(seats).fill("human")})});
  const data = await made.json();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const sockets = [];
  await new Promise((resolve, reject) => {
    let sent = -1;
    for (const held of data.seats) {
      const url = `${scheme}://${location.host}/ws/matches/${data.match}?auth=message`;
      const socket = new WebSocket(url);
      socket.onopen = () => socket.send(JSON.stringify({type: "hello", token: held.token}));
      sockets.push(socket);
      socket.onerror = () => reject(new Error("the socket failed"));
      socket.onmessage = (message) => {
        const view = JSON.parse(message.data);
        if (view.type === "error") reject(new Error(JSON.stringify(view.error)));
        if (view.type !== "state") return;
        if (view.result) { resolve(); return; }
        if (view.to_act !== held.seat || view.event <= sent || !view.legal.length) return;
        const moves = view.legal.filter((m) => !["offer", "accept"].includes(m));
        sent = view.event;
        socket.send(JSON.stringify({type: "move", event: view.event,
          move: moves[(view.event * 7919 + 13) % moves.length]}));
      };
    }
  });
  for (const socket of sockets) socket.close();
  return {match: data.match, seats: data.seats.filter((held) => held.seat === 0)};
}
"""
"""Plays a game to its end in the page (each seat's legal moves, the same choice every
time, never an offer): the match id and seat 0's token."""

LIST_FACTS = """
() => {
  const list = document.getElementById("moves");
  const box = list.getBoundingClientRect();
  const items = [...list.querySelectorAll("li")];
  const last = items[items.length - 1].getBoundingClientRect();
  const broken = [...list.querySelectorAll(".move:not(.word)")].filter((move) =>
    move.getClientRects().length !== 1 ||
    move.getBoundingClientRect().height > 1.6 * parseFloat(getComputedStyle(move).lineHeight ||
      "20"));
  return {
    entries: items.map((item) => item.textContent),
    box: [box.left, box.right, box.top, box.bottom],
    last: [last.left, last.right, last.top, last.bottom],
    spills: list.scrollWidth > list.clientWidth + 1,
    outside: items.filter((item) => { const r = item.getBoundingClientRect();
      return r.left < box.left - 1 || r.right > box.right + 1; }).length,
    broken: broken.map((move) => move.textContent),
    viewport: window.innerWidth,
    pageWidth: document.documentElement.scrollWidth,
  };
}
"""


@pytest.fixture(scope="module")
def app_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    data_dir: Path = tmp_path_factory.mktemp("move-list")
    settings = Settings(
        data_dir=data_dir,
        computer_workers=0,
        loop_guard=True,
        messages_per_second=1e4,
        message_burst=1e4,
    )
    with serving(create_app(settings)) as url:
        yield url


@pytest.fixture(scope="module")
def finished(browser: Any, app_url: str) -> dict[str, dict[str, Any]]:
    """Each game played to its end: its match id and seat 0's token."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(app_url + "/")
    matches = {
        game: page.evaluate(PLAY_TO_THE_END, {"game": game, "options": opts, "seats": seats})
        for game, (opts, seats) in GAMES.items()
    }
    context.close()
    return matches


def open_page(
    browser: Any,
    url: str,
    viewport: dict[str, int],
    lang: str,
    storage: dict[str, str] | None = None,
) -> tuple[Any, Any]:
    """A page of its own browser context in ``lang``, with ``storage`` in its local storage
    (a seat's token)."""
    context = browser.new_context(viewport=viewport, locale="ja-JP" if lang == "ja" else "en-GB")
    violations: list[str] = []
    watch_content_security_policy(context, violations)
    kept = {"stairgames.lang": lang, **(storage or {})}
    context.add_init_script(
        script="".join(
            f"localStorage.setItem({json.dumps(k)}, {json.dumps(v)});" for k, v in kept.items()
        )
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.violations = violations
    page.goto(url)
    return context, page


def open_finished(
    browser: Any, url: str, played: dict[str, Any], viewport: dict[str, int], lang: str
) -> Any:
    """The page of seat 0 of a finished game."""
    match = played["match"]
    tokens = {f"stairgames.match.{match}": json.dumps(played["seats"])}
    context, page = open_page(browser, f"{url}/m/{match}", viewport, lang, tokens)
    expect(page.locator("#resign")).to_be_hidden()
    expect(page.locator("#rematch")).to_be_visible()  # a player's page, not a spectator's
    expect(page.locator("#result")).to_be_visible()
    page.wait_for_function(
        "() => document.querySelectorAll('#moves li').length > 0 &&"
        " document.getElementById('board').childElementCount > 0"
    )
    return context, page


def tokens_with_letters(entries: list[str]) -> set[str]:
    return {word for entry in entries for word in re.findall(r"[A-Za-z][A-Za-z0-9:@-]*", entry)}


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_move_list_of_a_long_game_shows_the_newest_move_in_its_box(
    browser: Any, app_url: str, finished: dict[str, dict[str, Any]], game: str, screen: str
) -> None:
    """Every move is listed, one entry a round (two players, notation) or a told move, in a
    box that scrolls to the newest; nothing spills out of it or off a phone's screen and
    no move is broken across lines. Screenshots at the end of the game, in both languages."""
    for lang in ("en", "ja"):
        context, page = open_finished(browser, app_url, finished[game], SCREENS[screen], lang)
        try:
            history = page.evaluate(
                "async (m) => (await (await fetch(`/api/matches/${m}`)).json()).history",
                finished[game]["match"],
            )
            facts = page.evaluate(LIST_FACTS)
            told = game in ("ishigaki_race", "city_of_stairs")
            expected = len(history) if told else (len(history) + 1) // 2
            assert len(history) >= 20
            assert len(facts["entries"]) == expected
            assert facts["entries"][-1].startswith(f"{expected}.")
            assert not facts["spills"] and facts["outside"] == 0
            assert facts["broken"] == []
            left, right, top, bottom = facts["box"]
            last = facts["last"]
            assert top - 1 <= last[2] and last[3] <= bottom + 1, facts  # the newest in sight
            assert left >= 0 and right <= facts["viewport"]
            assert facts["pageWidth"] <= facts["viewport"]
            if not told:
                first = re.sub(r"\s+", " ", facts["entries"][0])
                assert first.startswith("1.") and history[1] in first
            shot(page, f"move-list-{game}-{screen}-{lang}")
            assert not page.errors and not page.violations
        finally:
            context.close()


@pytest.mark.parametrize("game", ["ishigaki_race", "city_of_stairs"])
def test_dice_draws_and_deals_are_told_in_the_pages_language(
    browser: Any, app_url: str, finished: dict[str, dict[str, Any]], game: str
) -> None:
    """Ishigaki Race and City of Stairs tell their moves as the terminal does ("Red rolls
    6."), never in notation (die:6, start:1, draw P10, deal ? to blue); in Japanese no
    English word is left (card ids and cells, P10@e1's P10 and e1, are not words)."""
    context, page = open_finished(browser, app_url, finished[game], DESKTOP, "en")
    try:
        entries = page.evaluate(LIST_FACTS)["entries"]
        text = " ".join(entries)
        assert not re.search(r"\b(die|start):\d|\bdraw [PE]\d|\bdeal [?\d]|\b(roll|stop)$", text)
        if game == "ishigaki_race":
            assert re.search(r"\b(Red|Blue) starts\.", entries[0])
            assert re.search(r"\b(Red|Blue) rolls \d\.", entries[1])
        else:
            assert re.search(r"\b(Red|Blue) starts\.", entries[0])
            assert "Drawn into the stock: " in entries[1]
            assert any(" places " in entry for entry in entries)
    finally:
        context.close()
    context, page = open_finished(browser, app_url, finished[game], DESKTOP, "ja")
    try:
        entries = page.evaluate(LIST_FACTS)["entries"]
        words = tokens_with_letters(entries)
        names = {w for w in words if not re.fullmatch(r"[PE]\d\d|[a-g][1-4]", w)}
        assert names == set(), entries
    finally:
        context.close()


@pytest.mark.parametrize("game", ["stairs", "twenty_seven"])
def test_moves_that_are_words_are_translated(
    browser: Any, app_url: str, finished: dict[str, dict[str, Any]], game: str
) -> None:
    """Stairs and 27 list their notation; a pass (or a swap, an offer) is a word, and in
    Japanese it is said in Japanese."""
    context, page = open_finished(browser, app_url, finished[game], DESKTOP, "ja")
    try:
        entries = page.evaluate(LIST_FACTS)["entries"]
        words = tokens_with_letters(entries)
        assert not words & {"pass", "swap", "offer", "accept", "decline"}
    finally:
        context.close()


@pytest.mark.parametrize("game", list(GAMES))
def test_every_games_rules_panel_holds_its_rules_from_the_server(
    browser: Any, app_url: str, finished: dict[str, dict[str, Any]], game: str
) -> None:
    context, page = open_finished(browser, app_url, finished[game], DESKTOP, "en")
    try:
        summary = page.evaluate(
            "async (g) => (await (await fetch('/api/games')).json())"
            ".find((x) => x.name === g).rules_summary",
            game,
        )
        page.get_by_role("button", name="Rules").click()
        paragraphs = page.locator("#rules-text p")
        expect(paragraphs).to_have_count(len(summary))
        assert len(summary) >= 3
        assert paragraphs.first.text_content() == summary[0]
    finally:
        context.close()


@pytest.mark.parametrize("game", list(GAMES))
def test_the_result_starts_with_a_capital(
    browser: Any, app_url: str, finished: dict[str, dict[str, Any]], game: str
) -> None:
    context, page = open_finished(browser, app_url, finished[game], DESKTOP, "en")
    try:
        head = page.locator("#result strong").text_content() or ""
        reason = page.locator("#result .reason").text_content() or ""
        for text in (head, reason):
            assert text and text[0] == text[0].upper() and text[0].isalpha(), (head, reason)
    finally:
        context.close()


def test_a_resignation_reads_with_a_capital(browser: Any, app_url: str) -> None:
    context, page = open_page(browser, app_url + "/", DESKTOP, "en")
    try:
        page.get_by_label("Stairs", exact=True).check()
        page.get_by_label("A person at this screen", exact=True).check()
        page.get_by_role("button", name="Start").click()
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_role("button", name="Resign").click()
        expect(page.locator("#result .reason")).to_have_text(re.compile(r"^(Light|Dark) resigns$"))
    finally:
        context.close()


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_home_page_presents_each_game_on_a_card(
    browser: Any, app_url: str, screen: str
) -> None:
    """The site's name, then a card for each game: a picture of its board (drawn by its
    board.js), its players, its length and a line about it; choosing a card (a click
    anywhere on it) sets up that game below."""
    for lang in ("en", "ja"):
        context, page = open_page(browser, app_url + "/", SCREENS[screen], lang)
        try:
            cards = page.locator(".game-card")
            expect(cards).to_have_count(4)
            expect(page.locator(".top .brand")).to_have_text("stairgames")
            expect(page.locator("main#home h1")).to_have_text("stairgames")
            page.wait_for_function(
                "() => [...document.querySelectorAll('.game-card svg')]"
                ".every((svg) => svg.childElementCount > 3)"
            )
            for index in range(4):
                card = cards.nth(index)
                assert (card.locator(".game-facts").text_content() or "").strip()
                assert (card.locator(".game-about").text_content() or "").strip()
                box = card.bounding_box()
                assert box is not None and box["x"] >= 0
                assert box["x"] + box["width"] <= SCREENS[screen]["width"]
            assert (
                page.evaluate("document.documentElement.scrollWidth") <= (SCREENS[screen]["width"])
            )
            shot(page, f"home-{screen}-{lang}")
            if lang == "en":
                expect(cards.first.locator(".game-facts")).to_contain_text("players")
                card = page.locator(".game-card[data-game='twenty_seven']")
                card.locator(".game-picture").click(force=True)
                expect(card).to_have_class(re.compile(r"\bselected\b"))
                expect(page.get_by_label("27", exact=True)).to_be_checked()
                expect(page.locator("#setup-heading")).to_have_text("New game: 27")
                expect(page.get_by_label("Variant", exact=True)).to_be_visible()
                shot(page, f"home-{screen}-{lang}-27-chosen")
            assert not page.errors and not page.violations
        finally:
            context.close()
