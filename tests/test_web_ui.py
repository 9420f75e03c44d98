"""The browser front end (web/static and each game's board.js), driven in Chromium.

The browser tests run the real static files against the real web app (``create_app`` on
a temporary SQLite, served by uvicorn in a thread), so that the home page shows every
game as ``GET /api/games`` serves it, and drawing, clicking, keyboard play, the language
switch, reconnecting and the phone layout are exercised as people meet them. Screenshots
of each board are kept under ``test-artifacts/`` (git-ignored). They need Debian's
Chromium at /usr/bin/chromium (``apt-get install -y chromium``) and skip with a message
without it.
"""

import json
import random
import re
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import stairgames
from stairgames.core.game import State
from stairgames.core.registry import game_names, get_spec
from stairgames.web.messages import BROWSER_MESSAGES
from tests.browser_helpers import checked_page, expect, serving, shot

PACKAGE = Path(stairgames.__file__).parent
STATIC = PACKAGE / "web" / "static"
FRONT_END_FILES = [
    *sorted(STATIC.glob("*.js")),
    *sorted(STATIC.glob("*.html")),
    *sorted(PACKAGE.glob("games/*/view/*.js")),
]

_CALL = re.compile(r'\b(?:t|N_)\(\s*"((?:[^"\\]|\\.)*)"')
_ATTRIBUTE = re.compile(r'data-i18n(?:-label)?="([^"]*)"')
LEVELS = ("easy", "medium", "hard", "expert")
"""Message ids the front end translates from the server's data (t(level))."""


def front_end_message_ids() -> set[str]:
    ids: set[str] = set()
    for path in FRONT_END_FILES:
        text = path.read_text(encoding="utf-8")
        ids |= set(_CALL.findall(text)) | set(_ATTRIBUTE.findall(text))
    return ids


def test_every_front_end_text_is_listed_for_the_catalog():
    missing = front_end_message_ids() - set(BROWSER_MESSAGES)
    assert not missing, f"add to stairgames/web/messages.py: {sorted(missing)}"


def test_the_listed_browser_messages_are_all_used():
    unused = set(BROWSER_MESSAGES) - front_end_message_ids() - set(LEVELS)
    assert not unused, f"no longer used by the front end: {sorted(unused)}"


def test_the_front_end_ships_as_package_data():
    for name in ("index.html", "app.js", "style.css", "i18n.js"):
        assert (STATIC / name).is_file()
    import tomllib

    pyproject = tomllib.loads((PACKAGE.parent.parent / "pyproject.toml").read_text())
    data = pyproject["tool"]["setuptools"]["package-data"]["stairgames"]
    assert {"**/*.js", "**/*.html", "**/*.css"} <= set(data)


# ----- the real server ---------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real web app (``create_app`` on a temporary SQLite, its computer players in a
    thread) served by uvicorn: its base URL."""
    pytest.importorskip("fastapi", reason="the web app needs fastapi")
    from stairgames.server.app import create_app
    from stairgames.server.base.limits import Rate
    from stairgames.server.base.settings import Settings

    data = tmp_path_factory.mktemp("web-ui")
    # the pages of this file come from one address and start a match in nearly every test
    generous = Rate(per_minute=6000, burst=600)
    settings = Settings(
        data_dir=data, computer_workers=0, loop_guard=True, matches_per_minute=generous
    )
    with serving(create_app(settings)) as url:
        yield url


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    with checked_page(browser, server, height=800) as opened:
        yield opened


def start(page: Any, game_title: str, opponent: str = "The computer") -> None:
    page.goto(page.base_url + "/")
    page.get_by_label(game_title, exact=True).check()
    page.get_by_label(opponent, exact=True).check()
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"/m/"))


def square(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def height_of(page: Any, name: str) -> Any:
    """The height drawn on the square ``name`` (beside its button, not in it: the button
    is named by its place alone)."""
    return page.locator(f'#board [data-height-of="{name}"] .height')


def targets(page: Any) -> set[str]:
    names = page.locator("#board .target").evaluate_all(
        "nodes => nodes.map(n => n.getAttribute('aria-label'))"
    )
    return set(names)


def served_games(base_url: str) -> list[dict[str, Any]]:
    """What the server's ``GET /api/games`` answers."""
    with urllib.request.urlopen(base_url + "/api/games", timeout=30) as reply:
        listing: list[dict[str, Any]] = json.load(reply)
    return listing


