"""A scripted session of the web API, recorded once and replayed against newer servers.

Issue 50 restructured the server (domain packages, typed bodies) with the promise that
the API answers the same bodies. :func:`record_session` drives one scripted session
through FastAPI's ``TestClient`` against an app: players made, renamed, given an
account, logged out and in; ``/api/games``; a match of each of the four games (moves
legal and illegal, a stale move, undo, takeback asked, refused and granted, resignation,
a rematch, a computer's replies); a realtime clock; records, replays, the computer's
analysis and the analysis board; the lobby (a challenge made, accepted, withdrawn);
chat; profiles and "my games"; and the refusals (malformed JSON, wrong types, missing
fields, a body too big or of the wrong type, unknown matches and games, forged tokens).
Each step keeps the status and the body of every HTTP answer, and the WebSocket
messages the script waits for.

The golden transcript, ``tests/golden/api_session.json``, was written by this module
run against the last server before the restructuring (commit 6c25b4a)::

    git worktree add /tmp/old-server 6c25b4a
    PYTHONPATH=/tmp/old-server/src:. .venv/bin/python -m tests.api_session_recorder

``tests/test_api_session_replay.py`` runs the same script against the current server
and compares. What legitimately changes from run to run is made fixed or normalised,
and nothing more (:func:`normalised`):

- the match seed (``secrets.randbits``) is fixed while the session runs, so dice, deals
  and the ``random`` computer replay the same; the players' clocks and the rate limits
  read fake clocks that do not move;
- match ids, seat tokens and player ids (random) become ``<match 1>``, ``<token 1>``,
  ``<player 1>``..., numbered in the order the script meets them, wherever they occur
  (in paths, bodies and texts);
- dates and times written as text (ISO 8601: when a player, challenge, chat message or
  record was made, by the real clock of the database rows) become ``<date>``;
- an analysis' ``seconds`` (how long it took) becomes ``<seconds>``;
- the Japanese catalogue (``/api/i18n/ja``) is kept as its language and its number of
  entries above zero: its texts change whenever a feature adds a sentence, which is no
  change of the API;
- Ishigaki Race's ``chances`` (in a board: each seat's chance after stop and after roll)
  become :data:`CHANCES`: they are ``null`` until the wall's solution, worked out in a
  background thread, is ready, and numbers after, so which one a step sees depends on
  how fast the machine is and on what the process did before (:func:`timing_free`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import re
import secrets
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

GOLDEN = Path(__file__).resolve().parent / "golden" / "api_session.json"
"""The transcript of the session on the server before issue 50's restructuring."""
SEED = 0x2F5A_11C3_9D0B_7E42
"""Every match's seed while the session runs (a 62-bit number)."""
START = 1_800_000_000.0
"""When the session starts, by its fake wall clock (:class:`FakeTime`)."""
JSON_TYPE = {"content-type": "application/json"}
TOML_TYPE = {"content-type": "application/toml"}
VOLATILE_KEYS = ("match", "token", "rematch", "challenge")
"""Keys whose text values are random ids or secrets (aliased wherever they occur)."""
DATE = re.compile(
    r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
)
STAIRS_3 = "D,L,D/L,D,L/D,L,D L -"
"""The start of Stairs 3×3 (light to move)."""
BAD_CARD_FILE = "[set]\nname = 'Broken'\n"
Json = Any
Step = dict[str, Any]


@dataclasses.dataclass
class FakeTime:
    """The wall clock the server reads (the players' clocks, when matches were made): a
    second passes before each request or message the script sends, and none otherwise."""

    now: float = START

    def __call__(self) -> float:
        return self.now

    def tick(self) -> None:
        self.now += 1.0


def app_for(data_dir: Path, wall_clock: Callable[[], float]) -> FastAPI:
    """The app of whichever server is on the path (its ``Settings`` moved in issue 50),
    on ``data_dir``'s SQLite, with fake clocks, the computers in a thread, ``random``
    offered, analyses of a tiny budget and request rates never reached."""
    from stairgames.agents.levels import LEVEL_NAMES
    from stairgames.server.app import create_app

    try:
        from stairgames.server.base.settings import Settings
    except ImportError:  # the server before issue 50
        from stairgames.server.app import Settings  # type: ignore[attr-defined]
    plenty = type(Settings.matches_per_minute)(per_minute=1000, burst=1000)
    rates: dict[str, Any] = {
        field.name: plenty
        for field in dataclasses.fields(Settings)
        if field.name.endswith("_per_minute")
    }
    settings = Settings(
        **rates,
        data_dir=data_dir,
        computer_workers=0,
        computer_players=(*LEVEL_NAMES, "random"),
        static_dir=data_dir / "no-static",
        messages_per_second=1000.0,
        message_burst=1000.0,
        clock=lambda: 1000.0,
        wall_clock=wall_clock,
        analysis_iterations=4,
        analysis_position_iterations=8,
    )
    return create_app(settings)


@contextlib.contextmanager
def fixed_seeds() -> Iterator[None]:
    """Every match made meanwhile gets :data:`SEED` (and so the same dice and deals)."""
    real = secrets.randbits
    secrets.randbits = lambda k: SEED & ((1 << k) - 1)
    try:
        yield
    finally:
        secrets.randbits = real


