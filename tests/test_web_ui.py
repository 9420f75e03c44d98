"""The browser front end (web/static and each game's board.js), driven in Chromium.

The browser tests run the real static files against a small stand-in for the server
(a FastAPI app in this file speaking the web contract, moves through the real rules
engines), so that drawing, clicking, keyboard play, the language switch, reconnecting
and the phone layout are exercised without the backend. Screenshots of each board are
kept under ``test-artifacts/`` (git-ignored). They need Debian's Chromium at
/usr/bin/chromium (``apt-get install -y chromium``) and skip with a message without it.
"""

import random
import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import stairgames
from stairgames.core.game import State
from stairgames.core.registry import get_spec
from stairgames.i18n import Text, arguments_json
from stairgames.web.messages import BROWSER_MESSAGES
from tests.browser_helpers import chromium, expect, serving, shot

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


# ----- a stand-in server speaking the web contract ---------------------------------

GAMES: list[dict[str, Any]] = [
    {
        "name": "stairs",
        "title": "Stairs",
        "options": [
            {"name": "pie_rule", "type": "bool", "default": False, "choices": None},
            {"name": "agreement", "type": "bool", "default": True, "choices": None},
            {"name": "size", "type": "int", "default": 6, "choices": None},
        ],
        "seat_names": ["light", "dark"],
        "levels": list(LEVELS),
    },
    {
        "name": "twenty_seven",
        "title": "27",
        "options": [
            {
                "name": "variant",
                "type": "str",
                "default": "basic",
                "choices": ["basic", "advanced", "expert"],
            }
        ],
        "seat_names": ["white", "black"],
        "levels": list(LEVELS),
    },
    {
        "name": "ishigaki_race",
        "title": "Ishigaki Race",
        "options": [],
        "seat_names": ["red", "blue"],
        "levels": list(LEVELS),
        "web": False,
    },
]


class FakeMatch:
    """One match: the real rules engine, seats with tokens, events."""

    def __init__(self, game: str, options: dict[str, Any], seats: list[str]) -> None:
        self.id = secrets.token_urlsafe(12)
        self.game = game
        self.options = options
        self.state: State = stairgames.load(game, **options).new_initial_state()
        self.kinds = ["computer" if s.startswith("computer") else s for s in seats]
        self.levels = [s.split(":")[1] if s.startswith("computer:") else None for s in seats]
        self.tokens = {seat: secrets.token_urlsafe(8) for seat in range(len(seats))}
        self.joined = {seat for seat, kind in enumerate(self.kinds) if kind == "human"}
        self.event = 0
        self.result: dict[str, Any] | None = None
        self.rematch: str | None = None
        self.sockets: list[tuple[Any, int | None]] = []

    def seat_of(self, token: str | None) -> int | None:
        for seat, known in self.tokens.items():
            if token == known:
                return seat
        return None

    def view(self, you: int | None) -> dict[str, Any]:
        state = self.state
        over = state.is_terminal() or self.result is not None
        to_act = None if over else state.current_player()
        legal = (
            [state.action_to_string(a) for a in state.legal_actions()]
            if to_act is not None and to_act == you
            else []
        )
        history = state.history_strings()
        spec = get_spec(self.game)
        assert spec.web_view is not None
        names = state.get_game().info().seat_names
        connected = {seat for _, seat in self.sockets if seat is not None}
        return {
            "type": "state",
            "match": self.id,
            "event": self.event,
            "game": self.game,
            "options": self.options,
            "title": spec.title,
            "seats": [
                {
                    "seat": seat,
                    "name": names[seat],
                    "kind": kind,
                    "label": names[seat],
                    "connected": kind == "computer" or seat in connected,
                    "taken": kind != "online" or seat in self.joined,
                    "level": self.levels[seat],
                }
                for seat, kind in enumerate(self.kinds)
            ],
            "you": you,
            "to_act": to_act,
            "legal": legal,
            "history": history,
            "last_move": history[-1] if history else None,
            "board": spec.web_view(state, you),
            "result": self.result,
            "offer": None,
            "takeback": None,
            "thinking": False,
            "rematch": self.rematch,
            "can_undo": you is not None and self.result is None and "online" not in self.kinds,
            "can_takeback": you is not None and self.result is None and "online" in self.kinds,
        }

    def play(self, move: str) -> None:
        self.state.apply_move(move)
        self.event += 1
        while not self.state.is_terminal():
            seat = self.state.current_player()
            if self.kinds[seat] != "computer":
                break
            self.state.apply_action(self.state.legal_actions()[0])
            self.event += 1


