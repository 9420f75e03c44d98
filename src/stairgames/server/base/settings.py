"""How the server runs: :class:`Settings` (every field with a default fit for one
machine) and the mail's :class:`MailSettings`, in a module of their own at the bottom
of the server (``server/base``), so that every part reads them and none imports the
app (docs/architecture.md, "The server's layers")."""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from stairgames.agents.levels import LEVEL_NAMES
from stairgames.server.base.limits import (
    ANALYSES_RATE,
    BLOCKS_AND_REPORTS_RATE,
    CARD_UPLOADS_RATE,
    CHALLENGES_RATE,
    JOINS_RATE,
    LOGINS_RATE,
    MATCHES_RATE,
    NEW_PLAYERS_RATE,
    POSITIONS_RATE,
    REPLAYS_RATE,
    Rate,
)
from stairgames.server.base.state import Kept
from stairgames.server.base.store import private_data_dir

ADDRESSES_RATE: Final = Rate(per_minute=5, burst=5)
"""E-mail addresses one client (an address) may set a minute: each one sends a mail."""
RESETS_RATE: Final = Rate(per_minute=5, burst=5)
"""Password resets one client may ask for a minute (whatever the names)."""
MAILS_PER_NAME: Final = Rate(per_minute=1 / 20, burst=3)
"""Confirmation or reset mails for one player: three at once, then one every 20
minutes; beyond that, none is sent (a reset is answered the same all the same)."""
PUZZLE_MOVES_RATE: Final = Rate(per_minute=60, burst=30)
"""Puzzle moves one client (a player, else an address) may send: a person solving
quickly moves every few seconds."""
PUZZLES_RATE: Final = Rate(per_minute=60, burst=30)
"""Puzzles one client may ask for (the next, the daily, a streak's next, a puzzle's
page, their puzzle ratings, a streak's end): each loads and draws a position."""


@dataclasses.dataclass(frozen=True)
class SmtpServer:
    """Where mail goes out: host and port, STARTTLS or TLS, and the login if any."""

    host: str
    port: int
    starttls: bool = False
    tls: bool = False
    username: str | None = None
    password: str | None = dataclasses.field(default=None, repr=False)

    def where(self) -> str:
        """``host:port``, for logs (never the login)."""
        return f"{self.host}:{self.port}"


@dataclasses.dataclass(frozen=True)
class MailSettings:
    """How the server sends mail (``Settings.mail``; ``None`` there: it sends none)."""

    smtp: SmtpServer
    public_url: str = "http://127.0.0.1:8000"
    """The site's address as readers reach it: the links in mails start with it."""
    sender: str = ""
    """The ``From`` of every mail; empty: ``stairgames <noreply@HOST>`` of the public URL."""
    timeout_seconds: float = 20.0
    """The most one SMTP conversation may take (connecting, then each reply)."""
    sweep_seconds: float = 60.0
    """How often the server looks for turn mails and digests due (and once at start)."""
    addresses_rate: Rate = ADDRESSES_RATE
    resets_rate: Rate = RESETS_RATE
    mails_per_name: Rate = MAILS_PER_NAME

    def link(self, path: str) -> str:
        """The absolute address of ``path`` (``/m/abc``) on the public site."""
        return self.public_url.rstrip("/") + path

    def from_header(self) -> str:
        if self.sender:
            return self.sender
        host = urlsplit(self.public_url).hostname or "localhost"
        if not re.fullmatch(r"[A-Za-z0-9.-]*[A-Za-z][A-Za-z0-9.-]*", host):
            host = "localhost"  # an IP address: no mail domain
        return f"stairgames <noreply@{host}>"


PUSH_SUBSCRIPTIONS_RATE: Final = Rate(per_minute=10, burst=10)
"""Push subscriptions one player may add or remove a minute."""
PUSH_PER_MATCH: Final = Rate(per_minute=1, burst=1)
"""Push messages about one match to one player: one a minute."""
PUSH_PER_PLAYER: Final = Rate(per_minute=1 / 3, burst=20)
"""Push messages to one player, whatever about: twenty at once, then one every three
minutes (so at most 40 in an hour)."""