class Session:
    """One scripted visitor (several browsers: their cookie jars swapped) and its steps."""

    def __init__(self, client: TestClient, time: FakeTime) -> None:
        self.client = client
        self.time = time
        self.steps: list[Step] = []
        self.jars: dict[str, dict[str, str]] = {}
        self.browser = "nobody"

    # ----- browsers ---------------------------------------------------------------

    def use_browser(self, name: str) -> None:
        """Send the next requests from browser ``name`` (a cookie jar of its own)."""
        self.jars[self.browser] = dict(self.client.cookies)
        self.client.cookies.clear()
        for key, value in self.jars.get(name, {}).items():
            self.client.cookies.set(key, value)
        self.browser = name

    # ----- HTTP --------------------------------------------------------------------

    def call(
        self,
        step: str,
        method: str,
        path: str,
        body: Json = None,
        *,
        content: str | bytes | None = None,
        headers: dict[str, str] | None = None,
        token: str | None = None,
    ) -> Json:
        """Send one request (a ``body`` as JSON, or raw ``content``), keep its status
        and body as step ``step``, and give the body."""
        self.time.tick()
        sent = dict(JSON_TYPE if method != "GET" and headers is None else headers or {})
        if token is not None:
            sent["x-seat-token"] = token
        if body is not None:
            content = json.dumps(body)
        response = self.client.request(method, path, content=content, headers=sent)
        try:
            answer: Json = response.json()
        except ValueError:
            answer = {"text": response.text}
        self.steps.append(
            {
                "step": step,
                "request": f"{method} {path}",
                "browser": self.browser,
                "status": response.status_code,
                "body": answer,
            }
        )
        return answer

    # ----- WebSocket ---------------------------------------------------------------

    @contextlib.contextmanager
    def socket(self, step: str, path: str, token: str | None = None) -> Iterator[Socket]:
        """A WebSocket on ``path``; a seat's ``token`` goes in its first message."""
        if token is not None:
            path += ("&" if "?" in path else "?") + "auth=message"
        with self.client.websocket_connect(path) as ws:
            if token is not None:
                ws.send_json({"type": "hello", "token": token})
            yield Socket(self, step, path, ws)

    @contextlib.contextmanager
    def seated(
        self, step: str, match: str, seats: dict[int, str]
    ) -> Iterator[tuple[dict[int, Socket], dict[int, Json]]]:
        """A socket for each seat (a token, or ``?seat=N`` for ``""``: the player's
        own), each opened once the one before has its first view (so that who is
        connected is the same in every run); the sockets and their first views."""
        with contextlib.ExitStack() as stack:
            sockets: dict[int, Socket] = {}
            views: dict[int, Json] = {}
            for seat, token in seats.items():
                path = f"/ws/matches/{match}" + ("" if token else f"?seat={seat}")
                sockets[seat] = stack.enter_context(
                    self.socket(f"{step} {seat}", path, token=token or None)
                )
                views[seat] = sockets[seat].state(f"{step}: first view of seat {seat}")
            yield sockets, views


@dataclasses.dataclass
class Socket:
    """One WebSocket of a :class:`Session`: what it sends, and the messages waited for."""

    session: Session
    name: str
    path: str
    ws: Any

    def send(self, message: Json) -> None:
        """Send ``message`` (a text as it is, anything else as JSON)."""
        self.session.time.tick()
        self.ws.send_text(message if isinstance(message, str) else json.dumps(message))

    def until(self, step: str, accept: Callable[[Json], bool]) -> Json:
        """The first message ``accept`` takes (earlier ones dropped), kept as a step."""
        for _ in range(200):
            message = self.ws.receive_json()
            if accept(message):
                self.session.steps.append(
                    {"step": step, "socket": f"{self.name} {self.path}", "message": message}
                )
                return message
        raise AssertionError(f"{step}: no such message")

    def state(self, step: str, after: int = -1) -> Json:
        """The next view past event ``after`` in which no computer thinks and somebody
        may act (or the game is over)."""
        return self.until(step, lambda m: is_settled(m, after))

    def error(self, step: str) -> Json:
        return self.until(step, lambda m: m.get("type") == "error")


def is_settled(message: Json, after: int) -> bool:
    """Whether ``message`` is a view past event ``after`` in which no computer thinks and
    a seat is to act (not chance), or the game is over."""
    return bool(
        message.get("type") == "state"
        and message["event"] > after
        and not message["thinking"]
        and (message["to_act"] is not None or message["result"] is not None)
    )


def play(name: str, sockets: dict[int, Socket], views: dict[int, Json], plies: int) -> None:
    """Play ``plies`` moves at one screen, each seat's from its own socket (the ``ply``-th
    legal move, counted round), then every socket's view of it; ``views`` follows."""
    for ply in range(plies):
        seat = next(iter(views.values()))["to_act"]
        if seat not in sockets:
            return
        view = views[seat]
        sockets[seat].send(
            {
                "type": "move",
                "move": view["legal"][ply % len(view["legal"])],
                "event": view["event"],
            }
        )
        for each, socket in sockets.items():
            views[each] = socket.state(f"{name} move {ply + 1}, seat {each}", view["event"])


