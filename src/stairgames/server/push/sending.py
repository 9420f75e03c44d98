"""What web push tells a player, when, and how it reaches their devices.

**What.** Three messages, each in the language its device subscribed in, as JSON the
service worker shows (``web/static/sw.js``): ``{"type", "title", "body", "url", "tag"}``:

- ``your_turn`` when a game comes to the player's move by another seat's doing (a move,
  a join, a computer's reply: the rule of the players' channel, ``chat/told.py``);
- ``ended`` when one of their games ends: whether they won, lost, drew or the game was
  aborted, never how (no last move, no hand: a seat of a game of hidden information
  learns nothing it could not see on its page);
- ``challenge`` when a player challenges them directly.

**When not.** Never about a match whose page the player has open, on any server
process (the hub's presence, :meth:`Hub.connected_seats`, which every process shares):
they are looking. At most one message of each kind a match a minute to a player
(:attr:`PushSettings.per_match`), and twenty to a player at once, then one every three
minutes (:attr:`PushSettings.per_player`); beyond, a message is dropped, not queued.
The allowances are :class:`ClientRates`, shared by the processes of a PostgreSQL
database.

**How.** The commit's work done (:meth:`Pusher.after_change`), a background task reads
who holds the seats and their devices (database threads), encrypts each message for each
device (RFC 8291, :mod:`.crypto`, in a thread too) and posts it with ``httpx``'s
asynchronous client, signed with the server's VAPID key, with ``TTL``, ``Urgency`` and a
``Topic`` (a newer message of the same match and kind replaces one not yet delivered).
A push service's 404 or 410 means the device unsubscribed: its subscription is
forgotten. Any other failure is logged once, naming the push service's origin and the
status, never the endpoint's path (a secret capability). No request is retried.

Outside the tests (:attr:`PushSettings.test_endpoints`), an endpoint's host is resolved
before each message and every address must be a public one, so a subscription cannot
make the server post to its own network.
"""

from __future__ import annotations

import asyncio
import hashlib
import ipaddress
import json
import logging
import socket
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final
from urllib.parse import urlsplit

import httpx
from cryptography.hazmat.primitives.asymmetric import ec

from stairgames.core.registry import get_spec
from stairgames.i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, translations
from stairgames.server.base.limits import ClientRates
from stairgames.server.base.settings import PushSettings
from stairgames.server.base.store import EventRecord, allowances_off_loop, off_loop
from stairgames.server.lobby.lobby import Lobby
from stairgames.server.play.match import Match
from stairgames.server.play.seats import COMPUTER
from stairgames.server.play.turns import came_to
from stairgames.server.push.crypto import (
    MAX_PLAINTEXT,
    b64url,
    encrypt,
    unb64url,
    vapid_authorization,
)
from stairgames.server.push.store import PushStore, Subscription

log = logging.getLogger(__name__)

YOUR_TURN, ENDED, CHALLENGE = "your_turn", "ended", "challenge"
ENDING_KINDS: Final = frozenset({"move", "resign", "flag", "abort"})
"""The events that may end a game (the players' channel's rule)."""
PER_MATCH, PER_PLAYER = "push_match", "push_player"
"""The kinds of the push allowances (:class:`ClientRates`)."""
TITLES: Final = {
    YOUR_TURN: N_("Your turn"),
    ENDED: N_("Game over"),
    CHALLENGE: N_("New challenge"),
}
URGENCY: Final = {YOUR_TURN: "high", CHALLENGE: "high", ENDED: "normal"}
TAGS: Final = {YOUR_TURN: "turn", CHALLENGE: "challenge", ENDED: "ended"}
"""The notification's tag, before ``-`` and the match: those of the page's own
notifications (``told.js``), so that a device showing both keeps one."""
GONE: Final = frozenset({404, 410})
"""What a push service answers for a subscription that no longer exists."""
PENDING_AT_MOST: Final = 1000
"""Matches whose commits wait to be told, beyond which the oldest are forgotten."""
LOGGED_AT_MOST: Final = 1000
"""Failures (origin, reason) remembered as logged, beyond which they are forgotten."""

Now = Callable[[], float]


# ----- texts ---------------------------------------------------------------------------