def test_the_home_page_offers_every_game_the_server_lists_with_its_setup(page):
    listing = served_games(page.base_url)
    names = [game["name"] for game in listing]
    assert sorted(names) == game_names()
    assert all(game["web"] for game in listing), "every game has a browser board"
    page.goto(page.base_url + "/")
    cards = page.locator("#game-list .game-card")
    expect(cards).to_have_count(len(listing))
    assert cards.evaluate_all("cards => cards.map(c => c.dataset.game)") == names
    titles = page.locator("#game-list label").all_inner_texts()
    assert [title.strip() for title in titles] == [game["title"] for game in listing]
    for game in listing:
        page.get_by_label(game["title"], exact=True).check()
        expect(page.locator("#setup-heading")).to_have_text(f"New game: {game['title']}")
        drawn = page.locator("#options [data-option]").evaluate_all(
            "inputs => inputs.map(i => i.dataset.option)"
        )
        assert drawn and set(drawn) <= {option["name"] for option in game["options"]}
        if game["seats_by_players"]:  # a seat list: a chooser for each seat
            counts = page.locator('#options [data-option="players"] option').all_inner_texts()
            assert counts == list(game["seats_by_players"])
            players = page.locator('#options [data-option="players"]').input_value()
            for name in seats_at(game, int(players)):
                expect(page.get_by_label(f"Who plays {name}", exact=True)).to_be_visible()
            assert page.get_by_label("The computer", exact=True).is_hidden()
        else:  # two seats: the person picks theirs and an opponent
            assert page.locator("#my-seat option").all_inner_texts() == game["seat_names"]
            assert page.get_by_label("The computer", exact=True).is_visible()
    page.get_by_label("Stairs", exact=True).check()
    assert page.get_by_label("Pie rule (the second player may swap colours)").is_visible()
    page.get_by_label("27", exact=True).check()
    variant = page.get_by_label("Variant")
    assert variant.locator("option").all_inner_texts() == ["basic", "advanced", "expert"]
    shot(page, "home")


def test_a_game_listed_without_a_browser_board_is_not_offered(page):
    """A game the server lists with ``"web": false`` (one it can run but not draw in a
    browser) gets no card: the real listing, Ishigaki Race marked so."""

    def without_a_board(route: Any) -> None:
        listing = route.fetch().json()
        for game in listing:
            if game["name"] == "ishigaki_race":
                game["web"] = False
        route.fulfill(json=listing)

    listed = [game["name"] for game in served_games(page.base_url)]
    page.route("**/api/games", without_a_board)
    page.goto(page.base_url + "/")
    cards = page.locator("#game-list .game-card")
    expect(cards).to_have_count(len(listed) - 1)
    offered = cards.evaluate_all("cards => cards.map(c => c.dataset.game)")
    assert offered == [name for name in listed if name != "ishigaki_race"]
    assert page.get_by_label("Ishigaki Race", exact=True).count() == 0
    chosen = page.locator('#game-list input[name="game"]:checked').input_value()
    assert chosen in offered
    title = get_spec(chosen).title
    expect(page.locator("#setup-heading")).to_have_text(f"New game: {title}")


