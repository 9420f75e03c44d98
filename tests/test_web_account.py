"""The account page and the pages of the links in mails (``web/static/account.js``), in
Chromium at phone size, in English and in Japanese: each page's texts in its language,
and what each does (give an address and change it, confirm it, unsubscribe, reset a
password). A page opened from a mail, in a browser that never chose a language, speaks
the language its reader gave with their address. Screenshots ``account-*.png``.

The real app (``create_app`` on a temporary SQLite, uvicorn in a thread) sends its mails
to an SMTP server of the test (``tests/test_server_mail.py``'s), on a clock the test
holds."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from stairgames.server.base.limits import Rate
from stairgames.server.mail.notify import HOUR
from stairgames.server.ops.pages import catalog_messages
from stairgames.server.people.players import COOKIE
from tests.browser_helpers import expect, serving, shot, watch_content_security_policy
from tests.server_helpers import FakeClock
from tests.test_server_mail import (
    Inbox,
    clock,  # noqa: F401  (a fixture)
    link_in,
    mailing,
    smtp,  # noqa: F401  (a fixture)
)

PHONE = {"width": 360, "height": 740}
LOCALES = {"en": "en-GB", "ja": "ja-JP"}


class Site:
    """The app under test: its base URL, its state, and browser pages at phone size."""

    def __init__(self, base: str, app: Any, browser: Any, violations: list[str]) -> None:
        self.base, self.app, self.browser = base, app, browser
        self.violations = violations
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def page(self, locale: str = "en-GB", cookie: str | None = None) -> Any:
        """A page of a new browser (a phone, in ``locale``), logged in with ``cookie``."""
        context = self.browser.new_context(viewport=PHONE, locale=locale)
        self.contexts.append(context)
        if cookie is not None:
            host = self.base.split("//")[1].split(":")[0]
            secure = {"domain": host, "path": "/", "secure": True}
            context.add_cookies([{"name": COOKIE, "value": cookie, **secure}])
        watch_content_security_policy(context, self.violations)
        page = context.new_page()
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        return page


@pytest.fixture
def site(
    tmp_path: Path,
    smtp: tuple[Inbox, str],  # noqa: F811
    clock: FakeClock,  # noqa: F811
    browser: Any,
) -> Iterator[tuple[Site, Inbox]]:
    """The app sending mail (to a player as many as the test asks), and its inbox."""
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings

    inbox, url = smtp
    mail = mailing(url, mails_per_name=Rate(per_minute=60, burst=60))
    settings = Settings(data_dir=tmp_path, computer_workers=0, mail=mail, wall_clock=clock)
    app = create_app(settings)
    violations: list[str] = []
    with serving(app, settings) as base:
        site = Site(base, app, browser, violations)
        yield site, inbox
        for context in site.contexts:
            context.close()
    assert site.errors == [], "errors in the pages"
    assert violations == [], "breaches of the Content-Security-Policy"


def in_language(page: Any, lang: str) -> None:
    """Wait for ``page`` to show, in ``lang``: every text it marks for translation is the
    catalog's (and so is its title)."""
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("#page")).to_be_visible()
    messages = catalog_messages(lang)
    shown = page.locator("[data-i18n]").evaluate_all(
        "nodes => nodes.map(n => [n.dataset.i18n, n.textContent])"
    )
    assert shown and all(text == messages.get(msgid, msgid) for msgid, text in shown), shown
    heading = page.locator("#heading").get_attribute("data-i18n")
    assert page.title() == f"{messages.get(heading, heading)} · stairgames"
    if lang != "en":
        assert page.locator("#heading").text_content() != heading  # translated indeed


