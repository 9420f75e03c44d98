"""Tournaments on the site (issue 53; docs/tournaments.md, "On the site"): an account
creates one, players join and leave through the routes, bad requests are refused with
their codes and change nothing, and everything is kept over a restart."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stairgames.server.people.players import COOKIE
from stairgames.server.tournaments.tournaments import CLAIM_SECONDS, OPEN_PER_CREATOR
from tests.server_helpers import JSON, FakeClock, connect, receive_until, running, state_at_rest

ROUTE = "/api/tournaments"
T0 = 1_800_000_000.0
"""The fake wall clock's start (seconds since the epoch)."""


def moment(seconds: float) -> str:
    return datetime.datetime.fromtimestamp(seconds, datetime.UTC).isoformat()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


@pytest.fixture
def client(tmp_path: Path, clock: FakeClock) -> Iterator[TestClient]:
    with running(tmp_path, wall_clock=clock, tournament_sweep_seconds=3600.0) as made:
        yield made


def person(client: TestClient, name: str, *, password: bool = True) -> dict[str, str]:
    players = client.app.state.players  # type: ignore[attr-defined]
    made, secret = players.create(name)
    if password:
        players.add_password(made, "a long password")
    return {**JSON, "cookie": f"{COOKIE}={secret}", "x-player": made.id}


def swiss(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "kind": "swiss",
        "game": "stairs",
        "options": {},
        "starts_at": moment(T0 + 600),
        "rounds": 4,
        "time_control": {"kind": "realtime", "minutes": 3, "increment": 2},
    }
    return {**body, **changes}


def create(client: TestClient, who: dict[str, str], **changes: Any) -> str:
    reply = client.post(ROUTE, json=swiss(**changes), headers=who)
    assert reply.status_code == 200, reply.text
    made: str = reply.json()["id"]
    return made


def code(reply: Any) -> tuple[int, str]:
    return reply.status_code, reply.json()["error"]["code"]


def detail(client: TestClient, tournament: str) -> dict[str, Any]:
    reply = client.get(f"{ROUTE}/{tournament}")
    assert reply.status_code == 200, reply.text
    shown: dict[str, Any] = reply.json()
    return shown


def test_an_account_creates_a_swiss_and_players_join_and_leave(client: TestClient) -> None:
    ann = person(client, "Ann")
    made = create(client, ann)
    listed = client.get(ROUTE).json()["tournaments"]
    assert [(t["id"], t["kind"], t["creator"], t["status"], t["rounds"]) for t in listed] == [
        (made, "swiss", "Ann", "created", 4)
    ]
    assert listed[0]["time_control"] == {"kind": "realtime", "minutes": 3, "increment": 2}
    assert listed[0]["starts_at"] == moment(T0 + 600)
    names = ["Bob", "Cy", "Di"]
    players = [person(client, name, password=False) for name in names]
    for who in players:
        assert client.post(f"{ROUTE}/{made}/join", json={}, headers=who).status_code == 200
    shown = detail(client, made)
    assert sorted(s["name"] for s in shown["standings"]) == names
    assert shown["players"] == 3
    assert {s["rating"] for s in shown["standings"]} == {1500}
    assert client.post(f"{ROUTE}/{made}/leave", json={}, headers=players[1]).status_code == 200
    shown = detail(client, made)
    assert sorted(s["name"] for s in shown["standings"]) == ["Bob", "Di"]  # struck off
    again = client.post(f"{ROUTE}/{made}/leave", json={}, headers=players[1])
    assert code(again) == (409, "tournament_not_entered")
    # joining twice changes nothing
    assert client.post(f"{ROUTE}/{made}/join", json={}, headers=players[0]).status_code == 200
    assert detail(client, made)["players"] == 2


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"kind": "knockout"}, "tournament_kind"),
        ({"kind": 3}, "tournament_kind"),
        ({"game": "no_such_game"}, "invalid_option"),
        ({"kind": "tables"}, "tournament_game_seats"),
        ({"starts_at": "tomorrow"}, "tournament_start"),
        ({"starts_at": "2027-01-15T12:00:00"}, "tournament_start"),  # no time zone
        ({"starts_at": moment(T0 - 3600)}, "tournament_start"),
        ({"starts_at": moment(T0 + 40 * 86_400)}, "tournament_too_far"),
        ({"rounds": 0}, "tournament_rounds"),
        ({"rounds": None}, "tournament_rounds"),
        ({"rounds": "4"}, "tournament_length_type"),
        ({"kind": "arena", "minutes": 5}, "tournament_minutes"),
        ({"kind": "arena"}, "tournament_minutes"),
        ({"bots": "yes"}, "tournament_bots_flag"),
    ],
)
def test_a_bad_tournament_is_refused_and_nothing_is_made(
    client: TestClient, changes: dict[str, Any], expected: str
) -> None:
    ann = person(client, "Ann")
    reply = client.post(ROUTE, json=swiss(**changes), headers=ann)
    assert reply.status_code == 400, reply.text
    assert reply.json()["error"]["code"] == expected
    assert client.get(ROUTE).json()["tournaments"] == []


