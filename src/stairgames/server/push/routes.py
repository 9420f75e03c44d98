"""Web push's routes and its wiring (docs/web.md, "Web push").

- ``GET /api/push/key``: the VAPID public key a page subscribes with.
- ``POST /api/push/subscriptions``: keep this device for the request's player (a
  signed-in player: 401 otherwise): its ``endpoint`` must be an ``https`` address of a
  public host (:func:`~.sending.endpoint_refusal`), its keys a P-256 point and a
  16-byte secret; a player keeps :attr:`PushSettings.devices_per_player` devices, a new
  one beyond replaces the oldest. Rate limited per player (``push_subscriptions``).
- ``DELETE /api/push/subscriptions``: forget this device (by its ``endpoint``), if it
  is the player's (404 otherwise, whoever's it is: nobody learns of another's device).

The VAPID key is :attr:`PushSettings.private_key` when the operator gives one, else the
environment's ``STAIRGAMES_VAPID_KEY``, else the one the database keeps (``push_keys``,
made at the first start, shared by every process of the database). Changing it ends
every subscription: each device must subscribe again with the new public key.
"""

from __future__ import annotations

import datetime
import os
from typing import Any, Final

from cryptography.hazmat.primitives.asymmetric import ec
from fastapi import FastAPI, Request
from sqlalchemy.engine import Engine

from stairgames.i18n import N_
from stairgames.server.base.contract import Ok, answers
from stairgames.server.base.errors import ServerError
from stairgames.server.base.languages import chosen_language
from stairgames.server.base.limits import ClientRates, shared_allowances
from stairgames.server.base.settings import Settings
from stairgames.server.base.state import Kept
from stairgames.server.base.store import allowances_off_loop, off_loop
from stairgames.server.lobby.lobby import Lobby
from stairgames.server.people.players import required_player_async
from stairgames.server.push.contract import EndpointBody, PushKey, Subscribed, SubscriptionBody
from stairgames.server.push.crypto import (
    b64url,
    load_private_key,
    load_public_key,
    public_bytes,
    unb64url,
)
from stairgames.server.push.sending import PER_MATCH, PER_PLAYER, Pusher, endpoint_refusal
from stairgames.server.push.store import PushStore

ROUTE: Final = "/api/push/subscriptions"
KEY_ROUTE: Final = "/api/push/key"
ENDPOINT_LENGTH: Final = 1024
SUBSCRIPTIONS: Final = "push_subscriptions"
"""The kind of the subscriptions' allowance (:class:`ClientRates`)."""
KEY_VARIABLE: Final = "STAIRGAMES_VAPID_KEY"
"""The environment variable that may hold the VAPID private key."""


def _bad_endpoint() -> ServerError:
    return ServerError(
        400, N_("a push subscription's endpoint must be an https address of a push service")
    )


def _bad_keys() -> ServerError:
    return ServerError(
        400,
        N_("a push subscription's keys are p256dh (a P-256 key) and auth (16 bytes), base64url"),
    )


def clean_endpoint(value: object, test_endpoints: bool) -> str:
    """``value``, if it may be a subscription's endpoint.

    :raises ServerError: 400 ``push_endpoint``.
    """
    if not isinstance(value, str) or not 0 < len(value) <= ENDPOINT_LENGTH:
        raise _bad_endpoint()
    if not value.isascii() or any(c.isspace() or not c.isprintable() for c in value):
        raise _bad_endpoint()
    if endpoint_refusal(value, test_endpoints) is not None:
        raise _bad_endpoint()
    return value


def clean_keys(value: object) -> tuple[str, str]:
    """``p256dh`` and ``auth`` of a subscription's ``keys``, checked.

    :raises ServerError: 400 ``push_keys``.
    """
    if not isinstance(value, dict):
        raise _bad_keys()
    p256dh, auth = value.get("p256dh"), value.get("auth")
    if not isinstance(p256dh, str) or not isinstance(auth, str):
        raise _bad_keys()
    if len(p256dh) > 100 or len(auth) > 40:
        raise _bad_keys()
    try:
        load_public_key(unb64url(p256dh))
        secret = unb64url(auth)
    except ValueError:
        raise _bad_keys() from None
    if len(secret) != 16:
        raise _bad_keys()
    return p256dh.rstrip("="), auth.rstrip("=")