def token_of(created: Json, seat: int) -> str:
    return next(str(s["token"]) for s in created["seats"] if s["seat"] == seat)


# ----- the script --------------------------------------------------------------------


def script(s: Session) -> None:
    """The whole session, step after step."""
    site(s)
    players(s)
    match_errors(s)
    stairs_at_one_screen(s)
    stairs_online(s)
    twenty_seven_against_the_computer(s)
    ishigaki_race(s)
    city_of_stairs(s)
    realtime_clock(s)
    analysis_board(s)
    lobby(s)
    chat(s)
    profiles(s)


def site(s: Session) -> None:
    s.call("games", "GET", "/api/games")
    s.call("english catalogue", "GET", "/api/i18n/en")
    s.call("unknown catalogue", "GET", "/api/i18n/xx")
    s.call("japanese catalogue", "GET", "/api/i18n/ja")
    s.call("health", "GET", "/healthz")
    s.call("readiness", "GET", "/readyz")
    s.call("no such api", "GET", "/api/nothing-here")


def players(s: Session) -> None:
    s.use_browser("ann")
    s.call("me before a player", "GET", "/api/me")
    s.call("a name too short", "POST", "/api/me", {"name": "A"})
    s.call("a name not a text", "POST", "/api/me", {"name": 5})
    s.call("a name with a control", "POST", "/api/me", {"name": "An\x07n"})
    s.call("me not json", "POST", "/api/me", content="name=Ann", headers={})
    s.call("me a list", "POST", "/api/me", [1])
    s.call("ann becomes a player", "POST", "/api/me", {"name": "Ann"})
    s.call("ann renamed", "POST", "/api/me", {"name": "Annie"})
    s.call("me as ann", "GET", "/api/me")
    s.call("account password short", "POST", "/api/account", {"password": "short"})
    s.call("account password not text", "POST", "/api/account", {"password": 12345678})
    s.call("account without password", "POST", "/api/account", {})
    s.call("ann's account", "POST", "/api/account", {"password": "correct horse"})
    s.call("a second account", "POST", "/api/account", {"password": "correct horse"})
    s.call("mail account page", "GET", "/api/account")
    s.call("mail address, no mail", "POST", "/api/account/email", {"address": "ann@example.com"})
    wrong = {"old": "wrong horse", "new": "battery staple"}
    s.call("password change wrong old", "POST", "/api/account/password", wrong)
    changed = {"old": "correct horse", "new": "battery staple"}
    s.call("password changed", "POST", "/api/account/password", changed)
    s.call("logout", "POST", "/api/logout")
    s.call("me after logout", "GET", "/api/me")
    s.call("login wrong", "POST", "/api/login", {"name": "Annie", "password": "nope nope"})
    s.call("login unknown", "POST", "/api/login", {"name": "Nobody", "password": "nope nope"})
    s.call("login no password", "POST", "/api/login", {"name": "Annie"})
    s.call("login", "POST", "/api/login", {"name": "annie", "password": "battery staple"})
    s.call("me after login", "GET", "/api/me")
    s.use_browser("bob")
    s.call("a taken name", "POST", "/api/me", {"name": "ANNIE"})
    s.call("bob becomes a player", "POST", "/api/me", {"name": "Bob"})
    s.use_browser("anonymous")
    s.call("an anonymous player", "POST", "/api/me", {})
    s.use_browser("stranger")


def match_errors(s: Session) -> None:
    refused: list[tuple[str, Json]] = [
        ("unknown game", {"game": "chess", "seats": ["human", "human"]}),
        ("too few seats", {"game": "stairs", "seats": ["human"]}),
        ("computer not offered", {"game": "stairs", "seats": ["human", "computer:wizard"]}),
        ("bad seat word", {"game": "stairs", "seats": ["human", "wizard"]}),
        ("seat a number", {"game": "stairs", "seats": ["human", 7]}),
        ("unknown option", {"game": "stairs", "options": {"pie": True}, "seats": ["human"] * 2}),
        (
            "option wrong type",
            {"game": "stairs", "options": {"size": "big"}, "seats": ["human"] * 2},
        ),
        ("option out of range", {"game": "stairs", "options": {"size": 9}, "seats": ["human"] * 2}),
        ("options a list", {"game": "stairs", "options": [], "seats": ["human", "human"]}),
        ("no seats", {"game": "stairs"}),
        ("no game", {"seats": ["human", "human"]}),
        ("game a number", {"game": 3, "seats": ["human", "human"]}),
        ("body a list", [1, 2]),
        (
            "bad time control",
            {"game": "stairs", "seats": ["human"] * 2, "time_control": {"kind": "x"}},
        ),
        (
            "bad minutes",
            {
                "game": "stairs",
                "seats": ["human"] * 2,
                "time_control": {"kind": "realtime", "minutes": 0.3},
            },
        ),
        ("bad position", {"game": "stairs", "seats": ["human"] * 2, "position": "not a position"}),
        (
            "position with hidden cards",
            {"game": "city_of_stairs", "seats": ["human"] * 2, "position": "x"},
        ),
    ]
    for step, body in refused:
        s.call(f"match refused: {step}", "POST", "/api/matches", body)
    huge = json.dumps({"game": "stairs", "pad": "x" * 10_000})
    s.call("match body too large", "POST", "/api/matches", content=huge)
    s.call("match body malformed", "POST", "/api/matches", content="{not json")
    s.call("match body deep", "POST", "/api/matches", content="[" * 200 + "]" * 200)
    s.call("match body not json", "POST", "/api/matches", content="game=stairs", headers={})
    s.call("match body empty", "POST", "/api/matches", content="")
    s.call("unknown match", "GET", "/api/matches/nope")
    s.call("unknown match record", "GET", "/api/matches/nope/record")
    s.call("unknown match replay", "GET", "/api/matches/nope/replay")
    s.call("unknown match join", "POST", "/api/matches/nope/join")
    s.call("unknown match analysis", "GET", "/api/matches/nope/analysis")
    with s.socket("unknown match", "/ws/matches/nope") as ws:
        ws.error("socket of an unknown match")


