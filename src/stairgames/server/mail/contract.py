"""The e-mail routes' models: an account's address and notifications, the mailed links'
requests (confirm, unsubscribe, reset a password) and the language of their pages
(docs/web.md, "E-mail"; the pieces: ``base/contract.py``). Each field the routes check
themselves (an address, a link's secret, a language) is any JSON value here, refused by
the route as it always was."""

from __future__ import annotations

from typing import ClassVar

from pydantic import JsonValue

from stairgames.i18n import N_
from stairgames.server.base.contract import Answer, Body, Ok, Refusals
from stairgames.server.people.contract import PlayerAnswer


class AddressBody(Body):
    """``POST /api/account/email``: the ``address`` to give (``null``: remove it), and the
    ``lang`` of the mails it gets (none: the browser's)."""

    address: JsonValue = None
    lang: JsonValue = None


class LinkBody(Body):
    """``POST /api/account/email/confirm`` and ``/api/unsubscribe``: the secret of the
    mailed link (its ``?token=``)."""

    token: JsonValue = None


class NotificationsBody(Body):
    """``POST /api/account/notifications``: whether turn mails are ``on``, and the
    ``lang`` they come in (none: as before)."""

    refusals: ClassVar[Refusals] = {"on": N_("'on' is true or false")}
    on: bool
    lang: JsonValue = None


class ResetAskBody(Body):
    """``POST /api/account/reset``: the ``name`` of the account whose password is
    forgotten."""

    refusals: ClassVar[Refusals] = {"name": N_("a name must be text")}
    name: str


class ResetBody(Body):
    """``POST /api/account/reset/confirm``: the reset link's secret (``token``) and the
    new ``password`` (its refusal: the players' check, set by ``mail/routes.py``)."""

    refusals: ClassVar[Refusals] = {}
    token: JsonValue = None
    password: str


class EmailJson(Answer):
    """An account's address, as its player alone sees it: whether ``confirmed``, whether
    turn mails (``notifications``) are on, and their ``language``."""

    address: str
    confirmed: bool
    notifications: bool
    language: str


class AccountAnswer(PlayerAnswer):
    """``GET /api/account`` (and the changes of it): the player, whether this server
    sends ``mail``, and their ``email`` address (``null``: none given)."""

    mail: bool
    email: EmailJson | None


class AddressAnswer(AccountAnswer):
    """``POST /api/account/email``: the account, and whether a confirmation mail was
    ``sent`` (not for an address confirmed already, nor a removal)."""

    sent: bool


class ResetDone(Ok):
    """``POST /api/account/reset/confirm``: done, and the ``name`` of the account."""

    name: str


class PageLanguage(Answer):
    """``GET /api/account/language``: the language a mail's page suggests (``null``: none
    known, the browser's then)."""

    lang: str | None
