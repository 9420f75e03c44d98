"""Outgoing e-mail: the SMTP server's settings, sending without blocking, and the letters.

``stairgames serve --smtp-url smtp://host:port`` (or ``smtp+starttls://user:password@
host:port``, or ``smtps://...`` for TLS from the first byte) makes :class:`MailSettings`;
without it the server sends no mail and offers no mail feature. A letter is plain text in
its reader's language (:class:`Words`), built here (:func:`confirm_letter`,
:func:`turn_letter`, :func:`digest_letter`, :func:`reset_letter`) and turned into an
:class:`email.message.EmailMessage` by :func:`message_of`; a notification (turn mail,
digest) carries the unsubscribe link in its text and, for one-click unsubscribing (RFC
8058), in ``List-Unsubscribe`` and ``List-Unsubscribe-Post``.

:class:`SmtpMailer` sends with :mod:`smtplib` in a worker thread
(:func:`asyncio.to_thread`), so a slow or dead SMTP server never holds up a game: a mail
that cannot be sent is logged (the server, the kind of mail and the reason; never the
password, a link or the address) and dropped.

Who gets which notification when is :mod:`stairgames.server.mail.notify`'s business.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import datetime
import email.utils
import logging
import os
import re
import smtplib
import ssl
from collections.abc import Sequence
from email.message import EmailMessage
from typing import Final, Protocol
from urllib.parse import unquote, urlsplit

from stairgames.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, _, translations
from stairgames.server.base.settings import MailSettings, SmtpServer

log = logging.getLogger(__name__)

SCHEMES: Final = {"smtp": 25, "smtp+starttls": 587, "smtps": 465}
"""The SMTP address's schemes and their default ports: plain SMTP (a local relay),
STARTTLS (the usual submission port) and TLS from the first byte."""


def parse_smtp_url(url: str) -> SmtpServer:
    """The SMTP server of ``smtp://host:port``, ``smtp+starttls://user:password@host:port``
    or ``smtps://user:password@host:port`` (user and password percent-encoded; the port
    defaults to 25, 587 and 465).

    :raises ValueError: any other text (the message never repeats the password).
    """
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        parts, port = None, None
    if parts is None or parts.scheme not in SCHEMES or not parts.hostname:
        raise ValueError(
            "the SMTP address must be smtp://host:port, smtp+starttls://user:password@host:port"
            " or smtps://user:password@host:port"
        )
    return SmtpServer(
        host=parts.hostname,
        port=port or SCHEMES[parts.scheme],
        starttls=parts.scheme == "smtp+starttls",
        tls=parts.scheme == "smtps",
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password is not None else None,
    )


def mail_settings(
    smtp_url: str | None, mail_from: str | None = None, public_url: str | None = None
) -> MailSettings | None:
    """:class:`MailSettings` from ``stairgames serve``'s options (``None`` without an SMTP
    address).

    :raises ValueError: a malformed SMTP address or public URL.
    """
    if not smtp_url:
        return None
    settings = MailSettings(parse_smtp_url(smtp_url), sender=mail_from or "")
    if public_url:
        parts = urlsplit(public_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError("the public URL must be http://host[:port] or https://host[:port]")
        settings = dataclasses.replace(settings, public_url=public_url.rstrip("/"))
    return settings


SMTP_URL_VARIABLE: Final = "STAIRGAMES_SMTP_URL"
"""The environment variable ``--smtp-url`` defaults to (a password there stays out of the
list of processes)."""


def add_mail_arguments(parser: argparse.ArgumentParser) -> None:
    """``--smtp-url``, ``--mail-from`` and ``--public-url`` of ``stairgames serve``."""
    parser.add_argument(
        "--smtp-url",
        default=os.environ.get(SMTP_URL_VARIABLE) or None,
        help=_(
            "send e-mail (turn notifications, password resets) through this SMTP server: "
            "smtp://host:port, smtp+starttls://user:password@host:port or "
            "smtps://user:password@host:port (default: $STAIRGAMES_SMTP_URL; without it, "
            "no e-mail)"
        ),
    )
    parser.add_argument(
        "--mail-from",
        default=None,
        help=_("the sender of the e-mails (default: stairgames <noreply@HOST>)"),
    )
    parser.add_argument(
        "--public-url",
        default=None,
        help=_(
            "the address players reach the site at, for the links in e-mails "
            "(default: http://HOST:PORT of --host and --port)"
        ),
    )


def mail_settings_of(
    args: argparse.Namespace, parser: argparse.ArgumentParser
) -> MailSettings | None:
    """The mail settings ``stairgames serve``'s options ask for (``None``: no e-mail);
    a malformed address ends the command with argparse's error."""
    host = "localhost" if args.host in ("0.0.0.0", "::", "") else args.host
    if ":" in host:
        host = f"[{host}]"
    try:
        return mail_settings(
            args.smtp_url, args.mail_from, args.public_url or f"http://{host}:{args.port}"
        )
    except ValueError:
        parser.error(
            _(
                "--smtp-url must be smtp://host:port, smtp+starttls://user:password@host:port "
                "or smtps://user:password@host:port, and --public-url http://host:port or "
                "https://host"
            )
        )