def japanese_catalog() -> dict[str, str]:
    from babel.messages.pofile import read_po

    path = PACKAGE / "locale" / "ja" / "LC_MESSAGES" / "stairgames.po"
    with path.open("rb") as po:
        catalog = read_po(po)
    return {
        m.id: m.string
        for m in catalog
        if isinstance(m.id, str) and m.id and isinstance(m.string, str) and m.string
    }


def make_fake_app() -> Any:
    from fastapi import FastAPI, WebSocket, WebSocketDisconnect
    from fastapi.responses import FileResponse, JSONResponse, Response
    from fastapi.staticfiles import StaticFiles

    app = FastAPI()
    matches: dict[str, FakeMatch] = {}
    app.state.matches = matches
    catalog = japanese_catalog()

    @app.get("/")
    @app.get("/m/{match}")
    def index(match: str = "") -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/games/{game}/board.js")
    def board_js(game: str) -> Response:
        assets = get_spec(game).web_assets
        assert assets is not None
        return Response((assets / "board.js").read_text(), media_type="text/javascript")

    @app.get("/api/games")
    def games() -> list[dict[str, Any]]:
        return GAMES

    @app.get("/api/i18n/{lang}")
    def i18n(lang: str) -> dict[str, Any]:
        return {"lang": lang, "messages": catalog if lang == "ja" else {}}

    @app.post("/api/matches")
    def create(body: dict[str, Any]) -> dict[str, Any]:
        match = FakeMatch(body["game"], body.get("options", {}), body["seats"])
        matches[match.id] = match
        if match.kinds[0] == "computer":
            match.play(match.state.action_to_string(match.state.legal_actions()[0]))
        held = [
            {"seat": seat, "token": match.tokens[seat]}
            for seat, kind in enumerate(match.kinds)
            if kind == "human"
        ]
        return {"match": match.id, "seats": held, "invite": f"/m/{match.id}"}

    @app.post("/api/matches/{match_id}/join")
    def join(match_id: str) -> Any:
        match = matches[match_id]
        for seat, kind in enumerate(match.kinds):
            if kind == "online" and seat not in match.joined:
                match.joined.add(seat)
                return {"seat": seat, "token": match.tokens[seat]}
        error = {"id": "no free seat", "message": "no free seat", "args": {}}
        return JSONResponse({"error": error}, status_code=409)

    @app.get("/api/matches/{match_id}")
    def spectator_view(match_id: str) -> Any:
        return matches[match_id].view(None)

    @app.get("/api/matches/{match_id}/replay")
    def replay(match_id: str) -> Any:
        match = matches[match_id]
        spec = get_spec(match.game)
        assert spec.web_view is not None
        state = stairgames.load(match.game, **match.options).new_initial_state()
        frames: list[dict[str, Any]] = [{"move": None, "board": spec.web_view(state, None)}]
        for move in match.state.history_strings():
            state.apply_move(move)
            frames.append({"move": move, "board": spec.web_view(state, None)})
        return {"match": match_id, "frames": frames}

    @app.post("/test/drop/{match_id}")
    async def drop(match_id: str) -> dict[str, int]:
        match = matches[match_id]
        dropped = list(match.sockets)
        match.sockets.clear()
        for websocket, _ in dropped:
            await websocket.close()
        return {"dropped": len(dropped)}

    async def announce(match: FakeMatch) -> None:
        for websocket, seat in list(match.sockets):
            await websocket.send_json(match.view(seat))

    @app.websocket("/ws/matches/{match_id}")
    async def play(websocket: WebSocket, match_id: str) -> None:
        match = matches[match_id]
        seat = match.seat_of(websocket.query_params.get("token"))
        await websocket.accept()
        match.sockets.append((websocket, seat))
        await announce(match)
        try:
            while True:
                request = await websocket.receive_json()
                if request.get("event") != match.event and request["type"] != "sync":
                    error = {"id": "stale", "message": "stale", "args": {}}
                    await websocket.send_json({"type": "error", "error": error})
                elif request["type"] == "move":
                    match.play(request["move"])
                    await announce(match)
                elif request["type"] == "resign":
                    winner = 1 - (seat or 0)
                    returns = [1, -1] if winner == 0 else [-1, 1]
                    # as the server says it: the seat's name a text in the arguments
                    name = match.state.seat_name(1 - winner)
                    match.result = {
                        "returns": returns,
                        "winners": [winner],
                        "reason": f"{name} resigns",
                        "reason_id": "{name} resigns",
                        "reason_args": arguments_json({"name": Text(name)}),
                    }
                    match.event += 1
                    await announce(match)
                elif request["type"] == "rematch":
                    # the server's rule: the same tokens, each person one seat on
                    kinds = [match.kinds[-1], *match.kinds[:-1]]
                    seats = [
                        f"computer:{level}" if k == "computer" else k
                        for k, level in zip(
                            kinds, [match.levels[-1], *match.levels[:-1]], strict=True
                        )
                    ]
                    new = FakeMatch(match.game, match.options, seats)
                    new.tokens = {(s + 1) % 2: token for s, token in match.tokens.items()}
                    if new.kinds[0] == "computer":
                        new.play(new.state.action_to_string(new.state.legal_actions()[0]))
                    matches[new.id] = new
                    match.rematch = new.id
                    match.event += 1
                    await announce(match)
                else:
                    await websocket.send_json(match.view(seat))
        except WebSocketDisconnect:
            match.sockets = [(w, s) for w, s in match.sockets if w is not websocket]
            await announce(match)

    return app


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Any]]:
    pytest.importorskip("fastapi", reason="the stand-in server needs fastapi")
    pytest.importorskip("uvicorn", reason="the stand-in server needs uvicorn")
    app = make_fake_app()
    with serving(app) as url:
        yield url, app


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as browser:
        yield browser