@pytest.mark.parametrize("name", game_names())
def test_every_game_starts_from_the_home_page_and_draws_its_board(page, name):
    """Each game as served: chosen on the home page with its default setup (a person at
    this screen against the computer), started, its board drawn by its board.js and its
    seats named as the listing names them."""
    game = next(game for game in served_games(page.base_url) if game["name"] == name)
    page.goto(page.base_url + "/")
    page.get_by_label(game["title"], exact=True).check()
    if not game["seats_by_players"]:
        page.get_by_label("The computer", exact=True).check()
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"/m/"))
    players = game_default(game, "players")
    seats = seats_at(game, players) if game["seats_by_players"] else game["seat_names"]
    expect(page.locator("#seats li")).to_have_count(len(seats))
    said = page.locator("#seats li").all_inner_texts()
    for text, seat in zip(said, seats, strict=True):
        assert text.startswith(seat), (text, seat)
    assert any("(you)" in text for text in said)
    page.wait_for_function("() => document.querySelector('#board').childElementCount > 0")
    expect(page.locator("#match-error")).to_have_text("")
    shot(page, f"{name}-started")


def game_default(game: dict[str, Any], option: str) -> Any:
    """The default of ``option`` in a game of the listing (``None`` without it)."""
    return next((o["default"] for o in game["options"] if o["name"] == option), None)


def seats_at(game: dict[str, Any], players: int) -> list[str]:
    """The names of the seats of a game of the listing played by ``players``."""
    names: list[str] = game["seats_by_players"][str(players)][:players]
    return names


# ----- Stairs -----------------------------------------------------------------------


def reaches(state: State, source: str) -> set[str]:
    """The squares the legal moves from ``source`` reach, by the rules engine."""
    moves = [state.action_to_string(a) for a in state.legal_actions()]
    return {move[3:] for move in moves if move.startswith(source + "-")}


D3_REACHES = reaches(stairgames.load("stairs").new_initial_state(), "d3")


def test_stairs_board_has_every_square_as_a_named_button(page):
    start(page, "Stairs")
    for file in "abcdef":
        for rank in "123456":
            assert square(page, file + rank).get_attribute("tabindex") == "0"
    assert page.locator("#board [role=button]").count() == 36
    description = square(page, "a1").get_attribute("aria-description")
    assert description == "dark on top, height 1"
    shot(page, "stairs-start")


def test_stairs_click_a_piece_highlights_its_legal_destinations_then_plays(page):
    start(page, "Stairs")
    square(page, "d3").click()
    assert square(page, "d3").get_attribute("aria-pressed") == "true"
    assert targets(page) == D3_REACHES
    shot(page, "stairs-selected")
    square(page, "c4").click()
    page.locator("#moves .move").nth(1).wait_for()
    assert page.locator("#moves .move").nth(0).inner_text() == "d3-c4"
    page.wait_for_function("() => document.querySelector('#board [data-height-of=\"c4\"] .height')")
    reply = page.locator("#moves .move").nth(1).inner_text()  # the computer's
    assert "last-to" in (square(page, reply[3:]).get_attribute("class") or "")
    assert "last-from" in (square(page, reply[:2]).get_attribute("class") or "")
    assert height_of(page, "c4").text_content() == "2"
    assert targets(page) == set()
    shot(page, "stairs-after-move")


def test_stairs_a_piece_that_cannot_move_selects_nothing(page):
    start(page, "Stairs")
    square(page, "a1").click()  # a dark piece: light moves first
    assert targets(page) == set()
    assert square(page, "a1").get_attribute("aria-pressed") is None


def test_stairs_on_a_4x4_board_draws_16_squares_and_plays_a_click(page):
    """S8: the size option in the form; the board is drawn the size the view says."""
    page.goto(page.base_url + "/")
    page.get_by_label("Stairs", exact=True).check()
    page.get_by_label("Board size (3 to 8 squares a side)").fill("4")
    page.get_by_label("The computer", exact=True).check()
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"/m/"))
    square(page, "d4").wait_for()
    assert page.locator("#board [role=button]").count() == 16
    assert square(page, "e1").count() == 0 and square(page, "a5").count() == 0
    four = stairgames.load("stairs", size=4).new_initial_state()
    square(page, "b1").click()
    assert targets(page) == reaches(four, "b1")
    square(page, "a1").click()
    page.locator("#moves .move").nth(1).wait_for()
    assert page.locator("#moves .move").nth(0).inner_text() == "b1-a1"
    assert height_of(page, "a1").text_content() == "2"
    shot(page, "stairs-4x4")