# ----- the letters ---------------------------------------------------------------------


class Words:
    """Texts in one reader's language (English where the language is unknown)."""

    def __init__(self, language: str | None) -> None:
        self.language = language if language in LANGUAGES else DEFAULT_LANGUAGE
        self._catalog = translations(self.language)

    def __call__(self, message_id: str, **arguments: object) -> str:
        return self._catalog.gettext(message_id).format(**arguments)

    def names(self, items: Sequence[str]) -> str:
        """``Kato, Suga and the computer`` in the reader's language."""
        if len(items) <= 1:
            return "".join(items)
        return self("{items} and {last}", items=self(", ").join(items[:-1]), last=items[-1])


@dataclasses.dataclass(frozen=True)
class Opponent:
    """Who plays another seat, as a letter names them: a player's ``name``, else the
    computer at ``level``, else a guest (an online seat without a player)."""

    name: str | None = None
    level: str | None = None

    def shown(self, words: Words) -> str:
        if self.name is not None:
            return self.name
        if self.level is not None:
            return words(N_("the computer ({level})"), level=words(self.level))
        return words(N_("a guest"))


@dataclasses.dataclass(frozen=True)
class Game:
    """A game waiting for its reader: its title (a message id), the others, the link."""

    title: str
    opponents: tuple[Opponent, ...]
    link: str

    def against(self, words: Words) -> dict[str, str]:
        names = words.names([opponent.shown(words) for opponent in self.opponents])
        return {"game": words(self.title), "names": names}


@dataclasses.dataclass(frozen=True)
class Letter:
    """A mail before it is addressed: subject and text, in one language; a notification
    also has its unsubscribe link (for ``List-Unsubscribe``)."""

    subject: str
    text: str
    language: str
    unsubscribe: str | None = None
    kind: str = "mail"
    """``confirm``, ``turn``, ``digest`` or ``reset``: for logs."""


def _paragraphs(*parts: str) -> str:
    return "\n\n".join(part for part in parts if part) + "\n"


def _hello(words: Words, name: str) -> str:
    return words(N_("Hello {name},"), name=name)


def _notification_footer(words: Words, unsubscribe: str, account: str) -> str:
    return "-- \n" + _paragraphs(
        words(
            N_(
                "You get these e-mails because you asked stairgames to tell you when a"
                " correspondence game waits for your move. At most one an hour, and at"
                " most one list of your waiting games a day."
            )
        )
        + "\n"
        + words(N_("To stop them, open this link (no need to log in):"))
        + "\n"
        + unsubscribe,
        words(N_("To turn them on again, or change your address, see your account:"))
        + "\n"
        + account,
    ).rstrip("\n")


def confirm_letter(language: str | None, name: str, link: str, hours: int) -> Letter:
    words = Words(language)
    text = _paragraphs(
        _hello(words, name),
        words(
            N_(
                "Please confirm that this address is yours by opening this link (it works"
                " once, for {hours} hours):"
            ),
            hours=hours,
        )
        + "\n"
        + link,
        words(
            N_(
                "Until then, stairgames sends nothing else to this address. If you did not"
                " ask for this, ignore this e-mail: nothing changes."
            )
        ),
    )
    subject = words(N_("Confirm your e-mail address for stairgames"))
    return Letter(subject, text, words.language, kind="confirm")


def reset_letter(language: str | None, name: str, link: str) -> Letter:
    words = Words(language)
    text = _paragraphs(
        _hello(words, name),
        words(
            N_(
                "Someone (perhaps you) asked for a new password for the player {name} on"
                " stairgames. To choose one, open this link within an hour (it works"
                " once):"
            ),
            name=name,
        )
        + "\n"
        + link,
        words(
            N_(
                "Choosing a new password logs {name} out everywhere else. If you did not"
                " ask for this, ignore this e-mail: your password stays as it is."
            ),
            name=name,
        ),
    )
    subject = words(N_("A new password for stairgames"))
    return Letter(subject, text, words.language, kind="reset")