@pytest.fixture
def page(browser: Any, server: tuple[str, Any]) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1100, "height": 800}, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.base_url = server[0]
    yield page
    context.close()
    assert not errors, f"errors in the page: {errors}"


def start(page: Any, game_title: str, opponent: str = "The computer") -> None:
    page.goto(page.base_url + "/")
    page.get_by_label(game_title, exact=True).check()
    page.get_by_label(opponent, exact=True).check()
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"/m/"))


def square(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def targets(page: Any) -> set[str]:
    names = page.locator("#board .target").evaluate_all(
        "nodes => nodes.map(n => n.getAttribute('aria-label'))"
    )
    return set(names)


def test_the_home_page_offers_only_games_with_a_browser_board(page):
    page.goto(page.base_url + "/")
    page.get_by_label("27", exact=True).wait_for()
    games = page.locator("#game-list label").all_inner_texts()
    assert [g.strip() for g in games] == ["Stairs", "27"]
    assert page.get_by_label("Pie rule (the second player may swap colours)").is_visible()
    page.get_by_label("27", exact=True).check()
    variant = page.get_by_label("Variant")
    assert variant.locator("option").all_inner_texts() == ["basic", "advanced", "expert"]
    shot(page, "home")


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
    page.wait_for_function("document.querySelector('#board [aria-label=\"c4\"] .height')")
    reply = page.locator("#moves .move").nth(1).inner_text()  # the computer's
    assert "last-to" in (square(page, reply[3:]).get_attribute("class") or "")
    assert "last-from" in (square(page, reply[:2]).get_attribute("class") or "")
    assert square(page, "c4").locator(".height").text_content() == "2"
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
    assert square(page, "a1").locator(".height").text_content() == "2"
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
    expect(square(page, "c4").locator(".height")).to_have_text("1")
    page.get_by_role("button", name="Next").click()
    expect(page.locator("#replay-step")).to_have_text("Move 1 of 2")
    expect(square(page, "c4").locator(".height")).to_have_text("2")
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


def test_reconnecting_banner_shows_while_the_connection_is_lost(page, server):
    start(page, "Stairs")
    square(page, "a1").wait_for()
    match_id = page.url.rsplit("/", 1)[1]
    banner = page.locator("#banner")
    page.evaluate(f"fetch('/test/drop/{match_id}', {{method: 'POST'}})")
    banner.wait_for(state="visible")
    assert banner.inner_text() == "Reconnecting…"
    banner.wait_for(state="hidden")
    square(page, "d3").click()
    square(page, "c4").click()
    page.locator("#moves .move").nth(1).wait_for()


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
    from stairgames.server.matches import Match, error_json
    from stairgames.server.store import EventRecord, MatchRecord, SeatRecord

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
    shot(page, "twenty_seven-start")
    square(page, "0").click()
    assert targets(page) == {"1"}
    page.keyboard.press("3")
    assert page.locator("#board .disc.picked").count() == 3
    shot(page, "twenty_seven-selected")
    square(page, "1").click()
    page.locator("#moves .move").nth(1).wait_for()
    assert page.locator("#moves .move").nth(0).inner_text() == "0:3"
    assert "last-to" in (square(page, "1").get_attribute("class") or "") or (
        page.locator("#moves .move").count() > 1
    )
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
    page.base_url = server[0]
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
