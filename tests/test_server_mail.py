"""E-mail (issue 30, and issue 29's password reset): addresses confirmed through a mailed
link, turn mails and digests of correspondence games (at most one an hour, one digest a
day), unsubscribing without logging in, password resets, a dead SMTP server, and a
correspondence game across a restart.

Mail goes to a real SMTP server the tests start (aiosmtpd, on loopback). Every clock is
a fake one the test moves by hand: nothing sleeps to let time pass (a test only waits,
with a deadline, for a mail under way to arrive)."""

from __future__ import annotations

import dataclasses
import email
import email.policy
import email.utils
import hashlib
import logging
import re
import socket
import sqlite3
import threading
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient

from stairgames.server.base.errors import ServerError
from stairgames.server.base.settings import STATIC_DIR, MailSettings
from stairgames.server.mail.notify import HOUR, MailStore, Notifier, Outbox
from stairgames.server.mail.routes import MailService, clean_address
from stairgames.server.mail.sending import mail_settings, parse_smtp_url
from stairgames.server.people.players import COOKIE
from tests.server_helpers import JSON, FakeClock, receive_until, running

START = 1_900_000_000.0
SITE = "http://games.example.org"
CORRESPONDENCE = {"kind": "correspondence", "days": 2}
SCHEMAS = "#/components/schemas/"


class Inbox:
    """An aiosmtpd handler keeping every mail it is given."""

    def __init__(self) -> None:
        self.mails: list[EmailMessage] = []
        self.recipients: list[list[str]] = []
        self._arrived = threading.Condition()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        mail = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(mail, EmailMessage)
        with self._arrived:
            self.mails.append(mail)
            self.recipients.append(list(envelope.rcpt_tos))
            self._arrived.notify_all()
        return "250 OK"

    def wait_for(self, count: int, timeout: float = 15.0) -> list[EmailMessage]:
        """The mails once there are ``count`` of them (waiting at most ``timeout``)."""
        with self._arrived:
            self._arrived.wait_for(lambda: len(self.mails) >= count, timeout=timeout)
            assert len(self.mails) >= count, [m["Subject"] for m in self.mails]
            return list(self.mails)

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.mails if m["To"] == address]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, str]]:
    """A local SMTP server: its inbox, and the ``--smtp-url`` that reaches it."""
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, f"smtp://127.0.0.1:{port}"
    finally:
        controller.stop()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


def mailing(url: str, **fields: Any) -> MailSettings:
    settings = mail_settings(url, "stairgames <games@example.org>", SITE)
    assert settings is not None
    return dataclasses.replace(settings, **{"sweep_seconds": 3600.0, **fields})


def service_of(client: TestClient) -> MailService:
    service: MailService = client.app.state.mail  # type: ignore[attr-defined]
    return service


def settle(client: TestClient) -> None:
    """Wait for every mail under way (the app's background tasks) to be sent."""
    outbox = service_of(client).outbox
    if outbox is not None:
        assert client.portal is not None
        client.portal.call(outbox.settle)


def sweep(client: TestClient) -> list[str]:
    """Run the notifier's sweep now (as its timer would), then settle."""
    notifier = service_of(client).notifier
    assert notifier is not None and client.portal is not None
    sent: list[str] = client.portal.call(notifier.sweep)
    settle(client)
    return sent


def account(client: TestClient, name: str, password: str = "correct horse") -> dict[str, str]:
    """A new player with a password: the headers of its browser's requests."""
    players = client.app.state.players  # type: ignore[attr-defined]
    made, secret = players.create(name)
    players.add_password(made, password)
    return {**JSON, "cookie": f"{COOKIE}={secret}"}


def link_in(mail: EmailMessage, path: str) -> str:
    """The path and query of the link to ``path`` in a mail's text."""
    body = mail.get_content()
    found = re.search(re.escape(SITE) + "(" + re.escape(path) + r"[^\s]*)", body)
    assert found, body
    return found.group(1)


def token_in(link: str) -> str:
    found = re.search(r"token=([^&\s]+)", link)
    assert found, link
    return found.group(1)


def give_address(
    client: TestClient, inbox: Inbox, who: dict[str, str], address: str, lang: str = "en"
) -> str:
    """Set ``who``'s address and follow the confirmation mail: the confirm link's token."""
    before = len(inbox.mails)
    reply = client.post("/api/account/email", json={"address": address, "lang": lang}, headers=who)
    assert reply.status_code == 200, reply.text
    assert reply.json()["sent"] is True
    mail = inbox.wait_for(before + 1)[-1]
    assert mail["To"] == address
    return token_in(link_in(mail, "/confirm-email"))


def confirmed(
    client: TestClient, inbox: Inbox, who: dict[str, str], address: str, lang: str = "en"
) -> None:
    token = give_address(client, inbox, who, address, lang)
    reply = client.post("/api/account/email/confirm", json={"token": token}, headers=JSON)
    assert reply.status_code == 200, reply.text


def correspondence(client: TestClient, first: dict[str, str], second: dict[str, str]) -> str:
    """A correspondence game of Stairs: ``first`` holds seat 0 (to move), ``second``
    seat 1; every seat taken."""
    body = {
        "game": "stairs",
        "options": {"size": 4},
        "seats": ["human", "online"],
        "time_control": CORRESPONDENCE,
    }
    made = client.post("/api/matches", json=body, headers=first)
    assert made.status_code == 200, made.text
    match_id: str = made.json()["match"]
    joined = client.post(f"/api/matches/{match_id}/join", headers=second)
    assert joined.status_code == 200, joined.text
    return match_id


