"""Issue 54, web push on the page (``web/static/push.js``, ``sw.js``) in Debian's
Chromium against the real app, in English and Japanese.

- The account page's "Notifications on this device" asks the browser for permission
  only when its button is pressed (never as the page opens), subscribes with the key the
  server serves, and posts the subscription; "Turn off" deletes it on the server and in
  the browser.
- A push message reaching the service worker becomes a notification with the message's
  title, text and link.

Headless Chromium reaches no real push service (it would need Google's), so the page's
``PushManager`` gives a subscription of ``tests/push_endpoint.py``'s instead (an init
script): all the rest is the page's and the server's own. The push message is delivered
to the service worker over the DevTools protocol (``ServiceWorker.deliverPushMessage``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stairgames.server.base.settings import PushSettings
from stairgames.server.ops.pages import catalog_messages
from stairgames.server.people.players import COOKIE
from tests.browser_helpers import expect, serving, shot, watch_content_security_policy
from tests.push_endpoint import PushEndpoint, push_endpoint
from tests.server_helpers import FakeClock

LOCALES = {"en": "en-GB", "ja": "ja-JP"}

FAKE_PUSH = """
window.__asked = 0;
window.__subscribedWith = null;
window.__unsubscribed = 0;
const realAsk = Notification.requestPermission.bind(Notification);
Notification.requestPermission = async () => { window.__asked += 1; return realAsk(); };
const made = %s;
let current = null;
PushManager.prototype.getSubscription = async function () { return current; };
PushManager.prototype.subscribe = async function (options) {
  window.__subscribedWith = Array.from(new Uint8Array(options.applicationServerKey));
  current = {
    endpoint: made.endpoint,
    options: { applicationServerKey: options.applicationServerKey, userVisibleOnly: true },
    toJSON: () => made,
    unsubscribe: async () => { window.__unsubscribed += 1; current = null; return true; },
  };
  return current;
};
"""
"""The page's push subscription is the test endpoint's (``%s``: its JSON); the page's
calls are counted (permission asked, subscribed with which key, unsubscribed)."""


@pytest.fixture
def site(tmp_path: Path, browser: Any) -> Iterator[tuple[str, Any, PushEndpoint, list[str]]]:
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    settings = Settings(
        data_dir=tmp_path,
        computer_workers=0,
        push=PushSettings(test_endpoints=True),
        wall_clock=FakeClock(1_800_000_000.0),
    )
    app = create_app(settings)
    violations: list[str] = []
    with push_endpoint() as endpoint, serving(app, settings) as base:
        yield base, app, endpoint, violations
    assert violations == [], "breaches of the Content-Security-Policy"


def devices(app: Any, player_id: str) -> list[Any]:
    found: list[Any] = app.state.push.store.of(player_id)
    return found


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_button_asks_only_when_pressed_subscribes_and_turns_off(
    site: tuple[str, Any, PushEndpoint, list[str]], browser: Any, lang: str
) -> None:
    base, app, endpoint, violations = site
    kato, secret = app.state.players.create("Kato")
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale=LOCALES[lang])
    host = base.split("//")[1].split(":")[0]
    cookie = {"name": COOKIE, "value": secret, "domain": host, "path": "/", "secure": True}
    context.add_cookies([cookie])
    context.grant_permissions(["notifications"], origin=base)
    watch_content_security_policy(context, violations)
    context.add_init_script(FAKE_PUSH % json.dumps(endpoint.subscription("kato-phone")))
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    messages = catalog_messages(lang)

    def said(text: str) -> str:
        return str(messages.get(text, text))

    page.goto(f"{base}/account")
    toggle = page.locator("#push-toggle")
    expect(page.locator("#push")).to_be_visible()
    expect(page.locator("#push h2")).to_have_text(said("Notifications on this device"))
    expect(toggle).to_have_text(said("Turn on notifications"))
    expect(page.locator("#push-status")).to_have_text(
        said("Notifications are off for this device.")
    )
    assert page.evaluate("window.__asked") == 0  # nothing asked as the page opened
    assert devices(app, kato.id) == []

    toggle.click()
    expect(toggle).to_have_text(said("Turn off notifications"))
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#push-status")).to_have_text(said("Notifications are on for this device."))
    assert page.evaluate("window.__asked") == 1
    served = app.state.push.public_key
    key = page.evaluate("window.__subscribedWith")
    assert bytes(key) == _unb64(served)  # subscribed with the key the server serves
    [device] = devices(app, kato.id)
    assert device.endpoint == endpoint.devices["kato-phone"].endpoint
    assert device.language == lang
    shot(page, f"push-on-{lang}")

    toggle.click()
    expect(toggle).to_have_text(said("Turn on notifications"))
    assert page.evaluate("window.__unsubscribed") == 1
    assert devices(app, kato.id) == []
    assert errors == []
    context.close()


def _unb64(text: str) -> bytes:
    import base64

    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def test_a_push_message_becomes_a_notification_with_its_link(
    site: tuple[str, Any, PushEndpoint, list[str]], browser: Any
) -> None:
    base, _, _, violations = site
    context = browser.new_context(locale="en-GB")
    context.grant_permissions(["notifications"], origin=base)
    watch_content_security_policy(context, violations)
    page = context.new_page()
    page.goto(f"{base}/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    session = context.new_cdp_session(page)
    registrations: list[dict[str, Any]] = []
    session.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    session.send("ServiceWorker.enable")  # tells the registrations there are
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # (its events read)
    assert registrations, "no service worker registered"
    registration = registrations[0]["registrationId"]
    message = {
        "type": "your_turn",
        "title": "Your turn",
        "body": "Your turn in Stairs against Ann",
        "url": "/m/abc",
        "tag": "turn-abc",
    }
    session.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": base, "registrationId": registration, "data": json.dumps(message)},
    )
    shown = page.wait_for_function(
        """async () => {
          const r = await navigator.serviceWorker.getRegistration("/");
          const found = await r.getNotifications();
          return found.length ? found.map((n) => ({title: n.title, body: n.body, tag: n.tag,
            url: n.data.url})) : null;
        }"""
    ).json_value()
    assert shown == [
        {
            "title": "Your turn",
            "body": "Your turn in Stairs against Ann",
            "tag": "turn-abc",
            "url": "/m/abc",
        }
    ]
    context.close()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_push_section_and_the_offline_page_pass_axe(
    site: tuple[str, Any, PushEndpoint, list[str]], browser: Any, lang: str
) -> None:
    from tests.test_web_axe import AXE, axe_violations

    if not AXE.is_file():
        pytest.skip(f"axe-core is missing at {AXE}: npm ci")
    base, app, endpoint, _ = site
    _, secret = app.state.players.create("Kato")
    context = browser.new_context(locale=LOCALES[lang], bypass_csp=True)  # axe injected
    host = base.split("//")[1].split(":")[0]
    cookie = {"name": COOKIE, "value": secret, "domain": host, "path": "/", "secure": True}
    context.add_cookies([cookie])
    context.grant_permissions(["notifications"], origin=base)
    context.add_init_script(FAKE_PUSH % json.dumps(endpoint.subscription("kato-phone")))
    page = context.new_page()
    page.goto(f"{base}/account")
    page.locator("#push-toggle").click()
    expect(page.locator("#push-toggle")).to_have_attribute("aria-pressed", "true")
    assert axe_violations(page) == []
    page.goto(f"{base}/static/offline.html")
    expect(page.locator("#offline")).to_be_visible()
    assert axe_violations(page) == []
    context.close()