def test_only_an_account_creates_and_each_has_a_few_open(client: TestClient) -> None:
    guest = person(client, "Guest", password=False)
    assert code(client.post(ROUTE, json=swiss(), headers=guest)) == (
        403,
        "tournament_needs_account",
    )
    assert client.post(ROUTE, json=swiss(), headers=JSON).status_code == 401
    ann = person(client, "Ann")
    for _ in range(OPEN_PER_CREATOR):
        create(client, ann)
    assert code(client.post(ROUTE, json=swiss(), headers=ann)) == (409, "too_many_tournaments")
    assert len(client.get(ROUTE).json()["tournaments"]) == OPEN_PER_CREATOR


def test_an_unknown_tournament_is_not_found(client: TestClient) -> None:
    bob = person(client, "Bob", password=False)
    assert code(client.get(f"{ROUTE}/nope")) == (404, "tournament_not_found")
    assert code(client.post(f"{ROUTE}/nope/join", json={}, headers=bob)) == (
        404,
        "tournament_not_found",
    )
    assert code(client.post(f"{ROUTE}/nope/leave", json={}, headers=bob)) == (
        404,
        "tournament_not_found",
    )


def test_an_arena_of_round_tables_needs_its_game(client: TestClient) -> None:
    ann = person(client, "Ann")
    made = create(client, ann, kind="arena", minutes=60, rounds=None)
    shown = detail(client, made)
    assert (shown["kind"], shown["minutes"], shown["rounds"]) == ("arena", 60, None)
    tables = create(client, ann, kind="tables", game="ishigaki_race", options={"players": 3})
    assert detail(client, tables)["game"] == "ishigaki_race"


def test_the_writes_spend_the_players_allowance(client: TestClient) -> None:
    ann = person(client, "Ann")
    made = create(client, ann)
    answers = [
        client.post(f"{ROUTE}/{made}/join", json={}, headers=ann).status_code for _ in range(30)
    ]
    assert answers.count(429) > 0
    assert answers[0] == 200


def test_tournaments_are_kept_over_a_restart(tmp_path: Path, clock: FakeClock) -> None:
    with running(tmp_path, wall_clock=clock) as first:
        ann = person(first, "Ann")
        made = create(first, ann)
        bob = person(first, "Bob", password=False)
        assert first.post(f"{ROUTE}/{made}/join", json={}, headers=bob).status_code == 200
        before = detail(first, made)
    with running(tmp_path, wall_clock=clock) as second:
        assert detail(second, made) == before
        assert code(second.post(f"{ROUTE}/{made}/leave", json={}, headers=ann)) == (
            409,
            "tournament_not_entered",
        )
        assert second.post(f"{ROUTE}/{made}/leave", json={}, headers=bob).status_code == 200
        assert detail(second, made)["standings"] == []


def sweep(client: TestClient) -> None:
    """One sweep of the tournaments' scheduler, as a process's timer would run it."""
    scheduler = client.app.state.tournament_scheduler  # type: ignore[attr-defined]
    client.portal.call(scheduler.sweep)  # type: ignore[union-attr]