def say(value: object, language: str) -> str:
    """A text as the players' channel sends it (:func:`stairgames.i18n.text_json`:
    ``{"id", "args"}``, ``{"names", "and"}``, plain text) in ``language``."""
    catalog = translations(language if language in LANGUAGES else DEFAULT_LANGUAGE)

    def shown(item: object) -> str:
        if isinstance(item, Mapping):
            if "names" in item and isinstance(item["names"], list):
                words = [shown(name) for name in item["names"]]
                if item.get("and", True) and len(words) > 1:
                    return catalog.gettext("{items} and {last}").format(
                        items=catalog.gettext(", ").join(words[:-1]), last=words[-1]
                    )
                return catalog.gettext(", ").join(words)
            message_id = item.get("id")
            if isinstance(message_id, str):
                raw = item.get("args")
                arguments = raw if isinstance(raw, Mapping) else {}
                filled = {str(name): shown(arg) for name, arg in arguments.items()}
                try:
                    return catalog.gettext(message_id).format(**filled)
                except (KeyError, IndexError, ValueError):
                    return message_id.format_map(_Kept(filled))
        return "" if item is None else str(item)

    return shown(value)


class _Kept(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _opponent(name: str | None, level: str | None) -> dict[str, Any]:
    """An opponent as a text names them (the players' channel's words)."""
    if name is not None:
        return {"id": "{name}", "args": {"name": name}}
    if level is not None:
        return {"id": N_("the computer ({level})"), "args": {"level": {"id": level}}}
    return {"id": N_("a guest")}


OUTCOMES: Final = {
    "won": N_("You won {game} against {names}"),
    "lost": N_("You lost {game} against {names}"),
    "drawn": N_("{game} against {names} ended in a draw"),
    "aborted": N_("{game} against {names} was aborted"),
}


def outcome_for(match: Match, seats: set[int]) -> str:
    """How the game ended for the player of ``seats``: ``won``, ``lost``, ``drawn`` or
    ``aborted`` (from its result alone: nothing a seat could not see)."""
    result = match.result() or {}
    if result.get("aborted"):
        return "aborted"
    winners = set(result.get("winners") or [])
    if not winners or winners >= {seat.seat for seat in match.seats}:
        return "drawn"
    return "won" if winners & seats else "lost"


def topic_of(match_id: str, kind: str) -> str:
    """The ``Topic`` header of a match's messages of ``kind`` (32 base64url
    characters): a newer one replaces one the push service still holds."""
    return b64url(hashlib.sha256(f"{match_id}:{kind}".encode()).digest()[:24])


# ----- where messages may go -----------------------------------------------------------


def public_address(text: str) -> bool:
    """Whether ``text`` is an IP address on the public internet."""
    try:
        return ipaddress.ip_address(text).is_global
    except ValueError:
        return False


def endpoint_refusal(endpoint: str, test_endpoints: bool) -> str | None:
    """Why ``endpoint`` may not be a subscription's (``None``: it may): an ``https``
    address of a public host (no user, no fragment; a name with a dot that is not a
    local one, or a public IP address); with ``test_endpoints``, ``http`` and any
    host too."""
    try:
        parts = urlsplit(endpoint)
        host = parts.hostname or ""
        parts.port  # noqa: B018 (a bad port raises)
    except ValueError:
        return "unreadable"
    if parts.username is not None or parts.password is not None or parts.fragment:
        return "credentials or fragment"
    if not host:
        return "no host"
    if test_endpoints:
        return None if parts.scheme in ("https", "http") else "scheme"
    if parts.scheme != "https":
        return "scheme"
    try:
        ipaddress.ip_address(host)
    except ValueError:
        local = host == "localhost" or host.endswith(
            (".localhost", ".local", ".internal", ".home.arpa", ".lan", ".intranet")
        )
        return "local name" if local or "." not in host.strip(".") else None
    return None if public_address(host) else "private address"


async def resolves_publicly(endpoint: str) -> bool:
    """Whether every address the endpoint's host resolves to is public (resolved in a
    thread, by the event loop's resolver)."""
    parts = urlsplit(endpoint)
    try:
        found = await asyncio.get_running_loop().getaddrinfo(
            parts.hostname, parts.port or 443, type=socket.SOCK_STREAM
        )
    except OSError:
        return False
    return bool(found) and all(public_address(str(entry[4][0])) for entry in found)


# ----- the sender -----------------------------------------------------------------------


class Pusher:
    """Tells players' devices (the rules are in the module's text).

    ``key``: the VAPID private key; ``connected(match_id)``: the seats with a page open
    on the match, on any process (the hub's presence; read on the event loop)."""

    def __init__(
        self,
        store: PushStore,
        lobby: Lobby,
        key: ec.EllipticCurvePrivateKey,
        settings: PushSettings,
        subject: str,
        rates: ClientRates,
        now: Now,
    ) -> None:
        self.store = store
        self.lobby = lobby
        self.key = key
        self.settings = settings
        self.subject = subject
        self.rates = rates
        self.now = now
        self.connected: Callable[[str], set[int]] = lobby.hub.connected_seats
        self.client = httpx.AsyncClient(
            timeout=settings.timeout_seconds, follow_redirects=False, trust_env=False
        )
        self._pending: dict[str, list[EventRecord]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._logged: set[tuple[str, str]] = set()

    # ----- what happened ---------------------------------------------------------------

    def committed(self, match: Match, records: Sequence[EventRecord]) -> None:
        """A :attr:`MatchService.committed` listener: these records, committed here, are
        told once the commit's work is done (:meth:`after_change`)."""
        if not any(record.seat is not None or record.kind in ENDING_KINDS for record in records):
            return
        self._pending.setdefault(match.id, []).extend(records)
        while len(self._pending) > PENDING_AT_MOST:
            del self._pending[next(iter(self._pending))]

    def after_change(self, match: Match) -> None:
        """A :attr:`HubNeighbours.after_change` listener: push what this process
        committed to ``match`` (another process's commit is pushed there)."""
        records = self._pending.pop(match.id, None)
        if records:
            self._start(self._match_changed(match, records))

    def challenged(self, player_id: str, message: dict[str, Any]) -> None:
        """A :attr:`Lobby.challenged` listener: a direct challenge to ``player_id`` is
        pushed (a decline is not: its creator waits on the page)."""
        if message.get("type") != CHALLENGE or not isinstance(message.get("challenge"), str):
            return
        match_id = message["challenge"]
        text = message.get("text")
        self._start(self.push(player_id, match_id, CHALLENGE, lambda _seats: text))

    def _start(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def settle(self) -> None:
        """Wait for every message under way (the tests; a stopping server)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.client.aclose()

    async def _match_changed(self, match: Match, records: list[EventRecord]) -> None:
        try:
            holders = await self.lobby.holders_async(match)
            if not holders:
                return
            names = await self.lobby.seat_names_async(match.id)
            if match.over and any(record.kind in ENDING_KINDS for record in records):
                for player in sorted(set(holders.values())):
                    await self._tell_ended(match, player, holders, names)
                return
            turn = came_to(match, records, holders)
            if turn is not None:
                game = self._game(match, turn, holders, names)
                text = {"id": N_("Your turn in {game} against {names}"), "args": game}
                await self.push(turn, match.id, YOUR_TURN, lambda _seats: text, holders)
        except Exception:  # telling must never stop a game
            log.exception("pushing the news of match %s failed", match.id)

    async def _tell_ended(
        self, match: Match, player: str, holders: dict[int, str], names: dict[int, str]
    ) -> None:
        game = self._game(match, player, holders, names)

        def text(seats: set[int]) -> dict[str, Any]:
            return {"id": OUTCOMES[outcome_for(match, seats)], "args": game}

        await self.push(player, match.id, ENDED, text, holders)

    @staticmethod
    def _game(
        match: Match, player: str, holders: dict[int, str], names: dict[int, str]
    ) -> dict[str, Any]:
        """The ``game`` and ``names`` of a text about ``match`` to ``player``."""
        against = [
            _opponent(
                None if seat.kind == COMPUTER else names.get(seat.seat),
                (seat.player or "medium") if seat.kind == COMPUTER else None,
            )
            for seat in match.seats
            if holders.get(seat.seat) != player
        ]
        return {
            "game": {"id": get_spec(match.game_name).title},
            "names": {"names": against, "and": True},
        }

    # ----- pushing ----------------------------------------------------------------------

    async def push(
        self,
        player_id: str,
        match_id: str,
        kind: str,
        text: Callable[[set[int]], object],
        holders: dict[int, str] | None = None,
    ) -> int:
        """Push ``kind`` about ``match_id`` to every device of ``player_id`` (``text``
        of the seats they hold), unless its page is open or an allowance is spent: how
        many devices it reached. ``holders``: who holds the match's seats, if known (else
        read here)."""
        try:
            if holders is None:
                holders = await off_loop(self.lobby.store.seat_players, match_id)
            seats = {seat for seat, holder in holders.items() if holder == player_id}
            if seats & self.connected(match_id):
                return 0  # the player is looking at it
            devices = await off_loop(self.store.of, player_id)
            if not devices or not await self._allowed(player_id, match_id, kind):
                return 0
            said = text(seats)
            sent = [  # to every device at once: one slow push service holds up no other
                self._send(
                    device, self._payload(kind, match_id, said, device.language), kind, match_id
                )
                for device in devices
            ]
            return sum(await asyncio.gather(*sent))
        except Exception:
            log.exception("pushing %s to a player failed", kind)
            return 0

    async def _allowed(self, player_id: str, match_id: str, kind: str) -> bool:
        """Spend one message of the player's allowances (the match's and kind's, then
        theirs): whether both had one."""
        spend = self._spend if self.rates.shared is None else self._spend_off_loop
        per_match = f"{player_id}:{match_id}:{kind}"
        if not await spend(PER_MATCH, per_match):
            return False
        if not await spend(PER_PLAYER, player_id):
            self.rates.give_back(PER_MATCH, per_match)
            return False
        return True

    async def _spend(self, kind: str, client: str) -> bool:
        return self.rates.take(kind, client) == 0.0

    async def _spend_off_loop(self, kind: str, client: str) -> bool:
        return await allowances_off_loop(self.rates.take, kind, client) == 0.0

    def _payload(self, kind: str, match_id: str, text: object, language: str) -> bytes:
        path = "/" if kind == CHALLENGE else f"/m/{match_id}"
        body = say(text, language)
        message = {
            "type": kind,
            "title": say({"id": TITLES[kind]}, language),
            "body": body,
            "url": path,
            "tag": f"{TAGS[kind]}-{match_id}",
        }
        data = json.dumps(message, ensure_ascii=False).encode("utf-8")
        while len(data) > MAX_PLAINTEXT and message["body"]:  # (names of hundreds of letters)
            message["body"] = message["body"][: len(message["body"]) // 2] + "…"
            data = json.dumps(message, ensure_ascii=False).encode("utf-8")
        return data

    async def _send(self, device: Subscription, payload: bytes, kind: str, match_id: str) -> int:
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(device.endpoint))
        if not self.settings.test_endpoints and not await resolves_publicly(device.endpoint):
            self._log_once(origin, "not a public address")
            return 0
        headers, body = await asyncio.to_thread(self._sealed, device, payload, kind, match_id)
        try:
            answer = await self.client.post(device.endpoint, content=body, headers=headers)
        except httpx.HTTPError as exc:
            self._log_once(origin, type(exc).__name__)
            return 0
        if answer.status_code in GONE:
            await off_loop(self.store.gone, device.id)
            return 0
        if not 200 <= answer.status_code < 300:
            self._log_once(origin, str(answer.status_code))
            return 0
        await off_loop(self.store.reached, device.id)
        return 1

    def _sealed(
        self, device: Subscription, payload: bytes, kind: str, match_id: str
    ) -> tuple[dict[str, str], bytes]:
        """The headers and encrypted body of a message to ``device`` (a thread's work)."""
        body = encrypt(payload, unb64url(device.p256dh), unb64url(device.auth))
        headers = {
            "Authorization": vapid_authorization(
                self.key, device.endpoint, self.subject, self.now()
            ),
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "TTL": str(self.settings.ttl_seconds),
            "Urgency": URGENCY[kind],
            "Topic": topic_of(match_id, kind),
        }
        return headers, body

    def _log_once(self, origin: str, why: str) -> None:
        """Log a failure to reach a push service (its origin, never the endpoint's
        path), once for each origin and reason while this process runs (the first
        :data:`LOGGED_AT_MOST` of them: then they are forgotten, and logged again)."""
        if (origin, why) in self._logged:
            return
        if len(self._logged) >= LOGGED_AT_MOST:
            self._logged.clear()
        self._logged.add((origin, why))
        log.warning("a push message to %s failed: %s", origin, why)
