"""Web push's cryptography, with ``cryptography`` alone: the server's VAPID key pair and
its signed JWT (RFC 8292), and a message encrypted for one subscription (RFC 8291,
``aes128gcm`` of RFC 8188).

Why not ``pywebpush``: it sends with ``requests``, synchronously, so every message would
hold a thread for the whole round trip to the push service; the server sends with
``httpx``'s asynchronous client instead (:mod:`.sending`), and the few lines of
cryptography below are all it needs of a library. ``tests/push_endpoint.py`` checks them
against an independent implementation (``http_ece``) and verifies the JWT itself.

Randomness here is the operating system's (:func:`os.urandom`, and ``cryptography``'s
key generation): keys and salts must not be predictable. :func:`encrypt` takes its salt
and its ephemeral key as arguments where a test wants to fix them.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
from typing import Final
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF, HKDFExpand

RECORD_SIZE: Final = 4096
"""The record size written in the header (one record holds the whole message)."""
MAX_PLAINTEXT: Final = 3993
"""The most bytes of a message: push services take bodies of 4096 bytes at most, and
the header (86) and the delimiter and tag (17) take the rest."""
JWT_SECONDS: Final = 12 * 3600
"""How long a VAPID JWT is valid (RFC 8292 allows at most 24 hours)."""


def b64url(data: bytes) -> str:
    """``data`` in base64url without padding (how web push writes keys)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    """The bytes of base64url ``text`` (padding optional).

    :raises ValueError: not base64url.
    """
    if not isinstance(text, str) or not text.isascii():
        raise ValueError("not base64url")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, TypeError) as exc:
        raise ValueError("not base64url") from exc


def new_private_key() -> ec.EllipticCurvePrivateKey:
    """A new P-256 key pair (a VAPID key, or a message's ephemeral key)."""
    return ec.generate_private_key(ec.SECP256R1())


def private_key_pem(key: ec.EllipticCurvePrivateKey) -> str:
    """The private key as PKCS#8 PEM (what the database keeps)."""
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode("ascii")


def load_private_key(text: str) -> ec.EllipticCurvePrivateKey:
    """A P-256 private key from PEM, or from base64url of its 32-byte secret (the form
    other web push tools print).

    :raises ValueError: neither, or another curve.
    """
    text = text.strip()
    if text.startswith("-----BEGIN"):
        key = serialization.load_pem_private_key(text.encode("ascii"), password=None)
    else:
        secret = unb64url(text)
        if len(secret) != 32:
            raise ValueError("a VAPID private key is 32 bytes")
        key = ec.derive_private_key(int.from_bytes(secret, "big"), ec.SECP256R1())
    if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
        raise ValueError("a VAPID key is a P-256 key")
    return key


def public_bytes(key: ec.EllipticCurvePublicKey) -> bytes:
    """The 65 bytes of an uncompressed P-256 point (``0x04 || x || y``)."""
    return key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


def load_public_key(data: bytes) -> ec.EllipticCurvePublicKey:
    """A P-256 public key from its 65 uncompressed bytes (a subscription's ``p256dh``).

    :raises ValueError: not a point of the curve.
    """
    if len(data) != 65 or data[0] != 4:
        raise ValueError("a P-256 public key is 65 bytes, uncompressed")
    return ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), data)


def origin_of(endpoint: str) -> str:
    """The origin of a push endpoint (``https://host[:port]``): a JWT's ``aud``."""
    parts = urlsplit(endpoint)
    return f"{parts.scheme}://{parts.netloc}"


def vapid_jwt(key: ec.EllipticCurvePrivateKey, audience: str, subject: str, now: float) -> str:
    """The VAPID JWT (RFC 8292, ES256) for a push service's origin ``audience``, valid
    :data:`JWT_SECONDS` from ``now``, naming the operator's ``subject`` (a ``mailto:``
    or ``https:`` address)."""
    header = {"typ": "JWT", "alg": "ES256"}
    claims = {"aud": audience, "exp": int(now) + JWT_SECONDS, "sub": subject}
    signing_input = ".".join(
        b64url(json.dumps(part, separators=(",", ":")).encode("utf-8")) for part in (header, claims)
    )
    der = key.sign(signing_input.encode("ascii"), ec.ECDSA(hashes.SHA256()))
    r, s = decode_dss_signature(der)
    signature = r.to_bytes(32, "big") + s.to_bytes(32, "big")
    return f"{signing_input}.{b64url(signature)}"


def vapid_authorization(
    key: ec.EllipticCurvePrivateKey, endpoint: str, subject: str, now: float
) -> str:
    """The ``Authorization`` header of a message to ``endpoint``:
    ``vapid t=<jwt>, k=<public key>``."""
    jwt = vapid_jwt(key, origin_of(endpoint), subject, now)
    return f"vapid t={jwt}, k={b64url(public_bytes(key.public_key()))}"


def _hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    return HKDF(hashes.SHA256(), length, salt, info).derive(ikm)


def _expand(prk: bytes, info: bytes, length: int) -> bytes:
    return HKDFExpand(hashes.SHA256(), length, info).derive(prk)


def encrypt(
    plaintext: bytes,
    p256dh: bytes,
    auth: bytes,
    *,
    salt: bytes | None = None,
    ephemeral: ec.EllipticCurvePrivateKey | None = None,
) -> bytes:
    """``plaintext`` encrypted for the subscription whose keys are ``p256dh`` (its
    public key, 65 bytes) and ``auth`` (its secret, 16 bytes): the body of the message,
    ``aes128gcm`` (RFC 8291 section 3.4, RFC 8188), one record.

    :raises ValueError: bad keys, or a message over :data:`MAX_PLAINTEXT` bytes.
    """
    if len(plaintext) > MAX_PLAINTEXT:
        raise ValueError(f"a push message holds at most {MAX_PLAINTEXT} bytes")
    if len(auth) != 16:
        raise ValueError("a subscription's auth secret is 16 bytes")
    receiver = load_public_key(p256dh)
    ephemeral = ephemeral or new_private_key()
    salt = salt if salt is not None else os.urandom(16)
    sender_public = public_bytes(ephemeral.public_key())
    shared = ephemeral.exchange(ec.ECDH(), receiver)
    ikm = _hkdf(auth, shared, b"WebPush: info\x00" + p256dh + sender_public, 32)
    prk = hmac.new(salt, ikm, hashlib.sha256).digest()  # HKDF-Extract
    key = _expand(prk, b"Content-Encoding: aes128gcm\x00", 16)
    nonce = _expand(prk, b"Content-Encoding: nonce\x00", 12)
    record = AESGCM(key).encrypt(nonce, plaintext + b"\x02", None)
    header = salt + RECORD_SIZE.to_bytes(4, "big") + bytes([len(sender_public)]) + sender_public
    return header + record