def kato_against_suga(
    client: TestClient, inbox: Inbox
) -> tuple[dict[str, str], dict[str, str], str]:
    """Kato (no address) and Suga (a confirmed address) in a correspondence game, Kato to
    move: their requests' headers and the match."""
    kato, suga = account(client, "Kato"), account(client, "Suga")
    confirmed(client, inbox, suga, "suga@example.org")
    return kato, suga, correspondence(client, kato, suga)


def move(client: TestClient, who: dict[str, str], match_id: str) -> None:
    """``who`` makes a move in the match (their seat must be to act), then leaves."""
    url = f"/ws/matches/{match_id}"
    with client.websocket_connect(url, headers={"cookie": who["cookie"]}) as ws:
        state = receive_until(ws, lambda m: m["type"] == "state")
        assert state["to_act"] == state["you"] and state["legal"], state
        ws.send_json({"type": "move", "move": state["legal"][0], "event": state["event"]})
        receive_until(ws, lambda m: m["type"] == "state" and m["event"] > state["event"])


def turn_mails(inbox: Inbox, address: str) -> list[EmailMessage]:
    return [m for m in inbox.to(address) if "List-Unsubscribe" in m]


# ----- settings ------------------------------------------------------------------------


def test_the_smtp_address_names_the_server_tls_and_login() -> None:
    plain = parse_smtp_url("smtp://mail.example.org:2525")
    assert (plain.host, plain.port, plain.starttls, plain.tls, plain.username) == (
        "mail.example.org",
        2525,
        False,
        False,
        None,
    )
    submission = parse_smtp_url("smtp+starttls://games%40example.org:p%40ss@mail.example.org")
    assert (submission.port, submission.starttls, submission.username, submission.password) == (
        587,
        True,
        "games@example.org",
        "p@ss",
    )
    assert "p@ss" not in repr(submission)
    assert parse_smtp_url("smtps://u:v@mail.example.org").port == 465
    for bad in ("http://mail.example.org", "smtp://", "mail.example.org:25", "smtp://h:99999"):
        with pytest.raises(ValueError, match="smtp://host:port") as refused:
            parse_smtp_url(bad)
        assert "99999" not in str(refused.value)
    with pytest.raises(ValueError) as refused:
        parse_smtp_url("ftp://user:hunter2@h")
    assert "hunter2" not in str(refused.value)
    assert mail_settings(None) is None
    settings = mail_settings("smtp://h:25", None, "https://games.example.org/")
    assert settings is not None and settings.link("/m/x") == "https://games.example.org/m/x"
    assert settings.from_header() == "stairgames <noreply@games.example.org>"


def test_addresses_are_checked_and_kept_in_ascii() -> None:
    assert clean_address("  Kato@Example.ORG ") == "Kato@example.org"
    assert clean_address("suga@例え.jp") == "suga@xn--r8jz45g.jp"
    for bad in ["", "kato", "@example.org", "kato@", "kato@example", "a b@example.org",
                "kato@example.org\r\nBcc: x@y.org", "<kato@example.org>", 7, None,
                "x" * 65 + "@example.org"]:  # fmt: skip
        with pytest.raises(ServerError):
            clean_address(bad)


# ----- without an SMTP server ----------------------------------------------------------


def test_without_an_smtp_server_no_mail_feature_is_offered_and_games_go_on(
    tmp_path: Path,
) -> None:
    with running(tmp_path) as client:
        kato, suga = account(client, "Kato"), account(client, "Suga")
        shown = client.get("/api/account", headers=kato).json()
        assert shown["mail"] is False and shown["email"] is None and shown["name"] == "Kato"
        for url, body in [
            ("/api/account/email", {"address": "kato@example.org"}),
            ("/api/account/reset", {"name": "Kato"}),
        ]:
            reply = client.post(url, json=body, headers=kato)
            assert reply.status_code == 409
            assert reply.json()["error"]["code"] == "no_mail"
        match_id = correspondence(client, kato, suga)
        move(client, kato, match_id)
        move(client, suga, match_id)
        assert client.get("/api/account").status_code == 401  # no player


# ----- the contract --------------------------------------------------------------------


MAIL_MODELS: list[tuple[str, str, str | None, str]] = [
    ("get", "/api/account", None, "AccountAnswer"),
    ("post", "/api/account/email", "AddressBody", "AddressAnswer"),
    ("post", "/api/account/email/confirm", "LinkBody", "Ok"),
    ("post", "/api/account/notifications", "NotificationsBody", "AccountAnswer"),
    ("post", "/api/unsubscribe", "LinkBody", "Ok"),
    ("post", "/unsubscribe", None, "Ok"),
    ("post", "/api/account/reset", "ResetAskBody", "Ok"),
    ("post", "/api/account/reset/confirm", "ResetBody", "ResetDone"),
    ("get", "/api/account/language", None, "PageLanguage"),
]
"""Each e-mail route, the model of its JSON body and of its answer (mail/contract.py)."""