@dataclasses.dataclass(frozen=True)
class PushSettings:
    """How the server sends web push (``Settings.push``; docs/web.md, "Web push")."""

    subject: str = ""
    """The operator's contact in every VAPID JWT (``mailto:`` or ``https:``); empty:
    ``mailto:`` the mail's sender, else ``mailto:noreply@localhost`` (set it: a push
    service may refuse messages it cannot trace back)."""
    private_key: str | None = dataclasses.field(default=None, repr=False)
    """The VAPID private key (PEM, or base64url of its 32 bytes); ``None``: the one the
    database keeps, made at the first start (``push_keys``)."""
    test_endpoints: bool = False
    """Whether a subscription's endpoint may be ``http://`` on a loopback or private
    address (the tests' push endpoint); never on a public site."""
    devices_per_player: int = 10
    """Subscriptions one player may keep; a new one beyond replaces their oldest."""
    ttl_seconds: int = 86_400
    """How long a push service keeps a message for a device that is off (``TTL``)."""
    timeout_seconds: float = 10.0
    """The most one request to a push service may take."""
    subscriptions_rate: Rate = PUSH_SUBSCRIPTIONS_RATE
    per_match: Rate = PUSH_PER_MATCH
    per_player: Rate = PUSH_PER_PLAYER


STATIC_DIR = Path(__file__).resolve().parents[2] / "web" / "static"