def resign(client: TestClient, match: str, seat: int, who: dict[str, str]) -> None:
    """The player holding ``seat`` of ``match`` resigns from their page."""
    with connect(client, f"/ws/matches/{match}?seat={seat}", headers=who) as ws:
        view = state_at_rest(ws)
        ws.send_json({"type": "resign", "event": view["event"]})
        receive_until(ws, lambda m: m["type"] == "state" and m.get("result"))


def enter(client: TestClient, tournament: str, names: list[str]) -> dict[str, dict[str, str]]:
    entered = {name: person(client, name, password=False) for name in names}
    for who in entered.values():
        assert client.post(f"{ROUTE}/{tournament}/join", json={}, headers=who).status_code == 200
    return entered


def play_round(client: TestClient, tournament: str, people: dict[str, dict[str, str]]) -> None:
    """Every game of the round being played ends: its second seat resigns."""
    shown = detail(client, tournament)
    for pairing in shown["pairings"]:
        if pairing["round"] == shown["round"] and pairing["match"] is not None:
            assert pairing["result"] is None
            resign(client, pairing["match"], 1, people[pairing["players"][1]])


def test_a_swiss_of_nine_over_four_rounds_with_a_bye(client: TestClient, clock: FakeClock) -> None:
    ann = person(client, "Ann")
    made = create(client, ann, rated=True)
    names = [f"P{i}" for i in range(9)]
    people = enter(client, made, names)
    sweep(client)
    assert detail(client, made)["status"] == "created"  # not its time yet
    clock.now = T0 + 600
    sweep(client)
    for played in range(1, 5):
        shown = detail(client, made)
        assert (shown["status"], shown["round"]) == ("started", played)
        this_round = [p for p in shown["pairings"] if p["round"] == played]
        seated = sorted(name for p in this_round for name in p["players"])
        assert seated == names  # everyone paired or given the bye, once
        assert [len(p["players"]) for p in this_round].count(1) == 1
        sweep(client)  # a sweep while the round is played changes nothing
        assert detail(client, made)["pairings"] == shown["pairings"]
        play_round(client, made, people)
    shown = detail(client, made)
    assert shown["status"] == "finished"
    games = [tuple(sorted(p["players"])) for p in shown["pairings"] if len(p["players"]) == 2]
    assert len(games) == 16 and len(set(games)) == 16  # nobody met twice
    byes = [p["players"][0] for p in shown["pairings"] if len(p["players"]) == 1]
    assert len(set(byes)) == 4
    wins = {name: 0.0 for name in names}
    for pairing in shown["pairings"]:
        assert pairing["result"] is not None
        wins[pairing["players"][0]] += pairing["result"][0]
    assert {s["name"]: s["points"] for s in shown["standings"]} == wins
    assert sum(wins.values()) == 20.0
    assert [s["points"] for s in shown["standings"]] == sorted(wins.values(), reverse=True)
    # a rated tournament's games are rated as any: each player's four, the bye not a game
    ratings = client.app.state.ratings  # type: ignore[attr-defined]
    rated_games = {
        name: sum(r.games for r in ratings.ratings_of(people[name]["x-player"]).values())
        for name in names
    }
    assert rated_games == {name: 4 - byes.count(name) for name in names}


def test_an_arena_pairs_free_players_until_its_end(client: TestClient, clock: FakeClock) -> None:
    ann = person(client, "Ann")
    made = create(client, ann, kind="arena", minutes=10, rounds=None)
    names = ["A", "B", "C", "D"]
    people = enter(client, made, names)
    clock.now = T0 + 600
    sweep(client)
    first = detail(client, made)["pairings"]
    assert len(first) == 2 and sorted(n for p in first for n in p["players"]) == names
    play_round(client, made, people)  # each result pairs the free players again
    shown = detail(client, made)
    assert len(shown["pairings"]) == 4
    points = {s["name"]: (s["points"], s["streak"]) for s in shown["standings"]}
    for pairing in first:
        winner, loser = pairing["players"]
        assert points[winner] == (2.0, 1) and points[loser] == (0.0, 0)
    ratings = client.app.state.ratings  # type: ignore[attr-defined]
    assert all(ratings.ratings_of(who["x-player"]) == {} for who in people.values())  # casual
    # at its end time, the arena finishes and takes nobody new
    clock.now = T0 + 600 + 10 * 60
    sweep(client)
    assert detail(client, made)["status"] == "finished"
    assert code(client.post(f"{ROUTE}/{made}/join", json={}, headers=people["A"])) == (
        409,
        "tournament_over",
    )