def stairs_at_one_screen(s: Session) -> None:
    """Stairs 4×4, both seats at one screen: moves, refusals, undo, resignation, rematch,
    the record, the replay and the computer's analysis."""
    created = s.call(
        "stairs at one screen",
        "POST",
        "/api/matches",
        {"game": "stairs", "options": {"size": 4}, "seats": ["human", "human"]},
    )
    match, light, dark = created["match"], token_of(created, 0), token_of(created, 1)
    s.call("stairs view as spectator", "GET", f"/api/matches/{match}")
    s.call("stairs view as light", "GET", f"/api/matches/{match}", token=light)
    s.call("stairs view forged token", "GET", f"/api/matches/{match}", token="forged")
    s.call("stairs record forged token", "GET", f"/api/matches/{match}/record", token="forged")
    s.call("stairs token in the address", "GET", f"/api/matches/{match}?token={light}")
    s.call("stairs seat not held", "GET", f"/api/matches/{match}?seat=0")
    s.call("stairs join with no free seat", "POST", f"/api/matches/{match}/join")
    s.call("stairs analysis before the end", "POST", f"/api/matches/{match}/analysis")
    s.call("stairs analysis none yet", "GET", f"/api/matches/{match}/analysis")
    with s.socket("forged", f"/ws/matches/{match}", token="forged") as ws:
        ws.error("socket with a forged token")
    with s.seated("stairs", match, {0: light, 1: dark}) as (sockets, views):
        ws, other, view = sockets[0], sockets[1], views[0]
        bad: list[tuple[str, Json]] = [
            ("not json", "{not json"),
            ("a list", "[1]"),
            ("unknown type", {"type": "fly"}),
            ("move without event", {"type": "move", "move": view["legal"][0]}),
            ("move unknown notation", {"type": "move", "move": "z9-z8", "event": 0}),
            ("move illegal", {"type": "move", "move": "a1-d4", "event": 0}),
            ("move a number", {"type": "move", "move": 5, "event": 0}),
            ("move from the future", {"type": "move", "move": view["legal"][0], "event": 7}),
            ("answer not a bool", {"type": "takeback_answer", "accept": "yes"}),
            ("too large", "x" * 5000),
            ("undo with no move", {"type": "undo", "event": 0}),
            ("takeback at one screen", {"type": "takeback", "event": 0}),
            ("rematch before the end", {"type": "rematch"}),
            ("decline no rematch", {"type": "rematch_decline"}),
        ]
        for step, message in bad:
            ws.send(message)
            ws.error(f"stairs refused: {step}")
        other.send({"type": "move", "move": view["legal"][0], "event": 0})
        other.error("stairs not dark's turn")
        ws.send({"type": "sync", "event": 0})
        ws.until("stairs sync", lambda m: m.get("type") == "state")
        play("stairs", sockets, views, 3)
        ws.send({"type": "move", "move": view["legal"][0], "event": 0})
        ws.error("stairs stale move")
        event = views[0]["event"]
        other.send({"type": "undo", "event": event})
        views = {0: ws.state("stairs undone", event), 1: other.state("stairs undone, dark", event)}
        play("stairs again", sockets, views, 1)
        event = views[0]["event"]
        s.call("stairs replay during the game", "GET", f"/api/matches/{match}/replay", token=light)
        s.call("stairs record during the game", "GET", f"/api/matches/{match}/record")
        ws.send({"type": "resign", "event": event})
        view = ws.state("stairs resigned", event)
        other.state("stairs resigned, dark", event)
        ws.send({"type": "resign", "event": view["event"]})
        ws.error("stairs resign once over")
        ws.send({"type": "rematch"})  # both seats at this screen: made at once
        ws.until("stairs rematch", lambda m: m.get("type") == "state" and m["rematch"])
    s.call("stairs view once over", "GET", f"/api/matches/{match}", token=dark)
    s.call("stairs record once over", "GET", f"/api/matches/{match}/record", token=dark)
    s.call("stairs replay once over", "GET", f"/api/matches/{match}/replay")
    analysed(s, match, "stairs")