def test_the_mail_routes_read_and_answer_typed_models(
    tmp_path: Path, smtp: tuple[Inbox, str]
) -> None:
    inbox, url = smtp
    with running(tmp_path, mail=mailing(url)) as client:
        paths = client.app.openapi()["paths"]  # type: ignore[attr-defined]
        for method, path, body, answer in MAIL_MODELS:
            operation = paths[path][method]
            read = operation.get("requestBody", {}).get("content", {}).get("application/json")
            assert read == (None if body is None else {"schema": {"$ref": f"{SCHEMAS}{body}"}})
            said = operation["responses"]["200"]["content"]["application/json"]["schema"]
            assert said == {"$ref": f"{SCHEMAS}{answer}"}, path
        for page in ["/account", "/confirm-email", "/reset-password"]:
            assert page not in paths  # a page, not a route of the API
        # a body that does not fit is refused as the routes always refused it
        kato = account(client, "Kato")
        refusals: list[tuple[str, dict[str, Any], dict[str, str], str]] = [
            ("/api/account/notifications", {"on": "yes"}, kato, "bad_flag"),
            ("/api/account/notifications", {}, kato, "bad_flag"),
            ("/api/account/reset", {"name": 7}, JSON, "name_not_text"),
            ("/api/account/reset/confirm", {"token": "x" * 43}, JSON, "password_length"),
            ("/api/account/reset/confirm", {"password": ["x"] * 8}, JSON, "password_length"),
        ]
        for path, sent, who, code in refusals:
            reply = client.post(path, json=sent, headers=who)
            assert reply.status_code == 400, (path, sent)
            assert reply.json()["error"]["code"] == code, (path, sent)
        assert inbox.mails == []


# ----- confirming an address -----------------------------------------------------------


def test_an_address_is_confirmed_through_the_mailed_link(
    tmp_path: Path, smtp: tuple[Inbox, str], clock: FakeClock
) -> None:
    inbox, url = smtp
    settings = {"mail": mailing(url), "wall_clock": clock, "static_dir": STATIC_DIR}
    with running(tmp_path, **settings) as client:
        kato = account(client, "Kato")
        token = give_address(client, inbox, kato, "kato@example.org")
        mail = inbox.mails[-1]
        assert mail["Subject"] == "Confirm your e-mail address for stairgames"
        assert mail["From"] == "stairgames <games@example.org>"
        assert mail["Auto-Submitted"] == "auto-generated" and "List-Unsubscribe" not in mail
        assert "Hello Kato," in mail.get_content()
        shown = client.get("/api/account", headers=kato).json()
        assert shown["mail"] is True
        assert shown["email"] == {
            "address": "kato@example.org",
            "confirmed": False,
            "notifications": True,
            "language": "en",
        }
        # the link opens a page (it changes nothing), whose button confirms: no login needed
        page = client.get(f"/confirm-email?token={token}")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert '<button type="button" id="act" data-i18n="Confirm">Confirm</button>' in page.text
        assert client.get("/api/account", headers=kato).json()["email"]["confirmed"] is False
        # (from a browser that is no player: the request has no cookie)
        reply = client.post("/api/account/email/confirm", json={"token": token}, headers=JSON)
        assert reply.status_code == 200
        assert client.get("/api/account", headers=kato).json()["email"]["confirmed"] is True
        # once only
        again = client.post("/api/account/email/confirm", json={"token": token}, headers=JSON)
        assert again.status_code == 400
        assert again.json()["error"]["code"] == "link_invalid"
    database = sqlite3.connect(tmp_path / "stairgames.db")
    hashes = [row[0] for row in database.execute("SELECT token_hash FROM mail_tokens")]
    database.close()
    assert hashlib.sha256(token.encode()).hexdigest() in hashes
    assert token not in hashes
    assert token not in (tmp_path / "stairgames.db").read_bytes().decode("latin-1")


def test_a_confirm_link_for_an_old_address_or_after_two_days_confirms_nothing(
    tmp_path: Path, smtp: tuple[Inbox, str], clock: FakeClock
) -> None:
    inbox, url = smtp
    with running(tmp_path, mail=mailing(url), wall_clock=clock) as client:
        kato = account(client, "Kato")
        old = give_address(client, inbox, kato, "old@example.org")
        new = give_address(client, inbox, kato, "new@example.org")
        reply = client.post("/api/account/email/confirm", json={"token": old}, headers=JSON)
        assert reply.status_code == 400
        clock.advance(48 * HOUR + 1)
        reply = client.post("/api/account/email/confirm", json={"token": new}, headers=JSON)
        assert reply.status_code == 400
        for token in ["", "x" * 43, 7, None]:
            reply = client.post("/api/account/email/confirm", json={"token": token}, headers=JSON)
            assert reply.status_code == 400
        assert client.get("/api/account", headers=kato).json()["email"]["confirmed"] is False


def test_only_an_account_may_give_an_address_and_only_a_real_one(
    tmp_path: Path, smtp: tuple[Inbox, str]
) -> None:
    inbox, url = smtp
    with running(tmp_path, mail=mailing(url)) as client:
        players = client.app.state.players  # type: ignore[attr-defined]
        _anonymous, secret = players.create(None)
        no_password = {**JSON, "cookie": f"{COOKIE}={secret}"}
        body = {"address": "kato@example.org"}
        reply = client.post("/api/account/email", json=body, headers=no_password)
        assert reply.status_code == 409
        assert client.post("/api/account/email", json=body, headers=JSON).status_code == 401
        kato = account(client, "Kato")
        for bad in ["kato", "kato@example.org\nBcc: all@example.org", 42, ["a@b.org"]]:
            reply = client.post("/api/account/email", json={"address": bad}, headers=kato)
            assert reply.status_code == 400, bad
            assert reply.json()["error"]["code"] == "bad_address"
        settle(client)
        assert inbox.mails == []
        # removing the address: always possible
        give_address(client, inbox, kato, "kato@example.org")
        reply = client.post("/api/account/email", json={"address": None}, headers=kato)
        assert reply.status_code == 200 and reply.json()["email"] is None


