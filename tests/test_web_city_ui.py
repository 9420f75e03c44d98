"""City of Stairs through the page, in Debian's Chromium, against the real web app
(``create_app`` on a temporary SQLite, served by uvicorn in a thread): whole games with
people at one screen passing the device, computer levels and friends online; card files
uploaded from the home page; the phone-sized screen and Japanese. Screenshots go to
``test-artifacts/`` (git-ignored). Without /usr/bin/chromium or Playwright they skip."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stairgames.games.city_of_stairs.cards import default_cards_text
from stairgames.server.app import create_app
from stairgames.server.base.settings import Settings
from tests.browser_helpers import ARTIFACTS, BROWSER_WAIT_MS, serving

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
except ImportError:  # the browser tests skip
    PlaywrightTimeout = TimeoutError  # type: ignore[misc,assignment]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("city-web")
    with serving(create_app(Settings(data_dir=data, computer_workers=0, loop_guard=True))) as url:
        yield url


def new_page(browser: Any, server: str, width: int = 1100, height: int = 900) -> Any:
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.base_url = server
    return page


def close(page: Any) -> None:
    errors = page.errors
    page.context.close()
    assert not errors, f"errors in the page: {errors}"


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def set_up(page: Any, players: int, seats: list[str]) -> None:
    """The home page: City of Stairs, ``players`` seats of the given kinds."""
    page.goto(page.base_url + "/")
    page.get_by_label("City of Stairs", exact=True).check()
    page.get_by_label("Players", exact=True).select_option(str(players))
    for seat, kind in enumerate(seats):
        page.locator(f'#seat-list select[data-seat="{seat}"]').select_option(kind)


def start(page: Any) -> None:
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"/m/"))


def show_a_persons_board(page: Any) -> None:
    """Tap the cover until a person's board is drawn: if the computer moves meanwhile,
    the device passes to the next person and the cover asks again."""
    for _ in range(20):
        page.wait_for_function(
            """() => document.querySelector('#board .cos-cell') ||
                !document.querySelector('#pass-cover').hidden"""
        )
        if page.locator("#board .cos-cell").count():
            return
        try:
            page.locator("#pass-show").click(timeout=2000)
        except PlaywrightTimeout:
            continue  # the cover was replaced meanwhile: look again
    raise AssertionError("no person's board was ever shown")


def take_one_step(page: Any) -> str:
    """Whatever the page asks of the person at it now: tap the cover, choose a way on
    a stroll, or place a stock card; "" when nothing is asked (someone else's turn)."""
    covered = page.evaluate(
        """() => document.querySelector('#pass-cover').hidden ? null : [
            document.querySelector('#board').childElementCount,
            document.querySelector('#moves').childElementCount]"""
    )
    if covered is not None:  # read at one instant: nothing of the seat's view under it
        assert covered == [0, 0], f"drawn under the cover: {covered}"
        try:  # a cover that another state replaced meanwhile is asked again next time
            page.locator("#pass-show").click(timeout=2000)
        except PlaywrightTimeout:
            return ""
        return "cover"
    try:  # (what was asked may have been redrawn meanwhile: asked again next time)
        choices = page.locator("#board .cos-choice")
        if choices.count():
            choices.first.click(timeout=2000)
            return "choice"
        stock = page.locator("#board .cos-stock[role=button]")
        if stock.count():
            if not page.locator("#board .cos-stock[aria-pressed=true]").count():
                stock.first.click(timeout=2000)
            target = page.locator("#board .cos-cell.target")
            target.first.click(timeout=2000)
            return "place"
    except PlaywrightTimeout:
        pass
    return ""


def may_place(page: Any) -> bool:
    return bool(page.locator("#board .cos-stock[role=button]").count())


def at_a_choice(page: Any) -> bool:
    return bool(page.locator("#board .cos-choice").count())


ASKED_MOVED_OR_OVER = """n => !document.querySelector('#pass-cover').hidden ||
    document.querySelector('#board .cos-choice, #board .cos-stock[role=button]') ||
    document.querySelector('#moves').childElementCount !== n ||
    !document.querySelector('#result').hidden"""
"""In a page: whether it asks something of the person at it (the cover, a way to choose,
a stock card to place), its move list is no longer ``n`` moves long, or the game is
over."""

ROUNDS = 4 * 289
"""The most rounds of looking at the pages a whole game takes: a few for each of the
moves of a game of four (289 at most, proven by the engine: ``max_game_length``)."""

MOVED_OR_COVERED = """n => document.querySelector('#moves').childElementCount !== n ||
    !document.querySelector('#pass-cover').hidden"""
"""In a page: whether its move list is no longer ``n`` moves long, or the device is
to be passed on."""

HANG_GUARD_SECONDS = 300.0
"""A game still going on after this long hangs (a whole game takes some seconds)."""


def play_to_the_end(page: Any, until: Any = None) -> list[str]:
    """Play the page's turns until the game is over (or ``until(page)`` holds); while
    nothing is asked (the computer's turn), wait until something is or the game moves
    on."""
    deadline = time.monotonic() + HANG_GUARD_SECONDS
    done: list[str] = []
    for _ in range(ROUNDS):
        assert time.monotonic() < deadline, f"the game hangs after {len(done)} steps"
        if page.locator("#result").is_visible():
            return done
        if until is not None and until(page):
            return done
        before = moves_shown(page)
        step = take_one_step(page)
        if step:
            done.append(step)
        if step in ("place", "choice"):
            page.wait_for_function(MOVED_OR_COVERED, arg=before, timeout=30_000)
        elif not step:
            page.wait_for_function(ASKED_MOVED_OR_OVER, arg=before, timeout=30_000)
    raise AssertionError(f"the game did not end in {ROUNDS} rounds after {len(done)} steps")


def moves_shown(page: Any) -> int:
    count: int = page.evaluate("() => document.querySelector('#moves').childElementCount")
    return count


@pytest.mark.parametrize(
    "seats",
    [["human", "human", "computer:easy"], ["human", "computer:easy", "human", "human"]],
    ids=["3-seats", "4-seats"],
)
def test_people_at_one_screen_pass_the_device_and_play_a_whole_game_with_the_computer(
    browser, server, seats
):
    page = new_page(browser, server)
    count = len(seats)
    try:
        set_up(page, count, seats)
        shot(page, f"city-home-{count}")
        start(page)
        cover = page.locator("#pass-cover")
        cover.wait_for()
        passed_to = page.locator("#pass-text").inner_text()
        assert re.match(r"Pass the device to (red|blue|green|yellow)$", passed_to), passed_to
        assert page.locator("#board > *").count() == 0
        shot(page, f"city-pass-the-device-{count}")
        show_a_persons_board(page)
        mine = page.locator("#board .cos-departure[aria-label^='Your departure card']")
        mine.wait_for(timeout=5000)
        assert mine.count() == 1
        shot(page, f"city-building-{count}")
        steps = play_to_the_end(page, until=may_place)  # the computer may start
        page.locator("#board .cos-stock[role=button]").first.click()
        assert page.locator("#board .cos-cell.target").count() >= 1
        shot(page, f"city-stock-selected-{count}")
        steps += play_to_the_end(page, until=at_a_choice)
        shot(page, f"city-stroll-choice-{count}")
        walker = page.locator("#board .cos-choice").first.get_attribute("aria-label")
        assert walker and walker[0] in "↖↗↺≈"
        traces = page.locator("#board .cos-trace").count()
        page.reload()  # mid-stroll: the walker's seat again (its card is public now)
        page.locator("#board .cos-choice").first.wait_for()
        assert not page.locator("#pass-cover").is_visible()
        assert page.locator("#board .cos-trace").count() == traces
        steps += play_to_the_end(page)
        assert steps.count("cover") >= 2 and "place" in steps and "choice" in steps
        result = page.locator("#result").inner_text()
        assert re.search(r"(red|blue|green|yellow) \d+", result), result
        scores = page.locator("#board .cos-score").all_text_contents()
        assert len(scores) == count and all(re.match(r"\d+ points?\b", s) for s in scores)
        assert page.locator("#board .cos-trace").count() >= count
        shot(page, f"city-over-{count}")
    finally:
        close(page)


def test_an_online_game_between_browsers_never_shows_a_departure_card_early(browser, server):
    host = new_page(browser, server)
    guest = new_page(browser, server)
    try:
        set_up(host, 3, ["human", "online", "computer:easy"])
        start(host)
        guest.goto(host.url)
        guest.locator("#board .cos-cell").first.wait_for()
        host.locator("#board .cos-cell").first.wait_for()
        assert not host.locator("#pass-cover").is_visible()
        pages = [host, guest]
        deadline = time.monotonic() + HANG_GUARD_SECONDS
        for _ in range(ROUNDS):
            if all(p.locator("#result").is_visible() for p in pages):
                break
            assert time.monotonic() < deadline, "the online game hangs"
            before = [moves_shown(page) for page in pages]
            acted = False
            for page, me in ((host, "red"), (guest, "blue")):
                assert not board_has_departure_of_someone_else_before_stroll(page, me)
                acted = bool(take_one_step(page)) or acted
            if not acted:  # the computer's turn, or a page not drawn yet: wait for it
                wait_for_the_next_turn(pages, before)
        else:
            raise AssertionError(f"the online game did not end in {ROUNDS} rounds")
        shot(guest, "city-online-over")
        reasons = [p.locator("#result .reason").inner_text() for p in pages]
        assert reasons[0] == reasons[1] and re.search(r"Red \d+, blue \d+, green \d+", reasons[0])
    finally:
        close(host)
        close(guest)


def wait_for_the_next_turn(pages: list[Any], before: list[int]) -> None:
    """Wait until the page of the seat the server's match waits for (a page for each
    seat from the first; the first page for a computer's seat) asks its person, shows
    more moves than ``before`` (each page's count), or shows the end."""
    view = match_view(pages[0])
    seat = view["to_act"]
    index = seat if seat is not None and seat < len(pages) else 0
    pages[index].wait_for_function(ASKED_MOVED_OR_OVER, arg=before[index], timeout=30_000)


def board_has_departure_of_someone_else_before_stroll(page: Any, me: str | None) -> bool:
    """A face-up departure card of another seat (any seat, for a spectator: ``me`` None)
    that has not begun its stroll."""
    return bool(
        page.evaluate(
            """me => [...document.querySelectorAll('#board .cos-seat')].some(seat =>
                seat.dataset.seat !== me && seat.dataset.strolled !== 'true' &&
                seat.querySelector('.cos-departure-up'))""",
            me,
        )
    )


def test_a_card_file_is_uploaded_from_the_home_page_or_refused_in_japanese(
    browser, server, tmp_path: Path
):
    good = tmp_path / "mine.toml"
    good.write_text(default_cards_text().replace("reconstruction 1", "reconstruction mine"))
    bad = tmp_path / "bad.toml"
    bad.write_text(default_cards_text().replace("points = 3", "points = -3"))
    page = new_page(browser, server)
    try:
        set_up(page, 2, ["human", "computer:easy"])
        page.locator("#file-cards").set_input_files(str(bad))
        status = page.locator(".file-status")
        status.filter(has_text="not a valid City of Stairs card set").wait_for()
        page.locator("#lang").select_option("ja")
        page.get_by_label("階段の街", exact=True).check()
        page.locator("#file-cards").set_input_files(str(bad))
        page.locator(".file-status").filter(has_text="階段の街").wait_for()
        shot(page, "city-card-file-refused-ja")
        page.locator("#lang").select_option("en")
        page.get_by_label("City of Stairs", exact=True).check()
        page.locator("#file-cards").set_input_files(str(good))
        page.locator(".file-status").filter(has_text="is ready").wait_for()
        assert "reconstruction mine" in page.locator("#option-cards").inner_text()
        start(page)
        page.locator("#board .cos-cell").first.wait_for()
        assert page.locator("#board .cos-stock").count() == 2
        # a stock card dragged onto a cell where it may go is placed there
        play_to_the_end(page, until=may_place)
        stock = page.locator("#board .cos-stock[role=button]").first
        card = stock.get_attribute("data-stock")
        stock.click()
        cell = page.locator("#board .cos-cell.target").last.get_attribute("data-cell")
        stock.click()  # selected no more
        assert page.locator("#board .cos-cell.target").count() == 0
        start_box = page.locator(f'#board [data-stock="{card}"]').bounding_box()
        end_box = page.locator(f'#board [data-cell="{cell}"]').bounding_box()
        page.mouse.move(start_box["x"] + 30, start_box["y"] + 30)
        page.mouse.down()
        page.mouse.move(end_box["x"] + 20, end_box["y"] + 20, steps=8)
        page.mouse.move(end_box["x"] + 30, end_box["y"] + 30, steps=2)
        page.mouse.up()
        expect_text = f"{card}@{cell}"
        page.locator(f'#moves .move[data-move="{expect_text}"]').wait_for()
    finally:
        close(page)


def test_the_city_fits_a_phone_in_japanese(browser, server):
    page = new_page(browser, server, 360, 740)
    try:
        page.goto(server + "/")
        page.locator("#lang").select_option("ja")
        page.get_by_label("階段の街", exact=True).check()
        page.locator('#seat-list select[data-seat="1"]').select_option("computer:easy")
        page.get_by_role("button", name="開始").click()
        page.wait_for_url(re.compile(r"/m/"))
        page.locator("#board .cos-cell").first.wait_for()
        box = page.locator("#board").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.locator("#board .cos-stock[role=button]").first.click()
        shot(page, "city-phone-ja")
        page.keyboard.press("Tab")
        cell = page.locator("#board .cos-cell.target").first
        cell.focus()
        cell.press("Enter")
        page.wait_for_function("() => document.querySelector('#moves').childElementCount > 5")
    finally:
        close(page)


def test_three_friends_online_play_a_whole_game_while_a_fourth_watches(browser, server):
    """A creates a 3-seat game with two "friend online" seats and shares the invite link;
    B and C open it and take the free seats; D opens it once they are taken and watches.
    Each person clicks their own moves; every page is checked, at every move, for another
    seat's departure card drawn before its stroll, and the spectator is offered nothing."""
    pages = [new_page(browser, server) for _ in range(4)]
    host, watcher = pages[0], pages[3]
    try:
        set_up(host, 3, ["human", "online", "online"])
        start(host)
        host.locator("#board .cos-cell").first.wait_for()
        host.locator("#invite").wait_for()
        link = host.locator("#invite-link").input_value()
        assert link == host.url, link
        shot(host, "city-online-invite")
        for page in pages[1:3]:  # one at a time: each takes the first seat still free
            page.goto(link)
            page.locator("#board .cos-cell").first.wait_for()
        host.locator("#invite").wait_for(state="hidden")  # every seat taken
        watcher.goto(link)
        watcher.locator("#board .cos-cell").first.wait_for()
        seats = [seat_of(page) for page in pages]
        assert seats == [0, 1, 2, None], seats
        watcher.locator("#watching").wait_for()
        colours = [c["colour"] for c in match_view(host)["board"]["seats"]]
        for page in pages[:3]:  # the checks can fail: each sees its own card (as nobody's)
            assert board_has_departure_of_someone_else_before_stroll(page, None)
            assert moves_name_departure_of_someone_else_before_stroll(page, None)
        moves, acted_by = play_online(pages, seats, colours)
        assert {seat for seat, _ in acted_by} == {0, 1, 2} and moves > 20, (moves, acted_by)
        assert {step for _, step in acted_by} == {"place", "choice"}, acted_by
        for page, name in zip(pages, "abcd", strict=True):
            shot(page, f"city-online-over-{name}")
        reasons = {page.locator("#result .reason").inner_text() for page in pages}
        assert len(reasons) == 1, reasons
        assert re.search(r"Red \d+, blue \d+, green \d+", reasons.pop())
        assert watcher.locator("#board .cos-departure-up").count() == 3
    finally:
        for page in pages:
            close(page)


def seat_of(page: Any) -> int | None:
    """The seat the page's list calls "(you)", or None for a spectator."""
    labels = page.locator("#seats li").all_inner_texts()
    mine = [i for i, label in enumerate(labels) if label.endswith("(you)")]
    assert len(mine) <= 1, labels
    return mine[0] if mine else None


def match_view(page: Any) -> Any:
    """What the server shows a spectator of the page's match now (the truth to wait for)."""
    match = page.url.rsplit("/m/", 1)[1]
    response = page.context.request.get(f"{page.base_url}/api/matches/{match}")
    assert response.ok, response.status
    return response.json()


def play_online(
    pages: list[Any], seats: list[int | None], colours: list[str]
) -> tuple[int, list[tuple[int, str]]]:
    """Play to the end: wait until every page shows the server's latest move list, check
    every page, then the page of the seat to act clicks its move. The number of moves and
    each person's move as (seat, "place" or "choice") come back."""
    deadline = time.monotonic() + HANG_GUARD_SECONDS
    acted_by: list[tuple[int, str]] = []
    shot_choice = False
    while True:
        assert time.monotonic() < deadline, f"the online game hangs after {acted_by}"
        view = match_view(pages[0])
        count = len(view["history"])
        for page in pages:
            page.wait_for_function(
                """([n, over]) => document.querySelector('#moves').childElementCount === n &&
                    document.querySelector('#result').hidden === !over""",
                arg=[count, view["result"] is not None],
                timeout=BROWSER_WAIT_MS,
            )
        for page, seat in zip(pages, seats, strict=True):
            me = None if seat is None else colours[seat]
            assert not board_has_departure_of_someone_else_before_stroll(page, me), me
            assert not moves_name_departure_of_someone_else_before_stroll(page, me), me
            assert not page.locator("#pass-cover").is_visible()
        spectator_cannot_act(pages[-1])
        if view["result"] is not None:
            return count, acted_by
        actor = view["to_act"]
        assert actor in seats, view["to_act"]
        page = pages[seats.index(actor)]
        if not shot_choice and at_a_choice(page):
            shot(page, "city-online-stroll-choice")
            shot(pages[-1], "city-online-spectator")
            shot_choice = True
        step = take_one_step(page)
        assert step in ("place", "choice"), f"seat {actor} was offered nothing: {step!r}"
        acted_by.append((actor, step))
        page.wait_for_function(
            "n => document.querySelector('#moves').childElementCount > n",
            arg=count,
            timeout=BROWSER_WAIT_MS,
        )


def moves_name_departure_of_someone_else_before_stroll(page: Any, me: str | None) -> bool:
    """A deal in the move list's notation ("deal 4 to green", each move's ``data-move``;
    its words say every deal face down) that names the card of another seat
    (any seat, for a spectator) that has not begun its stroll; read at one instant."""
    return bool(
        page.evaluate(
            """me => {
                const waiting = [...document.querySelectorAll('#board .cos-seat')]
                    .filter(s => s.dataset.seat !== me && s.dataset.strolled !== 'true')
                    .map(s => s.dataset.seat);
                return [...document.querySelectorAll('#moves .move')].some(move => {
                    const deal = /deal (\\S+) to (\\S+)$/.exec(move.dataset.move.trim());
                    return deal !== null && deal[1] !== '?' && waiting.includes(deal[2]);
                });
            }""",
            me,
        )
    )


def spectator_cannot_act(page: Any) -> None:
    """Nothing on the spectator's board or controls can be clicked to make a move, and a
    click on a stock card selects nothing."""
    assert page.locator("#watching").is_visible()
    offered = "#board .cos-stock[role=button], #board .cos-choice, #board .cos-cell.target"
    assert page.locator(f"{offered}, #board .cos-cell.open").count() == 0
    assert page.locator("#words button").count() == 0
    assert not page.locator("#resign").is_visible()
    stock = page.locator("#board .cos-stock")
    if stock.count():
        stock.first.click(timeout=2000)
        assert page.locator("#board .cos-cell.target, #board .cos-selected-ring").count() == 0