def test_a_swiss_carries_on_after_a_restart(tmp_path: Path, clock: FakeClock) -> None:
    names = ["W", "X", "Y", "Z"]
    with running(tmp_path, wall_clock=clock, tournament_sweep_seconds=3600.0) as first:
        ann = person(first, "Ann")
        made = create(first, ann, rounds=3)
        people = enter(first, made, names)
        clock.now = T0 + 600
        sweep(first)
        round_one = [p for p in detail(first, made)["pairings"] if p["round"] == 1]
        assert len(round_one) == 2
        done = round_one[0]
        resign(first, done["match"], 1, people[done["players"][1]])
    with running(tmp_path, wall_clock=clock, tournament_sweep_seconds=3600.0) as second:
        shown = detail(second, made)
        assert shown["round"] == 1  # the round waits for its last game
        last = next(p for p in shown["pairings"] if p["result"] is None)
        resign(second, last["match"], 1, people[last["players"][1]])
        shown = detail(second, made)
        assert shown["round"] == 2
        met = {tuple(sorted(p["players"])) for p in shown["pairings"]}
        assert len(met) == 4  # round 2 repeats no game of round 1


def left_or_over(message: dict[str, Any], seat: int) -> bool:
    """Whether ``message`` is a state in which ``seat`` has left, or the game ended (the
    last person to resign ends it: their seat is the game's loser, not one that left)."""
    if message["type"] != "state":
        return False
    return seat in message.get("left", []) or message.get("result") is not None


def resign_all(client: TestClient, match: str, people: list[dict[str, str]]) -> None:
    """Every person at the table resigns, the last seat first (a person who resigns
    leaves; the game ends when the last one does)."""
    for seat in reversed(range(len(people))):
        with connect(client, f"/ws/matches/{match}?seat={seat}", headers=people[seat]) as ws:
            view = state_at_rest(ws)
            ws.send_json({"type": "resign", "event": view["event"]})
            receive_until(ws, lambda m, s=seat: left_or_over(m, s))


def test_three_seat_round_tables_over_three_rounds(client: TestClient, clock: FakeClock) -> None:
    ann = person(client, "Ann")
    made = create(
        client, ann, kind="tables", game="ishigaki_race", options={"players": 3}, rounds=3
    )
    names = [f"T{i}" for i in range(7)]
    people = enter(client, made, names)
    clock.now = T0 + 600
    sweep(client)
    for played in range(1, 4):
        shown = detail(client, made)
        assert (shown["status"], shown["round"]) == ("started", played)
        this_round = [p for p in shown["pairings"] if p["round"] == played]
        assert sorted(len(p["players"]) for p in this_round) == [1, 3, 3]
        assert sorted(n for p in this_round for n in p["players"]) == names
        for pairing in this_round:
            if pairing["match"] is not None:
                resign_all(client, pairing["match"], [people[n] for n in pairing["players"]])
    shown = detail(client, made)
    assert shown["status"] == "finished"
    outs = [p["players"][0] for p in shown["pairings"] if len(p["players"]) == 1]
    assert len(set(outs)) == 3  # a different player sits out each round
    totals = {name: 0.0 for name in names}
    for pairing in shown["pairings"]:
        assert pairing["result"] is not None
        for name, points in zip(pairing["players"], pairing["result"], strict=True):
            totals[name] += points
    assert {s["name"]: s["points"] for s in shown["standings"]} == totals


