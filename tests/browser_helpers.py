"""Shared pieces of the browser tests: Debian's Chromium through Playwright, screenshots.

The browser tests drive the Chromium of Debian's ``chromium`` package (``apt-get install
-y chromium``; ``.ci/run`` does it), never a downloaded browser, and skip with a message
where it or Playwright is missing. Screenshots go to ``test-artifacts/`` (git-ignored).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
BROWSER_WAIT_MS: Final = 30_000
"""How long a browser test waits for the page to react before it fails, set here once:
every page's actions and waits (Playwright's default for them) and every :func:`expect`
assertion (Playwright's own default there is 5 s, which a loaded 2-core machine
exceeded in the analysis board's tests). A wait only ends early when the page is ready,
so a quiet machine is not slowed by it."""


class PatientBrowser:
    """A Playwright browser whose new contexts and pages wait :data:`BROWSER_WAIT_MS`."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, **options: Any) -> Any:
        context = self._browser.new_context(**options)
        context.set_default_timeout(BROWSER_WAIT_MS)
        return context

    def new_page(self, **options: Any) -> Any:
        page = self._browser.new_page(**options)
        page.set_default_timeout(BROWSER_WAIT_MS)
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium under Playwright (the test skips, saying why, without either)."""
    if not CHROMIUM.exists():
        pytest.skip(f"browser tests need Chromium at {CHROMIUM}: apt-get install -y chromium")
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield PatientBrowser(browser)
        finally:
            browser.close()


def expect(locator: Any) -> Any:
    """Playwright's retrying assertions (the page redraws after a fetch or a message),
    waiting up to :data:`BROWSER_WAIT_MS`."""
    from playwright.sync_api import expect as playwright_expect

    playwright_expect.set_options(timeout=BROWSER_WAIT_MS)
    return playwright_expect(locator)


def shot(page: Any, name: str) -> None:
    """Keep a screenshot of the whole page as ``test-artifacts/{name}.png`` (moves that
    are still animating are shown where they end)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True, animations="disabled")


def free_port() -> int:
    """A loopback port free at the time of asking."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def serving(app: Any, settings: Any = None) -> Iterator[str]:
    """``app`` served by uvicorn in a thread on a free loopback port, configured as
    ``stairgames serve`` does (with ``settings``, else the defaults): its base URL, once
    it serves."""
    pytest.importorskip("uvicorn", reason="the web app needs uvicorn")
    import uvicorn

    from stairgames.server.base.settings import Settings
    from stairgames.server.serve import uvicorn_config

    told = threading.Event()

    class Server(uvicorn.Server):
        """A uvicorn server that tells ``told`` once it has started (or failed to)."""

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            try:
                await super().startup(sockets=sockets)
            finally:
                told.set()

    def serve() -> None:
        try:
            asyncio.run(server.serve())
        finally:
            told.set()  # it ended, perhaps before starting

    port = free_port()
    server = Server(uvicorn_config(app, "127.0.0.1", port, settings or Settings()))
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        assert told.wait(timeout=60) and server.started, "the web app did not start"
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


POLICY_WATCH = """
window.__policyViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  const said = `${event.effectiveDirective} refused ${event.blockedURI || "?"}` +
    ` (${event.sourceFile || "the page"}:${event.lineNumber})`;
  window.__policyViolations.push(said);
  window.reportPolicyViolation(said);
});
"""
"""Run in every page before its own scripts: each breach of the page's
Content-Security-Policy is kept in ``window.__policyViolations`` and reported."""


def watch_content_security_policy(context: Any, violations: list[str]) -> None:
    """Collect in ``violations`` every breach of the Content-Security-Policy in the pages
    of ``context`` (a Playwright browser context, before its pages open): each
    ``securitypolicyviolation`` event and each of Chromium's console messages about the
    policy (``Refused to ... because it violates the following Content Security Policy
    directive``)."""

    def report(said: str) -> None:
        violations.append(said)

    context.expose_function("reportPolicyViolation", report)
    context.add_init_script(POLICY_WATCH)

    def console(message: Any) -> None:
        if "Content Security Policy" in message.text:
            violations.append(f"console: {message.text}")

    context.on("console", console)


@contextlib.contextmanager
def checked_page(browser: Any, base_url: str, *, height: int = 800) -> Iterator[Any]:
    """A page of a new English context at ``base_url`` (1100 wide): the test fails if a
    script of the page raised an error meanwhile."""
    context = browser.new_context(viewport={"width": 1100, "height": height}, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.base_url = base_url
    yield page
    context.close()
    assert not errors, f"errors in the page: {errors}"
