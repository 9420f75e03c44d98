"""The Bot API's streams and actions (issue 53; docs/bots.md): a real server (uvicorn in a
thread, as the browser tests' is), its NDJSON streams read line by line with httpx. A
direct challenge reaches the bot's event stream, its game starts and finishes there; a
game's stream sends the bot's seat's view, then each change, and ends with the game; a
City of Stairs bot is sent its own seat's view only; actions are refused with their
codes and change nothing; a player holds a limited number of streams. No test sleeps:
each reads the line it expects (a stream's read has a timeout, so a missing line fails)."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from stairgames.server.app import create_app
from stairgames.server.base.settings import Settings
from stairgames.server.bots.contract import EventStreamLine, GameLine
from stairgames.server.people.players import COOKIE
from tests.browser_helpers import serving
from tests.server_helpers import JSON, TEST_PLAYERS

READ_SECONDS = 30.0
"""How long a stream's line may take (a missing line fails the test, never hangs it)."""


@dataclasses.dataclass
class Site:
    app: Any
    url: str
    http: httpx.Client

    def account(self, name: str) -> dict[str, str]:
        """Headers of a new account's requests (its cookie)."""
        players = self.app.state.players
        made, secret = players.create(name)
        players.add_password(made, "a long password")
        return {**JSON, "cookie": f"{COOKIE}={secret}"}

    def bot(self, name: str, scopes: tuple[str, ...] = ("bot:play",)) -> dict[str, str]:
        """Headers of a new bot's requests: its API token, nothing else."""
        person = self.account(name)
        made = self.http.post(
            "/api/account/tokens",
            json={"description": "test bot", "scopes": list(scopes)},
            headers=person,
        )
        assert made.status_code == 200, made.text
        return {**JSON, "authorization": f"Bearer {made.json()['token']}"}


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    settings = Settings(
        data_dir=tmp_path,
        computer_workers=0,
        computer_players=TEST_PLAYERS,
        static_dir=tmp_path / "no-static",
        loop_guard=True,
    )
    app = create_app(settings)
    with serving(app, settings) as url, httpx.Client(base_url=url, timeout=READ_SECONDS) as http:
        yield Site(app, url, http)


class Lines:
    """A stream's lines, read one at a time (the empty keep-alive lines passed over)."""

    def __init__(self, response: httpx.Response) -> None:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("application/x-ndjson")
        self._lines = response.iter_lines()

    def next(self) -> dict[str, Any]:
        for line in self._lines:
            if line.strip():
                parsed: dict[str, Any] = json.loads(line)
                return parsed
        raise AssertionError("the stream ended")

    def ended(self) -> bool:
        return all(not line.strip() for line in self._lines)


@pytest.fixture
def streams(site: Site) -> Iterator[Any]:
    """Opens streams: ``open(path, headers)``, each closed at the end of the test."""
    with contextlib.ExitStack() as stack:

        def open_stream(path: str, headers: dict[str, str]) -> Lines:
            response = stack.enter_context(site.http.stream("GET", path, headers=headers))
            return Lines(response)

        yield open_stream


def code(reply: httpx.Response) -> tuple[int, str]:
    return reply.status_code, reply.json()["error"]["code"]


def challenge(site: Site, who: dict[str, str], to: str, game: str, **options: Any) -> str:
    reply = site.http.post(
        "/api/challenges",
        json={"game": game, "options": options, "seats": ["human", "online"], "to": to},
        headers=who,
    )
    assert reply.status_code == 200, reply.text
    made: str = reply.json()["challenge"]
    return made


def move_path(match: str, move: str) -> str:
    return f"/api/bot/game/{match}/move/{urllib.parse.quote(move, safe='')}"


