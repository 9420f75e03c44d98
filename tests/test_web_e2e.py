"""The web app end to end: the real server (``stairgames serve``) driven in Chromium.

One server runs for the whole file, started as a person starts it (``stairgames serve
--port N --data-dir TMP`` through the command's entry point: SQLite in a temporary folder, the
computer players in the real process pool of one worker). Pages are driven as a person
would, finding squares, fields and buttons by their role and accessible name (a Stairs
square is named by its notation, ``c3``; a 27 field by its number). Screenshots of each
board are kept under ``test-artifacts/e2e-*.png`` (git-ignored). Without Debian's
Chromium or Playwright the tests skip and say why.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stairgames.cli import main
from stairgames.core.record import GameRecord, final_state
from stairgames.games.city_of_stairs.cards import default_cards_text
from stairgames.games.twenty_seven import TwentySevenState
from tests.browser_helpers import (
    expect,
    free_port,
    shot,
    watch_content_security_policy,
)

DESKTOP = {"width": 1100, "height": 800}
PHONE = {"width": 360, "height": 740}
SEAT_OF_RESULT = {"You win": 1.0, "You lose": -1.0, "Draw": 0.0}
THE_STAIRGAMES_COMMAND = "import sys; from stairgames.cli import main; sys.exit(main())"
"""What the installed ``stairgames`` command runs (its console-script entry point)."""

# ----- the server and the browser -------------------------------------------------------


def copy_output(pipe: Any, log: Path, marker: bytes, ready: threading.Event) -> None:
    """Copy what the server prints into ``log``; set ``ready`` once it prints ``marker``
    (the address it listens on, printed once it listens) or stops."""
    with log.open("wb") as output:
        for line in pipe:
            output.write(line)
            output.flush()
            if marker in line:
                ready.set()
    ready.set()


def wait_until_serving(process: subprocess.Popen[bytes], ready: threading.Event, log: Path) -> None:
    """Wait until the server says it listens (or fail with what it printed); the guard
    only turns a hang into a failure."""
    if not ready.wait(120):
        pytest.fail("stairgames serve did not say it listens within 120 s")
    if process.poll() is not None:
        output = log.read_text(errors="replace")
        pytest.fail(f"stairgames serve stopped (exit {process.returncode}):\n{output}")


@contextlib.contextmanager
def serving(data: Path) -> Iterator[tuple[str, Path]]:
    """``stairgames serve`` on a free loopback port with its data in ``data``: its base
    URL and the file of what it prints; stopped as a person stops it (SIGTERM)."""
    port = free_port()
    command = [sys.executable, "-c", THE_STAIRGAMES_COMMAND, "serve", "--port", str(port)]
    log = data / "serve.log"  # what it prints, copied by a thread that reads it all
    process = subprocess.Popen(
        [*command, "--data-dir", str(data)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: its helpers can be awaited
    )
    base = f"http://127.0.0.1:{port}"
    ready = threading.Event()
    copier = threading.Thread(
        target=copy_output, args=(process.stdout, log, f"{base}/".encode(), ready), daemon=True
    )
    copier.start()
    try:
        wait_until_serving(process, ready, log)
        yield base, log
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        wait_for_the_process_group(process.pid)
        copier.join(timeout=10)  # the log is whole once the pipe is closed


def wait_for_the_process_group(group: int) -> None:
    """Wait until every process of ``group`` has ended (the computer players' processes,
    multiprocessing's resource tracker, which prints its warnings last); kill them after
    10 s."""
    deadline = time.monotonic() + 10
    for pid in processes_of_group(group):
        try:
            handle = os.pidfd_open(pid)  # readable once the process has ended
        except ProcessLookupError:
            continue
        try:
            ended, _, _ = select.select([handle], [], [], max(0.0, deadline - time.monotonic()))
        finally:
            os.close(handle)
        if not ended:
            os.killpg(group, signal.SIGKILL)
            return


def processes_of_group(group: int) -> list[int]:
    """The processes of process group ``group`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == group:
                found.append(int(entry.name))
    return found


def troubles(log: Path) -> list[str]:
    """Lines of a server's output that tell of an error or a warning."""
    lines = log.read_text(errors="replace").splitlines()
    return [line for line in lines if re.search(r"Traceback|Error|Warning|leaked", line)]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The server every test of the file plays on: its base URL. Once stopped, it must
    have printed no error nor warning."""
    pytest.importorskip("uvicorn", reason="the web app needs uvicorn (pip install -e .)")
    with serving(tmp_path_factory.mktemp("serve")) as (base, log):
        yield base
    assert not troubles(log), log.read_text(errors="replace")


class Pages:
    """Opens pages, each in its own browser context (its own storage: one person), and
    checks at the end that none had a script error nor broke the server's
    Content-Security-Policy."""

    def __init__(self, browser: Any, base: str) -> None:
        self.browser = browser
        self.base = base
        self.contexts: list[Any] = []
        self.errors: list[str] = []
        self.violations: list[str] = []

    def open(self, path: str = "/", before: Any = None, **context_options: Any) -> Any:
        """A new browser context's page at ``path``; ``before(page)`` runs before it
        loads (to hold a request, say)."""
        context_options.setdefault("viewport", DESKTOP)
        context_options.setdefault("locale", "en-GB")
        context = self.browser.new_context(base_url=self.base, **context_options)
        watch_content_security_policy(context, self.violations)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        if before is not None:
            before(page)
        page.goto(path)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser: Any, server: str) -> Iterator[Pages]:
    opened = Pages(browser, server)
    yield opened
    opened.close()
    assert not opened.errors, f"errors in the page: {opened.errors}"
    assert not opened.violations, f"the Content-Security-Policy refused: {opened.violations}"


# ----- what a person does ------------------------------------------------------------------


def start(
    page: Any,
    game: str,
    opponent: str = "The computer",
    level: str | None = "easy",
    options: dict[str, str] | None = None,
    seat: str | None = None,
) -> None:
    """Fill the home page's form and start: game, options (label: choice), opponent."""
    page.get_by_label(game, exact=True).check()
    for label, choice in (options or {}).items():
        page.get_by_label(label, exact=True).select_option(choice)
    page.get_by_label(opponent, exact=True).check()
    if level is not None and opponent == "The computer":
        page.get_by_label("Level", exact=True).select_option(level)
    if seat is not None:
        page.get_by_label("You play", exact=True).select_option(label=seat)
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"/m/[\w-]+$"))


def button(page: Any, name: str) -> Any:
    """A square (``c3``), a 27 field (``4``) or any other button, by its exact name."""
    return page.get_by_role("button", name=name, exact=True)


def names_of(page: Any, selector: str) -> list[str]:
    """The accessible names of the board's buttons that look a certain way (``.movable``:
    a piece that has a move, ``.target``: where the chosen piece may go)."""
    names: list[str] = page.locator(f"#board [role=button]{selector}").evaluate_all(
        "nodes => nodes.map(node => node.getAttribute('aria-label'))"
    )
    return names


def moves_shown(page: Any) -> list[str]:
    moves: list[str] = page.locator("#moves .move").evaluate_all(
        "nodes => nodes.map(node => node.dataset.move)"
    )
    return moves


def board_shown(page: Any) -> dict[str, str]:
    """Every square or field by name, with what it holds (its accessible description)."""
    described: list[list[str]] = page.locator("#board [role=button]").evaluate_all(
        "nodes => nodes.map(n => [n.getAttribute('aria-label'),"
        " n.getAttribute('aria-description')])"
    )
    return dict(described)


def last_move_marks(page: Any) -> dict[str, str]:
    """The squares or fields marked as the last move: name -> ``last-from`` / ``last-to``."""
    marked: list[list[str]] = page.locator("#board .last-from, #board .last-to").evaluate_all(
        "nodes => nodes.map(n => [n.getAttribute('aria-label'),"
        " n.classList.contains('last-to') ? 'last-to' : 'last-from'])"
    )
    return dict(marked)


def await_turn(page: Any, moves_before: int) -> None:
    """Wait until this page's seat may play after more than ``moves_before`` moves (its
    pieces ready to click, or a word such as Pass offered) or the game is over."""
    page.wait_for_function(
        """(before) => {
            const $ = (id) => document.getElementById(id);
            if (!$("result").hidden) return true;
            const moves = document.querySelectorAll("#moves .move").length;
            const ready = document.querySelector("#board .movable") || $("words").children.length;
            return moves > before && $("turn").textContent === "Your move" && Boolean(ready);
        }""",
        arg=moves_before,
    )


def wait_for_moves(page: Any, count: int) -> None:
    """Wait until the move list shows ``count`` moves or more."""
    page.wait_for_function(
        "(n) => document.querySelectorAll('#moves .move').length >= n", arg=count
    )


def play_a_move(page: Any) -> None:
    """Play the first move offered: pass or decline an offer when that is the choice,
    otherwise click the first piece that can move, then the first place it reaches."""
    for word in ("Pass", "Decline the offer"):
        offered = page.locator("#words").get_by_role("button", name=word, exact=True)
        if offered.count():  # (the move list's buttons name the moves played, passes too)
            offered.click()
            return
    piece = names_of(page, ".movable")[0]
    button(page, piece).click()
    expect(button(page, piece)).to_have_attribute("aria-pressed", "true")
    button(page, names_of(page, ".target")[0]).click()


def play_to_the_end(page: Any, limit: int = 200) -> None:
    """Play the page's seat until the game is over (the computer answers each move)."""
    if not play_moves(page, limit):
        pytest.fail(f"the game did not end within {limit} moves")


def result_shown(page: Any) -> list[str]:
    """The result as shown: its head (You win, ...) and its reason."""
    box = page.locator("#result")
    expect(box).to_be_visible()
    return [box.locator("strong").inner_text(), box.locator(".reason").inner_text()]


def download_record(page: Any, folder: Path) -> Path:
    """Click "Download the record": the file saved."""
    with page.expect_download() as download:
        button(page, "Download the record").click()
    path: Path = folder / download.value.suggested_filename
    download.value.save_as(path)
    return path


def check_the_record_replays(path: Path, page: Any, seat: int, capsys: Any) -> GameRecord:
    """The record holds the game shown, replays to its end (``stairgames replay`` too)
    and says what the page says."""
    capsys.readouterr()
    assert main(["replay", str(path), "--no-color"]) == 0
    printed = capsys.readouterr().out
    record = GameRecord.load(path)
    head, reason = result_shown(page)
    assert list(record.moves) == moves_shown(page)
    assert record.is_full
    end = final_state(record)
    assert end.is_terminal()
    assert end.history_strings() == list(record.moves)
    assert record.returns is not None and record.returns[seat] == SEAT_OF_RESULT[head]
    assert list(end.returns()) == list(record.returns)
    assert reason and record.result == reason
    last = f"{len(record.moves)}. "  # the replay says who made the last move, and the move
    assert any(
        line.startswith(last) and line.endswith(f": {record.moves[-1]}")
        for line in printed.splitlines()
    ), printed[-400:]
    return record


# ----- 1 and 2: whole games against the computer ---------------------------------------------


def test_a_whole_game_of_stairs_against_the_computer_and_its_record(pages, tmp_path, capsys):
    page = pages.open("/")
    start(page, "Stairs", level="easy")
    expect(page.locator("#seats li").nth(0)).to_have_text("light (you)")
    expect(page.locator("#seats li").nth(1)).to_have_text("dark · computer (easy)")
    play_to_the_end(page)
    head, reason = result_shown(page)
    assert head in SEAT_OF_RESULT and reason
    expect(page.locator("#turn")).to_have_text("Game over")
    expect(button(page, "Rematch")).to_be_visible()
    shot(page, "e2e-stairs-desktop")
    check_the_record_replays(download_record(page, tmp_path), page, 0, capsys)


def test_a_whole_game_of_27_against_the_computer_with_a_variant_and_its_record(
    pages, tmp_path, capsys
):
    page = pages.open("/")
    start(page, "27", level="easy", options={"Variant": "advanced"}, seat="black")
    expect(page.locator("#seats li").nth(1)).to_have_text("black (you)")
    expect(page.locator("#board-notes .scores")).to_have_text(
        re.compile(r"^Score so far: white \d+, black \d+$")
    )
    play_to_the_end(page)
    head, reason = result_shown(page)
    assert head in SEAT_OF_RESULT and reason
    shot(page, "e2e-twenty_seven-desktop")
    record = check_the_record_replays(download_record(page, tmp_path), page, 1, capsys)
    assert record.game == "twenty_seven" and record.options == {"variant": "advanced"}
    final = final_state(record)
    assert isinstance(final, TwentySevenState)
    expect(page.locator("#board-notes .scores")).to_have_text(
        f"Final score: white {final.score('W')}, black {final.score('B')}"
    )


def test_the_newest_position_is_drawn_when_the_board_script_arrives_late(pages):
    """A state that arrives while the board's script still loads is the one drawn (the
    computer's first move used to be hidden behind the starting position, with no piece
    to move)."""
    held: list[Any] = []

    def hold_the_board_script(page: Any) -> None:  # the home page's preview asks first
        page.route("**/games/twenty_seven/board.js", lambda route: held.append(route))

    page = pages.open("/", before=hold_the_board_script)
    start(page, "27", seat="black")
    wait_for_moves(page, 1)
    expect(page.locator("#turn")).to_have_text("Your move")
    assert held, "the board script was asked for"
    for route in held:
        route.continue_()
    await_turn(page, 0)
    assert names_of(page, ".movable")


# ----- 4: a reload in the middle of a game ------------------------------------------------------


def what_the_seat_sees(page: Any) -> tuple[list[str], list[str], dict[str, str], dict[str, str]]:
    """Seats, moves, board and last-move marks as the page shows them."""
    seats: list[str] = page.locator("#seats li").all_inner_texts()
    return seats, moves_shown(page), board_shown(page), last_move_marks(page)


@pytest.mark.parametrize("game", ["Stairs", "27"])
def test_a_reload_against_the_computer_keeps_the_seat_position_and_last_move_mark(pages, game):
    page = pages.open("/")
    start(page, game)
    for moves_before in (-1, 1):
        await_turn(page, moves_before)
        play_a_move(page)
    await_turn(page, 3)
    before = what_the_seat_sees(page)
    assert before[3], "the computer's reply is marked"
    page.reload()
    await_turn(page, 3)
    assert what_the_seat_sees(page) == before


# ----- 3 (and 4 online): two people online and a spectator ---------------------------------------


def all_see_the_same_game(watching: list[Any], moves: int) -> None:
    """Every page shows ``moves`` moves, the same ones, on the same board, marked alike."""
    for page in watching:
        wait_for_moves(page, moves)
    first = watching[0]
    for page in watching[1:]:
        assert moves_shown(page) == moves_shown(first)
        expect(page.locator("#board [role=button]").first).to_be_attached()
        assert board_shown(page) == board_shown(first)
        assert last_move_marks(page) == last_move_marks(first)


def test_online_two_browsers_play_a_third_watches_a_reload_then_a_resignation(pages):
    light = pages.open("/")
    start(light, "Stairs", opponent="A friend online (invite link)")
    invite = light.get_by_label("Invite link", exact=True)
    expect(invite).to_be_visible()
    link = invite.input_value()
    dark = pages.open(link)
    # each seat shows the name of the player holding it (issue 29); one's own says "(you)"
    anonymous = r"Anonymous \d+"
    expect(dark.locator("#seats li")).to_have_text(
        [re.compile(f"^light: {anonymous}$"), "dark (you)"]
    )
    expect(light.get_by_text("dark joined")).to_be_visible()
    expect(invite).to_be_hidden()
    spectator = pages.open(link)
    expect(spectator.locator("#seats li")).to_have_text(
        [re.compile(f"^light: {anonymous}$"), re.compile(f"^dark: {anonymous}$")]
    )
    expect(spectator.locator("#turn")).to_have_text("light to move")
    expect(spectator.get_by_text("You are watching this game.")).to_be_visible()
    expect(dark.get_by_text("You are watching this game.")).to_be_hidden()
    # who watches reaches the players in a presence message (not a view)
    for page in (light, dark, spectator):
        expect(page.locator("#spectators")).to_have_text("Spectators: 1")
    expect(button(spectator, "Resign")).to_be_hidden()
    expect(button(spectator, "Ask for a takeback")).to_be_hidden()
    watching = [light, dark, spectator]

    for number, mover in enumerate([light, dark, light, dark]):
        await_turn(mover, number - 1)
        piece = names_of(mover, ".movable")[0]
        assert names_of(spectator, ".movable") == []
        button(spectator, piece).click()  # the spectator cannot pick it up
        assert names_of(spectator, ".target") == []
        assert button(spectator, piece).get_attribute("aria-pressed") is None
        play_a_move(mover)
        all_see_the_same_game(watching, number + 1)
        if number == 1:
            shot(spectator, "e2e-stairs-spectator")

    # a reload in the middle of an online game: the same seat, position and mark
    before = what_the_seat_sees(dark)
    dark.reload()
    # each seat shows the name of the player holding it (issue 29); one's own says "(you)"
    anonymous = r"Anonymous \d+"
    expect(dark.locator("#seats li")).to_have_text(
        [re.compile(f"^light: {anonymous}$"), "dark (you)"]
    )
    wait_for_moves(dark, 4)
    assert what_the_seat_sees(dark) == before
    await_turn(light, 3)
    play_a_move(light)
    all_see_the_same_game(watching, 5)

    dark.once("dialog", lambda dialog: dialog.accept())
    button(dark, "Resign").click()
    results = [result_shown(page) for page in watching]
    assert [head for head, _ in results] == ["You win", "You lose", "Light wins"]
    assert results[0][1] == results[1][1] == results[2][1] != ""
    for page in watching:
        expect(page.locator("#turn")).to_have_text("Game over")
    expect(button(spectator, "Rematch")).to_be_hidden()


# ----- 5: the Japanese interface ------------------------------------------------------------------

LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def japanese_catalog() -> dict[str, str]:
    from stairgames.server.ops.pages import catalog_messages

    return {key: value for key, value in catalog_messages("ja").items() if isinstance(value, str)}


def english_words_left(page: Any) -> set[str]:
    """Latin words in the page's visible text, but for the move list (notation), the
    language list (English is offered by its name) and the brand name."""
    text = page.evaluate(
        """() => {
            const hidden = ["moves", "lang"].map((id) => document.getElementById(id));
            const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            const parts = [];
            while (walker.nextNode()) {
                const node = walker.currentNode;
                const box = node.parentElement;
                if (!box || hidden.some((h) => h.contains(box))) continue;
                if (box.closest("[hidden]") || !box.getClientRects().length) continue;
                parts.push(node.textContent);
            }
            return parts.join(" ");
        }"""
    )
    return set(LATIN_WORD.findall(text)) - NAMES_NOT_TRANSLATED


NAMES_NOT_TRANSLATED = {"TOML", "stairgames"}
"""Latin words a Japanese page keeps: the card file's format (City of Stairs), the site's
name."""


def test_the_japanese_interface_shows_japanese_and_is_remembered(pages):
    ja = japanese_catalog()
    page = pages.open("/")
    page.get_by_label("Language", exact=True).select_option("ja")
    expect(page.get_by_role("button", name=ja["Start"])).to_be_visible()
    assert english_words_left(page) == set()
    page.get_by_label(ja["Stairs"], exact=True).check()
    page.get_by_label(ja["The computer"], exact=True).check()
    page.get_by_label(ja["Level"], exact=True).select_option("easy")
    page.get_by_role("button", name=ja["Start"]).click()
    page.wait_for_url(re.compile(r"/m/[\w-]+$"))
    expect(page.locator("#turn")).to_have_text(ja["Your move"])
    seats = [
        ja["{name} (you)"].format(name=ja["light"]),
        ja["{name} · computer ({level})"].format(name=ja["dark"], level=ja["easy"]),
    ]
    expect(page.locator("#seats li")).to_have_text(seats)
    expect(button(page, ja["Resign"])).to_be_visible()
    assert english_words_left(page) == set()
    description = button(page, "a1").get_attribute("aria-description") or ""
    assert LATIN_WORD.search(description) is None
    shot(page, "e2e-stairs-japanese")
    page.reload()
    expect(page.locator("#turn")).to_have_text(ja["Your move"])
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert english_words_left(page) == set()

    page.get_by_role("link", name="stairgames").click()
    page.get_by_label("27", exact=True).check()
    expect(page.get_by_label(ja["Variant"], exact=True)).to_be_visible()
    page.get_by_role("button", name=ja["Start"]).click()
    expect(page.locator("#turn")).to_have_text(ja["Your move"])
    expect(button(page, "0")).to_have_attribute("aria-description", re.compile(ja["white"]))
    assert english_words_left(page) == set()
    shot(page, "e2e-twenty_seven-japanese")
    page.get_by_label(ja["Language"], exact=True).select_option("en")
    expect(page.locator("#turn")).to_have_text("Your move")


# ----- 6: a phone-sized screen ----------------------------------------------------------------


@pytest.mark.parametrize("game", ["Stairs", "27"])
def test_on_a_phone_the_whole_board_fits_and_a_move_is_played_by_tapping(pages, game):
    page = pages.open("/", viewport=PHONE, has_touch=True, is_mobile=True)
    start(page, game)
    await_turn(page, -1)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    boxes = page.locator("#board [role=button]").evaluate_all(
        "nodes => nodes.map(n => { const r = n.getBoundingClientRect();"
        " return [r.left, r.right]; })"
    )
    assert boxes and all(left >= 0 and right <= PHONE["width"] for left, right in boxes)
    piece = names_of(page, ".movable")[0]
    button(page, piece).tap()
    expect(button(page, piece)).to_have_attribute("aria-pressed", "true")
    button(page, names_of(page, ".target")[0]).tap()
    await_turn(page, 1)
    name = "stairs" if game == "Stairs" else "twenty_seven"
    shot(page, f"e2e-{name}-phone")


# ----- the Content-Security-Policy: every game plays under it ---------------------------------

CITY_READY = """() => {
    const $ = (id) => document.getElementById(id);
    if (!$("result").hidden) return true;
    const asked = document.querySelector("#board .cos-choice, #board .cos-stock[role=button]");
    return $("turn").textContent === "Your move" && Boolean(asked);
}"""
ISHIGAKI_READY = """() => !document.getElementById("result").hidden ||
    Boolean(document.querySelector("#board-notes button.choice-stop"))"""
INLINE_SCRIPT = """() => {
    const script = document.createElement("script");
    script.textContent = "window.inlineScriptRan = true";
    document.head.append(script);
}"""


def play_moves(page: Any, count: int) -> bool:
    """Play up to ``count`` moves of the page's seat, the computer answering each:
    whether the game ended meanwhile."""
    seen = -1
    for _ in range(count):
        await_turn(page, seen)
        if page.locator("#result").is_visible():
            return True
        seen = len(moves_shown(page))
        play_a_move(page)
        wait_for_moves(page, seen + 1)
        seen += 1
    return False


def start_with_seats(page: Any, game: str, seats: list[str]) -> None:
    """The home page of a game of 2-4 seats: as many players as ``seats``, each seat's
    chooser set to its kind (``human``, ``computer:easy``), then Start."""
    page.get_by_label(game, exact=True).check()
    page.get_by_label("Players", exact=True).select_option(str(len(seats)))
    for seat, kind in enumerate(seats):
        page.locator(f'#seat-list select[data-seat="{seat}"]').select_option(kind)
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"/m/[\w-]+$"))


def play_city_of_stairs(page: Any, steps: int) -> None:
    """Take ``steps`` of the page's turns: on a stroll choose the first way offered,
    otherwise place the first stock card on the first ringed cell."""
    for _ in range(steps):
        page.wait_for_function(CITY_READY)
        if page.locator("#result").is_visible():
            return
        before = len(moves_shown(page))
        choices = page.locator("#board .cos-choice")
        if choices.count():
            choices.first.click()
        else:
            if not page.locator("#board .cos-stock[aria-pressed=true]").count():
                page.locator("#board .cos-stock[role=button]").first.click()
            page.locator("#board .cos-cell.target").first.click()
        wait_for_moves(page, before + 1)


def play_ishigaki_race(page: Any, decisions: int) -> None:
    """Take ``decisions`` of the page's decisions (stop and climb, each time)."""
    for _ in range(decisions):
        page.wait_for_function(ISHIGAKI_READY)
        if page.locator("#result").is_visible():
            return
        before = len(moves_shown(page))
        page.locator("#board-notes button.choice-stop").click()
        wait_for_moves(page, before + 1)


def test_the_policy_is_in_force_an_inline_script_is_refused_and_reported(browser, server):
    """What the test below counts on: the server's pages carry a Content-Security-Policy
    that Chromium enforces, and a breach of it is seen (an inline script is refused)."""
    context = browser.new_context(base_url=server)
    seen: list[str] = []
    watch_content_security_policy(context, seen)
    try:
        page = context.new_page()
        response = page.goto("/")
        assert "script-src 'self'" in response.headers["content-security-policy"]
        with page.expect_console_message(lambda m: "Content Security Policy" in m.text):
            page.evaluate(INLINE_SCRIPT)
        page.wait_for_function("() => window.__policyViolations.length > 0")
        assert page.evaluate("window.inlineScriptRan") is None
        refused = page.evaluate("window.__policyViolations")
        assert refused[0].startswith("script-src-elem refused inline"), refused
    finally:
        context.close()
    assert seen, "the breach was reported"


def test_every_game_plays_under_the_content_security_policy(pages, tmp_path):
    """A few moves of each of the four games against the computer, a card file uploaded
    and the rules opened: no page breaks the server's strict policy (no inline script or
    style, connections to this site only); the ``pages`` fixture fails on any breach."""
    stairs = pages.open("/")
    policy = stairs.request.get("/").headers.get("content-security-policy", "")
    assert "script-src 'self'" in policy and "style-src 'self'" in policy, policy
    start(stairs, "Stairs")
    play_moves(stairs, 3)
    button(stairs, "Rules").click()
    expect(stairs.locator("#rules")).to_be_visible()

    twenty_seven = pages.open("/")
    start(twenty_seven, "27", seat="black")
    play_moves(twenty_seven, 3)

    ishigaki = pages.open("/")
    start_with_seats(ishigaki, "Ishigaki Race", ["human", "computer:easy"])
    play_ishigaki_race(ishigaki, 4)
    expect(ishigaki.locator("#board .stone-face").first).to_have_css("stroke-width", "2px")
    shot(ishigaki, "e2e-ishigaki_race-policy")

    city = pages.open("/")
    city.get_by_label("City of Stairs", exact=True).check()
    cards = tmp_path / "mine.toml"
    cards.write_text(default_cards_text(), encoding="utf-8")
    city.locator("#file-cards").set_input_files(cards)
    expect(city.locator(".file-status")).to_have_text(re.compile(r"^Card set .+ is ready\.$"))
    start_with_seats(city, "City of Stairs", ["human", "computer:easy"])
    play_city_of_stairs(city, 3)
    shot(city, "e2e-city_of_stairs-policy")
    assert len(moves_shown(city)) >= 3
    assert pages.violations == []


# ----- stopping the server ----------------------------------------------------------------


@pytest.mark.slow
def test_stopping_the_server_after_a_computer_move_leaks_no_process_pool_semaphores(tmp_path):
    """Stopping ``stairgames serve`` waits for its computer players' processes: it used to
    leave without them, and Python warned of leaked semaphores."""
    pytest.importorskip("uvicorn", reason="the web app needs uvicorn (pip install -e .)")
    with serving(tmp_path) as (base, log):
        body = {"game": "stairs", "options": {}, "seats": ["computer:easy", "human"]}
        request = urllib.request.Request(
            base + "/api/matches",
            data=json.dumps(body).encode(),
            headers={"content-type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            match = json.load(response)["match"]
        from websockets.sync.client import connect

        with connect(f"ws://{base.removeprefix('http://')}/ws/matches/{match}") as watching:
            while True:  # each view the server sends, until the computer has played
                view = json.loads(watching.recv(timeout=60))  # TimeoutError: it did not
                if view["type"] == "state" and view["history"]:
                    break
    assert troubles(log) == []