class PushService:
    """What the routes use: the store, the VAPID key, the sender, the allowances."""

    def __init__(
        self, store: PushStore, key: ec.EllipticCurvePrivateKey, pusher: Pusher, settings: Settings
    ) -> None:
        self.store = store
        self.key = key
        self.pusher = pusher
        self.settings = settings.push
        self.rates = pusher.rates

    @property
    def public_key(self) -> str:
        return b64url(public_bytes(self.key.public_key()))

    async def spend(self, player_id: str) -> None:
        """One subscription request of ``player_id``.

        :raises ServerError: 429.
        """
        if self.rates.shared is None:
            wait = self.rates.take(SUBSCRIPTIONS, player_id)
        else:
            wait = await allowances_off_loop(self.rates.take, SUBSCRIPTIONS, player_id)
        if wait > 0:
            raise ServerError(429, N_("too many requests; wait a moment"))


def add_push_routes(app: FastAPI) -> None:
    """The routes of web push (see the module's text)."""

    @app.get(KEY_ROUTE, **answers(PushKey))
    async def key(request: Request) -> dict[str, Any]:
        return {"key": PUSH.of(request).public_key}

    @app.post(ROUTE, **answers(Subscribed))
    async def subscribe(body: SubscriptionBody, request: Request) -> dict[str, Any]:
        service = PUSH.of(request)
        player = await required_player_async(request)
        endpoint = clean_endpoint(body.endpoint, service.settings.test_endpoints)
        p256dh, auth = clean_keys(body.keys)
        await service.spend(player.id)
        language = chosen_language(body.lang, request)
        devices = service.settings.devices_per_player
        await off_loop(
            service.store.subscribe, player.id, endpoint, p256dh, auth, language, devices
        )
        held = await off_loop(service.store.of, player.id)
        return {"ok": True, "devices": len(held)}

    @app.delete(ROUTE, **answers(Ok))
    async def unsubscribe(body: EndpointBody, request: Request) -> dict[str, Any]:
        service = PUSH.of(request)
        player = await required_player_async(request)
        if not isinstance(body.endpoint, str) or len(body.endpoint) > ENDPOINT_LENGTH:
            raise _bad_endpoint()
        await service.spend(player.id)
        if not await off_loop(service.store.unsubscribe, player.id, body.endpoint):
            raise ServerError(404, N_("no such push subscription"))
        return {"ok": True}


def vapid_key(store: PushStore, settings: Settings) -> ec.EllipticCurvePrivateKey:
    """The VAPID key (see the module's text): a database read, maybe a write."""
    given = settings.push.private_key or os.environ.get(KEY_VARIABLE) or None
    return load_private_key(given if given else store.vapid_pem())


def subject_of(settings: Settings) -> str:
    """The VAPID ``sub``: the operator's, else ``mailto:`` the mail's sender."""
    if settings.push.subject:
        return settings.push.subject
    if settings.mail is not None:
        sender = settings.mail.from_header()
        address = sender.rpartition("<")[2].rstrip(">").strip()
        if "@" in address:
            return f"mailto:{address}"
    return "mailto:noreply@localhost"


async def start_push(app: FastAPI, engine: Engine, lobby: Lobby, settings: Settings) -> Pusher:
    """The app's web push (:data:`PUSH`): its key read (or made), the sender told of
    every commit and direct challenge."""
    wall = settings.wall_clock
    store = PushStore(engine, now=lambda: datetime.datetime.fromtimestamp(wall(), datetime.UTC))
    key = await off_loop(vapid_key, store, settings)
    push = settings.push
    rates = ClientRates(
        {
            SUBSCRIPTIONS: push.subscriptions_rate,
            PER_MATCH: push.per_match,
            PER_PLAYER: push.per_player,
        },
        clock=settings.clock,
    )
    rates.shared = shared_allowances(engine, settings.shared())
    pusher = Pusher(store, lobby, key, push, subject_of(settings), rates, wall)
    PUSH.keep(app, PushService(store, key, pusher, settings))
    lobby.hub.service.committed.append(pusher.committed)
    lobby.hub.neighbours.after_change.append(pusher.after_change)
    lobby.challenged.append(pusher.challenged)
    return pusher


PUSH: Kept[PushService] = Kept("push")
"""The app's web push (``app.state.push``), made as it starts (:func:`start_push`)."""