def analysed(s: Session, match: str, game: str) -> None:
    """Ask for the computer's analysis of finished ``match`` and wait for it."""
    with s.socket("analysis watcher", f"/ws/matches/{match}") as ws:
        ws.until(f"{game} watched before the analysis", lambda m: m.get("type") == "state")
        started = s.client.post(f"/api/matches/{match}/analysis", headers=JSON_TYPE)
        s.steps.append({"step": f"{game} analysis asked", "status": started.status_code})
        ws.until(
            f"{game} analysis done",
            lambda m: m.get("type") == "analysis" and m["status"] != "running",
        )
    s.call(f"{game} analysis stored", "GET", f"/api/matches/{match}/analysis")
    s.call(f"{game} analysis again", "POST", f"/api/matches/{match}/analysis")
    s.call(f"{game} record with its analysis", "GET", f"/api/matches/{match}/record")


def stairs_online(s: Session) -> None:
    """Stairs between two browsers: a join, a spectator, a takeback refused then granted,
    moves out of turn."""
    s.use_browser("ann")
    created = s.call(
        "stairs online",
        "POST",
        "/api/matches",
        {"game": "stairs", "options": {"pie_rule": True}, "seats": ["human", "online"]},
    )
    match, light = created["match"], token_of(created, 0)
    s.call("ann's seats", "GET", f"/api/my/seats/{match}")
    s.call("ann's seat by cookie", "GET", f"/api/matches/{match}?seat=0")
    s.use_browser("stranger")
    s.call("join not json", "POST", f"/api/matches/{match}/join", headers={})
    joined = s.call("stranger joins", "POST", f"/api/matches/{match}/join")
    s.call("join a full match", "POST", f"/api/matches/{match}/join")
    dark = joined["token"]
    with s.seated("online", match, {0: light, 1: dark}) as (sockets, views):
        first, second, view = sockets[0], sockets[1], views[0]
        first.send({"type": "move", "move": view["legal"][0], "event": view["event"]})
        moved = second.state("online dark sees the move", view["event"])
        first.state("online light sees its move", view["event"])
        first.send({"type": "move", "move": moved["legal"][0], "event": moved["event"]})
        first.error("online out of turn")
        first.send({"type": "undo", "event": moved["event"]})
        first.error("online undo refused")
        first.send({"type": "takeback_answer", "accept": True, "event": moved["event"]})
        first.error("online no takeback to answer")
        first.send({"type": "takeback", "event": moved["event"]})
        asked = second.until(
            "online takeback asked", lambda m: m.get("type") == "state" and m["takeback"]
        )
        second.send({"type": "takeback_answer", "accept": False, "event": asked["event"]})
        first.until(
            "online takeback refused",
            lambda m: m.get("type") == "state" and m["event"] > asked["event"],
        )
        second.until(
            "online takeback refused, dark",
            lambda m: m.get("type") == "state" and m["event"] > asked["event"],
        )
        first.send({"type": "takeback", "event": asked["event"] + 1})
        again = second.until(
            "online takeback asked again", lambda m: m.get("type") == "state" and m["takeback"]
        )
        second.send({"type": "takeback_answer", "accept": True, "event": again["event"]})
        first.until(
            "online takeback granted",
            lambda m: m.get("type") == "state" and m["event"] > again["event"],
        )
    with s.socket("spectator", f"/ws/matches/{match}") as ws:
        view = ws.until("online spectator's view", lambda m: m.get("type") == "state")
        ws.send({"type": "move", "move": "b1-b2", "event": view["event"]})
        ws.error("online spectator cannot move")
    s.call("online view for dark", "GET", f"/api/matches/{match}", token=dark)
    s.call("online chat of a seat", "GET", f"/api/matches/{match}/chat", token=dark)


def twenty_seven_against_the_computer(s: Session) -> None:
    created = s.call(
        "27 against the computer",
        "POST",
        "/api/matches",
        {"game": "twenty_seven", "seats": ["human", "computer:random"]},
    )
    match, me = created["match"], token_of(created, 0)
    with s.socket("27", f"/ws/matches/{match}", token=me) as ws:
        view = ws.state("27 first view")
        for ply in range(3):
            event = view["event"]
            ws.send({"type": "move", "move": view["legal"][0], "event": event})
            view = ws.state(f"27 move {ply + 1} and the reply", event)
        event = view["event"]
        ws.send({"type": "undo", "event": event})
        view = ws.state("27 undone with the reply", event)
    s.call("27 view", "GET", f"/api/matches/{match}", token=me)
    s.call("27 replay", "GET", f"/api/matches/{match}/replay", token=me)