def test_stairs_plays_by_keyboard_with_arrows_enter_and_space(page):
    start(page, "Stairs")
    square(page, "d3").focus()
    page.keyboard.press("Enter")
    assert targets(page) == D3_REACHES
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowLeft")
    focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert focused == "c4"
    page.keyboard.press(" ")
    page.locator("#moves .move").nth(1).wait_for()
    assert page.locator("#moves .move").nth(0).inner_text() == "d3-c4"


def test_the_controls_are_reachable_by_tab_with_names(page):
    start(page, "Stairs")
    seen = set()
    for _ in range(60):
        page.keyboard.press("Tab")
        name = page.evaluate(
            "(() => { const e = document.activeElement;"
            " return e.getAttribute('aria-label') || e.textContent.trim(); })()"
        )
        seen.add(name)
    assert {"Resign", "Download the record", "Rules", "a1", "f6"} <= seen


def test_resign_shows_the_result_and_steps_through_the_finished_game(page):
    start(page, "Stairs")
    square(page, "d3").click()
    square(page, "c4").click()
    page.locator("#moves .move").nth(1).wait_for()  # the computer's reply, in round 1
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()
    result = page.locator("#result")
    result.wait_for()
    assert result.inner_text().split("\n") == ["You lose", "Light resigns"]
    assert page.get_by_role("button", name="Rematch").is_visible()
    page.get_by_role("button", name="First").click()
    expect(page.locator("#replay-step")).to_have_text("Move 0 of 2")
    expect(height_of(page, "c4")).to_have_text("1")
    page.get_by_role("button", name="Next").click()
    expect(page.locator("#replay-step")).to_have_text("Move 1 of 2")
    expect(height_of(page, "c4")).to_have_text("2")
    assert "current" in (page.locator("#moves .move").nth(0).get_attribute("class") or "")
    page.get_by_role("button", name="Last").click()
    expect(page.locator("#replay-step")).to_have_text("Move 2 of 2")
    shot(page, "stairs-replay")


def test_a_rematch_is_followed_with_the_seat_moved_one_on(page):
    start(page, "Stairs")
    first = page.url
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Resign").click()
    page.get_by_role("button", name="Rematch").click()
    page.wait_for_url(lambda url: url != first)
    page.locator("#moves .move").nth(0).wait_for()
    assert page.locator("#seats li").nth(1).inner_text() == "dark (you)"
    assert page.locator("#turn").inner_text() == "Your move"
    # the board turns for dark: a1 at the top right
    a1 = square(page, "a1").bounding_box()
    f6 = square(page, "f6").bounding_box()
    assert a1 is not None and f6 is not None and a1["x"] > f6["x"] and a1["y"] < f6["y"]
    shot(page, "stairs-rematch-as-dark")


BANNER_WATCH = """
window.__banners = [];
new MutationObserver(() => {
  const banner = document.getElementById("banner");
  window.__banners.push(banner.hidden ? null : banner.textContent);
}).observe(document.getElementById("banner"),
  { attributes: true, childList: true, characterData: true, subtree: true });
"""
"""Keeps in ``window.__banners`` each state the banner passes through: its text, or
``null`` once hidden (so no state is missed, however briefly it shows)."""


def test_reconnecting_banner_shows_while_the_connection_is_lost(page):
    """The connection closed under the page (as a server restarting closes it): the page
    says it is reconnecting, connects again, hides the banner and plays on."""
    connections: list[Any] = []

    def through_to_the_server(socket: Any) -> None:
        socket.connect_to_server()
        connections.append(socket)

    page.route_web_socket(re.compile(r"/ws/matches/"), through_to_the_server)
    start(page, "Stairs")
    square(page, "a1").wait_for()
    assert len(connections) == 1
    page.evaluate(BANNER_WATCH)
    connections[0].close(code=1012, reason="service restart")
    page.wait_for_function("() => window.__banners.includes('Reconnecting…')")
    page.wait_for_function("() => window.__banners.at(-1) === null")
    assert len(connections) == 2
    assert page.evaluate("window.__banners")[0] == "Reconnecting…"
    square(page, "d3").click()
    square(page, "c4").click()
    page.locator("#moves .move").nth(1).wait_for()
    assert page.locator("#moves .move").nth(0).inner_text() == "d3-c4"


