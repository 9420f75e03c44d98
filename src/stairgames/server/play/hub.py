"""WebSocket fan-out: who watches each match, one lock per match, the computer's turns.

Every change to a match goes through :meth:`Hub.changed` once committed: each connection
gets its own viewer's state (a seat's view, or the public view for spectators), then a
computer seat to act starts thinking in the process pool. A computer's move is applied
only if the match is still at the event it started thinking from (an undo or a
resignation meanwhile makes it think again, or not at all). A computer that fails or
overruns its deadline (:class:`ComputerPool`) is not asked again at the same event: its
match's view says why it gave no move (``computer_error``), and a later event (an undo,
say) or a restart lets it try again. The pool serves the matches in turn (one move each
before any gets a second); a computer's move is committed off the event loop.

A match with no person in it (every seat a computer's) is watched, not played: it thinks
in a lane of the pool of its own (:data:`COMPUTER_ONLY_LANE`), so that it never holds up
a match a person plays, and it is let in only within limits (:class:`Limits`): a player
(or, for a browser that is no player, an address) may have
``computer_only_per_owner`` of them running at once, the process
``computer_only_matches`` in all, and one that nobody has watched for
``computer_only_unwatched_seconds`` is stopped (:meth:`Hub.stop_unwatched`, with the
memory's sweep): its computers stop thinking and its view's ``computer_error`` says why.

Watchers cost what they are: a connection gets its full view when it opens; who else is
connected reaches the others as a small ``presence`` message, one per match every
``presence_seconds`` at most, never a view. Each client (a player, or for a browser that
is no player its address) may hold
``connections_per_client`` connections and send ``messages_per_second`` over all of them
together; a match takes ``spectators_per_match`` spectators (seats are always let in).

With several server processes on one database (:meth:`Hub.share_presence`), presence is
the sum of every process's: each tells the others, on the fan-out's ``presence`` topic,
who is connected to a match here whenever that changes (the same gathered change that
makes its presence message), and merges what the others told it; a process that stops
beating (``server_heartbeats``) stops counting. The per-client limits are then each
process's share: the limit divided by the server processes alive.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import Any, Final, Protocol

from stairgames.agents.levels import stand_in_band, stand_in_like
from stairgames.i18n import N_, Text
from stairgames.server.base.limits import Bucket, LiveProcesses
from stairgames.server.base.outages import log_failure
from stairgames.server.base.state import Kept
from stairgames.server.base.store import EventRecord, off_loop
from stairgames.server.play.computer import (
    COMPUTER_ONLY_LANE,
    ComputerError,
    ComputerPool,
    ComputerTimeoutError,
)
from stairgames.server.play.fanout import RESYNC, FanOut
from stairgames.server.play.matches import LEVELS, Match, MatchService, ServerError, error_json
from stairgames.server.play.seats import COMPUTER, HUMAN, ONLINE

log = logging.getLogger(__name__)


class Sender(Protocol):
    async def send_text(self, data: str) -> None: ...


@dataclasses.dataclass(frozen=True)
class Limits:
    """What one client and one match may take (see
    :class:`stairgames.server.base.settings.Settings`)."""

    messages_per_second: float = 20.0
    message_burst: float = 40.0
    connections_per_client: int = 20
    spectators_per_match: int = 500
    presence_seconds: float = 0.2
    """Changes of who is connected are gathered this long, then sent once per match."""
    computer_only_matches: int = 8
    """Matches with no person in them whose computers play at once (this process)."""
    computer_only_per_owner: int = 2
    """Of those, how many one player (or one address, for a browser that is no player)
    may have made."""
    computer_only_unwatched_seconds: float = 600.0
    """A match with no person in it that nobody has watched this long is stopped."""


@dataclasses.dataclass(eq=False)
class _Client:
    """One address: its open connections, and the bucket all of them send from."""

    bucket: Bucket
    connections: int = 0
    greeting: int = 0
    """Sockets accepted and still waiting for their hello (``?auth=message``): they
    count against the cap as open connections do."""


Presence = tuple[tuple[int, ...], int]
"""Who is connected to a match: its seats held by a connection, and its spectators."""
NOBODY: Final[Presence] = ((), 0)
PRESENCE_TOPIC: Final = "presence"
"""The fan-out's topic of presence: ``{"from": process, "matches": {match: [[seats],
spectators]}, "ask"?: true}`` (``ask``: a process that may have missed some asks every
other to tell it all theirs again)."""
PRESENCE_SHARED_AT_ONCE: Final = 40
"""Matches told in one presence message (well under the fan-out's message size)."""


def read_presence(entry: object) -> Presence | None:
    """A presence as another process sent it, ``[[seats], spectators]``; ``None`` if
    malformed."""
    if not isinstance(entry, list) or len(entry) != 2:
        return None
    seats, spectators = entry
    if not isinstance(seats, list) or not all(type(seat) is int for seat in seats):
        return None
    if type(spectators) is not int or spectators < 0:
        return None
    return tuple(sorted(set(seats))), spectators


@dataclasses.dataclass(eq=False)
class Connection:
    """One WebSocket of one viewer; ``seat`` is ``None`` for a spectator; ``client`` the
    address it comes from (its connections share one message bucket)."""

    sender: Sender
    seat: int | None
    client: str = ""
    bucket: Bucket = dataclasses.field(default_factory=lambda: Bucket(20.0, 40.0))
    """Replaced by its client's bucket when the hub takes the connection in."""
    refused: int = 0
    told: Presence | None = None
    """The presence it last received (in a view or a presence message)."""
    texts: bool = False
    """Whether its views carry the screen-reader mode's texts (it asked: ``sync`` with
    ``texts``)."""

    def may_send(self) -> bool:
        """Whether its client may send one more message now (counted if not)."""
        if self.bucket.take() == 0.0:
            return True
        self.refused += 1
        return False


@dataclasses.dataclass(frozen=True)
class _Job:
    """What a computer thinks about: the match as it was at event ``started``."""

    started: int
    player: str
    seat: int
    moves: list[str]
    seed: int


MAX_FAILURES_REMEMBERED = 10_000
"""Matches whose computer's failure is remembered (so that it is not asked again)."""

NOBODYS: Final = ""
"""The owner of a match with no person in it that this process did not see made (it
started thinking here after a restart): counted in the process's limit only."""


def computer_only_seats(seats: object) -> bool:
    """Whether a new match's seat specs (as ``POST /api/matches`` names them) give every
    seat to a computer (specs that are not texts are left to the match's own checks)."""
    if not isinstance(seats, list) or not seats:
        return False
    texts = [spec.strip().lower() for spec in seats if isinstance(spec, str)]
    return len(texts) == len(seats) and not any(text in (HUMAN, ONLINE) for text in texts)


def computer_only(match: Match) -> bool:
    """Whether every seat of the match is a computer's (nobody plays it: it is watched)."""
    return all(seat.kind == COMPUTER for seat in match.seats)


def computer_only_owner(player_id: str | None, address: str) -> str:
    """Who a new match with no person in it counts against: its player, or the address of
    a browser that is no player."""
    return f"player:{player_id}" if player_id is not None else f"address:{address}"


@dataclasses.dataclass(eq=False)
class _Watched:
    """A match with no person in it whose computers play here: who made it, and when
    someone last watched it (:attr:`Hub.clock`)."""

    owner: str
    watched_at: float


class Admission:
    """A place held for a new match with no person in it while it is made
    (:meth:`Hub.computer_only_admission`): :meth:`admit` gives it to the match made."""

    def __init__(self, hub: Hub | None, owner: str) -> None:
        self._hub, self.owner = hub, owner

    def admit(self, match_id: str) -> None:
        """The match is made: it holds the place from now on."""
        hub, self._hub = self._hub, None
        if hub is not None:
            hub._admitted(match_id, self.owner)

    def release(self) -> None:
        """No match was made: the place is free again."""
        hub, self._hub = self._hub, None
        if hub is not None:
            hub._released(self.owner)


def _failed(player: Text | str) -> ServerError:
    return ServerError(500, N_("the computer ({player}) could not choose a move"), player=player)


Listener = Callable[[Match], Awaitable[None] | None]
"""Told of each match after a commit (:attr:`HubNeighbours.after_change`)."""


def _no_names(_match_id: str) -> dict[int, str]:
    return {}


def _no_ratings(_match: Match) -> dict[int, dict[str, Any]]:
    return {}


def _nothing_kept(_match: Match) -> bool:
    return False


SeatNotes = tuple[dict[int, str], dict[int, dict[str, Any]]]
"""What the views say of a match's seats beyond the match itself: who holds each
(:attr:`HubNeighbours.seat_names`) and their ratings (:attr:`HubNeighbours.seat_ratings`)."""


class HubNeighbours:
    """What the hub tells and asks of the domains above ``play`` (the lobby, the
    referee, the mail): they use the hub, so they are made after it, and join it here
    as each is made; the hub is given this object when it is made and none of its own
    attributes is set afterwards."""

    def __init__(self) -> None:
        self.after_change: list[Listener] = []
        """Called with each match after a commit (:meth:`Hub.changed`), before it is
        announced; a listener that returns an awaitable (an ``async def``, whose database
        work is off the event loop) is awaited."""
        self.seat_names: Callable[[str], dict[int, str]] = _no_names
        """The names of the players holding a match's seats (the lobby's), for the views."""
        self.seat_ratings: Callable[[Match], dict[int, dict[str, Any]]] = _no_ratings
        """The fields a rated match's seats add to the views (the lobby's): each seat's
        ``rating``, and the ``rating_change`` once the match is rated."""
        self.notes_kept: Callable[[Match], bool] = _nothing_kept
        """Whether :meth:`seat_notes` of a match would read nothing now (all it needs is
        kept in memory: the lobby's), so that it is made on the event loop."""

    def seat_notes(self, match: Match) -> SeatNotes:
        """:attr:`seat_names` and :attr:`seat_ratings` (database reads)."""
        return self.seat_names(match.id), self.seat_ratings(match)

    async def seat_notes_async(self, match: Match) -> SeatNotes:
        """:meth:`seat_notes`, in a database thread unless :attr:`notes_kept` (most
        moves: no hop to a thread and back)."""
        if self.notes_kept(match):
            return self.seat_notes(match)
        return await off_loop(self.seat_notes, match)


class Hub:
    def __init__(
        self,
        service: MatchService,
        computers: ComputerPool,
        limits: Limits | None = None,
        neighbours: HubNeighbours | None = None,
        live_processes: LiveProcesses | None = None,
    ) -> None:
        """``neighbours``: the domains above that it tells of changes and asks for seat
        names; ``live_processes``: the server processes alive on a shared database
        (``None``: this one alone), whose every read makes the hub forget the presence
        that processes gone told (:meth:`forget_processes_gone`)."""
        self.service = service
        self.computers = computers
        self.limits = limits or Limits()
        self.neighbours = neighbours or HubNeighbours()
        self._watchers: dict[str, set[Connection]] = defaultdict(set)
        self._present: dict[str, Counter[int | None]] = defaultdict(Counter)
        """Connections per seat of each watched match (``None``: spectators)."""
        self._clients: dict[str, _Client] = {}
        self._presence_due: dict[str, asyncio.Task[None]] = {}
        """Matches whose presence changed and is not sent yet (with the task to send it)."""
        self._locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._used: dict[str, float] = {}
        """When each match was last locked or loaded (``time.monotonic``)."""
        self._thinking: set[str] = set()
        self._thinkers: dict[str, asyncio.Task[None]] = {}
        """The task thinking for each match whose computer thinks."""
        self.clock: Callable[[], float] = time.monotonic
        """When a match with no person in it was last watched (a fake clock in tests)."""
        self._watched: dict[str, _Watched] = {}
        """The matches with no person in them whose computers play here."""
        self._held: Counter[str] = Counter()
        """Places held for such matches being made, by owner."""
        self._failed: dict[str, tuple[int, dict[str, Any]]] = {}
        """Each match whose computer last failed: the event it thought from, and why (as
        :func:`error_json` gives it). Kept when the match leaves memory (at most
        :data:`MAX_FAILURES_REMEMBERED`, the oldest forgotten first)."""
        self._tasks: set[asyncio.Task[None]] = set()
        self.after_announce: list[Callable[[Match], None]] = []
        """Called with each match once :meth:`changed` announced it (the metrics)."""
        self.after_request: list[Callable[[str, float], None]] = []
        """Called with each match socket request carried out (its type) and its seconds
        from its receipt to its views sent here (:meth:`answered`; the metrics)."""
        self.origin = ""
        """This process among those sharing the database (its heartbeat's name)."""
        self.live_processes = live_processes
        """The server processes alive on the database (``None``: this one alone)."""
        self._fanout: FanOut | None = None
        self._elsewhere: dict[str, dict[str, Presence]] = {}
        """Who is connected to each match on the other processes (by process)."""
        self._shared: dict[str, Presence] = {}
        """What this process last told the others of each match's presence here."""
        if live_processes is not None:
            live_processes.after_read.append(self.forget_processes_gone)

    def lock(self, match_id: str) -> asyncio.Lock:
        self._used[match_id] = time.monotonic()
        return self._locks[match_id]

    def load(self, match_id: str) -> Match:
        """The match (see :meth:`MatchService.get`); a computer to act starts thinking
        (after a restart, on the match's first use)."""
        self._used[match_id] = time.monotonic()
        match = self.service.get(match_id)
        self.start_computer(match)
        return match

    async def load_async(self, match_id: str) -> Match:
        """:meth:`load`, its database read (if any) in a database thread."""
        self._used[match_id] = time.monotonic()
        match = await self.service.get_async(match_id)
        self.start_computer(match)
        return match

    # ----- views ---------------------------------------------------------------

    def connected_seats(self, match_id: str) -> set[int]:
        """The seats held by a connection, on any server process."""
        return set(self.presence(match_id)[0])

    def presence(self, match_id: str) -> Presence:
        """Who is connected to the match, on every server process."""
        seats, spectators = self._presence_here(match_id)
        elsewhere = self._presence_elsewhere(match_id)
        if not elsewhere:
            return seats, spectators
        every = set(seats).union(*(theirs for theirs, _ in elsewhere))
        return tuple(sorted(every)), spectators + sum(count for _, count in elsewhere)

    def _presence_here(self, match_id: str) -> Presence:
        present = self._present.get(match_id)
        if present is None:
            return NOBODY
        seats = tuple(sorted(s for s, count in present.items() if s is not None and count))
        return seats, present[None]

    def _presence_elsewhere(self, match_id: str) -> list[Presence]:
        """What the other processes told of the match (those gone left out)."""
        theirs = self._elsewhere.get(match_id)
        if not theirs:
            return []
        gone = self._gone()
        return [presence for origin, presence in theirs.items() if origin not in gone]

    def _gone(self) -> frozenset[str]:
        """The processes that stopped beating (their presence no longer counts)."""
        return frozenset() if self.live_processes is None else self.live_processes.gone

    def _processes(self) -> int:
        """How many server processes share the per-client limits (at least one)."""
        return 1 if self.live_processes is None else self.live_processes.count()

    def thinking(self, match: Match) -> bool:
        return match.id in self._thinking and match.computer_to_act() is not None

    def computer_error(self, match: Match) -> dict[str, Any] | None:
        """Why the computer to act gave no move at the match's event (``None``: it did
        not fail there)."""
        failed = self._failed.get(match.id)
        return failed[1] if failed is not None and failed[0] == match.event else None

    def computer_note(self, match: Match) -> tuple[str, dict[str, str | None]] | None:
        """While a computer of the match plays its weaker stand-in, its compiled code being
        compiled in the background (what the workers said of its player's last move:
        :meth:`ComputerPool.note`): the note (``"warming"``) and the stand-in: the
        ``level`` it plays for and how strong it is, where the game measured it: the
        level it is about as strong as (``like``: :func:`stairgames.agents.levels.
        stand_in_like`), or the levels it is stronger (``above``) and weaker (``below``)
        than (:func:`~stairgames.agents.levels.stand_in_band`), each ``None`` where not
        measured so. ``None`` when no stand-in plays."""
        noted = self._noted_computer(match)
        if noted is None:
            return None
        note, player = noted
        band = stand_in_band(player, match.game_name)
        stand_in = {
            "level": player,
            "like": stand_in_like(player, match.game_name),
            "above": None if band is None else band[0],
            "below": None if band is None else band[1],
        }
        return note, stand_in

    def _noted_computer(self, match: Match) -> tuple[str, str] | None:
        """The note of the first computer of the match whose last move was noted, with
        its player (:meth:`ComputerPool.note`)."""
        if match.over:
            return None
        for seat in match.seats:
            if seat.kind == COMPUTER:
                player = seat.player or "medium"
                note = self.computers.note(match.game_name, match.options, player)
                if note is not None:
                    return note, player
        return None

    def view(
        self,
        match: Match,
        seat: int | None,
        notes: SeatNotes | None = None,
        *,
        texts: bool = False,
    ) -> dict[str, Any]:
        """The view of ``match`` for ``seat`` (``None``: a spectator); ``notes``: who holds
        its seats and their ratings (:meth:`HubNeighbours.seat_notes`, read here when not
        given: database reads); ``texts``: with the screen-reader mode's texts."""
        view = match.view(
            seat,
            connected=self.connected_seats(match.id),
            thinking=self.thinking(match),
            computer_error=self.computer_error(match),
            now=self.service.clock(),
            texts=texts,
        )
        noted = self.computer_note(match)
        view["computer_note"] = None if noted is None else noted[0]
        if noted is not None:  # only then: every other view stays as it was
            view["computer_stand_in"] = noted[1]
        view["spectators"] = self.presence(match.id)[1]
        names, ratings = self.neighbours.seat_notes(match) if notes is None else notes
        entries: list[dict[str, Any]] = view["seats"]
        for entry in entries:
            entry["player"] = names.get(entry["seat"])
            entry.update(ratings.get(entry["seat"], {}))
        return view

    async def view_async(
        self, match: Match, seat: int | None, *, texts: bool = False
    ) -> dict[str, Any]:
        """:meth:`view`, the seats' holders and ratings read in a database thread."""
        notes = await self.neighbours.seat_notes_async(match)
        return self.view(match, seat, notes, texts=texts)

    async def names_of(self, match_id: str) -> dict[int, str]:
        """Who holds the match's seats (:attr:`HubNeighbours.seat_names`), read in a
        database thread."""
        return await off_loop(self.neighbours.seat_names, match_id)

    def add(self, match_id: str, connection: Connection) -> None:
        """Take ``connection`` in (its client's bucket becomes its own); the others
        hear of it by a presence message.

        :raises ServerError: 429, its client holds as many connections as it may; 503,
            a spectator of a match with as many spectators as it takes.
        """
        limits = self.limits
        client = self._client(connection.client)
        self._refuse_over_cap(client)
        if connection.seat is None and self.presence(match_id)[1] >= limits.spectators_per_match:
            raise ServerError(
                503,
                N_("this match has as many spectators as it can take ({limit}); try again later"),
                limit=limits.spectators_per_match,
            )
        client.connections += 1
        connection.bucket = client.bucket
        self._watchers[match_id].add(connection)
        self._present[match_id][connection.seat] += 1
        connection.told = self.presence(match_id)  # its view will say so
        self._seen_watched(match_id)
        self._presence_changed(match_id)

    def _client(self, address: str) -> _Client:
        """The client ``address`` names (``player:…`` or ``address:…``; made when new),
        its bucket this process's share."""
        limits = self.limits
        processes = self._processes()
        client = self._clients.get(address)
        if client is None:
            bucket = Bucket(limits.messages_per_second, limits.message_burst)
            client = self._clients[address] = _Client(bucket)
        client.bucket.rate = limits.messages_per_second / processes  # this process's share
        client.bucket.burst = max(1.0, limits.message_burst / processes)
        return client

    def _refuse_over_cap(self, client: _Client) -> None:
        """:raises ServerError: 429, the client (a player, or an address) holds as many
        sockets as it may (open ones and those waiting for their hello)."""
        most = max(1, self.limits.connections_per_client // self._processes())
        if client.connections + client.greeting >= most:
            raise ServerError(429, N_("too many connections open (at most {limit})"), limit=most)

    @contextlib.contextmanager
    def greeting(self, address: str) -> Iterator[None]:
        """While a socket of ``address`` waits for its hello: it counts against the
        client's cap of connections.

        :raises ServerError: 429, the client holds as many sockets as it may.
        """
        client = self._client(address)
        self._refuse_over_cap(client)
        client.greeting += 1
        try:
            yield
        finally:
            client.greeting -= 1
            if not client.connections and not client.greeting and client.bucket.full():
                self._clients.pop(address, None)

    def remove(self, match_id: str, connection: Connection) -> None:
        watchers = self._watchers.get(match_id)
        if watchers is None or connection not in watchers:
            return
        watchers.discard(connection)
        self._present[match_id][connection.seat] -= 1
        if not watchers:
            del self._watchers[match_id]
            del self._present[match_id]
        client = self._clients.get(connection.client)
        if client is not None:
            client.connections -= 1
            if not client.connections and not client.greeting and client.bucket.full():
                del self._clients[connection.client]
        self._seen_watched(match_id)  # the time unwatched counts from its last watcher
        self._presence_changed(match_id)

    async def send_view(self, connection: Connection, match: Match) -> None:
        """Send one connection its view of ``match`` (when it opens, or asks)."""
        connection.told = self.presence(match.id)
        view = await self.view_async(match, connection.seat, texts=connection.texts)
        await self._send(connection, json.dumps(view))

    async def announce(self, match: Match) -> None:
        """Send every watcher its own view of ``match`` (one view made per seat, and per
        seat with the screen-reader mode's texts where a watcher asked for them)."""
        texts: dict[tuple[int | None, bool], str] = {}
        watchers = list(self._watchers.get(match.id, ()))
        if not watchers:
            return
        notes = await self.neighbours.seat_notes_async(match)
        told = self.presence(match.id)
        for connection in watchers:
            connection.told = told
            key = (connection.seat, connection.texts)
            if key not in texts:
                view = self.view(match, connection.seat, notes, texts=connection.texts)
                texts[key] = json.dumps(view)
        await asyncio.gather(
            *(self._send(c, texts[(c.seat, c.texts)]) for c in watchers), return_exceptions=True
        )

    # ----- the chat's hooks (server/chat/chat.py) ---------------------------------------

    async def tell(self, match_id: str, text: str, reads: Callable[[int | None], bool]) -> None:
        """Send ``text`` as it is to the match's connections whose seat (``None``: a
        spectator) ``reads`` accepts: a chat message, made once for all of them."""
        targets = [c for c in self._watchers.get(match_id, ()) if reads(c.seat)]
        await asyncio.gather(*(self._send(c, text) for c in targets), return_exceptions=True)

    def watched(self) -> list[str]:
        """The matches someone watches here (a connection is open on each)."""
        return list(self._watchers)

    def watches(self, match_id: str) -> bool:
        """Whether someone watches ``match_id`` here (the fan-out's test, for each event)."""
        return match_id in self._watchers

    def counts(self) -> dict[str, int]:
        """What this process holds now (the metrics): WebSockets of seats and of
        spectators, matches in memory, computer moves thought of or waiting for a worker."""
        present = [c for counter in self._present.values() for c in counter.items()]
        return {
            "seats": sum(n for seat, n in present if seat is not None),
            "spectators": sum(n for seat, n in present if seat is None),
            "matches": len(self.service.cached_ids()),
            "computers": len(self._thinking),
        }

    # ----- presence ----------------------------------------------------------------

    def _presence_changed(self, match_id: str) -> None:
        """Send the match's presence in ``presence_seconds`` (once for all the changes
        made meanwhile)."""
        if match_id in self._presence_due:
            return
        task = asyncio.get_running_loop().create_task(self._presence_later(match_id))
        self._presence_due[match_id] = task
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _presence_later(self, match_id: str) -> None:
        await asyncio.sleep(self.limits.presence_seconds)
        if self._presence_due.get(match_id) is asyncio.current_task():
            await self._send_presence(match_id)

    async def flush_presence(self) -> None:
        """Send every presence change not sent yet, now (instead of when it is due)."""
        for match_id in list(self._presence_due):
            task = self._presence_due.pop(match_id, None)
            if task is None:  # its own task sends it already
                continue
            task.cancel()  # still waiting: nothing sent yet
            await self._send_presence(match_id)

    async def _send_presence(self, match_id: str) -> None:
        """``{"type": "presence", "match", "event", "connected": [seats], "spectators"}``
        to the match's connections that have not been told it; no view is made. The
        other processes are told what changed here."""
        self._presence_due.pop(match_id, None)
        self._share_presence(match_id)
        if match_id not in self._watchers:
            return
        async with self.lock(match_id):
            presence = self.presence(match_id)
            connected, spectators = presence
            text = json.dumps(
                {
                    "type": "presence",
                    "match": match_id,
                    "event": self.service.cached_event(match_id),
                    "connected": list(connected),
                    "spectators": spectators,
                }
            )
            targets = [c for c in self._watchers.get(match_id, ()) if c.told != presence]
            for connection in targets:
                connection.told = presence
            await asyncio.gather(*(self._send(c, text) for c in targets), return_exceptions=True)

    # ----- presence on the other server processes ---------------------------------

    def share_presence(self, fanout: FanOut, origin: str) -> None:
        """Tell the other server processes who is connected here and hear who is
        there (through ``fanout``'s :data:`PRESENCE_TOPIC`); ``origin`` names this
        process, as its heartbeat does."""
        self._fanout, self.origin = fanout, origin
        fanout.subscribe(PRESENCE_TOPIC, self._presence_heard)
        fanout.subscribe(RESYNC, self._presence_asked_again)

    def _share_presence(self, match_id: str) -> None:
        """Tell the others the match's presence here, if it changed since last told."""
        here = self._presence_here(match_id)
        if self._fanout is None or self._shared.get(match_id, NOBODY) == here:
            return
        if here == NOBODY:
            del self._shared[match_id]
        else:
            self._shared[match_id] = here
        self._broadcast_presence({match_id: here})

    def _broadcast_presence(self, told: dict[str, Presence], *, ask: bool = False) -> None:
        if self._fanout is None:
            return
        entries = {match_id: [list(seats), n] for match_id, (seats, n) in told.items()}
        data: dict[str, Any] = {"from": self.origin, "matches": entries}
        if ask:
            data["ask"] = True
        self._fanout.broadcast(PRESENCE_TOPIC, data)

    def _tell_all_presence(self, *, ask: bool = False) -> None:
        """Tell the others every presence here (a few matches a message)."""
        told = list(self._shared.items())
        if ask:
            self._broadcast_presence({}, ask=True)
        for start in range(0, len(told), PRESENCE_SHARED_AT_ONCE):
            self._broadcast_presence(dict(told[start : start + PRESENCE_SHARED_AT_ONCE]))

    async def _presence_asked_again(self, _data: dict[str, Any]) -> None:
        """After a gap in the fan-out: ask the others for all theirs (and tell ours)."""
        self._tell_all_presence(ask=True)

    async def _presence_heard(self, data: dict[str, Any]) -> None:
        """Another process told of presence there: merge it, and tell the watchers here."""
        origin, matches = data.get("from"), data.get("matches")
        if not isinstance(origin, str) or origin == self.origin or not isinstance(matches, dict):
            return
        if data.get("ask") is True:
            self._tell_all_presence()
        for match_id, entry in matches.items():
            presence = read_presence(entry)
            if presence is None or not isinstance(match_id, str):
                continue
            self._note_presence_elsewhere(match_id, origin, presence)
            if match_id in self._watchers:
                self._presence_changed(match_id)

    def _note_presence_elsewhere(self, match_id: str, origin: str, presence: Presence) -> None:
        theirs = self._elsewhere.setdefault(match_id, {})
        if presence == NOBODY:
            theirs.pop(origin, None)
        else:
            theirs[origin] = presence
        if not theirs:
            del self._elsewhere[match_id]

    def forget_processes_gone(self) -> None:
        """Forget what processes that stopped beating told (the watchers here are told);
        a :attr:`LiveProcesses.after_read` listener."""
        gone_now = self._gone()
        for match_id, theirs in list(self._elsewhere.items()):
            gone = [origin for origin in theirs if origin in gone_now]
            for origin in gone:
                self._note_presence_elsewhere(match_id, origin, NOBODY)
            if gone and match_id in self._watchers:
                self._presence_changed(match_id)

    async def _send(self, connection: Connection, text: str) -> None:
        try:
            await connection.sender.send_text(text)
        except Exception:  # a closed socket: its own handler removes it
            log.debug("send failed", exc_info=True)

    def answered(self, kind: str, seconds: float) -> None:
        """A match socket's request of type ``kind`` was carried out and its views sent
        here, ``seconds`` after it was received (the lock, the database and the views:
        the server's part of a move's time, beside what a client measures)."""
        for listener in self.after_request:
            listener(kind, seconds)

    async def changed(self, match: Match, *, think: bool = True) -> None:
        """After a commit: tell :attr:`HubNeighbours.after_change` (the lobby's ratings), start the
        computer if it is to act (``think``: not for another process's commit, which
        that process's computers answer), then announce."""
        for listener in self.neighbours.after_change:
            try:
                told = listener(match)
                if told is not None:
                    await told
            except Exception:  # a listener's failure must not stop the match
                log_failure(log, "after-change listener failed for %s", match.id)
        if match.over:
            self._watched.pop(match.id, None)
        if think:
            self.start_computer(match)
        await self.announce(match)
        for listener in self.after_announce:
            listener(match)

    # ----- the computer ---------------------------------------------------------

    def start_computer(self, match: Match) -> None:
        """Start the computer to act thinking (unless it thinks already, or failed at
        this event, or its match has no person in it and may not play here now)."""
        seat = match.computer_to_act()
        if seat is None or match.id in self._thinking or self.computer_error(match):
            return
        lane = None
        if computer_only(match):
            if not self._may_play_computer_only(match):
                return
            lane = COMPUTER_ONLY_LANE
        self._thinking.add(match.id)
        job = _Job(
            started=match.event,
            player=seat.player or "medium",
            seat=seat.seat,
            moves=match.state.history_strings(),
            seed=(match.seed + 7919 * match.state.move_number()) % (1 << 62),
        )
        task = asyncio.get_running_loop().create_task(self._think(match, job, lane))
        self._tasks.add(task)
        self._thinkers[match.id] = task
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(lambda done: self._thought(match.id, done))

    def _thought(self, match_id: str, task: asyncio.Task[None]) -> None:
        if self._thinkers.get(match_id) is task:
            del self._thinkers[match_id]

    async def _think(self, match: Match, job: _Job, lane: str | None = None) -> None:
        where = f"match {match.id} at event {job.started}"
        player = Text(job.player) if job.player in LEVELS else job.player
        try:
            # a match started from a position replays its moves from there
            start = {} if match.start_position is None else {"start_position": match.start_position}
            move = await self.computers.choose(
                match.game_name,
                match.options,
                job.player,
                job.seat,
                job.moves,
                job.seed,
                **start,
                queue=match.id,  # the pool serves the matches in turn
                lane=lane,
            )
        except ComputerTimeoutError as exc:
            log.warning("computer player %s overran %g s in %s", job.player, exc.seconds, where)
            overran = N_(
                "the computer ({player}) took longer than {seconds} seconds and was stopped"
            )
            await self._gave_no_move(
                match, job, ServerError(503, overran, player=player, seconds=round(exc.seconds))
            )
            return
        except ComputerError as exc:
            log.error("computer player %s failed in %s: %s", job.player, where, exc.details or exc)
            await self._gave_no_move(match, job, _failed(player))
            return
        except Exception:
            log.exception("computer player %s failed in %s", job.player, where)
            await self._gave_no_move(match, job, _failed(player))
            return
        async with self.lock(match.id):
            self._thinking.discard(match.id)
            current = await self.service.get_async(match.id)
            if current is match and match.event == job.started:
                try:
                    await self._play(match, job.seat, move)
                except ServerError as exc:
                    if exc.status != 409:
                        log.exception("computer move %r refused in %s", move, where)
                        self._remember_failure(match.id, job.started, _failed(player))
                        await self.announce(match)
                        return
                    # another process committed first: its event stands, its computers go on
                    await self.changed(await self.service.get_async(match.id), think=False)
                    return
                except Exception:
                    log.exception("computer move %r refused in %s", move, where)
                    self._remember_failure(match.id, job.started, _failed(player))
                    await self.announce(match)
                    return
            await self.changed(current)

    async def _play(self, match: Match, seat: int, move: str) -> None:
        """Commit the move a computer player chose for ``seat`` (checked like any move),
        the commit in a database thread (:meth:`MatchService.commit_async`).

        :raises ServerError: 409, it is no longer that seat's turn, or another process
            changed the match first.
        """
        if match.computer_to_act() is None or match.to_act() != seat:
            raise ServerError(409, N_("it is not your turn"))
        notation = match.state.action_to_string(match.state.string_to_action(move))
        await self.service.commit_async(match, [("move", seat, {"move": notation})])

    async def _gave_no_move(self, match: Match, job: _Job, error: ServerError) -> None:
        async with self.lock(match.id):
            self._thinking.discard(match.id)
            self._remember_failure(match.id, job.started, error)
            await self.announce(match)

    def _remember_failure(self, match_id: str, event: int, error: ServerError) -> None:
        self._watched.pop(match_id, None)  # its computers no longer play
        self._failed.pop(match_id, None)  # the newest last
        self._failed[match_id] = (event, error_json(error))
        while len(self._failed) > MAX_FAILURES_REMEMBERED:
            del self._failed[next(iter(self._failed))]

    async def follow_other_processes(self, seconds: float) -> None:
        """Every ``seconds``, announce the matches someone watches here that another
        server process changed (several processes on one database); runs until cancelled."""
        while True:
            await asyncio.sleep(seconds)
            try:
                await self._announce_changed_elsewhere()
            except Exception:
                log_failure(log, "reading other processes' events failed")

    async def catch_up(self) -> None:
        """Announce every match someone watches here that another server process changed
        (one query for all: the fan-out's fallback, and its catch-up after a gap)."""
        await self._announce_changed_elsewhere()

    async def _announce_changed_elsewhere(self) -> None:
        watched = list(self._watchers)
        known = {i: self.service.cached_event(i) for i in watched}
        latest = await off_loop(self.service.store.last_events, watched)
        for match_id in watched:
            if latest.get(match_id, 0) != known[match_id]:
                await self.follow(match_id)

    async def follow(self, match_id: str, carried: Sequence[EventRecord] | None = None) -> None:
        """Read the events another server process committed to ``match_id`` and announce
        them (the fan-out's callback, :mod:`stairgames.server.play.fanout`); that process's
        computers answer them, not this one's. ``carried``: the events, as the
        notification carried them, taken instead of read where they follow this
        process's last one."""
        async with self.lock(match_id):
            match = await self.service.get_async(match_id)
            if carried and carried[0].number == match.event + 1:
                fresh = self.service.fold(match, carried)
            else:
                fresh = await self.service.follow_async(match)  # its query off the event loop
            if fresh is not match:
                await self.changed(fresh, think=False)

    # ----- matches with no person in them ------------------------------------------

    @contextlib.contextmanager
    def computer_only_admission(
        self, seats: object, player_id: str | None, address: str
    ) -> Iterator[Admission]:
        """Hold a place, while the block makes it, for a new match of ``seats`` made by
        the player ``player_id`` (``None``: a browser that is no player, from
        ``address``); the block calls :meth:`Admission.admit` with the match made (a
        block that fails frees the place). A match with a person in it needs no place.

        :raises ServerError: 429, its owner has as many of them running as they may
            (nothing is made); 503, the server has.
        """
        if not computer_only_seats(seats):
            yield Admission(None, "")
            return
        owner = computer_only_owner(player_id, address)
        self._check_room(owner)
        self._held[owner] += 1
        admission = Admission(self, owner)
        try:
            yield admission
        finally:
            admission.release()

    def computer_only_running(self, owner: str | None = None) -> int:
        """Matches with no person in them whose computers play here (``owner``'s only, if
        given), with the places held for those being made."""
        if owner is None:
            return len(self._watched) + sum(self._held.values())
        mine = sum(1 for watched in self._watched.values() if watched.owner == owner)
        return mine + self._held[owner]

    def _check_room(self, owner: str) -> None:
        limits = self.limits
        if self.computer_only_running(owner) >= limits.computer_only_per_owner:
            raise ServerError(
                429,
                N_(
                    "you have {limit} games of computers only running already; "
                    "wait for one to end (a game nobody watches for {minutes} minutes "
                    "is stopped)"
                ),
                limit=limits.computer_only_per_owner,
                minutes=round(limits.computer_only_unwatched_seconds / 60),
            )
        if self.computer_only_running() >= limits.computer_only_matches:
            raise ServerError(
                503,
                N_(
                    "the server runs as many games of computers only as it can ({limit}); "
                    "try again later, or play one yourself"
                ),
                limit=limits.computer_only_matches,
            )

    def _admitted(self, match_id: str, owner: str) -> None:
        self._released(owner)
        self._watched[match_id] = _Watched(owner, self.clock())

    def _released(self, owner: str) -> None:
        self._held[owner] -= 1
        if self._held[owner] <= 0:
            del self._held[owner]

    def _may_play_computer_only(self, match: Match) -> bool:
        """Whether the computers of ``match`` (no person in it) may think here: one let
        in (:meth:`computer_only_admission`) may; one this process did not see made (a
        restart, another process's) is let in if the server has room, else stopped."""
        if match.id in self._watched:
            return True
        if self.computer_only_running() < self.limits.computer_only_matches:
            self._watched[match.id] = _Watched(NOBODYS, self.clock())
            return True
        full = N_(
            "the computers of this game stopped: the server runs as many games of "
            "computers only as it can ({limit})"
        )
        limit = self.limits.computer_only_matches
        self._remember_failure(match.id, match.event, ServerError(503, full, limit=limit))
        return False

    def _seen_watched(self, match_id: str) -> None:
        """Someone watches the match, or its last watcher just left: now counts as watched."""
        watched = self._watched.get(match_id)
        if watched is not None:
            watched.watched_at = self.clock()

    async def stop_unwatched(self) -> list[str]:
        """Stop the matches with no person in them that nobody (on any server process)
        has watched for ``computer_only_unwatched_seconds`` by :attr:`clock`: their
        computers stop thinking, and their views' ``computer_error`` says why. The
        matches stopped."""
        now = self.clock()
        stopped = []
        for match_id, watched in list(self._watched.items()):
            if self.presence(match_id) != NOBODY:
                watched.watched_at = now
            elif now - watched.watched_at >= self.limits.computer_only_unwatched_seconds:
                await self._stop(match_id)
                stopped.append(match_id)
        return stopped

    async def _stop(self, match_id: str) -> None:
        """Stop a match's computers (a move being thought is abandoned) and say why."""
        async with self.lock(match_id):
            if self._watched.pop(match_id, None) is None:
                return  # it ended meanwhile
            thinker = self._thinkers.pop(match_id, None)
            if thinker is not None:
                thinker.cancel()
            self._thinking.discard(match_id)
            match = await self.service.get_async(match_id)
            minutes = round(self.limits.computer_only_unwatched_seconds / 60)
            unwatched = N_(
                "the computers of this game stopped: nobody watched it for {minutes} minutes"
            )
            self._remember_failure(
                match_id, match.event, ServerError(409, unwatched, minutes=minutes)
            )
            await self.announce(match)

    # ----- memory ----------------------------------------------------------------

    def sweep(self, idle_seconds: float, now: float | None = None) -> int:
        """Forget the matches (and their locks) that nobody watches, no computer thinks
        about and nobody used for ``idle_seconds``; the number forgotten. They stay in
        the database: the next request loads them again. Clients with no connection
        left whose message bucket is full again are forgotten too."""
        now = time.monotonic() if now is None else now
        for address, client in list(self._clients.items()):
            if not client.connections and client.bucket.full(now):
                del self._clients[address]
        forgotten = 0
        for match_id in self.service.cached_ids() | set(self._locks) | set(self._used):
            if match_id in self._watchers or match_id in self._thinking:
                continue
            lock = self._locks.get(match_id)
            if lock is not None and lock.locked():
                continue
            last = self._used.setdefault(match_id, now)
            if now - last < idle_seconds:
                continue
            self.service.forget(match_id)
            self._locks.pop(match_id, None)
            del self._used[match_id]
            forgotten += 1
        return forgotten

    async def sweep_every(self, seconds: float, idle_seconds: float) -> None:
        """:meth:`sweep` every ``seconds``; runs until cancelled."""
        while True:
            await asyncio.sleep(seconds)
            try:
                stopped = await self.stop_unwatched()
            except Exception:
                log_failure(log, "stopping the unwatched matches of computers failed")
            else:
                if stopped:
                    log.info("stopped %d unwatched matches of computers only", len(stopped))
            forgotten = self.sweep(idle_seconds)
            if forgotten:
                log.debug("forgot %d idle matches", forgotten)

    def cached(self) -> tuple[int, int]:
        """(matches in memory, locks): what :meth:`sweep` keeps bounded."""
        return len(self.service.cached_ids()), len(self._locks)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


HUB: Kept[Hub] = Kept("hub")
"""The app's hub (``app.state.hub``)."""