def ishigaki_race(s: Session) -> None:
    """Ishigaki Race for two at one screen: the seeded dice, moves, the record before the
    end (no seed), then a 3-player table with a computer."""
    created = s.call(
        "ishigaki race",
        "POST",
        "/api/matches",
        {"game": "ishigaki_race", "seats": ["human", "human"]},
    )
    match, first = created["match"], token_of(created, 0)
    s.call("ishigaki view", "GET", f"/api/matches/{match}", token=first)
    with s.seated("ishigaki", match, {0: first, 1: token_of(created, 1)}) as (sockets, views):
        play("ishigaki", sockets, views, 8)
        ws = sockets[0]
        ws.send({"type": "undo", "event": views[0]["event"]})
        ws.error("ishigaki has no undo")
    s.call("ishigaki record before the end", "GET", f"/api/matches/{match}/record")
    s.call("ishigaki replay", "GET", f"/api/matches/{match}/replay", token=first)
    table = s.call(
        "ishigaki for three",
        "POST",
        "/api/matches",
        {
            "game": "ishigaki_race",
            "options": {"players": 3},
            "seats": ["human", "human", "computer:random"],
        },
    )
    s.call("ishigaki for three, view", "GET", f"/api/matches/{table['match']}")
    s.call(
        "ishigaki wrong seat count",
        "POST",
        "/api/matches",
        {"game": "ishigaki_race", "options": {"players": 3}, "seats": ["human", "human"]},
    )


def city_of_stairs(s: Session) -> None:
    """City of Stairs for two: each seat sees only its own cards, a spectator neither."""
    created = s.call(
        "city of stairs",
        "POST",
        "/api/matches",
        {"game": "city_of_stairs", "seats": ["human", "human"]},
    )
    match, first, second = created["match"], token_of(created, 0), token_of(created, 1)
    s.call("city view for seat 0", "GET", f"/api/matches/{match}", token=first)
    s.call("city view for seat 1", "GET", f"/api/matches/{match}", token=second)
    s.call("city view for a spectator", "GET", f"/api/matches/{match}")
    with s.seated("city", match, {0: first, 1: second}) as (sockets, views):
        play("city", sockets, views, 4)
        event = views[0]["event"]
        ws = sockets[0]
        ws.send({"type": "resign", "event": event})
        ws.state("city resigned", event)
    s.call("city record once resigned", "GET", f"/api/matches/{match}/record")
    s.call("city replay for seat 1", "GET", f"/api/matches/{match}/replay", token=second)
    s.call("city analysis after a resignation", "POST", f"/api/matches/{match}/analysis")
    s.call(
        "city unknown card set",
        "POST",
        "/api/matches",
        {"game": "city_of_stairs", "options": {"cards": "nope"}, "seats": ["human", "human"]},
    )
    s.call("card file not toml", "POST", "/api/cards", content=BAD_CARD_FILE, headers=JSON_TYPE)
    s.call(
        "card file broken", "POST", "/api/cards?lang=en", content=BAD_CARD_FILE, headers=TOML_TYPE
    )
    s.call("card file not text", "POST", "/api/cards", content=b"\xff\xfe", headers=TOML_TYPE)


def realtime_clock(s: Session) -> None:
    body = {
        "game": "stairs",
        "options": {"size": 4},
        "seats": ["human", "human"],
        "time_control": {"kind": "realtime", "minutes": 3, "increment": 2},
    }
    created = s.call("stairs realtime", "POST", "/api/matches", body)
    match, light = created["match"], token_of(created, 0)
    with s.socket("clock", f"/ws/matches/{match}", token=light) as ws:
        view = ws.state("realtime first view")
        ws.send({"type": "move", "move": view["legal"][0], "event": view["event"]})
        ws.state("realtime after a move", view["event"])
    corresponding = {**body, "time_control": {"kind": "correspondence", "days": 3}}
    made = s.call("stairs correspondence", "POST", "/api/matches", corresponding)
    s.call("correspondence view", "GET", f"/api/matches/{made['match']}")


def analysis_board(s: Session) -> None:
    position = "/api/analysis/position"
    s.call("board stairs 3x3", "POST", position, {"game": "stairs", "position": STAIRS_3})
    answer = s.call(
        "board stairs 3x3 line",
        "POST",
        position,
        {"game": "stairs", "position": STAIRS_3, "moves": ["b1-b2"]},
    )
    s.call(
        "board ishigaki at chance",
        "POST",
        position,
        {"game": "ishigaki_race", "moves": ["start:0", "die:2"]},
    )
    s.call("board city", "POST", position, {"game": "city_of_stairs"})
    s.call("board illegal move", "POST", position, {"game": "stairs", "moves": ["b1-b2", "b2-b3"]})
    s.call("board bad options", "POST", position, {"game": "stairs", "options": []})
    s.call("board bad position", "POST", position, {"game": "stairs", "position": "not a position"})
    s.call("board no game", "POST", position, {})
    s.call("board not json", "POST", position, content="{}", headers={})
    start = {"game": "stairs", "seats": ["computer:random", "human"], "position": answer["current"]}
    s.call("match from a position of another size", "POST", "/api/matches", start)
    start["options"] = {"size": 3}
    created = s.call("match from a position", "POST", "/api/matches", start)
    with s.socket(
        "from a position", f"/ws/matches/{created['match']}", token=token_of(created, 1)
    ) as ws:
        ws.state("from a position, first view")
    s.call("from a position, record", "GET", f"/api/matches/{created['match']}/record")