def test_a_move_made_while_disconnected_is_kept_and_sent_once_back(page):
    """Issue 55: a move clicked while the socket is closed (an outage) was dropped. It is
    kept, the page says so, and it is sent once the socket is back, the game unchanged."""
    connections: list[Any] = []
    refused: list[Any] = []
    blocked = [False]

    def through_unless_blocked(socket: Any) -> None:
        if blocked[0]:
            refused.append(socket)
            socket.close(code=1012, reason="service restart")
            return
        socket.connect_to_server()
        connections.append(socket)

    page.route_web_socket(re.compile(r"/ws/matches/"), through_unless_blocked)
    start(page, "Stairs")
    square(page, "a1").wait_for()
    blocked[0] = True
    connections[0].close(code=1012, reason="service restart")
    expect(page.locator("#banner")).to_have_text("Reconnecting…")
    square(page, "d3").click()
    square(page, "c4").click()
    expect(page.locator("#match-error")).to_have_text(
        "Not connected: your move is sent once the connection is back"
    )
    assert page.locator("#moves .move").count() == 0
    blocked[0] = False  # the server is back: the next try gets through
    page.locator("#moves .move").nth(1).wait_for()  # ours, then the computer's answer
    assert page.locator("#moves .move").nth(0).inner_text() == "d3-c4"
    assert len(connections) == 2


def test_the_seat_token_is_kept_per_match_and_used_after_a_reload(page):
    start(page, "Stairs")
    match_id = page.url.rsplit("/", 1)[1]
    stored = page.evaluate(f"localStorage.getItem('stairgames.match.{match_id}')")
    assert stored and '"seat":0' in stored
    page.reload()
    square(page, "d3").click()
    assert targets(page) == D3_REACHES


def test_invite_link_is_shown_for_a_friend_online(page):
    start(page, "Stairs", opponent="A friend online (invite link)")
    link = page.get_by_label("Invite link", exact=True)
    link.wait_for()
    assert link.input_value() == page.url


def test_a_friend_joins_through_the_invite_link_and_leaves(page, browser):
    start(page, "Stairs", opponent="A friend online (invite link)")
    link = page.get_by_label("Invite link", exact=True)
    link.wait_for()
    friend_context = browser.new_context()
    friend = friend_context.new_page()
    friend.goto(link.input_value())
    friend.locator("#seats").wait_for()
    page.get_by_text("dark joined").wait_for()
    assert page.get_by_label("Invite link", exact=True).is_hidden()
    assert friend.locator("#seats li").nth(1).inner_text() == "dark (you)"
    square(page, "d3").click()
    square(page, "c4").click()
    friend.locator("#moves .move").nth(0).wait_for()
    assert friend.locator("#turn").inner_text() == "Your move"
    friend_context.close()
    page.get_by_text("dark left").wait_for()


def test_spectators_watch_without_controls(page, browser):
    start(page, "Stairs")
    watcher_context = browser.new_context()
    watcher = watcher_context.new_page()
    watcher.goto(page.url)
    watcher.locator("#board [aria-label=a1]").wait_for()
    assert watcher.get_by_role("button", name="Resign").is_hidden()
    assert watcher.locator("#turn").inner_text() == "light to move"
    watcher.get_by_role("button", name="d3", exact=True).click()
    assert watcher.locator("#board .target").count() == 0
    watcher_context.close()


