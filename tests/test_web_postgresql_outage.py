"""Issue 55: PostgreSQL killed under load, with a player's page open and a move made
during the outage.

The real web app on a PostgreSQL of the tests' own (``tests/postgresql_helpers.py``),
served by uvicorn; a browser page plays Stairs against the computer; four threads keep
asking the server for the match meanwhile (the load). PostgreSQL is stopped outright
(``pg_ctl -m immediate``, as a crash), the player makes a move, and PostgreSQL is
started again. Counted: the sockets the page opened during the outage (a back-off, not
a storm), the server's log lines (one line when the outage begins and one summary, no
traceback), the answers the load got (200 or 503 with ``Retry-After``, never another),
and the moves lost (none: the move is played once the database is back, once).
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_helpers import checked_page, expect, serving
from tests.postgresql_helpers import PostgreSQL, postgresql_server

LOAD_THREADS = 4
WARNINGS_AT_MOST = 40
"""Warning lines the whole outage may write: the outage's line and summary, each
background task's one line, the fan-out's attempts to listen again (about one a
second); a traceback a request once wrote thousands."""
SOCKETS_AT_MOST = 8
"""Match sockets the page may open while the database is away (the back-off doubles
from half a second: about five in the outage; a page that reset it on open opened 27 in
9 s)."""


@pytest.fixture(scope="module")
def postgresql() -> Iterator[PostgreSQL]:
    with postgresql_server() as server:
        yield server


class Kept(logging.Handler):
    """Every log record of the server while it runs."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def logged() -> Iterator[Kept]:
    kept = Kept()
    root = logging.getLogger()
    level = root.level
    root.addHandler(kept)
    root.setLevel(logging.INFO)
    try:
        yield kept
    finally:
        root.removeHandler(kept)
        root.setLevel(level)


def load(url: str, match: str, stop: threading.Event, answers: list[tuple[int, str]]) -> None:
    """Ask for the match again and again until ``stop``: each answer's status and its
    ``Retry-After``."""
    import httpx

    with httpx.Client(base_url=url, timeout=10) as client:
        while not stop.is_set():
            try:
                reply = client.get(f"/api/matches/{match}")
            except httpx.HTTPError as exc:
                answers.append((0, type(exc).__name__))
                continue
            answers.append((reply.status_code, reply.headers.get("retry-after", "")))


def test_postgresql_killed_under_load_loses_no_move_and_storms_nothing(
    browser: Any, postgresql: PostgreSQL, logged: Kept, tmp_path: Path
) -> None:
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    settings = Settings(
        data_dir=tmp_path, database_url=postgresql.url, computer_workers=0, loop_guard=True
    )
    with serving(create_app(settings)) as url, checked_page(browser, url) as page:
        sockets: list[str] = []
        page.on("websocket", lambda socket: sockets.append(socket.url))
        page.goto(url + "/")
        page.get_by_label("Stairs", exact=True).check()
        page.get_by_label("The computer", exact=True).check()
        page.get_by_role("button", name="Start").click()
        page.wait_for_url(re.compile(r"/m/"))
        match = page.url.rsplit("/", 1)[1]
        page.get_by_role("button", name="a1", exact=True).wait_for()
        stop, answers = threading.Event(), list[tuple[int, str]]()
        threads = [
            threading.Thread(target=load, args=(url, match, stop, answers), daemon=True)
            for _ in range(LOAD_THREADS)
        ]
        for thread in threads:
            thread.start()
        try:
            before = len(sockets)
            first_record = len(logged.records)
            postgresql.stop("immediate")
            try:
                page.get_by_role("button", name="d3", exact=True).click()
                page.get_by_role("button", name="c4", exact=True).click()
                expect(page.locator("#match-error")).to_have_text(
                    "Not connected: your move is sent once the connection is back"
                )
                expect(page.locator("#banner")).to_have_text("Reconnecting…")
                assert page.locator("#moves .move").count() == 0
                during = len(sockets) - before
            finally:
                postgresql.start()
            page.locator("#moves .move").nth(1).wait_for(timeout=60_000)  # ours, then its
            assert page.locator("#moves .move").nth(0).inner_text() == "d3-c4"
            expect(page.locator("#banner")).to_be_hidden()
        finally:
            stop.set()
            for thread in threads:
                thread.join(timeout=30)
        opened_in_outage = len(sockets) - before
        import httpx

        stored = httpx.get(f"{url}/api/matches/{match}").json()
    records = logged.records[first_record:]
    assert stored["history"][:1] == ["d3-c4"] and stored["history"].count("d3-c4") == 1
    assert 1 <= opened_in_outage <= SOCKETS_AT_MOST and during <= SOCKETS_AT_MOST
    statuses = {status for status, _ in answers}
    assert 503 in statuses and statuses <= {200, 503}, statuses
    assert all(after == "5" for status, after in answers if status == 503)
    tracebacks = [r for r in records if r.exc_info and r.levelno >= logging.ERROR]
    assert not tracebacks, [r.getMessage() for r in tracebacks][:5]
    told = [r for r in records if r.name == "stairgames.server.base.outages"]
    began = [r for r in told if "the database cannot be reached" in r.getMessage()]
    summaries = [r for r in told if "the database answers again" in r.getMessage()]
    assert len(began) == 1 and len(summaries) == 1, [r.getMessage() for r in told]
    # and every other part says it once, not once a request or a poll
    said = [r.getMessage() for r in records if r.levelno >= logging.WARNING]
    assert len(said) <= WARNINGS_AT_MOST, said