def test_a_bot_is_challenged_plays_and_its_game_ends_on_its_streams(
    site: Site, streams: Any
) -> None:
    ann, bot = site.account("Ann"), site.bot("Robo")
    events = streams("/api/stream/event", bot)
    match = challenge(site, ann, "Robo", "stairs", size=4)
    told = events.next()
    EventStreamLine.model_validate(told)
    assert told["type"] == "challenge" and told["challenge"]["challenge"] == match
    accepted = site.http.post(f"/api/bot/challenge/{match}/accept", json={}, headers=bot)
    assert accepted.status_code == 200, accepted.text
    seat = accepted.json()["seat"]
    started = events.next()
    EventStreamLine.model_validate(started)
    assert started["type"] == "gameStart"
    assert {**started["game"], "options": None} == {
        "id": match,
        "game": "stairs",
        "options": None,
        "seat": seat,
    }
    assert started["game"]["options"]["size"] == 4  # all its options, as the view says them

    game = streams(f"/api/bot/game/stream/{match}", bot)
    full = game.next()
    GameLine.model_validate(full)
    assert full["type"] == "gameFull" and full["view"]["you"] == seat
    view = full["view"]
    if view["to_act"] != seat:  # Ann (the cookie's player) moves first, through the API too
        first = view["legal"] or site.http.get(f"/api/matches/{match}", headers=ann).json()["legal"]
        moved = site.http.post(move_path(match, first[0]), json={}, headers=ann)
        assert moved.status_code == 200, moved.text
        view = game.next()["view"]
    assert view["to_act"] == seat and view["legal"]
    moved = site.http.post(move_path(match, view["legal"][0]), json={}, headers=bot)
    assert moved.status_code == 200, moved.text
    after = game.next()
    GameLine.model_validate(after)
    assert after["type"] == "gameState"
    assert after["view"]["event"] > view["event"]
    assert after["view"]["last_move"] == view["legal"][0]

    resigned = site.http.post(f"/api/bot/game/{match}/resign", json={}, headers=ann)
    assert resigned.status_code == 200, resigned.text
    last = game.next()
    assert last["view"]["result"] is not None and seat in last["view"]["result"]["winners"]
    assert game.ended()
    finished = events.next()
    EventStreamLine.model_validate(finished)
    assert finished == {"type": "gameFinish", "game": {"id": match}}


def test_a_city_of_stairs_bot_is_sent_its_own_seat_view_only(site: Site, streams: Any) -> None:
    ann, bot = site.account("Ann"), site.bot("Robo")
    stranger = {k: v for k, v in ann.items() if k != "cookie"}  # no player: a spectator
    match = challenge(site, ann, "Robo", "city_of_stairs", players=2)
    accepted = site.http.post(f"/api/bot/challenge/{match}/accept", json={}, headers=bot)
    assert accepted.status_code == 200, accepted.text
    seat = accepted.json()["seat"]
    full = streams(f"/api/bot/game/stream/{match}", bot).next()["view"]
    anns = site.http.get(f"/api/matches/{match}", headers=ann).json()
    strangers = site.http.get(f"/api/matches/{match}", headers=stranger).json()
    assert full["you"] == seat and anns["you"] == 1 - seat and strangers["you"] is None
    # what differs between the seats is what each may not see of the other's
    assert full["board"] != anns["board"]
    assert full["board"] != strangers["board"]
    own = site.app.state.hub.view(site.app.state.hub.load(match), seat, ({}, {}))
    assert full["board"] == own["board"]


def test_actions_are_refused_with_their_codes_and_change_nothing(site: Site) -> None:
    ann, bot, cy = site.account("Ann"), site.bot("Robo"), site.bot("Cy")
    reader = site.bot("Reader", ("read",))
    match = challenge(site, ann, "Robo", "stairs", size=4)
    accepted = site.http.post(f"/api/bot/challenge/{match}/accept", json={}, headers=bot)
    assert accepted.status_code == 200
    before = site.http.get(f"/api/matches/{match}", headers=ann).json()["event"]
    post = site.http.post
    assert code(post(move_path(match, "zz-top"), json={}, headers=bot))[0] in (400, 409)
    assert code(post(f"/api/bot/game/{match}/resign", json={}, headers=cy)) == (
        403,
        "not_your_game",
    )
    assert code(post(f"/api/bot/game/{match}/resign", json={}, headers=reader))[1] == (
        "token_scope"
    )
    assert code(post("/api/bot/game/nosuch/resign", json={}, headers=bot))[0] == 404
    assert code(post(f"/api/bot/game/{match}/offer", json={"kind": "draw"}, headers=bot)) == (
        400,
        "bad_offer_kind",
    )
    assert code(post(f"/api/bot/game/{match}/answer", json={"accept": 1}, headers=bot)) == (
        400,
        "bad_offer_answer",
    )
    broken = {**JSON, "authorization": "Bearer sgp_nothing"}
    assert code(post(f"/api/bot/game/{match}/resign", json={}, headers=broken)) == (
        401,
        "token_invalid",
    )
    assert code(site.http.get(f"/api/bot/game/stream/{match}", headers=cy)) == (
        403,
        "not_your_game",
    )
    after = site.http.get(f"/api/matches/{match}", headers=ann).json()
    assert after["event"] == before and after["result"] is None