def test_a_board_whose_script_loads_while_someone_comes_in_is_still_drawn(page, browser):
    """Who is connected arrives as a presence message, which replaces the page's view
    with a copy and draws no board: a render waiting for the board's script then still
    draws (it once gave up, leaving an empty board, when a spectator came in meanwhile)."""
    start(page, "Stairs", opponent="A friend online (invite link)")
    link = page.get_by_label("Invite link", exact=True)
    link.wait_for()
    friend_context = browser.new_context(locale="en-GB")
    friend = friend_context.new_page()
    held: list[Any] = []
    friend.route("**/games/stairs/board.js", lambda route: held.append(route))  # held
    friend.goto(link.input_value())
    friend.locator("#seats li").nth(1).wait_for()
    watcher_context = browser.new_context()
    watcher_context.new_page().goto(page.url)
    friend.get_by_text("Spectators: 1").wait_for()
    assert held and friend.locator("#board > *").count() == 0
    held[0].continue_()
    friend.locator("#board [aria-label=a1]").wait_for()
    watcher_context.close()
    friend_context.close()


def test_placeholders_are_filled_as_python_formats_them(page):
    page.goto(page.base_url + "/")
    page.locator("#game-list label").first.wait_for()
    filled = page.evaluate(
        "import('/static/i18n.js').then(m => m.t("
        "'unknown game {name!r}; available: {games}', {name: 'chess', games: 'stairs'}))"
    )
    assert filled == "unknown game 'chess'; available: stairs"


def finished_city_of_stairs_result_and_error() -> tuple[dict[str, Any], dict[str, Any], Any]:
    """What the server sends for a City of Stairs game won by one seat (``result``) and
    for a placement refused with a nested reason (``error``), with the engine's texts."""
    from stairgames.core.chance import sample_chance_outcome
    from stairgames.core.errors import IllegalMoveError
    from stairgames.server.base.store import EventRecord, MatchRecord, SeatRecord
    from stairgames.server.play.matches import Match, error_json

    rng = random.Random(3)
    state = stairgames.load("city_of_stairs", players=3).new_initial_state()
    events: list[EventRecord] = []
    error: IllegalMoveError | None = None
    while not state.is_terminal():
        seat = None if state.is_chance_node() else state.current_player()
        if seat is not None and error is None:
            card = state.action_to_string(state.legal_actions()[0]).split("@")[0]
            try:
                state.clone().apply_move(f"{card}@g4")
            except IllegalMoveError as refused:
                error = refused
        legal = state.legal_actions()
        action = sample_chance_outcome(state, rng) if seat is None else rng.choice(legal)
        move = state.action_to_string(action)
        events.append(EventRecord(len(events) + 1, "move", seat, {"move": move}))
        state.apply_action(action)
    seats = tuple(SeatRecord(seat, "human", None, None) for seat in range(3))
    match = Match(MatchRecord("m", "city_of_stairs", {"players": 3}, 1, None, seats, tuple(events)))
    result = match.result()
    assert result is not None and error is not None and len(result["winners"]) == 1
    return result, error_json(error), (state.outcome(), error)


def test_a_japanese_result_and_error_with_nested_texts_read_without_english(page):
    from stairgames.i18n import localize, set_language, translate

    result, error, (outcome, refused) = finished_city_of_stairs_result_and_error()
    start(page, "Stairs")
    page.get_by_label("Language").select_option("ja")
    page.get_by_role("button", name="降参").wait_for()
    said = page.evaluate(
        "([r, e]) => import('/static/i18n.js').then(m => "
        "[m.t(r.reason_id, r.reason_args), m.t(e.id, e.args)])",
        [result, error],
    )
    set_language("ja")
    assert said == [localize(outcome.text), translate(refused)]
    move = refused.arguments["text"]
    for text in said:
        assert not re.search(r"[A-Za-z]{3,}", text.replace(move, "")), text
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="降参").click()
    shown = page.locator("#result")
    shown.wait_for()
    assert shown.inner_text().split("\n") == ["あなたの負け", "白が降参しました"]


# ----- 27 ---------------------------------------------------------------------------


