"""The models of web push's routes (``/api/push/...``; docs/web.md, "Web push"; the
pieces: ``base/contract.py``). The fields the routes check themselves (an endpoint, the
keys, a language) are any JSON value here, refused by the route with their own codes."""

from __future__ import annotations

from pydantic import JsonValue

from stairgames.server.base.contract import Answer, Body


class SubscriptionBody(Body):
    """``POST /api/push/subscriptions``: a browser's ``PushSubscription`` as its
    ``toJSON()`` gives it (``endpoint``, ``keys.p256dh``, ``keys.auth``), and the
    ``lang`` its messages come in (none: the browser's)."""

    endpoint: JsonValue = None
    keys: JsonValue = None
    lang: JsonValue = None


class EndpointBody(Body):
    """``DELETE /api/push/subscriptions``: the ``endpoint`` of the device to forget."""

    endpoint: JsonValue = None


class PushKey(Answer):
    """``GET /api/push/key``: the server's VAPID public key (``key``, base64url of its 65
    uncompressed bytes: a subscription's ``applicationServerKey``)."""

    key: str


class Subscribed(Answer):
    """``POST /api/push/subscriptions``: the device is kept; ``devices``, how many the
    player has now."""

    ok: bool
    devices: int