@dataclasses.dataclass(frozen=True)
class Settings:
    """How the server runs; every field has a default fit for one machine."""

    data_dir: Path = Path("data")
    database_url: str | None = None
    """``None``: SQLite in ``data_dir`` (``data/stairgames.db``)."""
    computer_workers: int = 1
    """Processes computer players think in (0: one thread, for tests)."""
    computer_players: tuple[str, ...] = LEVEL_NAMES
    """The players a browser may give a computer seat (``computer:NAME``): the levels. A
    server for experiments (or a test) may add player texts such as ``random``; every
    one is held to the deadlines below all the same."""
    computer_move_seconds: float = 30.0
    """The most a computer's move may take once its player is prepared (the levels take
    at most about 2 s); beyond, its worker is killed and the match told so."""
    computer_prepare_seconds: float = 180.0
    """The most a worker may take to start and prepare a player before its move's clock
    starts (the first time on a machine, compiling a level's code takes tens of seconds)."""
    warm_computers: bool = False
    """Whether ``stairgames serve`` starts compiling every game's computer players' code
    in the background as it starts (one process, under the lock of compiling:
    :func:`stairgames.agents.warming.start_every_game`), so that the site's first games
    usually find it ready; ``stairgames serve`` turns it on unless ``--no-warm-up``. Off
    for apps made otherwise (tests)."""
    static_dir: Path = STATIC_DIR
    max_message_bytes: int = 4096
    """The largest WebSocket message or request body accepted."""
    messages_per_second: float = 20.0
    message_burst: float = 40.0
    """What one client (an address: ``websocket.client.host``) may send over all its
    WebSockets together: ``messages_per_second`` on average, up to ``message_burst`` at
    once; beyond, messages are refused with 429."""
    refusals_before_close: int = 200
    max_connections_per_client: int = 20
    """WebSockets one client may hold open at once (all matches); more are refused (429)."""
    max_spectators_per_match: int = 500
    """Spectators one match takes; more are refused (503). A seat's player always gets in."""
    presence_seconds: float = 0.2
    """Who connected or left is gathered this long, then told the others of the match in
    one small ``presence`` message (not a view)."""
    computer_only_matches: int = 8
    """Matches with no person in them (every seat a computer) whose computers play at
    once in this process; beyond, a new one is refused (503). They think in a lane of
    the pool of their own (one process), so they never hold up a match a person plays."""
    computer_only_per_player: int = 2
    """Of those, how many one player (a browser that is no player: one address) may have
    running; beyond, a new one is refused (429)."""
    computer_only_unwatched_seconds: float = 600.0
    """A match with no person in it that nobody has watched this long is stopped."""
    shared_database: bool | None = None
    """Whether other server processes write to the same database (``None``: yes for
    PostgreSQL, no for SQLite). When shared, each request first reads the match's newest
    events, and the events other processes commit reach this one's watchers through the
    fan-out (:mod:`stairgames.server.play.fanout`: PostgreSQL's LISTEN/NOTIFY; polling every
    ``follow_seconds`` while its connection is lost, or on another database). (Either
    way, two writes of the same event collide and one is refused.)"""
    follow_seconds: float = 1.0
    metrics_worker: str | None = None
    """The ``worker`` label on every sample of ``/metrics`` (``stairgames serve --workers
    N`` sets each worker's process id), or ``None``: one process a port."""
    fanout_url: str | None = None
    """A Redis (``redis://host:6379/0``) whose pub/sub carries the fan-out instead of
    PostgreSQL's ``LISTEN``/``NOTIFY`` (:mod:`stairgames.server.play.fanout_redis`;
    docs/deploy.md, "The fan-out: PostgreSQL or Redis"); only for a shared database."""
    idle_seconds: float = 600.0
    """A match nobody watches or uses for this long is dropped from memory (it stays in
    the database and is loaded again when asked for); checked every ``sweep_seconds``."""
    sweep_seconds: float = 60.0
    lobby_sweep_seconds: float = 2.0
    """How often the lobby notes which creators are present and withdraws the challenges
    of those gone for :attr:`challenge_grace_seconds`."""
    tournament_sweep_seconds: float = 2.0
    """How often each process looks at the tournaments: starts those due, pairs their
    rounds and free players, ends those over (server/tournaments/scheduler.py)."""
    challenge_grace_seconds: float = 10.0
    """How long a challenge stays open once its creator's last page on the site (the
    lobby's, or their seat's in its match) closed, on every server process: a reload
    keeps it (:mod:`stairgames.server.lobby.lobby`)."""
    first_move_seconds: float = 30.0
    """How long a person's first turn of a real-time match may run: beyond, the match is
    aborted (no winner, nobody's rating changes; :mod:`stairgames.server.play.clocks`)."""
    first_move_correspondence_seconds: float = 86_400.0
    """The same in correspondence (a day)."""
    stale_game_days: float = 30.0
    """How long a game against the computer with one person may go without a move: then
    it ends by itself, no winner (:mod:`stairgames.server.lobby.lobby`, "My games")."""
    matches_per_minute: Rate = MATCHES_RATE
    """What one client (the request's player where its session names one, else its
    address: :mod:`stairgames.server.base.limits`) may create: matches, joins of free
    seats, card uploads; beyond, requests are refused with 429 and ``Retry-After``."""
    joins_per_minute: Rate = JOINS_RATE
    card_uploads_per_minute: Rate = CARD_UPLOADS_RATE
    players_per_minute: Rate = NEW_PLAYERS_RATE
    """Players one address may make and names one player may try; logins one address
    may attempt, whatever its cookie: what visitors behind one router share (raise them
    for a site many people reach from one address)."""
    logins_per_minute: Rate = LOGINS_RATE
    header_timeout_seconds: float = 10.0
    """A connection that has not sent a request's headers this long after it opened (or
    after the request began) is closed (``stairgames serve``; see :func:`uvicorn_config`)."""
    body_timeout_seconds: float = 10.0
    """A request whose body has not all come this long after its headers is answered 408
    and its connection closed (``stairgames serve``)."""
    clock: Callable[[], float] = time.monotonic
    """The clock of the rate limits (a fake one in tests)."""
    wall_clock: Callable[[], float] = time.time
    """Now, in seconds since the epoch: the players' clocks (a fake one in tests)."""
    heartbeat_seconds: float = 1.0
    """How often each process tells the database it is alive (the time all were down is
    given back to the clocks, :mod:`stairgames.server.play.referee`)."""
    mail: MailSettings | None = None
    """The SMTP server and public address for e-mail (``stairgames serve --smtp-url``);
    ``None``: the server sends no mail (:mod:`stairgames.server.mail.routes`)."""
    push: PushSettings = PushSettings()
    """Web push: the VAPID key and contact, the endpoints allowed, the rates
    (:mod:`stairgames.server.push`)."""
    analysis_iterations: int = 200
    """The computer's analysis of a finished game (:mod:`stairgames.server.analysis.analysis`):
    search iterations a position (the exact solvers get 200 × this many positions
    first), with :attr:`analysis_seed`, so that an analysis repeats on any machine."""
    analysis_seed: int = 0
    analysis_position_iterations: int = 200
    """The analysis board's budget a position (``POST /api/analysis/position``)."""
    analysis_workers: int = 1
    """Analyses of finished games made at once (each in a worker process of its own;
    more wait their turn); the analysis board's positions take turns in another lane of
    :attr:`analysis_position_workers`."""
    analysis_position_workers: int = 1
    analysis_seconds: float = 900.0
    """The most an analysis may take (beyond, its worker is killed and it may be asked
    for again); :attr:`analysis_position_seconds` the most a position may."""
    analysis_position_seconds: float = 30.0
    analyses_per_minute: Rate = ANALYSES_RATE
    """Analyses one client may start, and positions it may have valued."""
    positions_per_minute: Rate = POSITIONS_RATE
    challenges_per_minute: Rate = CHALLENGES_RATE
    """Lobby challenges one client (a player, else an address) may open: each is a match
    and a message to every lobby watcher."""
    replays_per_minute: Rate = REPLAYS_RATE
    """Replays and records (``GET /api/matches/{id}/replay`` and ``/record``) one client
    may ask for: each replays the whole game."""
    blocks_and_reports_per_minute: Rate = BLOCKS_AND_REPORTS_RATE
    """Blocks, mutes and reports one client (a player, else an address) may send."""
    puzzle_moves_per_minute: Rate = PUZZLE_MOVES_RATE
    """Puzzle moves one client (a player, else an address) may send
    (:mod:`stairgames.server.puzzles.service`); beyond, 429 with ``Retry-After``."""
    puzzles_per_minute: Rate = PUZZLES_RATE
    """The other puzzle requests one client may make (the next, the daily, a streak's,
    a puzzle's page, ``/api/puzzles/me``, a streak's end)."""
    puzzle_seed: int | None = None
    """The seed of the puzzles chosen near a player's rating (``None``: fresh each
    start; a test gives one, so that its choices repeat)."""
    puzzles_from_games: bool = False
    """Whether the site's finished games may feed new puzzles (issue 52: opt-in by the
    operator, since the games' positions become public puzzles): each finished match of
    a game with puzzles and no hidden information is kept as a record file in
    ``data_dir/puzzle-records/<game>/``, for ``stairgames puzzles generate``
    (:mod:`stairgames.server.puzzles.site`; docs/puzzles.md, "On the site"). The sets in
    ``data_dir/puzzles/`` are served either way."""
    loop_guard: bool = False
    """Whether a database call made on the event loop's thread raises instead of running
    (:func:`stairgames.server.base.store.guard_event_loop`), once the app has started: on in
    the tests, so that a route that blocks every visitor fails there."""

    def shared(self) -> bool:
        if self.shared_database is not None:
            return self.shared_database
        return bool(self.database_url) and not str(self.database_url).startswith("sqlite")

    def url(self) -> str:
        if self.database_url:
            return self.database_url
        return private_data_dir(self.data_dir)  # 0700, its database 0600


DATA_DIR: Kept[Path] = Kept("data_dir")
"""The app's folder of data (``app.state.data_dir``: :attr:`Settings.data_dir`)."""