def mailed(inbox: Inbox, count: int, path: str) -> str:
    """The link to ``path`` in the ``count``-th mail (waiting for it)."""
    return link_in(inbox.wait_for(count)[count - 1], path)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_each_page_speaks_its_readers_language_and_does_what_it_says(
    site: tuple[Site, Inbox],
    clock: FakeClock,  # noqa: F811
    lang: str,
) -> None:
    web, inbox = site
    kato, secret = web.app.state.players.create("Kato")
    web.app.state.players.add_password(kato, "old password")
    store = web.app.state.mail.store
    address_of: Callable[[], Any] = lambda: store.address_of(kato.id)  # noqa: E731

    # the account page, in the browser's language: an address given, then confirmed
    own = web.page(LOCALES[lang], cookie=secret)
    own.goto(f"{web.base}/account")
    in_language(own, lang)
    own.fill("#address", "kato@example.org")
    own.click("#address-form button[type=submit]")
    expect(own.locator("#sent")).to_be_visible()
    expect(own.locator("#unconfirmed")).to_be_visible()
    assert address_of().language == lang

    # each link's page in a browser that chose no language (English): the reader's
    confirm = web.page()
    confirm.goto(web.base + mailed(inbox, 1, "/confirm-email"))
    in_language(confirm, lang)
    confirm.click("#act")
    expect(confirm.locator("#done")).to_be_visible()
    shot(confirm, f"account-{lang}-confirm")
    assert address_of().confirmed

    # the address changed: a new one to confirm
    own.goto(f"{web.base}/account")
    expect(own.locator("#confirmed")).to_be_visible()
    own.fill("#address", "kato@example.net")
    own.click("#address-form button[type=submit]")
    expect(own.locator("#sent")).to_be_visible()
    expect(own.locator("#unconfirmed")).to_be_visible()
    expect(own.locator("#notifications")).to_be_checked()
    shot(own, f"account-{lang}-account")
    assert address_of().address == "kato@example.net" and not address_of().confirmed
    again = web.page()
    again.goto(web.base + mailed(inbox, 2, "/confirm-email"))
    again.click("#act")
    expect(again.locator("#done")).to_be_visible()
    assert address_of().confirmed

    # unsubscribing, without logging in
    token = store.new_token(kato.id, "unsubscribe", clock(), HOUR)
    unsubscribe = web.page()
    unsubscribe.goto(f"{web.base}/unsubscribe?token={token}")
    in_language(unsubscribe, lang)
    unsubscribe.click("#act")
    expect(unsubscribe.locator("#done")).to_be_visible()
    shot(unsubscribe, f"account-{lang}-unsubscribe")
    assert not address_of().notifications

    # a forgotten password: the account page of a stranger asks, the mailed link resets
    stranger = web.page(LOCALES[lang])
    stranger.goto(f"{web.base}/account")
    in_language(stranger, lang)
    expect(stranger.locator("#no-account")).to_be_visible()
    stranger.fill("#forgot-name", "Kato")
    stranger.click("#forgot-form button[type=submit]")
    expect(stranger.locator("#forgot-sent")).to_be_visible()
    reset = web.page()
    reset.goto(web.base + mailed(inbox, 3, "/reset-password"))
    in_language(reset, lang)
    reset.fill("#password", "new password")
    shot(reset, f"account-{lang}-reset")
    reset.click("#reset button[type=submit]")
    expect(reset.locator("#done")).to_be_visible()
    expect(reset.locator("#reset")).to_be_hidden()
    login = {"name": "Kato", "password": "new password"}
    assert reset.request.post(f"{web.base}/api/login", data=login).ok
    own.goto(f"{web.base}/account")  # Kato's old session was logged out
    expect(own.locator("#no-account")).to_be_visible()


def test_a_used_link_says_so_and_a_chosen_language_wins(
    site: tuple[Site, Inbox],
) -> None:
    web, _inbox = site
    page = web.page("ja-JP")
    page.goto(f"{web.base}/confirm-email?token={'x' * 43}&lang=en")
    in_language(page, "en")
    page.click("#act")
    expect(page.locator("#failed")).to_be_visible()
    expect(page.locator("#done")).to_be_hidden()
    page.goto(f"{web.base}/reset-password?token={'x' * 43}")
    in_language(page, "en")  # the language chosen before, kept by the browser
    page.select_option("#lang", "ja")
    in_language(page, "ja")
    page.fill("#password", "new password")
    page.click("#reset button[type=submit]")
    expect(page.locator("#failed")).to_be_visible()
    expect(page.locator("#reset")).to_be_hidden()
