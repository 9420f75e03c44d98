"""A push service for the tests: a real HTTP server on loopback, in a thread, that
plays the part of a browser's push service (FCM, Mozilla's autopush...).

It makes subscriptions as a browser would (:meth:`PushEndpoint.subscription`: an
endpoint on it, a P-256 key pair and an auth secret of its own), and for each message
posted to one it checks what a push service checks and decrypts what the device would:

- ``Authorization: vapid t=<JWT>, k=<key>``: ``k`` is the key the server serves
  (``GET /api/push/key``), the JWT's ES256 signature verifies against it, its header
  says ``ES256``, its ``aud`` is this endpoint's origin, its ``exp`` is in the future
  and at most 24 hours away, its ``sub`` a ``mailto:`` or ``https:`` address;
- ``Content-Encoding: aes128gcm``, a ``TTL``;
- the body decrypts with ``http_ece`` (an implementation independent of the server's)
  and the subscription's private key, to JSON.

A message that fails a check is kept too, with the reason (:attr:`Received.problem`),
and answered 400. :meth:`answer_with` makes a subscription's messages answered with
another status (410: the device is gone). Tests wait for messages with :meth:`wait_for`,
which returns as soon as they came (a deadline only for a failing test).
"""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece  # type: ignore[import-untyped]
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

DEADLINE = 30.0
"""How long :meth:`PushEndpoint.wait_for` waits before a test fails."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclasses.dataclass
class Device:
    """A subscription the endpoint made: its name (the endpoint's last part) and keys."""

    name: str
    private_key: ec.EllipticCurvePrivateKey
    auth: bytes
    endpoint: str

    def json(self) -> dict[str, Any]:
        """The subscription as a browser's ``PushSubscription.toJSON()`` gives it."""
        public = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": _b64(public), "auth": _b64(self.auth)},
        }


@dataclasses.dataclass
class Received:
    """A message posted to a subscription: its headers, the JWT's claims, the decrypted
    JSON (``None`` if it failed a check: :attr:`problem` says which)."""

    device: str
    headers: dict[str, str]
    claims: dict[str, Any] | None = None
    message: dict[str, Any] | None = None
    problem: str | None = None


class PushEndpoint:
    """The push service (see the module's text); ``now`` is the clock ``exp`` is
    checked against (the server's wall clock)."""

    def __init__(self, now: Callable[[], float] = time.time) -> None:
        self.now = now
        self.server_key: str | None = None
        """The VAPID public key the server serves: every JWT must be signed by it."""
        self.devices: dict[str, Device] = {}
        self.received: list[Received] = []
        self.status: dict[str, int] = {}
        self._changed = threading.Condition()
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length)
                status = endpoint._receive(self.path, dict(self.headers.items()), body)
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def subscription(self, name: str) -> dict[str, Any]:
        """A new device ``name``: its subscription's JSON, as a browser posts it."""
        device = Device(
            name,
            ec.generate_private_key(ec.SECP256R1()),
            os.urandom(16),
            f"{self.origin}/push/{name}",
        )
        self.devices[name] = device
        return device.json()

    def answer_with(self, name: str, status: int) -> None:
        """Answer the messages to device ``name`` with ``status`` from now on."""
        self.status[name] = status

    def wait_for(self, count: int) -> list[Received]:
        """The messages received, once there are ``count`` of them.

        :raises AssertionError: fewer came within :data:`DEADLINE` seconds.
        """
        with self._changed:
            came = self._changed.wait_for(lambda: len(self.received) >= count, DEADLINE)
            assert came, f"{len(self.received)} push messages came, {count} expected"
            return list(self.received)

    def to(self, name: str) -> list[dict[str, Any]]:
        """The messages device ``name`` received and decrypted."""
        return [r.message for r in self.received if r.device == name and r.message is not None]

    # ----- checking a message ----------------------------------------------------------

    def _receive(self, path: str, headers: dict[str, str], body: bytes) -> int:
        name = path.rsplit("/", 1)[-1]
        headers = {key.lower(): value for key, value in headers.items()}
        received = Received(name, headers)
        try:
            received.claims = self._check_vapid(headers)
            received.message = self._decrypt(name, headers, body)
        except (AssertionError, ValueError, KeyError, InvalidSignature) as exc:
            received.problem = f"{type(exc).__name__}: {exc}"
        with self._changed:
            self.received.append(received)
            self._changed.notify_all()
        if received.problem is not None:
            return 400
        return self.status.get(name, 201)

    def _check_vapid(self, headers: dict[str, str]) -> dict[str, Any]:
        scheme, _, fields = headers["authorization"].partition(" ")
        assert scheme == "vapid", "not a VAPID authorization"
        parts = dict(part.strip().split("=", 1) for part in fields.split(","))
        assert parts["k"] == self.server_key, "k is not the key the server serves"
        head, claims, signature = parts["t"].split(".")
        assert json.loads(_unb64(head)) == {"typ": "JWT", "alg": "ES256"}
        raw = _unb64(signature)
        assert len(raw) == 64, "an ES256 signature is 64 bytes"
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), _unb64(parts["k"]))
        key.verify(der, f"{head}.{claims}".encode("ascii"), ec.ECDSA(hashes.SHA256()))
        said: dict[str, Any] = json.loads(_unb64(claims))
        assert said["aud"] == self.origin, "aud is not the endpoint's origin"
        now = self.now()
        assert now < said["exp"] <= now + 24 * 3600, "exp is not within 24 hours"
        assert str(said["sub"]).startswith(("mailto:", "https:")), "sub is no contact"
        return said

    def _decrypt(self, name: str, headers: dict[str, str], body: bytes) -> dict[str, Any]:
        assert headers.get("content-encoding") == "aes128gcm", "not aes128gcm"
        assert int(headers["ttl"]) >= 0, "no TTL"
        device = self.devices[name]
        plain = http_ece.decrypt(
            body, private_key=device.private_key, auth_secret=device.auth, version="aes128gcm"
        )
        message: dict[str, Any] = json.loads(plain)
        return message


@contextmanager
def push_endpoint(now: Callable[[], float] = time.time) -> Iterator[PushEndpoint]:
    """A :class:`PushEndpoint` serving for the ``with`` block."""
    endpoint = PushEndpoint(now)
    endpoint.start()
    try:
        yield endpoint
    finally:
        endpoint.stop()