def test_an_arena_of_twelve_with_players_leaving_and_joining(
    client: TestClient, clock: FakeClock
) -> None:
    """Twelve enter; two leave during their first game and one joins late: those who
    left are paired no more, the late one is paired once free, nobody plays two games
    at once, and at the end time the arena ends."""
    ann = person(client, "Ann")
    made = create(client, ann, kind="arena", minutes=30, rounds=None)
    names = [f"A{i:02}" for i in range(12)]
    people = enter(client, made, names)
    clock.now = T0 + 600
    sweep(client)
    first = detail(client, made)["pairings"]
    assert len(first) == 6 and sorted(n for p in first for n in p["players"]) == names
    leavers = [first[0]["players"][0], first[1]["players"][1]]
    for name in leavers:
        reply = client.post(f"{ROUTE}/{made}/leave", json={}, headers=people[name])
        assert reply.status_code == 200, reply.text
    people["Late"] = person(client, "Late", password=False)
    reply = client.post(f"{ROUTE}/{made}/join", json={}, headers=people["Late"])
    assert reply.status_code == 200, reply.text
    for _ in range(3):  # three waves: each game being played ends by its second seat
        play_round_of_arena(client, made, people)
        shown = detail(client, made)
        playing = [n for p in shown["pairings"] if p["result"] is None for n in p["players"]]
        assert len(playing) == len(set(playing)), "a player in two games at once"
    shown = detail(client, made)
    later = shown["pairings"][6:]
    assert later and not {n for p in later for n in p["players"]} & set(leavers)
    assert any("Late" in p["players"] for p in later)
    standings = {s["name"]: s for s in shown["standings"]}
    assert {name for name, s in standings.items() if s["left"]} == set(leavers)
    assert len(standings) == 13
    for pairing in shown["pairings"]:
        if pairing["result"] is not None:
            assert sorted(pairing["result"]) == [0.0, 1.0]  # a resignation: won and lost
    clock.now = T0 + 600 + 30 * 60
    sweep(client)
    assert detail(client, made)["status"] == "finished"


def play_round_of_arena(client: TestClient, tournament: str, people: dict[str, Any]) -> None:
    """Every game of the arena being played ends: its second seat resigns."""
    for pairing in detail(client, tournament)["pairings"]:
        if pairing["result"] is None and pairing["match"] is not None:
            resign(client, pairing["match"], 1, people[pairing["players"][1]])


def bot_headers(client: TestClient, name: str) -> dict[str, str]:
    """Headers of a new bot account's requests: its ``bot:play`` token, upgraded."""
    owner = person(client, name)
    made = client.post(
        "/api/account/tokens",
        json={"description": "a bot", "scopes": ["bot:play"]},
        headers=owner,
    )
    assert made.status_code == 200, made.text
    headers = {**JSON, "authorization": f"Bearer {made.json()['token']}"}
    upgraded = client.post("/api/bot/account/upgrade", json={}, headers=headers)
    assert upgraded.status_code == 200, upgraded.text
    return headers


def test_a_bot_joins_by_its_token_where_bots_may_play(client: TestClient) -> None:
    ann = person(client, "Ann")
    closed = create(client, ann)
    open_to_bots = create(client, ann, bots=True)
    robo = bot_headers(client, "Robo")
    assert code(client.post(f"{ROUTE}/{closed}/join", json={}, headers=robo)) == (
        403,
        "tournament_no_bots",
    )
    assert detail(client, closed)["standings"] == []
    reply = client.post(f"{ROUTE}/{open_to_bots}/join", json={}, headers=robo)
    assert reply.status_code == 200, reply.text
    [standing] = detail(client, open_to_bots)["standings"]
    assert (standing["name"], standing["bot"]) == ("Robo", True)
    reply = client.post(f"{ROUTE}/{open_to_bots}/leave", json={}, headers=robo)
    assert reply.status_code == 200, reply.text
    assert detail(client, open_to_bots)["standings"] == []