def test_addresses_are_never_shown_to_other_players(
    tmp_path: Path, smtp: tuple[Inbox, str]
) -> None:
    inbox, url = smtp
    with running(tmp_path, mail=mailing(url)) as client:
        kato, suga = account(client, "Kato"), account(client, "Suga")
        confirmed(client, inbox, kato, "kato@example.org")
        match_id = correspondence(client, kato, suga)
        for path in ["/api/players/Kato", f"/api/matches/{match_id}", "/api/my/games",
                     f"/api/matches/{match_id}/record", "/api/challenges", "/api/me"]:  # fmt: skip
            reply = client.get(path, headers=suga)
            assert reply.status_code == 200, path
            assert "kato@example.org" not in reply.text, path


# ----- turn mails ----------------------------------------------------------------------


def test_no_turn_mail_goes_to_an_unconfirmed_address(
    tmp_path: Path, smtp: tuple[Inbox, str], clock: FakeClock
) -> None:
    inbox, url = smtp
    with running(tmp_path, mail=mailing(url), wall_clock=clock) as client:
        kato, suga = account(client, "Kato"), account(client, "Suga")
        give_address(client, inbox, suga, "suga@example.org")  # never confirmed
        match_id = correspondence(client, kato, suga)
        move(client, kato, match_id)  # Suga's turn
        clock.advance(2 * HOUR)
        assert sweep(client) == []
        assert turn_mails(inbox, "suga@example.org") == []


def test_the_turn_mail_links_to_the_game_where_it_is_the_readers_move(
    tmp_path: Path, smtp: tuple[Inbox, str], clock: FakeClock
) -> None:
    inbox, url = smtp
    settings = {"mail": mailing(url), "wall_clock": clock, "static_dir": STATIC_DIR}
    with running(tmp_path, **settings) as client:
        kato, suga, match_id = kato_against_suga(client, inbox)
        settle(client)
        assert turn_mails(inbox, "suga@example.org") == []  # Kato moves first
        move(client, kato, match_id)
        settle(client)
        (mail,) = turn_mails(inbox, "suga@example.org")
        assert mail["Subject"] == "Your turn in Stairs against Kato"
        text = mail.get_content()
        assert f"{SITE}/m/{match_id}" in text and "Hello Suga," in text
        unsubscribe = link_in(mail, "/unsubscribe")
        assert mail["List-Unsubscribe"] == f"<{SITE}{unsubscribe}>"
        assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        # following the link: the page, then (as the page does) the match as Suga plays it
        path = link_in(mail, "/m/")
        page = client.get(path, headers={"cookie": suga["cookie"]})
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        view = client.get(f"/api/matches/{match_id}", headers={"cookie": suga["cookie"]}).json()
        assert view["you"] == 1 and view["to_act"] == 1 and view["legal"]
        # Kato, without an address, is never mailed; nobody is mailed about a game over
        move(client, suga, match_id)
        settle(client)
        assert {m["To"] for m in inbox.mails} == {"suga@example.org"}


def test_at_most_one_turn_mail_an_hour_for_a_match(
    tmp_path: Path, smtp: tuple[Inbox, str], clock: FakeClock
) -> None:
    inbox, url = smtp
    with running(tmp_path, mail=mailing(url), wall_clock=clock) as client:
        kato, suga, match_id = kato_against_suga(client, inbox)
        move(client, kato, match_id)
        settle(client)
        assert len(turn_mails(inbox, "suga@example.org")) == 1
        for _ in range(3):  # a lively exchange within the hour: no more mail
            clock.advance(10 * 60)
            move(client, suga, match_id)
            move(client, kato, match_id)
            settle(client)
        assert sweep(client) == []
        assert len(turn_mails(inbox, "suga@example.org")) == 1
        clock.advance(HOUR - 30 * 60 - 1)  # 59 min 59 s after the mail
        assert sweep(client) == []
        clock.advance(1)  # the hour has passed: the wait is told
        assert sweep(client) == ["turn"]
        first, second = turn_mails(inbox, "suga@example.org")
        assert second["Subject"] == first["Subject"]
        assert sweep(client) == []


def test_no_mail_while_the_player_has_the_game_open(
    tmp_path: Path, smtp: tuple[Inbox, str], clock: FakeClock
) -> None:
    inbox, url = smtp
    with running(tmp_path, mail=mailing(url), wall_clock=clock) as client:
        kato, suga, match_id = kato_against_suga(client, inbox)
        url_ws = f"/ws/matches/{match_id}"
        with client.websocket_connect(url_ws, headers={"cookie": suga["cookie"]}) as watching:
            receive_until(watching, lambda m: m["type"] == "state")
            move(client, kato, match_id)
            settle(client)
            assert turn_mails(inbox, "suga@example.org") == []
            assert sweep(client) == []
        assert sweep(client) == ["turn"]  # the page was closed without a move