def turn_letter(
    language: str | None,
    name: str,
    game: Game,
    others_waiting: int,
    links: tuple[str, str, str],
) -> Letter:
    """ "Your turn in Stairs against Kato" with the match's link; ``others_waiting``: how
    many more games wait for the reader (then My games is linked too); ``links``: My
    games, unsubscribe, the account page."""
    words = Words(language)
    my_games, unsubscribe, account = links
    against = game.against(words)
    more = ""
    if others_waiting:
        more = (
            words(
                N_("Other games waiting for your move: {count}. All of them are in My games:"),
                count=others_waiting,
            )
            + "\n"
            + my_games
        )
    text = _paragraphs(
        _hello(words, name),
        words(N_("It is your turn in {game} against {names}. Open the game:"), **against)
        + "\n"
        + game.link,
        more,
        _notification_footer(words, unsubscribe, account),
    )
    subject = words(N_("Your turn in {game} against {names}"), **against)
    return Letter(subject, text, words.language, unsubscribe, kind="turn")


def digest_letter(
    language: str | None, name: str, games: Sequence[Game], links: tuple[str, str, str]
) -> Letter:
    """Every game waiting for the reader, one a line with its link."""
    words = Words(language)
    my_games, unsubscribe, account = links
    lines = [
        words(N_("{game} against {names}:"), **game.against(words)) + "\n" + game.link
        for game in games
    ]
    text = _paragraphs(
        _hello(words, name),
        words(N_("These games wait for your move:")),
        *lines,
        words(N_("All your games are in My games:")) + "\n" + my_games,
        _notification_footer(words, unsubscribe, account),
    )
    subject = words(N_("{count} games wait for your move"), count=len(games))
    return Letter(subject, text, words.language, unsubscribe, kind="digest")


def message_of(letter: Letter, to: str, settings: MailSettings, now: float) -> EmailMessage:
    """``letter`` as a mail to ``to``: plain UTF-8 text, marked as sent by a machine
    (``Auto-Submitted``), with RFC 8058's one-click unsubscribe headers for a
    notification."""
    message = EmailMessage()
    message["Subject"] = letter.subject
    message["From"] = settings.from_header()
    message["To"] = to
    message["Date"] = email.utils.format_datetime(
        datetime.datetime.fromtimestamp(now, datetime.UTC)
    )
    domain = settings.from_header().rsplit("@", 1)[-1].rstrip(">") or "localhost"
    message["Message-ID"] = email.utils.make_msgid("stairgames", domain=domain)
    message["Auto-Submitted"] = "auto-generated"
    if letter.unsubscribe is not None:
        message["List-Unsubscribe"] = f"<{letter.unsubscribe}>"
        message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(letter.text, charset="utf-8")
    message["Content-Language"] = letter.language  # (set_content drops Content-* headers)
    return message


# ----- sending -------------------------------------------------------------------------


class Mailer(Protocol):
    async def send(self, message: EmailMessage, kind: str) -> bool:
        """Send ``message`` (a mail of ``kind``, for logs): whether it went out."""
        ...


_ADDRESS = re.compile(r"[^\s<>@'\"]+@[^\s<>'\"]+")


class SmtpMailer:
    """Sends through the SMTP server of :class:`MailSettings`, in a worker thread."""

    def __init__(self, settings: MailSettings) -> None:
        self.settings = settings

    async def send(self, message: EmailMessage, kind: str) -> bool:
        try:
            await asyncio.to_thread(self.deliver, message)
        except (OSError, smtplib.SMTPException, ValueError) as exc:
            log.warning(
                "the %s e-mail could not be sent through %s: %s",
                kind,
                self.settings.smtp.where(),
                self._reason(exc),
            )
            return False
        return True

    def deliver(self, message: EmailMessage) -> None:
        """One SMTP conversation (blocking: run it in a thread)."""
        server, timeout = self.settings.smtp, self.settings.timeout_seconds
        local = urlsplit(self.settings.public_url).hostname or "localhost"
        smtp: smtplib.SMTP
        if server.tls:
            context = ssl.create_default_context()
            smtp = smtplib.SMTP_SSL(
                server.host, server.port, local, timeout=timeout, context=context
            )
        else:
            smtp = smtplib.SMTP(server.host, server.port, local, timeout=timeout)
        with smtp:
            if server.starttls:
                smtp.starttls(context=ssl.create_default_context())
            if server.username is not None:
                smtp.login(server.username, server.password or "")
            smtp.send_message(message)

    def _reason(self, exc: BaseException) -> str:
        """Why sending failed, in one line, without the login's password."""
        reason = f"{type(exc).__name__}: {exc}".replace("\n", " ")[:300]
        password = self.settings.smtp.password
        if password:
            reason = reason.replace(password, "…")
        return _ADDRESS.sub("…@…", reason)  # a refusal may quote the recipient


__all__ = [
    "Game",
    "Letter",
    "Mailer",
    "Opponent",
    "SmtpMailer",
    "Words",
    "confirm_letter",
    "digest_letter",
    "mail_settings",
    "message_of",
    "parse_smtp_url",
    "reset_letter",
    "turn_letter",
]
