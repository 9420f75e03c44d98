"""Issue 54, an installable app: the manifest, the icons, the service worker (``sw.js``)
and the offline page, in Debian's Chromium against the real app (uvicorn in a thread).

What Chromium needs to offer "Install" (Lighthouse's installability) is asked of
Chromium itself (``Page.getInstallabilityErrors`` over the DevTools protocol: none),
besides the manifest's fields read here: a name, icons of 192 and 512 pixels, a start
URL, a standalone display, and a service worker with a fetch handler controlling the
page. Then the server stops, and a navigation shows the offline page in both languages.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stairgames.server.base.settings import STATIC_DIR
from stairgames.server.ops.pages import static_digest
from tests.browser_helpers import (
    BROWSER_WAIT_MS,
    CHROMIUM,
    CHROMIUM_ARGS,
    expect,
    serving,
    shot,
    watch_content_security_policy,
)
from tests.server_helpers import running

ICONS = STATIC_DIR / "icons"
PAGES = ["/", "/account", "/confirm-email", "/unsubscribe", "/reset-password"]


def png_size(data: bytes) -> tuple[int, int]:
    """The width and height a PNG file's header says."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_has_what_installing_needs_and_every_page_links_it(tmp_path: Path) -> None:
    with running(tmp_path, static_dir=STATIC_DIR) as client:
        answer = client.get("/manifest.webmanifest")
        assert answer.status_code == 200
        assert answer.headers["content-type"] == "application/manifest+json"
        manifest = answer.json()
        assert manifest["name"] and manifest["short_name"]
        assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
            "/",
            "/",
            "standalone",
        )
        assert manifest["theme_color"].startswith("#") and manifest["background_color"]
        sizes: dict[str, set[int]] = {}
        for icon in manifest["icons"]:
            served = client.get(icon["src"])
            assert served.status_code == 200 and served.headers["content-type"] == "image/png"
            width, height = png_size(served.content)
            assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png"
            assert len(served.content) < 16_000  # a few kB each
            sizes.setdefault(icon["purpose"], set()).add(width)
        assert sizes == {"any": {192, 512}, "maskable": {512}}
        for path in PAGES:
            page = client.get(path).text
            assert '<link rel="manifest" href="/manifest.webmanifest">' in page, path


def test_the_service_worker_is_served_from_the_root_with_its_version(tmp_path: Path) -> None:
    with running(tmp_path, static_dir=STATIC_DIR) as client:
        answer = client.get("/sw.js")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/javascript")
        assert answer.headers["service-worker-allowed"] == "/"
        assert answer.headers["cache-control"] == "no-cache"
        assert f'const VERSION = "{static_digest(STATIC_DIR)}";' in answer.text
        assert 'const VERSION = "dev";' not in answer.text


def test_a_new_release_changes_the_workers_version(tmp_path: Path) -> None:
    copy = tmp_path / "static"
    copy.mkdir()
    for name in ("sw.js", "style.css"):
        (copy / name).write_bytes((STATIC_DIR / name).read_bytes())
    before = static_digest(copy)
    (copy / "style.css").write_text("body { margin: 1px; }")
    assert static_digest(copy) != before


def test_the_icons_are_what_their_script_draws(tmp_path: Path) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("draw_icons", ICONS / "draw_icons.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(tmp_path)
    for name in module.ICONS:
        assert (tmp_path / name).read_bytes() == (ICONS / name).read_bytes(), name


@pytest.fixture
def site(tmp_path: Path, browser: Any) -> Iterator[tuple[Any, Any, list[str], Any]]:
    """The app served (a context manager the test may leave to stop it), a browser
    context, and the breaches of the pages' Content-Security-Policy."""
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    settings = Settings(data_dir=tmp_path / "data", computer_workers=0)
    # a profile of its own: Chromium offers no install in an incognito context (Playwright's)
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=str(CHROMIUM),
        args=CHROMIUM_ARGS,
        viewport={"width": 400, "height": 800},
        locale="en-GB",
    )
    context.set_default_timeout(BROWSER_WAIT_MS)
    violations: list[str] = []
    watch_content_security_policy(context, violations)
    served = serving(create_app(settings), settings)
    try:
        yield served, context, violations, settings
    finally:
        context.close()


def controlled(page: Any) -> bool:
    """Wait until the service worker is active and controls ``page``."""
    return bool(
        page.evaluate(
            """async () => {
              await navigator.serviceWorker.ready;
              if (!navigator.serviceWorker.controller) {
                await new Promise((done) =>
                  navigator.serviceWorker.addEventListener("controllerchange", done));
              }
              return navigator.serviceWorker.controller !== null;
            }"""
        )
    )


def test_installable_controlled_and_offline_page_when_the_server_stops(
    site: tuple[Any, Any, list[str], Any],
) -> None:
    served, context, violations, _ = site
    errors: list[str] = []
    with served as base:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{base}/")
        assert controlled(page)
        registration = page.evaluate(
            """async () => {
              const r = await navigator.serviceWorker.getRegistration("/");
              return {scope: r.scope, script: r.active.scriptURL};
            }"""
        )
        assert registration == {"scope": f"{base}/", "script": f"{base}/sw.js"}
        session = context.new_cdp_session(page)
        found = session.send("Page.getInstallabilityErrors")
        assert found["installabilityErrors"] == [], found
        manifest = session.send("Page.getAppManifest")
        assert manifest["errors"] == [] and json.loads(manifest["data"])["display"] == "standalone"
        page.goto(f"{base}/account")  # a second page of the site: its static files kept
        kept = page.evaluate(
            """async () => {
              const urls = [];
              for (const name of await caches.keys()) {
                const cache = await caches.open(name);
                for (const request of await cache.keys()) urls.push(new URL(request.url).pathname);
              }
              return {names: await caches.keys(), urls};
            }"""
        )
        assert len(kept["names"]) == 1 and kept["names"][0].startswith("stairgames-static-")
        assert "/static/offline.html" in kept["urls"] and "/static/style.css" in kept["urls"]
        # never an API answer, a socket or a page with a player's data
        assert all(url.startswith("/static/") for url in kept["urls"]), kept
    # the server is stopped: a navigation shows the offline page, in both languages
    page.goto(f"{base}/my")
    expect(page.locator("#offline")).to_be_visible()
    expect(page.locator("section[lang=en] h1")).to_have_text("You are offline")
    expect(page.locator("section[lang=ja] h1")).to_have_text("オフラインです")
    assert page.evaluate("getComputedStyle(document.querySelector('.top')).display") == "flex"
    shot(page, "install-offline")
    assert errors == [] and violations == []