def test_two_games_waiting_within_the_hour_come_in_one_daily_digest(
    tmp_path: Path, smtp: tuple[Inbox, str], clock: FakeClock
) -> None:
    inbox, url = smtp
    with running(tmp_path, mail=mailing(url), wall_clock=clock) as client:
        kato, suga = account(client, "Kato"), account(client, "Suga")
        mori = account(client, "Mori")
        confirmed(client, inbox, suga, "suga@example.org")
        games = [correspondence(client, kato, suga) for _ in range(2)]
        games.append(correspondence(client, mori, suga))
        move(client, kato, games[0])
        settle(client)
        assert [m["Subject"] for m in turn_mails(inbox, "suga@example.org")] == [
            "Your turn in Stairs against Kato"
        ]
        clock.advance(5 * 60)
        move(client, kato, games[1])
        move(client, mori, games[2])
        settle(client)
        assert len(turn_mails(inbox, "suga@example.org")) == 1  # the hour is closed
        clock.advance(HOUR)
        assert sweep(client) == ["digest"]
        digest = turn_mails(inbox, "suga@example.org")[-1]
        assert digest["Subject"] == "3 games wait for your move"
        text = digest.get_content()
        for match_id in games:
            assert f"{SITE}/m/{match_id}" in text
        assert "Stairs against Mori:" in text and f"{SITE}/my" in text
        # within the day, two more waits make a turn mail that counts the others
        for match_id, other in [(games[0], kato), (games[2], mori)]:
            move(client, suga, match_id)
            move(client, other, match_id)
        clock.advance(HOUR)
        assert sweep(client) == ["turn"]
        last = turn_mails(inbox, "suga@example.org")[-1]
        assert "Other games waiting for your move: 2." in last.get_content()
        # a day after the digest, another digest may go out
        for match_id, other in [(games[0], kato), (games[2], mori)]:
            move(client, suga, match_id)
            move(client, other, match_id)
        clock.advance(HOUR)
        assert sweep(client) == ["turn"]
        for match_id, other in [(games[0], kato), (games[2], mori)]:
            move(client, suga, match_id)
            move(client, other, match_id)
        clock.advance(22 * HOUR)
        assert sweep(client) == ["digest"]


def test_turn_mails_are_in_the_readers_language(
    tmp_path: Path, smtp: tuple[Inbox, str], clock: FakeClock
) -> None:
    inbox, url = smtp
    with running(tmp_path, mail=mailing(url), wall_clock=clock) as client:
        kato, suga = account(client, "Kato"), account(client, "Suga")
        confirmed(client, inbox, suga, "suga@example.org", lang="ja")
        match_id = correspondence(client, kato, suga)
        move(client, kato, match_id)
        settle(client)
        (mail,) = turn_mails(inbox, "suga@example.org")
        assert mail["Content-Language"] == "ja"
        assert "Kato" in mail["Subject"] and "Stairs" not in mail["Subject"]
        assert f"{SITE}/m/{match_id}" in mail.get_content()
        # its page speaks the reader's language, in a browser that is no player too
        path = link_in(mail, "/unsubscribe")
        asked = {"link": "unsubscribe", "token": token_in(path)}
        assert client.get("/api/account/language", params=asked).json() == {"lang": "ja"}
        assert client.get("/api/account/language", headers=suga).json() == {"lang": "ja"}
        client.cookies.clear()  # (no player: no address of theirs to follow)
        for other in [{**asked, "link": "reset"}, {**asked, "token": "x" * 43}, {}]:
            assert client.get("/api/account/language", params=other).json() == {"lang": None}


# ----- unsubscribing -------------------------------------------------------------------


def test_unsubscribing_needs_no_login_and_the_account_turns_mails_on_again(
    tmp_path: Path, smtp: tuple[Inbox, str], clock: FakeClock
) -> None:
    inbox, url = smtp
    settings = {"mail": mailing(url), "wall_clock": clock, "static_dir": STATIC_DIR}
    with running(tmp_path, **settings) as client:
        kato, suga, match_id = kato_against_suga(client, inbox)
        move(client, kato, match_id)
        settle(client)
        (mail,) = turn_mails(inbox, "suga@example.org")
        path = link_in(mail, "/unsubscribe")
        token = token_in(path)
        # from a browser without a cookie: no login
        page = client.get(path)
        assert page.status_code == 200 and "Stop the e-mails" in page.text
        shown = client.get("/api/account", headers=suga).json()["email"]
        assert shown["notifications"] is True  # opening the page changed nothing
        reply = client.post("/api/unsubscribe", json={"token": token}, headers=JSON)
        assert reply.status_code == 200
        again = client.post("/api/unsubscribe", json={"token": token}, headers=JSON)
        assert again.status_code == 200  # still unsubscribed
        wrong = client.post("/api/unsubscribe", json={"token": "x" * 43}, headers=JSON)
        assert wrong.status_code == 400
        assert client.get("/api/account", headers=suga).json()["email"]["notifications"] is False
        move(client, suga, match_id)
        move(client, kato, match_id)
        clock.advance(2 * HOUR)
        assert sweep(client) == []
        # the account page turns them on again
        assert client.get("/account", headers=suga).status_code == 200
        reply = client.post("/api/account/notifications", json={"on": True}, headers=suga)
        assert reply.status_code == 200 and reply.json()["email"]["notifications"] is True
        bad = client.post("/api/account/notifications", json={"on": "yes"}, headers=suga)
        assert bad.status_code == 400
        move(client, suga, match_id)
        move(client, kato, match_id)
        settle(client)
        assert len(turn_mails(inbox, "suga@example.org")) == 2