def test_a_declined_challenge_closes_and_its_creator_is_told(site: Site) -> None:
    ann, bot = site.account("Ann"), site.bot("Robo", ("challenge:write",))
    match = challenge(site, ann, "Robo", "stairs", size=4)
    declined = site.http.post(f"/api/bot/challenge/{match}/decline", json={}, headers=bot)
    assert declined.status_code == 200, declined.text
    again = site.http.post(f"/api/bot/challenge/{match}/accept", json={}, headers=bot)
    assert code(again) == (409, "challenge_closed")


def test_a_player_holds_a_limited_number_of_streams(site: Site, streams: Any) -> None:
    bot = site.bot("Robo")
    limit = site.app.state.bots.streams_per_player
    for _ in range(limit):
        streams("/api/stream/event", bot)
    refused = site.http.get("/api/stream/event", headers=bot)
    assert code(refused) == (429, "too_many_streams")


def test_a_quiet_stream_sends_empty_lines_to_keep_open(site: Site) -> None:
    bot = site.bot("Robo")
    site.app.state.bots.keep_alive_seconds = 0.01  # (every line is then an empty one)
    with site.http.stream("GET", "/api/stream/event", headers=bot) as response:
        assert response.status_code == 200
        lines = response.iter_lines()
        assert [next(lines) for _ in range(3)] == ["", "", ""]


def test_an_event_stream_opens_with_the_challenges_and_games_waiting(
    site: Site, streams: Any
) -> None:
    ann, bot = site.account("Ann"), site.bot("Robo")
    waiting = challenge(site, ann, "Robo", "stairs", size=4)
    playing = challenge(site, ann, "Robo", "twenty_seven")
    accepted = site.http.post(f"/api/bot/challenge/{playing}/accept", json={}, headers=bot)
    assert accepted.status_code == 200, accepted.text
    events = streams("/api/stream/event", bot)
    first, second = events.next(), events.next()
    EventStreamLine.model_validate(first)
    assert first["type"] == "challenge" and first["challenge"]["challenge"] == waiting
    assert first["challenge"]["from"] == "Ann"
    assert second["type"] == "gameStart" and second["game"]["id"] == playing
    assert second["game"]["seat"] == accepted.json()["seat"]


def bot_account(site: Site, name: str) -> dict[str, str]:
    """Headers of a new bot account's requests (its ``bot:play`` token, upgraded)."""
    headers = site.bot(name)
    upgraded = site.http.post("/api/bot/account/upgrade", json={}, headers=headers)
    assert upgraded.status_code == 200, upgraded.text
    return headers


def open_challenge(site: Site, who: dict[str, str], *, rated: bool) -> str:
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}
    reply = site.http.post("/api/challenges", json={**body, "rated": rated}, headers=who)
    assert reply.status_code == 200, reply.text
    made: str = reply.json()["challenge"]
    return made


def test_a_bot_takes_open_challenges_but_not_a_persons_rated_one(site: Site) -> None:
    ann, bob = site.account("Ann"), site.account("Bob")
    robo, cy = bot_account(site, "Robo"), bot_account(site, "Cy")
    post = site.http.post

    def bot_accepts(match: str) -> httpx.Response:
        return post(f"/api/bot/challenge/{match}/accept", json={}, headers=robo)

    unrated = open_challenge(site, ann, rated=False)
    assert bot_accepts(unrated).status_code == 200
    peoples = open_challenge(site, ann, rated=True)
    assert code(bot_accepts(peoples)) == (403, "bot_rated_challenge")
    # refused, it changed nothing: still open, and a person takes it
    listed = site.http.get("/api/challenges", headers=bob).json()["challenges"]
    assert [row["id"] for row in listed] == [peoples]
    assert post(f"/api/challenges/{peoples}/accept", json={}, headers=bob).status_code == 200
    # a bot's rated open challenge: another bot takes it, and so does a person
    bots_rated = open_challenge(site, cy, rated=True)
    assert bot_accepts(bots_rated).status_code == 200
    assert (
        post(
            f"/api/challenges/{open_challenge(site, cy, rated=True)}/accept", json={}, headers=ann
        ).status_code
        == 200
    )
    # a person's rated challenge to the bot by name is the bot's to take
    reply = post(
        "/api/challenges",
        json={
            "game": "stairs",
            "options": {"size": 4},
            "seats": ["human", "online"],
            "rated": True,
            "to": "Robo",
        },
        headers=ann,
    )
    assert reply.status_code == 200, reply.text
    assert bot_accepts(reply.json()["challenge"]).status_code == 200


