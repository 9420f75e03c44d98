"""The e-mail routes: an account's address and notifications, the links mails carry
(confirm an address, unsubscribe, reset a password), and their pages (static files of the
front end, ``web/static``: :data:`PAGES`).

``add_mail_routes(app)`` adds the routes (their models: ``mail/contract.py``);
:func:`start_mail` (in the app's lifespan) makes the app's mail (:data:`MAIL`) and, when
the server sends mail (``Settings.mail``), registers the
:class:`~stairgames.server.mail.notify.Notifier` on the hub's neighbours' ``after_change``
and starts its sweep. Without ``Settings.mail`` every route that would send a mail answers
409 (``this server sends no e-mail``); the links of mails sent before still work.

A mailed link carries a secret in ``?token=`` (so that ``stairgames serve`` writes
``token=…`` in its logs, :mod:`stairgames.server.base.logs`); the database keeps only its
SHA-256. Opening a link changes nothing: its page (no inline script, see the pages'
Content-Security-Policy; ``account.js``) asks before it acts, with a JSON request like every
other change. The one exception is RFC 8058's one-click unsubscribe, ``POST
/unsubscribe?token=`` as a mail program sends it (``application/x-www-form-urlencoded``),
which only turns notifications off.

Nothing here waits on the event loop: every database read and write goes through
:func:`~stairgames.server.base.store.off_loop`'s threads (the mail rates too, where they are
the database's), a reset's new password is hashed in the hashing threads
(:meth:`PlayerStore.hash_password`), and mails are sent in threads of their own
(:class:`~stairgames.server.mail.sending.SmtpMailer`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, Response
from sqlalchemy.engine import Engine
from starlette.requests import HTTPConnection

from stairgames.core.registry import get_spec
from stairgames.i18n import LANGUAGES, N_
from stairgames.server.base.contract import Ok, answers, refused_by
from stairgames.server.base.errors import ServerError
from stairgames.server.base.languages import chosen_language
from stairgames.server.base.limits import ClientRates, Rate, shared_allowances
from stairgames.server.base.settings import STATIC_DIR, MailSettings
from stairgames.server.base.state import Kept
from stairgames.server.base.store import allowances_off_loop, off_loop
from stairgames.server.mail.contract import (
    AccountAnswer,
    AddressAnswer,
    AddressBody,
    LinkBody,
    NotificationsBody,
    PageLanguage,
    ResetAskBody,
    ResetBody,
    ResetDone,
)
from stairgames.server.mail.notify import (
    CONFIRM,
    CONFIRM_SECONDS,
    RESET,
    RESET_SECONDS,
    UNSUBSCRIBE,
    Address,
    MailStore,
    Notifier,
    Now,
    Outbox,
    token_hash,
)
from stairgames.server.mail.sending import (
    Game,
    Opponent,
    SmtpMailer,
    confirm_letter,
    reset_letter,
)
from stairgames.server.people.players import (
    Player,
    PlayerStore,
    clean_password,
    current_player_async,
    required_player_async,
    session_secret,
)
from stairgames.server.play.seats import COMPUTER

if TYPE_CHECKING:
    from stairgames.server.base.settings import Settings
    from stairgames.server.lobby.lobby import Lobby
    from stairgames.server.play.hub import Hub

UNSUBSCRIBE_ROUTE: Final = "/unsubscribe"
"""The unsubscribe link of every notification: ``GET`` its page, ``POST`` one click
(RFC 8058; any content type, so ``ops/middleware.py`` lets it through without JSON)."""
ADDRESS_LENGTH: Final = 254
LINKS_RATE: Final = Rate(per_minute=20, burst=20)
"""Uses of mailed links one client may try a minute (confirm, unsubscribe, reset)."""
_LOCAL_PART = re.compile(r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*")
_DOMAIN = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}")


def _no_mail() -> ServerError:
    return ServerError(409, N_("this server sends no e-mail"))


def _invalid_link() -> ServerError:
    return ServerError(400, N_("this link is no longer valid"))


def clean_address(text: object) -> str:
    """``text`` trimmed, if it is an e-mail address (``name@example.org``; a domain in
    another script is kept in its ASCII form).

    :raises ServerError: 400.
    """
    if not isinstance(text, str) or len(text) > ADDRESS_LENGTH * 2:
        raise ServerError(400, N_("that is not an e-mail address"))
    local, at, domain = text.strip().rpartition("@")
    try:
        domain = domain.encode("idna").decode("ascii") if not domain.isascii() else domain
    except UnicodeError:
        domain = ""
    address = f"{local}@{domain.lower()}"
    if (
        not at
        or len(address) > ADDRESS_LENGTH
        or len(local) > 64
        or not _LOCAL_PART.fullmatch(local)
        or not _DOMAIN.fullmatch(domain)
    ):
        raise ServerError(400, N_("that is not an e-mail address"))
    return address


@dataclasses.dataclass(eq=False)
class MailService:
    """What the routes do: ``outbox`` and ``notifier`` are ``None`` when the server sends
    no mail (``Settings.mail``)."""

    store: MailStore
    players: PlayerStore
    now: Now
    settings: MailSettings | None = None
    static_dir: Path = STATIC_DIR
    """Where the pages are (:attr:`Settings.static_dir`)."""
    outbox: Outbox | None = None
    notifier: Notifier | None = None
    rates: ClientRates = dataclasses.field(default_factory=lambda: ClientRates({}))
    """Per client (an address): ``addresses``, ``resets``, ``links``; per player:
    ``mails`` (confirmation and reset mails sent to them)."""

    @property
    def sends(self) -> bool:
        return self.outbox is not None

    async def spend(self, kind: str, key: str) -> bool:
        """One ``kind`` request of ``key`` (a client or a player): whether allowed (a
        round trip in a database thread where the allowances are the database's)."""
        if self.rates.shared is None:
            return self.rates.take(kind, key) == 0.0
        return await allowances_off_loop(self.rates.take, kind, key) == 0.0

    async def account_json(self, player: Player) -> dict[str, Any]:
        address = await off_loop(self.store.address_of, player.id)
        return {
            **player.json(),
            "mail": self.sends,
            "email": None if address is None else address.json(),
        }

    # ----- an account's address -------------------------------------------------------

    async def set_address(self, player: Player, address: str, language: str) -> bool:
        """``player``'s address is ``address``; a confirmation mail is on its way unless
        it is confirmed already: whether one was sent."""
        if self.outbox is None or self.settings is None:
            raise _no_mail()
        now = self.now()
        current = await off_loop(self.store.address_of, player.id)
        if current is not None and current.address == address and current.confirmed:
            await off_loop(self.store.set_address, player.id, address, language, now)
            return False
        if not await self.spend("mails", player.id):
            raise ServerError(429, N_("too many requests; wait a moment"))
        secret = await off_loop(self._address_to_confirm, player.id, address, language, now)
        link = self.settings.link(f"/confirm-email?token={secret}")
        letter = confirm_letter(language, player.name, link, round(CONFIRM_SECONDS / 3600))
        self.outbox.start(self.outbox.send(letter, address))
        return True

    def _address_to_confirm(self, player_id: str, address: str, language: str, now: float) -> str:
        """Set the unconfirmed address: the secret of the link that confirms it."""
        self.store.set_address(player_id, address, language, now)
        return self.store.new_token(player_id, CONFIRM, now, CONFIRM_SECONDS, address)

    async def confirm(self, secret: object) -> None:
        if not await off_loop(self._confirm, secret, self.now()):
            raise _invalid_link()

    def _confirm(self, secret: object, now: float) -> bool:
        token = self.store.use_token(secret, CONFIRM, now)
        return token is not None and self.store.confirm(token, now)

    async def unsubscribe(self, secret: object) -> None:
        """Notifications off for the player of an unsubscribe link (it keeps working
        until it expires: turning them off again changes nothing)."""
        if not await off_loop(self._unsubscribe, secret, self.now()):
            raise _invalid_link()

    def _unsubscribe(self, secret: object, now: float) -> bool:
        token = self.store.use_token(secret, UNSUBSCRIBE, now, once=False)
        if token is None:
            return False
        self.store.set_notifications(token.player_id, False)
        return True

    # ----- a forgotten password ---------------------------------------------------------

    async def ask_reset(self, name: str) -> None:
        """Mails a reset link to the confirmed address of the player ``name``, if there
        is one (and they had fewer than a few such mails lately); says nothing either
        way."""
        if self.outbox is None or self.settings is None:
            raise _no_mail()
        found = await off_loop(self._confirmed_account, name)
        if found is None:
            return
        player, address = found
        if not await self.spend("mails", player.id):
            return
        now = self.now()
        secret = await off_loop(self.store.new_token, player.id, RESET, now, RESET_SECONDS)
        link = self.settings.link(f"/reset-password?token={secret}")
        letter = reset_letter(address.language, player.name, link)
        self.outbox.start(self.outbox.send(letter, address.address))

    def _confirmed_account(self, name: str) -> tuple[Player, Address] | None:
        """The account named ``name`` and its address, if it has a confirmed one."""
        player = self.players.by_name(name)
        address = None if player is None or not player.account else self.store.address_of(player.id)
        if player is None or address is None or not address.confirmed:
            return None
        return player, address

    async def reset(self, secret: object, password: str, keep_session: str | None) -> str:
        """Sets the password of the reset link's player; every session of theirs but
        ``keep_session`` (this browser's cookie, if it is theirs) is logged out. Their
        name."""
        now = self.now()
        player = await off_loop(self._reset_player, secret, now)
        if player is None:
            raise _invalid_link()
        password_hash = await self.players.hash_password(password)
        keep = None if keep_session is None else token_hash(keep_session)
        await off_loop(self.store.set_password, player.id, password_hash, now, keep=keep)
        return player.name

    def _reset_player(self, secret: object, now: float) -> Player | None:
        """The player of a working reset link (the link used up), else ``None``."""
        token = self.store.use_token(secret, RESET, now)
        return None if token is None else self.players.by_id(token.player_id)


def mail_of(request: HTTPConnection) -> MailService:
    service = MAIL.of(request)
    return service


# ----- the pages -----------------------------------------------------------------------


PAGES: Final = {
    "/confirm-email": "confirm-email.html",
    UNSUBSCRIBE_ROUTE: "unsubscribe.html",
    "/reset-password": "reset-password.html",
    "/account": "account.html",
}
"""The pages of the links in mails and the account page, by address: static files of the
front end (``web/static``, :attr:`Settings.static_dir`), which ``account.js`` translates and
drives as the main page is (docs/web.md, "E-mail")."""
LINKS: Final = (CONFIRM, UNSUBSCRIBE, RESET)
"""What a mailed link is for (the purpose of its token), as its page names it."""


async def page_language(request: Request, service: MailService) -> str | None:
    """The language a mail page suggests (``GET /api/account/language``): that of the
    address of the player of its link (``?link=`` its purpose, ``?token=`` its secret), else
    of this browser's player's; ``None`` where neither has an address."""
    purpose, secret = request.query_params.get("link"), request.query_params.get("token")
    link = (secret, purpose) if secret and purpose in LINKS else None
    player = await current_player_async(request)
    owners = (None if player is None else player.id,)
    return await off_loop(_language_of, service, link, owners)


def _language_of(
    service: MailService, link: tuple[str, str] | None, players: tuple[str | None, ...]
) -> str | None:
    """The language of the address of the player of ``link`` (a working one), else of
    the first of ``players`` with an address (database reads, for a database thread)."""
    owner = None if link is None else service.store.token_owner(*link, service.now())
    for player_id in (owner, *players):
        address = None if player_id is None else service.store.address_of(player_id)
        if address is not None:
            return address.language
    return None


# ----- the routes ----------------------------------------------------------------------


ResetBody.refusals = {"password": refused_by(clean_password)}


def add_mail_routes(app: FastAPI) -> None:
    """The e-mail routes (``docs/web.md``, "E-mail"; their models: ``mail/contract.py``)
    and the pages (:data:`PAGES`) in ``app``."""

    def client(request: Request) -> str:
        return request.client.host if request.client else ""

    async def spend(request: Request, kind: str) -> None:
        if not await mail_of(request).spend(kind, client(request)):
            raise ServerError(429, N_("too many requests; wait a moment"))

    @app.get("/api/account", **answers(AccountAnswer))
    async def account(request: Request) -> dict[str, Any]:
        return await mail_of(request).account_json(await required_player_async(request))

    @app.post("/api/account/email", **answers(AddressAnswer))
    async def set_address(body: AddressBody, request: Request) -> dict[str, Any]:
        service, player = mail_of(request), await required_player_async(request)
        if not player.account:
            raise ServerError(409, N_("only a player with a password can give an e-mail address"))
        if body.address is None:
            await off_loop(service.store.remove_address, player.id, service.now())
            return {**await service.account_json(player), "sent": False}
        if not service.sends:
            raise _no_mail()
        address = clean_address(body.address)
        await spend(request, "addresses")
        language = chosen_language(body.lang, request)
        sent = await service.set_address(player, address, language)
        return {**await service.account_json(player), "sent": sent}

    @app.post("/api/account/email/confirm", **answers(Ok))
    async def confirm(body: LinkBody, request: Request) -> dict[str, Any]:
        await spend(request, "links")
        await mail_of(request).confirm(body.token)
        return {"ok": True}

    @app.post("/api/account/notifications", **answers(AccountAnswer))
    async def notifications(body: NotificationsBody, request: Request) -> dict[str, Any]:
        service, player = mail_of(request), await required_player_async(request)
        language = body.lang if isinstance(body.lang, str) and body.lang in LANGUAGES else None
        if await off_loop(service.store.set_notifications, player.id, body.on, language) is None:
            raise ServerError(409, N_("this player has no e-mail address"))
        return await service.account_json(player)

    @app.post("/api/unsubscribe", **answers(Ok))
    async def unsubscribe(body: LinkBody, request: Request) -> dict[str, Any]:
        await spend(request, "links")
        await mail_of(request).unsubscribe(body.token)
        return {"ok": True}

    @app.post(UNSUBSCRIBE_ROUTE, **answers(Ok))
    async def one_click(request: Request, token: str = "") -> dict[str, Any]:
        await spend(request, "links")
        await mail_of(request).unsubscribe(token)
        return {"ok": True}

    @app.post("/api/account/reset", **answers(Ok))
    async def ask_reset(body: ResetAskBody, request: Request) -> dict[str, Any]:
        service = mail_of(request)
        if not service.sends:
            raise _no_mail()
        await spend(request, "resets")
        await service.ask_reset(body.name.strip()[:200])
        return {"ok": True}

    @app.post("/api/account/reset/confirm", **answers(ResetDone))
    async def reset(body: ResetBody, request: Request) -> dict[str, Any]:
        await spend(request, "links")
        password = clean_password(body.password)
        keep = session_secret(request)[0]
        name = await mail_of(request).reset(body.token, password, keep)
        return {"ok": True, "name": name}

    @app.get("/api/account/language", **answers(PageLanguage))
    async def language(request: Request) -> dict[str, Any]:
        return {"lang": await page_language(request, mail_of(request))}

    def page_route(name: str) -> Callable[[Request], Awaitable[Response]]:
        async def page(request: Request) -> Response:
            path = mail_of(request).static_dir / name
            if not path.is_file():
                raise ServerError(404, N_("the web pages are not installed"))
            return FileResponse(path, media_type="text/html")

        return page

    for route, name in PAGES.items():
        app.add_api_route(route, page_route(name), methods=["GET", "HEAD"], include_in_schema=False)


# ----- wiring --------------------------------------------------------------------------


def start_mail(
    app: FastAPI, engine: Engine, hub: Hub, lobby: Lobby, settings: Settings
) -> list[asyncio.Task[None]]:
    """The app's mail (:data:`MAIL`); when the server sends mail (``settings.mail``), the
    notifier on the hub's neighbours' ``after_change`` and its sweep (the task returned)."""
    mail, now = settings.mail, settings.wall_clock
    rates = ClientRates(
        {
            "addresses": mail.addresses_rate if mail else Rate(5, 5),
            "resets": mail.resets_rate if mail else Rate(5, 5),
            "links": LINKS_RATE,
            "mails": mail.mails_per_name if mail else Rate(1, 1),
        },
        clock=settings.clock,
    )
    rates.shared = shared_allowances(engine, settings.shared())
    service = MailService(
        MailStore(engine), lobby.players, now, mail, settings.static_dir, rates=rates
    )
    MAIL.keep(app, service)
    if mail is None:
        return []
    service.outbox = Outbox(SmtpMailer(mail), mail, now)

    def describe(match_id: str, player_id: str) -> Game | None:  # (in a database thread)
        try:
            match = hub.service.get(match_id)
        except ServerError:
            return None
        holders = lobby.store.seat_players(match_id)
        names = lobby.seat_names(match_id)
        opponents = tuple(
            Opponent(level=seat.player or "medium")
            if seat.kind == COMPUTER
            else Opponent(name=names.get(seat.seat))
            for seat in match.seats
            if holders.get(seat.seat) != player_id
        )
        return Game(get_spec(match.game_name).title, opponents, mail.link(f"/m/{match_id}"))

    def name_of(player_id: str) -> str | None:
        player = lobby.players.by_id(player_id)
        return None if player is None else player.name

    service.notifier = Notifier(
        service.store,
        service.outbox,
        seat_players=lobby.store.seat_players,
        describe=describe,
        connected=hub.connected_seats,
        name_of=name_of,
    )
    hub.neighbours.after_change.append(service.notifier.after_change)
    return [asyncio.get_running_loop().create_task(service.notifier.run())]


MAIL: Kept[MailService] = Kept("mail")
"""The app's mail (``app.state.mail``), made as it starts (:func:`start_mail`)."""