def test_one_click_unsubscribe_as_a_mail_program_sends_it(
    tmp_path: Path, smtp: tuple[Inbox, str], clock: FakeClock
) -> None:
    inbox, url = smtp
    with running(tmp_path, mail=mailing(url), wall_clock=clock) as client:
        kato, suga = account(client, "Kato"), account(client, "Suga")
        confirmed(client, inbox, suga, "suga@example.org")
        move(client, kato, correspondence(client, kato, suga))
        settle(client)
        (mail,) = turn_mails(inbox, "suga@example.org")
        target = mail["List-Unsubscribe"].strip("<>").removeprefix(SITE)
        form = {"content-type": "application/x-www-form-urlencoded"}  # as a mail program
        reply = client.post(target, content=mail["List-Unsubscribe-Post"], headers=form)
        assert reply.status_code == 200, reply.text
        refused = client.post(
            "/unsubscribe?token=" + "y" * 43, content="List-Unsubscribe=One-Click", headers=form
        )
        assert refused.status_code == 400
        # every other route still refuses a form
        assert client.post("/api/unsubscribe", content="token=x", headers=form).status_code == 415
        assert client.get("/api/account", headers=suga).json()["email"]["notifications"] is False


# ----- password reset ------------------------------------------------------------------


@pytest.mark.slow
def test_a_password_is_reset_through_a_mailed_link(
    tmp_path: Path, smtp: tuple[Inbox, str], clock: FakeClock
) -> None:
    inbox, url = smtp
    settings = {"mail": mailing(url), "wall_clock": clock, "static_dir": STATIC_DIR}
    with running(tmp_path, **settings) as client:
        kato = account(client, "Kato", "old password")
        confirmed(client, inbox, kato, "kato@example.org")
        suga = account(client, "Suga")
        give_address(client, inbox, suga, "suga@example.org")  # not confirmed
        account(client, "Mori")  # no address
        mailed = len(inbox.mails)
        replies = [
            client.post("/api/account/reset", json={"name": name}, headers=JSON)
            for name in ["Kato", "Suga", "Mori", "Nobody"]
        ]
        assert {(r.status_code, r.text) for r in replies} == {(200, '{"ok":true}')}
        settle(client)
        (mail,) = inbox.mails[mailed:]
        assert mail["To"] == "kato@example.org" and "List-Unsubscribe" not in mail
        assert mail["Subject"] == "A new password for stairgames"
        path = link_in(mail, "/reset-password")
        token = token_in(path)
        page = client.get(path)
        assert page.status_code == 200 and 'id="password"' in page.text
        # a password too short is refused before the link is used
        short = client.post(
            "/api/account/reset/confirm", json={"token": token, "password": "short"}, headers=JSON
        )
        assert short.status_code == 400
        reply = client.post(  # from a browser logged out (no cookie)
            "/api/account/reset/confirm",
            json={"token": token, "password": "new password"},
            headers=JSON,
        )
        assert reply.status_code == 200 and reply.json() == {"ok": True, "name": "Kato"}
        # every session was logged out; the new password logs in, the old one does not
        assert client.get("/api/me", headers={"cookie": kato["cookie"]}).json()["id"] is None
        old = client.post("/api/login", json={"name": "Kato", "password": "old password"},
                          headers=JSON)  # fmt: skip
        assert old.status_code == 401
        client.cookies.clear()
        new = client.post("/api/login", json={"name": "Kato", "password": "new password"},
                          headers=JSON)  # fmt: skip
        assert new.status_code == 200
        client.cookies.clear()
        # once only
        reused = client.post(
            "/api/account/reset/confirm", json={"token": token, "password": "third one"},
            headers=JSON)  # fmt: skip
        assert reused.status_code == 400
        assert reused.json()["error"]["code"] == "link_invalid"


def test_a_reset_link_expires_after_an_hour_and_resets_are_rate_limited(
    tmp_path: Path, smtp: tuple[Inbox, str], clock: FakeClock
) -> None:
    inbox, url = smtp
    with running(tmp_path, mail=mailing(url), wall_clock=clock) as client:
        kato = account(client, "Kato", "old password")
        confirmed(client, inbox, kato, "kato@example.org")
        mailed = len(inbox.mails)
        client.post("/api/account/reset", json={"name": "Kato"}, headers=JSON)
        token = token_in(link_in(inbox.wait_for(mailed + 1)[-1], "/reset-password"))
        clock.advance(HOUR + 1)
        late = client.post(
            "/api/account/reset/confirm",
            json={"token": token, "password": "new password"},
            headers=JSON,
        )
        assert late.status_code == 400
        # a few mails to one player, then nothing (answered the same); then 429 per client
        answers = [
            client.post("/api/account/reset", json={"name": "Kato"}, headers=JSON).status_code
            for _ in range(5)
        ]
        assert answers[:4] == [200] * 4 and answers[4] == 429
        settle(client)
        assert len(inbox.mails) == mailed + 2  # MAILS_PER_NAME: three at once (one confirmed)


# ----- a dead SMTP server --------------------------------------------------------------