def test_twenty_seven_line_has_every_field_and_plays_a_chosen_count(page):
    start(page, "27")
    for field in range(9):
        assert square(page, str(field)).get_attribute("tabindex") == "0"
    # each stack in words, its count with the noun's form for it (ui.ngettext: issue 51)
    assert square(page, "0").get_attribute("aria-description") == "10 discs, white on top"
    assert square(page, "1").get_attribute("aria-description") == "1 disc, grey on top"
    shot(page, "twenty_seven-start")
    square(page, "0").click()
    assert targets(page) == {"1"}
    page.keyboard.press("3")
    assert page.locator("#board .disc.picked").count() == 3
    shot(page, "twenty_seven-selected")
    square(page, "1").click()
    page.locator("#moves .move").nth(1).wait_for()
    moves = page.locator("#moves .move").all_inner_texts()  # 0:3, the computer's reply
    assert moves[0] == "0:3" and len(moves) == 2
    state = stairgames.load("twenty_seven").new_initial_state()
    for move in moves:
        state.apply_move(move)
    draw = get_spec("twenty_seven").web_view
    assert draw is not None
    went = draw(state, None)["last"]["to"]  # where the reply's discs went
    expect(square(page, str(went))).to_have_class(re.compile(r"\blast-to\b"))
    assert page.locator("#board .last-to").count() == 1
    shot(page, "twenty_seven-after-move")


def test_twenty_seven_plays_by_keyboard(page):
    start(page, "27")
    square(page, "0").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    page.locator("#moves .move").nth(1).wait_for()
    assert page.locator("#moves .move").nth(0).inner_text() == "0:3"


def test_two_people_at_one_screen_play_both_sides(page):
    start(page, "27", opponent="A person at this screen")
    square(page, "0").click()
    page.keyboard.press("3")
    square(page, "1").click()
    page.locator("#moves .move").nth(0).wait_for()
    square(page, "8").click()
    assert targets(page) == {"7"}
    square(page, "7").click()
    page.locator("#moves .move").nth(1).wait_for()
    assert page.locator("#moves .move").all_inner_texts() == ["0:3", "8:1"]
    assert "last-to" in (square(page, "7").get_attribute("class") or "")
    assert page.get_by_role("button", name="Undo").is_visible()
    shot(page, "twenty_seven-one-screen")


# ----- language and layout ----------------------------------------------------------


def test_language_switches_at_any_time_and_is_remembered(page):
    start(page, "Stairs")
    page.get_by_label("Language").select_option("ja")
    page.get_by_role("button", name="降参").wait_for()
    assert page.locator("#turn").inner_text() == "あなたの番です"
    assert square(page, "a1").get_attribute("aria-description") == "一番上は黒、高さ1"
    shot(page, "stairs-japanese")
    page.reload()
    page.get_by_role("button", name="降参").wait_for()
    assert page.evaluate("document.documentElement.lang") == "ja"
    page.get_by_label("言語").select_option("en")
    page.get_by_role("button", name="Resign").wait_for()


@pytest.mark.parametrize("game", ["Stairs", "27"])
def test_phone_layout_fits_360_by_740(browser, server, game):
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)
    page = context.new_page()
    page.base_url = server
    try:
        start(page, game)
        board = page.locator("#board").bounding_box()
        assert board is not None and board["x"] >= 0 and board["x"] + board["width"] <= 360
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        name = "stairs" if game == "Stairs" else "twenty_seven"
        shot(page, f"{name}-phone")
    finally:
        context.close()


def test_a_shared_win_names_every_winner_in_the_pages_language(page):
    """Several winners (City of Stairs shares a win on equal points): the headline names
    them all, said by i18n.js as the Python catalog says it."""
    from stairgames.i18n import Names, Text, localize, set_language

    start(page, "Stairs")
    page.get_by_label("Language").select_option("ja")
    page.get_by_role("button", name="降参").wait_for()
    said = page.evaluate(
        "() => import('/static/i18n.js').then(m => m.t('{names} share the win',"
        " {names: {names: [{id: 'red'}, {id: 'blue'}], and: true}}))"
    )
    set_language("ja")
    expected = localize(
        Text("{names} share the win", {"names": Names((Text("red"), Text("blue")))})
    )
    assert said == expected and "赤" in said and "青" in said
    assert not re.search(r"[A-Za-z]", said)