def test_two_processes_sweeping_one_database_pair_a_round_once(
    tmp_path: Path, clock: FakeClock
) -> None:
    """The database decides who pairs: two server processes on one database sweep at
    the same moment, and the round is paired once."""
    with running(tmp_path, wall_clock=clock, tournament_sweep_seconds=3600.0) as first:
        ann = person(first, "Ann")
        made = create(first, ann)
        enter(first, made, [f"Q{i}" for i in range(6)])
        clock.now = T0 + 600
        with running(tmp_path, wall_clock=clock, tournament_sweep_seconds=3600.0) as second:
            sweep(second)
            sweep(first)
            sweep(second)
            shown = detail(first, made)
            assert detail(second, made) == shown
    assert shown["round"] == 1
    assert len(shown["pairings"]) == 3
    assert sorted(n for p in shown["pairings"] for n in p["players"]) == [f"Q{i}" for i in range(6)]


class ProcessStoppedError(Exception):
    """Stands for a process that stopped (killed) in the middle of its work."""


def test_a_round_whose_matches_were_not_all_made_is_made_on_the_next_sweep(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that stopped between writing a round's pairings and making their
    matches leaves no round waiting for ever: the next sweep (here, after a restart)
    makes the missing matches, once each, and the round is played."""
    from stairgames.server.tournaments.scheduler import Scheduler

    names = [f"R{i}" for i in range(6)]
    with running(tmp_path, wall_clock=clock, tournament_sweep_seconds=3600.0) as first:
        ann = person(first, "Ann")
        made = create(first, ann, rounds=2)
        people = enter(first, made, names)
        clock.now = T0 + 600
        make = Scheduler._make_match
        made_once: list[str] = []

        async def stops_after_one(self: Scheduler, row: Any, players: list[str]) -> str:
            if made_once:
                raise ProcessStoppedError
            made_once.append(await make(self, row, players))
            return made_once[-1]

        monkeypatch.setattr(Scheduler, "_make_match", stops_after_one)
        with pytest.raises(ProcessStoppedError):
            sweep(first)
        shown = detail(first, made)
        assert [p["match"] is not None for p in shown["pairings"]] == [True, False, False]
        monkeypatch.setattr(Scheduler, "_make_match", make)
    clock.now = T0 + 600 + 2 * CLAIM_SECONDS  # the stopped process's claim has lapsed
    with running(tmp_path, wall_clock=clock, tournament_sweep_seconds=3600.0) as second:
        sweep(second)
        shown = detail(second, made)
        matches = [p["match"] for p in shown["pairings"]]
        assert None not in matches and len(set(matches)) == 3
        assert matches[0] == made_once[0]  # the one made before the stop is kept
        sweep(second)  # nothing more to make
        assert [p["match"] for p in detail(second, made)["pairings"]] == matches
        play_round(second, made, people)
        assert detail(second, made)["round"] == 2


def test_a_claim_on_making_a_match_holds_against_a_second_process(
    client: TestClient, clock: FakeClock
) -> None:
    store = client.app.state.tournaments.store  # type: ignore[attr-defined]
    ann = person(client, "Ann")
    made = create(client, ann)
    enter(client, made, ["S1", "S2"])
    now = datetime.datetime.fromtimestamp(T0 + 600, datetime.UTC)
    store.claim_start(made, now)
    players = [entrant.player_id for entrant in store.entrants(made)]
    [pairing] = store.claim_round(made, 0, [players], {}) or []
    claim = store.claim_pairing(pairing, now)
    assert claim is not None
    assert store.claim_pairing(pairing, now) is None  # another process: not yet
    assert detail(client, made)["pairings"][0]["match"] is None  # a claim is no match
    later = now + datetime.timedelta(seconds=2 * CLAIM_SECONDS)
    taken = store.claim_pairing(pairing, later)  # the first stopped: taken over
    assert taken is not None and taken != claim
    assert not store.set_match(pairing, claim, "late")  # the first's claim no longer holds
    assert store.set_match(pairing, taken, "m1")
    assert detail(client, made)["pairings"][0]["match"] == "m1"
    assert store.claim_pairing(pairing, later) is None  # made