def test_a_dead_smtp_server_is_logged_and_the_game_goes_on(
    tmp_path: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    url = f"smtp://games:hunter2@127.0.0.1:{free_port()}"  # nobody listens there
    with running(tmp_path, mail=mailing(url), wall_clock=clock) as client:
        kato, suga = account(client, "Kato"), account(client, "Suga")
        service = service_of(client)
        suga_id = client.get("/api/me", headers=suga).json()["id"]
        with caplog.at_level(logging.WARNING, logger="stairgames.server.mail.sending"):
            reply = client.post(
                "/api/account/email", json={"address": "suga@example.org"}, headers=suga
            )
            assert reply.status_code == 200  # the mail fails later, in the background
            settle(client)
            token = service.store.new_token(suga_id, "confirm", clock(), 60, "suga@example.org")
            reply = client.post("/api/account/email/confirm", json={"token": token}, headers=JSON)
            assert reply.status_code == 200
            match_id = correspondence(client, kato, suga)
            move(client, kato, match_id)
            settle(client)
            move(client, suga, match_id)  # the game goes on
            move(client, kato, match_id)
            clock.advance(2 * HOUR)
            assert sweep(client) == []
        failures = [r for r in caplog.records if "could not be sent" in r.getMessage()]
        assert len(failures) >= 2 and all(r.levelno == logging.WARNING for r in failures)
        assert "127.0.0.1" in failures[0].getMessage()
        logged = " ".join(r.getMessage() for r in caplog.records)
        assert "hunter2" not in logged and "suga@example.org" not in logged
        assert "token" not in logged and token not in logged
        view = client.get(f"/api/matches/{match_id}", headers={"cookie": suga["cookie"]}).json()
        assert view["to_act"] == 1 and len(view["history"]) == 3


@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")
def test_the_smtp_login_is_used_and_a_refused_one_is_logged_without_its_password(
    tmp_path: Path, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    from aiosmtpd.smtp import AuthResult, LoginPassword

    def authenticator(server, session, envelope, mechanism, data) -> AuthResult:
        good = isinstance(data, LoginPassword) and (data.login, data.password) == (
            b"games@example.org",
            b"s3cret pass",
        )
        return AuthResult(success=good, handled=False)

    inbox, port = Inbox(), free_port()
    controller = Controller(
        inbox,
        hostname="127.0.0.1",
        port=port,
        authenticator=authenticator,
        auth_required=True,
        auth_require_tls=False,  # (a test on loopback: no certificate to make)
        auth_exclude_mechanism=["LOGIN"],
    )
    controller.start()
    try:
        for password, delivered in [("s3cret%20pass", 1), ("wrong-guess", 1)]:
            url = f"smtp://games%40example.org:{password}@127.0.0.1:{port}"
            with (
                caplog.at_level(logging.WARNING, logger="stairgames.server.mail.sending"),
                running(tmp_path, mail=mailing(url, timeout_seconds=5), wall_clock=clock) as client,
            ):
                kato = account(client, f"Kato{delivered}{len(password)}")
                body = {"address": "kato@example.org"}
                assert client.post("/api/account/email", json=body, headers=kato).status_code == 200
                settle(client)
            assert len(inbox.mails) == delivered
        logged = " ".join(r.getMessage() for r in caplog.records)
        assert "SMTPAuthenticationError" in logged and "wrong-guess" not in logged
    finally:
        controller.stop()


# ----- two processes, one database -----------------------------------------------------


def test_two_server_processes_never_send_the_same_turn_mail(
    tmp_path: Path, smtp: tuple[Inbox, str], clock: FakeClock
) -> None:
    """Two notifiers on one database (as two processes): one claims the hour."""
    inbox, url = smtp
    with running(tmp_path, mail=mailing(url), wall_clock=clock) as client:
        kato, suga, match_id = kato_against_suga(client, inbox)
        with client.websocket_connect(
            f"/ws/matches/{match_id}", headers={"cookie": suga["cookie"]}
        ) as watching:  # held back while Suga looks
            receive_until(watching, lambda m: m["type"] == "state")
            move(client, kato, match_id)
            service = service_of(client)
            assert service.outbox is not None and client.portal is not None
            # the look the move started (its reads in database threads) ends while Suga
            # still watches: it sends nothing, and the hour stays open for the two below
            client.portal.call(service.outbox.settle)
        assert service.notifier is not None and service.outbox is not None
        store = MailStore(service.store.engine)
        other = Notifier(
            store,
            Outbox(service.outbox.mailer, service.outbox.settings, clock),
            seat_players=service.notifier.seat_players,
            describe=service.notifier.describe,
        )
        suga_id = client.get("/api/me", headers=suga).json()["id"]

        async def both() -> list[str | None]:
            import asyncio

            notifier = service.notifier
            assert notifier is not None
            return list(await asyncio.gather(notifier.tell(suga_id), other.tell(suga_id)))

        assert client.portal is not None
        kinds = client.portal.call(both)
        assert sorted(kinds, key=str) == ["turn", None] or sorted(kinds, key=str) == [None, "turn"]
        assert len(turn_mails(inbox, "suga@example.org")) == 1


# ----- across a restart ----------------------------------------------------------------


def test_a_correspondence_game_across_a_restart_gets_its_mail_with_a_working_link(
    tmp_path: Path, smtp: tuple[Inbox, str], clock: FakeClock
) -> None:
    inbox, url = smtp
    settings = {"mail": mailing(url), "wall_clock": clock, "static_dir": STATIC_DIR}
    with running(tmp_path, **settings) as client:
        kato, suga, match_id = kato_against_suga(client, inbox)
        move(client, kato, match_id)
        settle(client)
        assert len(turn_mails(inbox, "suga@example.org")) == 1
        clock.advance(20 * 60)
        move(client, suga, match_id)
        move(client, kato, match_id)  # Suga waits again: the hour is closed
        settle(client)
        assert len(turn_mails(inbox, "suga@example.org")) == 1
        mailed = len(inbox.mails)
    clock.advance(HOUR)  # the server is down when the hour opens
    with running(tmp_path, **settings) as client:
        # the sweep at start-up sends what became due meanwhile
        mails = inbox.wait_for(mailed + 1)
        settle(client)
        first, second = turn_mails(inbox, "suga@example.org")
        assert mails[-1] is second
        sent_at = [
            email.utils.parsedate_to_datetime(m["Date"]).timestamp() for m in (first, second)
        ]
        assert sent_at[1] - sent_at[0] >= HOUR
        path = link_in(second, "/m/")
        assert path == f"/m/{match_id}"
        page = client.get(path, headers={"cookie": suga["cookie"]})
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        view = client.get(f"/api/matches/{match_id}", headers={"cookie": suga["cookie"]}).json()
        assert view["you"] == 1 and view["to_act"] == 1 and len(view["history"]) == 3
        move(client, suga, match_id)  # the link's game plays on
        assert sweep(client) == []
        assert len(turn_mails(inbox, "suga@example.org")) == 2


# ----- the pages, in Chromium ----------------------------------------------------------


def test_the_account_page_and_the_links_pages_work_in_chromium(
    tmp_path: Path, smtp: tuple[Inbox, str], clock: FakeClock, browser: Any
) -> None:
    """The account page gives and confirms an address and turns mails off and on; the
    unsubscribe and reset pages do what their buttons say; no page breaks the
    Content-Security-Policy."""
    from stairgames.server.app import create_app
    from stairgames.server.base.settings import Settings
    from tests.browser_helpers import expect, serving, watch_content_security_policy

    inbox, url = smtp
    settings = Settings(data_dir=tmp_path, computer_workers=0, mail=mailing(url), wall_clock=clock)
    app = create_app(settings)
    violations: list[str] = []
    with serving(app, settings) as base:
        service: MailService = app.state.mail
        kato, secret = app.state.players.create("Kato")
        app.state.players.add_password(kato, "old password")
        host = base.split("//")[1].split(":")[0]
        own = browser.new_context(locale="en-GB")
        # __Host-: Secure (127.0.0.1 is a secure context) and Path=/
        own.add_cookies(
            [{"name": COOKIE, "value": secret, "domain": host, "path": "/", "secure": True}]
        )
        watch_content_security_policy(own, violations)
        page = own.new_page()
        page.goto(f"{base}/account")
        expect(page.locator("#email")).to_be_visible()
        page.fill("#address", "kato@example.org")
        page.click("#address-form button[type=submit]")
        expect(page.locator("#sent")).to_be_visible()
        expect(page.locator("#unconfirmed")).to_be_visible()
        (mail,) = inbox.wait_for(1)
        page.goto(base + link_in(mail, "/confirm-email"))
        page.click("#act")
        expect(page.locator("#done")).to_be_visible()
        page.goto(f"{base}/account")
        expect(page.locator("#confirmed")).to_be_visible()
        expect(page.locator("#notifications")).to_be_checked()
        # the box changes at once; the server's answer comes after (waited for before
        # the store is read: it once lost that race on a busy machine)
        with page.expect_response("**/api/account/notifications") as answered:
            page.uncheck("#notifications")
        assert answered.value.ok
        expect(page.locator("#notifications")).not_to_be_checked()
        address = service.store.address_of(kato.id)
        assert address is not None and address.confirmed and not address.notifications
        with page.expect_response("**/api/account/notifications") as answered:
            page.check("#notifications")
        assert answered.value.ok
        expect(page.locator("#notifications")).to_be_checked()
        # an unsubscribe link, opened by a browser that is not logged in
        token = service.store.new_token(kato.id, "unsubscribe", clock(), HOUR)
        stranger = browser.new_context(locale="en-GB")
        watch_content_security_policy(stranger, violations)
        other = stranger.new_page()
        other.goto(f"{base}/unsubscribe?token={token}")
        other.click("#act")
        expect(other.locator("#done")).to_be_visible()
        address = service.store.address_of(kato.id)
        assert address is not None and not address.notifications
        # a forgotten password, from the same stranger
        other.goto(f"{base}/account")
        expect(other.locator("#forgot")).to_be_visible()
        other.fill("#forgot-name", "Kato")
        other.click("#forgot-form button[type=submit]")
        expect(other.locator("#forgot-sent")).to_be_visible()
        mail = inbox.wait_for(2)[-1]
        other.goto(base + link_in(mail, "/reset-password"))
        other.fill("#password", "new password")
        other.click("#reset button[type=submit]")
        expect(other.locator("#done")).to_be_visible()
        expect(other.locator("#reset")).to_be_hidden()
        page.goto(f"{base}/account")  # Kato's old session was logged out
        expect(page.locator("#no-account")).to_be_visible()
        own.close()
        stranger.close()
    assert violations == []