def lobby(s: Session) -> None:
    s.use_browser("stranger2")
    s.call(
        "challenge without a player",
        "POST",
        "/api/challenges",
        {"game": "stairs", "seats": ["human", "online"]},
    )
    s.use_browser("ann")
    with s.socket("lobby", "/ws/lobby") as ws:
        ws.until("lobby on connecting", lambda m: m.get("type") == "lobby")
        s.call(
            "challenge bad seats",
            "POST",
            "/api/challenges",
            {"game": "stairs", "seats": ["human", "human"]},
        )
        s.call(
            "challenge rated with a computer",
            "POST",
            "/api/challenges",
            {
                "game": "ishigaki_race",
                "options": {"players": 3},
                "seats": ["human", "online", "computer:easy"],
                "rated": True,
            },
        )
        made = s.call(
            "ann challenges",
            "POST",
            "/api/challenges",
            {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"], "rated": True},
        )
        ws.until("lobby with the challenge", lambda m: m.get("type") == "lobby" and m["challenges"])
        other = s.call(
            "ann challenges again",
            "POST",
            "/api/challenges",
            {
                "game": "twenty_seven",
                "seats": ["human", "online"],
                "rated": False,
                "time_control": {"kind": "correspondence", "days": 2},
            },
        )
        s.call("challenges listed", "GET", "/api/challenges")
        s.call("ann accepts her own", "POST", f"/api/challenges/{made['challenge']}/accept")
        s.use_browser("bob")
        s.call("bob withdraws ann's", "DELETE", f"/api/challenges/{other['challenge']}")
        accepted = s.call("bob accepts", "POST", f"/api/challenges/{made['challenge']}/accept")
        s.call("bob accepts again", "POST", f"/api/challenges/{made['challenge']}/accept")
        s.call("bob's seats", "GET", f"/api/my/seats/{accepted['match']}")
        s.use_browser("ann")
        s.call("ann withdraws", "DELETE", f"/api/challenges/{other['challenge']}")
        s.call("ann withdraws again", "DELETE", f"/api/challenges/{other['challenge']}")
        s.call("withdraw unknown", "DELETE", "/api/challenges/nope")
        s.call("challenges after", "GET", "/api/challenges")
    match = made["match"]
    with s.seated("rated game", match, {0: "", 1: accepted["token"]}) as (sockets, views):
        light, view = sockets[0], views[0]
        light.send({"type": "resign", "event": view["event"]})
        light.state("rated game resigned", view["event"])
    s.call("rated game view", "GET", f"/api/matches/{match}")


def chat(s: Session) -> None:
    s.use_browser("ann")
    created = s.call(
        "a match to chat in",
        "POST",
        "/api/matches",
        {"game": "stairs", "seats": ["human", "online"]},
    )
    match, light = created["match"], token_of(created, 0)
    path = f"/api/matches/{match}/chat"
    s.call("chat say hello", "POST", path, {"phrase": "hello"})
    s.call("chat a text", "POST", path, {"text": "  <b>hi</b> there  "})
    s.call("chat by token", "POST", path, {"text": "from the token"}, token=light)
    s.call("chat empty", "POST", path, {"text": "   "})
    s.call("chat too long", "POST", path, {"text": "x" * 501})
    s.call("chat control", "POST", path, {"text": "a\nb"})
    s.call("chat both", "POST", path, {"text": "a", "phrase": "hello"})
    s.call("chat neither", "POST", path, {})
    s.call("chat unknown phrase", "POST", path, {"phrase": "boo"})
    s.call("chat text a number", "POST", path, {"text": 5})
    s.call("chat a list", "POST", path, [1])
    s.call("chat not json", "POST", path, content="text=hi", headers={})
    s.call("chat forged token", "POST", path, {"text": "hi"}, token="forged")
    s.call("chat unknown match", "GET", "/api/matches/nope/chat")
    s.use_browser("stranger2")
    s.call("chat spectator without a player", "POST", path, {"text": "hi"})
    s.use_browser("bob")
    s.call("chat spectator", "POST", path, {"phrase": "good_luck"})
    s.call("chat read by a spectator", "GET", path)
    s.use_browser("ann")
    s.call("chat read by the player", "GET", f"{path}?seat=0")
    with s.socket("chat seat", f"/ws/matches/{match}", token=light) as ws:
        ws.state("chat seat's view")
        s.call("chat said while watched", "POST", path, {"phrase": "thank_you"})
        ws.until("chat message on the socket", lambda m: m.get("type") == "chat")


def profiles(s: Session) -> None:
    s.use_browser("ann")
    s.call("ann's games", "GET", "/api/my/games")
    s.call("ann's games page 2", "GET", "/api/my/games?page=2")
    s.call("ann's games bad page", "GET", "/api/my/games?page=x")
    s.call("ann's profile", "GET", "/api/players/Annie")
    s.call("bob's profile", "GET", "/api/players/bob")
    s.call("no such player", "GET", "/api/players/Nobody")
    s.use_browser("bob")
    s.call("bob's games", "GET", "/api/my/games")
    s.use_browser("stranger2")
    s.call("games of nobody", "GET", "/api/my/games")
    s.call("seats of nobody", "GET", "/api/my/seats/nope")


# ----- recording and normalising -----------------------------------------------------


def record_session() -> list[Step]:
    """Run :func:`script` against the app on the path, on a fresh data folder: its steps,
    normalised."""
    time = FakeTime()
    with (
        tempfile.TemporaryDirectory() as folder,
        fixed_seeds(),
        TestClient(app_for(Path(folder), time)) as client,
    ):
        session = Session(client, time)
        script(session)
    return normalised(session.steps)


def normalised(steps: list[Step]) -> list[Step]:
    """``steps`` with what legitimately changes from run to run written alike (the
    module's docstring lists the rules)."""
    steps = [timing_free(step) for step in catalogue_kept_short(steps)]
    aliases = Aliases()
    for step in steps:
        aliases.collect(step)
    return [aliases.rewrite(step) for step in steps]


class Aliases:
    """Random ids and secrets, each named by its kind and the order it was met in."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}
        self.counts: dict[str, int] = {}

    def add(self, kind: str, value: str) -> None:
        if len(value) >= 12 and value not in self.names:  # not an id the script made up
            self.counts[kind] = self.counts.get(kind, 0) + 1
            self.names[value] = f"<{kind} {self.counts[kind]}>"

    def collect(self, data: Json, player_ids: bool = False) -> None:
        """Note every volatile value in ``data`` (keys in sorted order, so that a body
        whose keys come in another order names them alike)."""
        if isinstance(data, dict):
            is_player = player_ids or {"id", "name", "account"} <= data.keys()
            for key in sorted(data):
                value = data[key]
                if isinstance(value, str) and key in VOLATILE_KEYS:
                    self.add("token" if key == "token" else "match", value)
                elif isinstance(value, str) and key == "id" and is_player:
                    self.add("player", value)
                elif key != "error":  # a refusal's arguments name what was asked
                    self.collect(value)
        elif isinstance(data, list):
            for item in data:
                self.collect(item)

    def rewrite(self, data: Json, key: str = "") -> Json:
        if isinstance(data, dict):
            return {k: self.rewrite(v, k) for k, v in data.items()}
        if isinstance(data, list):
            return [self.rewrite(item) for item in data]
        if key == "seconds" and isinstance(data, float):
            return "<seconds>"
        if isinstance(data, str):
            return self.text(data)
        return data

    def text(self, value: str) -> str:
        if value in self.names:
            return self.names[value]
        for secret, name in self.names.items():
            value = value.replace(secret, name)
        return DATE.sub("<date>", value)


CHANCES = "<chances, once solved>"
"""What :func:`timing_free` writes for every ``chances`` value."""


def timing_free(data: Json) -> Json:
    """``data`` with every ``chances`` value written as :data:`CHANCES` (the module's
    docstring says why); the same whether given raw or already normalised."""
    if isinstance(data, dict):
        return {k: CHANCES if k == "chances" else timing_free(v) for k, v in data.items()}
    if isinstance(data, list):
        return [timing_free(item) for item in data]
    return data


def catalogue_kept_short(steps: list[Step]) -> list[Step]:
    """The Japanese catalogue's step kept as its language and whether it has entries."""
    for step in steps:
        if step["step"] == "japanese catalogue":
            messages = step["body"].get("messages")
            step["body"] = {"lang": step["body"].get("lang"), "has_messages": bool(messages)}
    return steps


def main() -> int:
    """Record the session against the server on the path and write :data:`GOLDEN`."""
    import stairgames

    steps = record_session()
    GOLDEN.parent.mkdir(exist_ok=True)
    lines = ",\n".join(json.dumps(step, ensure_ascii=False, sort_keys=True) for step in steps)
    GOLDEN.write_text(f"[\n{lines}\n]\n", encoding="utf-8")  # a step a line
    print(f"{len(steps)} steps from {stairgames.__file__} written to {GOLDEN}")
    return 0


if __name__ == "__main__":
    sys.exit(main())


# ----- comparing ---------------------------------------------------------------------


def differences(expected: Json, found: Json, where: str = "") -> Iterator[str]:
    """Where ``found`` differs from ``expected``: one line a difference, named by its
    path (``body.seats[0].token``); the order of an object's keys is no difference."""
    if isinstance(expected, dict) and isinstance(found, dict):
        for key in sorted(expected.keys() - found.keys()):
            yield f"{where}.{key}: missing"
        for key in sorted(found.keys() - expected.keys()):
            yield f"{where}.{key}: added ({short(found[key])})"
        for key in sorted(expected.keys() & found.keys()):
            yield from differences(expected[key], found[key], f"{where}.{key}")
    elif isinstance(expected, list) and isinstance(found, list) and len(expected) == len(found):
        for index, (one, other) in enumerate(zip(expected, found, strict=True)):
            yield from differences(one, other, f"{where}[{index}]")
    elif expected != found or type(expected) is not type(found):
        yield f"{where}: {short(expected)} became {short(found)}"


def short(value: Json) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."
