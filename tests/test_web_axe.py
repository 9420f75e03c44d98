"""axe-core (``node_modules/axe-core/axe.min.js``, installed by ``npm ci``) finds no
violation of impact serious or critical on any page of the site, in English and in
Japanese: the home page, a game, the screen-reader mode, the lobby, my games, a profile,
the analysis board, puzzles, tournaments and the account pages (docs/accessibility.md).

The real web app runs in a thread; Debian's Chromium at /usr/bin/chromium drives the
pages (without it, or without axe-core, the tests skip and say why).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")

PAGES: tuple[tuple[str, str, str], ...] = (
    ("home", "/", "#game-list .game-card"),
    ("game", "/m/{match}", "#board [aria-label=a1]"),
    ("screen-reader mode", "/m/{match}?nvui=1", "#nvui-said p"),
    ("a finished game, watched", "/m/{finished}", "#result:not([hidden])"),
    ("27", "/m/{twenty_seven}", "#board > *"),
    ("Ishigaki Race", "/m/{ishigaki_race}", "#board > *"),
    ("City of Stairs", "/m/{city_of_stairs}", "#board > *"),
    ("lobby", "/lobby", "#lobby h1"),
    ("my games", "/my", "#my-games h1"),
    ("profile", "/p/{player}", "#profile-name:not(:empty)"),
    ("analysis board", "/analysis", "#analysis-board h1"),
    ("puzzles", "/puzzles", "#puzzles h1"),
    ("tournaments", "/tournaments", "#tournaments h1"),
    ("account", "/account", "#heading"),
    ("reset password", "/reset-password", "h1"),
    ("confirm e-mail", "/confirm-email", "h1"),
    ("unsubscribe", "/unsubscribe", "h1"),
)
"""Each page: a name, its address (with the match and player made for the test), and
what shows once the page has drawn itself."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The web app, a game of Stairs between this browser's player and the computer, and
    that player's name."""
    if not AXE.is_file():
        pytest.skip(f"axe-core is missing at {AXE}: npm ci")
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings
    from tests.browser_helpers import serving
    from tests.server_helpers import TEST_PLAYERS

    settings = Settings(
        data_dir=tmp_path_factory.mktemp("axe"),
        computer_workers=0,
        computer_players=TEST_PLAYERS,
    )
    with serving(create_app(settings)) as url:
        yield {"url": url}


GAMES = ("stairs", "twenty_seven", "ishigaki_race", "city_of_stairs")


def new_match(page: Any, game: str, **made_with: Any) -> str:
    """A new game against the computer, its seat's token kept as the page keeps it (or as
    ``made_with`` says: its ``options`` and ``seats``)."""
    body = {"game": game, "options": {}, "seats": ["human", "computer:random"], **made_with}
    made: dict[str, Any] = page.evaluate(
        """async (body) => {
          const made = await fetch("/api/matches", {method: "POST",
            headers: {"content-type": "application/json"}, body: JSON.stringify(body)});
          return await made.json();
        }""",
        body,
    )
    match = str(made["match"])
    seats = [s for s in made["seats"] if "token" in s]
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"stairgames.match.{match}", json.dumps(seats)],
    )
    return match


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations of impact serious or critical on the page as it is."""
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = page.evaluate(
        """async () => {
          const result = await axe.run(document, {resultTypes: ["violations"]});
          return result.violations.map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map((n) => n.target.join(" ")),
          }));
        }"""
    )
    return [{**v, "nodes": v["nodes"][:5]} for v in found if v["impact"] in SERIOUS and v["nodes"]]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_no_page_has_a_serious_accessibility_violation(browser, site, lang):
    from tests.browser_helpers import expect

    context = browser.new_context(
        bypass_csp=True,  # to inject axe-core, as a browser extension would
        locale="ja-JP" if lang == "ja" else "en-GB",
        viewport={"width": 1100, "height": 900},
    )
    context.add_init_script(script=f"localStorage.setItem('stairgames.lang', {json.dumps(lang)});")
    page = context.new_page()
    try:
        page.goto(site["url"] + "/")
        matches = {game: new_match(page, game) for game in GAMES}
        computers = ["computer:random", "computer:random"]  # a game that ends by itself
        matches["finished"] = new_match(page, "stairs", options={"size": 3}, seats=computers)
        player = page.evaluate(
            """async () => {
              const named = await fetch("/api/me", {method: "POST",
                headers: {"content-type": "application/json"},
                body: JSON.stringify({name: "Reader"})});
              return (await named.json()).name;
            }"""
        )
        found: dict[str, list[dict[str, Any]]] = {}
        for name, path, ready in PAGES:
            page.goto(site["url"] + path.format(match=matches["stairs"], player=player, **matches))
            expect(page.locator(ready).first).to_be_visible()
            assert page.locator("html").get_attribute("lang") == lang, name
            violations = axe_violations(page)
            if violations:
                found[name] = violations
            if "nvui" in path:  # the mode stays on: off again for the other games
                page.evaluate("localStorage.setItem('stairgames.nvui', '0')")
        assert not found, json.dumps(found, indent=1, ensure_ascii=False)
    finally:
        context.close()