def test_an_event_stream_tells_of_open_challenges_only_when_asked(site: Site, streams: Any) -> None:
    ann, robo, cy = site.account("Ann"), bot_account(site, "Robo"), bot_account(site, "Cy")
    asked = streams("/api/stream/event?lobby=true", robo)
    plain = streams("/api/stream/event", robo)
    open_challenge(site, robo, rated=False)  # its own: never told
    open_challenge(site, ann, rated=True)  # a person's rated one: not the bot's to take
    anns = open_challenge(site, ann, rated=False)
    cys = open_challenge(site, cy, rated=True)
    direct = challenge(site, ann, "Robo", "stairs", size=4)
    told = [asked.next() for _ in range(3)]
    for line in told:
        EventStreamLine.model_validate(line)
    assert [(t["challenge"]["challenge"], t["challenge"].get("lobby")) for t in told] == [
        (anns, True),
        (cys, True),
        (direct, None),
    ]
    assert told[0]["challenge"]["from"] == "Ann" and told[1]["challenge"]["rated"] is True
    # the stream that did not ask hears of the direct challenge alone
    first = plain.next()
    assert (first["type"], first["challenge"]["challenge"]) == ("challenge", direct)
    # a stream that asks finds those still open when it opens; a taken one is gone
    taken = site.http.post(f"/api/bot/challenge/{anns}/accept", json={}, headers=robo)
    assert taken.status_code == 200, taken.text
    again = streams("/api/stream/event?lobby=true", robo)
    opening = [again.next() for _ in range(3)]
    assert [line["type"] for line in opening] == ["challenge", "gameStart", "challenge"]
    assert opening[0]["challenge"]["challenge"] == direct
    assert opening[1]["game"]["id"] == anns
    assert (opening[2]["challenge"]["challenge"], opening[2]["challenge"]["lobby"]) == (cys, True)


class _Reply:
    def __init__(self, status: int, body: dict[str, Any]) -> None:
        self.status_code, self._body = status, body
        self.text = json.dumps(body)

    def json(self) -> dict[str, Any]:
        return self._body

    def iter_lines(self) -> Iterator[str]:
        return iter(())  # (a stream that ends at once)


class _FakeHttp:
    """What ``stairgames bot`` sends, noted; a refusal for the paths in ``refused``."""

    def __init__(self, refused: frozenset[str] = frozenset()) -> None:
        self.sent: list[str] = []
        self.refused = refused

    def post(self, path: str, json: dict[str, Any]) -> _Reply:
        self.sent.append(path)
        if path in self.refused:
            return _Reply(409, {"error": {"code": "challenge_closed", "message": "closed"}})
        return _Reply(200, {"ok": True})

    @contextlib.contextmanager
    def stream(self, method: str, path: str) -> Iterator[Any]:
        self.sent.append(f"{method} {path}")
        yield _Reply(200, {})

    def __enter__(self) -> _FakeHttp:
        return self

    def __exit__(self, *_exc: object) -> None:
        return None


@pytest.mark.parametrize(
    ("accept", "stream", "sent"),
    [
        ("direct", "/api/stream/event", ["/api/bot/challenge/d1/accept"]),
        (
            "any",
            "/api/stream/event?lobby=true",
            [
                "/api/bot/challenge/d1/accept",
                "/api/bot/challenge/o1/accept",
                "/api/bot/challenge/o2/accept",
            ],
        ),
        ("none", "/api/stream/event", ["/api/bot/challenge/d1/decline"]),
    ],
)
def test_the_bot_client_accepts_as_told(accept: str, stream: str, sent: list[str]) -> None:
    from stairgames.bot_client import Bot

    http = _FakeHttp(refused=frozenset({"/api/bot/challenge/o1/accept"}))
    said: list[str] = []
    bot = Bot(
        "http://x", "sgp_t", lambda *_: 0, accept=accept, say=said.append, client=lambda: http
    )
    assert bot.run() == 0
    assert http.sent == [f"GET {stream}"]
    http.sent.clear()
    for event in (
        {"type": "challenge", "challenge": {"challenge": "d1"}},
        {"type": "challenge", "challenge": {"challenge": "o1", "lobby": True}},  # taken first
        {"type": "challenge", "challenge": {"challenge": "o2", "lobby": True}},
    ):
        bot._event(http, event)
    assert http.sent == sent
    assert any("challenge_closed" in text for text in said) == (accept == "any")
