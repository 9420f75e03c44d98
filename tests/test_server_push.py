"""Issue 54, web push (``server/push/``): subscriptions, and "your turn", "game over"
and "new challenge" reaching a device through a real push endpoint on loopback
(``tests/push_endpoint.py``), which verifies the VAPID JWT and decrypts each message
with ``http_ece``. No test sleeps: each waits for the messages it expects, or for the
server's pushes under way to finish (:meth:`Pusher.settle`) before it says none came."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stairgames.server.base.limits import Rate
from stairgames.server.base.settings import PushSettings
from stairgames.server.people.players import COOKIE
from stairgames.server.push.crypto import unb64url
from stairgames.server.push.sending import endpoint_refusal, resolves_publicly
from tests.push_endpoint import PushEndpoint, push_endpoint
from tests.server_helpers import JSON, FakeClock, connect, receive_until, running, state_at_rest

ROUTE = "/api/push/subscriptions"


@pytest.fixture
def endpoint() -> Iterator[PushEndpoint]:
    with push_endpoint() as made:
        yield made


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def client(tmp_path: Path, endpoint: PushEndpoint, clock: FakeClock) -> Iterator[TestClient]:
    with running(tmp_path, push=PushSettings(test_endpoints=True), clock=clock) as made:
        endpoint.server_key = made.get("/api/push/key").json()["key"]
        yield made


def player(client: TestClient, name: str) -> dict[str, str]:
    made, secret = client.app.state.players.create(name)  # type: ignore[attr-defined]
    return {**JSON, "cookie": f"{COOKIE}={secret}", "x-player": made.id}


def subscribe(
    client: TestClient, who: dict[str, str], endpoint: PushEndpoint, name: str, lang: str = "en"
) -> dict[str, Any]:
    device = endpoint.subscription(name)
    answer = client.post(ROUTE, json={**device, "lang": lang}, headers=who)
    assert answer.status_code == 200, answer.text
    return device


def settle(client: TestClient) -> None:
    """Wait until every push under way is done (sent, dropped or refused)."""
    pusher = client.app.state.push.pusher  # type: ignore[attr-defined]
    client.portal.call(pusher.settle)  # type: ignore[union-attr]


def game(client: TestClient, ann: dict[str, str], bob: dict[str, str]) -> str:
    """A game of Stairs between Ann (light, to move) and Bob: its match id."""
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"]}
    made = client.post("/api/challenges", json=body, headers=ann)
    assert made.status_code == 200, made.text
    taken = client.post(f"/api/challenges/{made.json()['challenge']}/accept", headers=bob)
    assert taken.status_code == 200, taken.text
    match: str = made.json()["match"]
    return match


def move(client: TestClient, who: dict[str, str], match: str, seat: int) -> None:
    """``who`` opens the seat's page, plays a move, and closes it."""
    with connect(client, f"/ws/matches/{match}?seat={seat}", headers=who) as ws:
        view = state_at_rest(ws)
        ws.send_json({"type": "move", "move": view["legal"][0], "event": view["event"]})
        receive_until(ws, lambda m: m["type"] == "state" and m["event"] > view["event"])


def test_the_key_is_a_p256_point_kept_across_restarts(tmp_path: Path) -> None:
    with running(tmp_path) as first:
        key = first.get("/api/push/key").json()["key"]
    raw = unb64url(key)
    assert len(raw) == 65 and raw[0] == 4
    with running(tmp_path) as again:
        assert again.get("/api/push/key").json()["key"] == key


def test_a_move_pushes_your_turn_decrypted_with_the_right_text(
    client: TestClient, endpoint: PushEndpoint
) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    subscribe(client, bob, endpoint, "bobs-phone")
    match = game(client, ann, bob)
    move(client, ann, match, 0)
    [received] = endpoint.wait_for(1)
    assert received.problem is None
    assert received.message == {
        "type": "your_turn",
        "title": "Your turn",
        "body": "Your turn in Stairs against Ann",
        "url": f"/m/{match}",
        "tag": f"turn-{match}",
    }
    assert received.headers["urgency"] == "high" and int(received.headers["ttl"]) > 0
    assert received.claims is not None and received.claims["sub"].startswith("mailto:")


def test_a_device_subscribed_in_japanese_is_told_in_japanese(
    client: TestClient, endpoint: PushEndpoint
) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    subscribe(client, bob, endpoint, "bobs-phone", lang="ja")
    match = game(client, ann, bob)
    move(client, ann, match, 0)
    [received] = endpoint.wait_for(1)
    assert received.message is not None
    assert received.message["title"] == "あなたの番です"
    assert "Ann" in received.message["body"] and "Your turn" not in received.message["body"]


def test_nothing_is_pushed_while_the_games_page_is_open(
    client: TestClient, endpoint: PushEndpoint
) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    subscribe(client, bob, endpoint, "bobs-phone")
    match = game(client, ann, bob)
    with connect(client, f"/ws/matches/{match}?seat=1", headers=bob) as bobs_page:
        state_at_rest(bobs_page)
        move(client, ann, match, 0)
        settle(client)
        assert endpoint.received == []
    move(client, bob, match, 1)
    move(client, ann, match, 0)  # Bob's page is closed now (and another minute is not needed:
    [received] = endpoint.wait_for(1)  # nothing was sent before)
    assert received.message is not None and received.message["type"] == "your_turn"


def test_one_message_a_match_a_minute(
    client: TestClient, endpoint: PushEndpoint, clock: FakeClock
) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    subscribe(client, bob, endpoint, "bobs-phone")
    match = game(client, ann, bob)
    move(client, ann, match, 0)
    endpoint.wait_for(1)
    move(client, bob, match, 1)
    move(client, ann, match, 0)
    settle(client)
    assert len(endpoint.received) == 1  # the second "your turn" within the minute: dropped
    clock.advance(60)
    move(client, bob, match, 1)
    move(client, ann, match, 0)
    assert len(endpoint.wait_for(2)) == 2


def test_a_player_gets_at_most_their_burst_then_waits(tmp_path: Path) -> None:
    clock = FakeClock()
    push = PushSettings(test_endpoints=True, per_player=Rate(per_minute=1, burst=2))
    with push_endpoint() as endpoint, running(tmp_path, push=push, clock=clock) as client:
        endpoint.server_key = client.get("/api/push/key").json()["key"]
        bob = player(client, "Bob")
        subscribe(client, bob, endpoint, "bobs-phone")
        anns = [player(client, f"Ann{i}") for i in range(3)]
        matches = [game(client, ann, bob) for ann in anns]
        for ann, match in zip(anns, matches, strict=True):
            move(client, ann, match, 0)
        settle(client)
        assert len(endpoint.received) == 2  # three games came to Bob: two pushed
        clock.advance(60)
        move(client, bob, matches[0], 1)
        move(client, anns[0], matches[0], 0)
        assert len(endpoint.wait_for(3)) == 3


def test_game_over_says_who_won_and_a_challenge_is_pushed(
    client: TestClient, endpoint: PushEndpoint
) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    subscribe(client, bob, endpoint, "bobs-phone")
    body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "online"], "to": "Bob"}
    made = client.post("/api/challenges", json=body, headers=ann)
    assert made.status_code == 200, made.text
    [challenge] = endpoint.wait_for(1)
    assert challenge.message is not None
    assert challenge.message["type"] == "challenge" and challenge.message["url"] == "/"
    assert challenge.message["body"] == "Ann challenges you to Stairs"
    taken = client.post(f"/api/challenges/{made.json()['challenge']}/accept", headers=bob)
    assert taken.status_code == 200, taken.text
    match = made.json()["match"]
    with connect(client, f"/ws/matches/{match}?seat=0", headers=ann) as ws:
        view = state_at_rest(ws)
        ws.send_json({"type": "resign", "event": view["event"]})
        receive_until(ws, lambda m: m["type"] == "state" and m.get("result"))
    ended = endpoint.wait_for(2)[1]
    assert ended.message is not None
    assert ended.message["type"] == "ended" and ended.message["url"] == f"/m/{match}"
    assert ended.message["body"] == "You won Stairs against Ann"
    assert ended.headers["urgency"] == "normal"


def test_a_gone_device_410_is_forgotten(client: TestClient, endpoint: PushEndpoint) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    subscribe(client, bob, endpoint, "old-phone")
    endpoint.answer_with("old-phone", 410)
    match = game(client, ann, bob)
    move(client, ann, match, 0)
    endpoint.wait_for(1)
    settle(client)
    store = client.app.state.push.store  # type: ignore[attr-defined]
    assert client.portal.call(_off_loop, store.of, bob["x-player"]) == []  # type: ignore[union-attr]


async def _off_loop(call: Any, *args: Any) -> Any:
    from stairgames.server.base.store import off_loop

    return await off_loop(call, *args)


def test_unsubscribe_stops_the_messages_and_only_the_owner_may(
    client: TestClient, endpoint: PushEndpoint
) -> None:
    ann, bob, eve = player(client, "Ann"), player(client, "Bob"), player(client, "Eve")
    device = subscribe(client, bob, endpoint, "bobs-phone")
    by_endpoint = {"endpoint": device["endpoint"]}
    stranger = client.request("DELETE", ROUTE, json=by_endpoint, headers=eve)
    assert stranger.status_code == 404
    assert stranger.json()["error"]["code"] == "push_subscription_not_found"
    assert client.request("DELETE", ROUTE, json=by_endpoint, headers=bob).status_code == 200
    again = client.request("DELETE", ROUTE, json=by_endpoint, headers=bob)
    assert again.status_code == 404
    match = game(client, ann, bob)
    move(client, ann, match, 0)
    settle(client)
    assert endpoint.received == []


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"endpoint": None}, "push_endpoint_invalid"),
        ({"endpoint": 7}, "push_endpoint_invalid"),
        ({"endpoint": "ftp://example.org/x"}, "push_endpoint_invalid"),
        ({"endpoint": "http://u:p@127.0.0.1/x"}, "push_endpoint_invalid"),
        ({"endpoint": "https://example.org/" + "x" * 1100}, "push_endpoint_invalid"),
        ({"keys": None}, "push_keys_invalid"),
        ({"keys": {"p256dh": "AAAA", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, "push_keys_invalid"),
        ({"keys": {"auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, "push_keys_invalid"),
        ({"keys": "text"}, "push_keys_invalid"),
    ],
)
def test_bad_subscriptions_are_refused_and_kept_nowhere(
    client: TestClient, endpoint: PushEndpoint, change: dict[str, Any], code: str
) -> None:
    bob = player(client, "Bob")
    device = {**endpoint.subscription("phone"), **change}
    answer = client.post(ROUTE, json=device, headers=bob)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"]["code"] == code
    store = client.app.state.push.store  # type: ignore[attr-defined]
    assert client.portal.call(_off_loop, store.of, bob["x-player"]) == []  # type: ignore[union-attr]


def test_a_browser_that_is_no_player_may_not_subscribe(
    client: TestClient, endpoint: PushEndpoint
) -> None:
    answer = client.post(ROUTE, json=endpoint.subscription("phone"), headers=JSON)
    assert answer.status_code == 401
    assert answer.json()["error"]["code"] == "name_needed"
    sent_as_text = client.post(ROUTE, content=b"{}", headers={"content-type": "text/plain"})
    assert sent_as_text.status_code == 415


def test_subscribing_is_rate_limited(client: TestClient, endpoint: PushEndpoint) -> None:
    bob = player(client, "Bob")
    answers = [
        client.post(ROUTE, json=endpoint.subscription(f"d{i}"), headers=bob).status_code
        for i in range(12)
    ]
    assert answers[:10] == [200] * 10 and answers[10:] == [429, 429]


def test_a_player_keeps_a_few_devices_the_oldest_replaced(
    tmp_path: Path, endpoint: PushEndpoint
) -> None:
    push = PushSettings(test_endpoints=True, devices_per_player=2)
    clock = FakeClock()
    with running(tmp_path, push=push, wall_clock=clock) as client:
        bob = player(client, "Bob")
        for name in ("first", "second", "third"):
            client.post(ROUTE, json=endpoint.subscription(name), headers=bob)
            clock.advance(1)
        store = client.app.state.push.store  # type: ignore[attr-defined]
        kept = client.portal.call(_off_loop, store.of, bob["x-player"])  # type: ignore[union-attr]
        assert [d.endpoint.rsplit("/", 1)[1] for d in kept] == ["third", "second"]


@pytest.mark.parametrize(
    "address",
    [
        "https://127.0.0.1/push",
        "https://10.1.2.3/push",
        "https://192.168.0.4/push",
        "https://169.254.169.254/latest",
        "https://[::1]/push",
        "https://[fd00::1]/push",
        "https://localhost/push",
        "https://push.localhost/x",
        "https://printer.local/x",
        "https://intranet/x",
        "http://fcm.googleapis.com/fcm/send/x",
    ],
)
def test_a_private_or_plain_endpoint_is_refused_on_a_real_site(
    tmp_path: Path, address: str
) -> None:
    assert endpoint_refusal(address, test_endpoints=False) is not None
    with running(tmp_path) as client:
        bob = player(client, "Bob")
        device = {"endpoint": address, "keys": _keys()}
        answer = client.post(ROUTE, json=device, headers=bob)
        assert answer.status_code == 400
        assert answer.json()["error"]["code"] == "push_endpoint_invalid"


def test_a_push_services_address_is_taken_on_a_real_site(tmp_path: Path) -> None:
    address = "https://fcm.googleapis.com/fcm/send/abc:def"
    assert endpoint_refusal(address, test_endpoints=False) is None
    with running(tmp_path) as client:
        bob = player(client, "Bob")
        answer = client.post(ROUTE, json={"endpoint": address, "keys": _keys()}, headers=bob)
        assert answer.status_code == 200 and answer.json()["devices"] == 1


def test_a_name_that_resolves_to_loopback_is_not_posted_to() -> None:
    import asyncio

    assert asyncio.run(resolves_publicly("https://localhost/push")) is False


def _keys() -> dict[str, str]:
    with push_endpoint() as made:
        keys: dict[str, str] = made.subscription("x")["keys"]
    return keys


def test_an_operators_key_is_served_instead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from stairgames.server.push.crypto import b64url, new_private_key, public_bytes

    key = new_private_key()
    secret = b64url(key.private_numbers().private_value.to_bytes(32, "big"))
    monkeypatch.setenv("STAIRGAMES_VAPID_KEY", secret)
    with running(tmp_path) as client:
        served = client.get("/api/push/key").json()["key"]
    assert served == b64url(public_bytes(key.public_key()))
    monkeypatch.delenv("STAIRGAMES_VAPID_KEY")
    with running(tmp_path) as client:  # the database's own, made at the first start
        assert client.get("/api/push/key").json()["key"] != served


def test_a_failure_is_logged_once_by_origin_never_the_endpoints_path(
    client: TestClient, endpoint: PushEndpoint, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    device = subscribe(client, bob, endpoint, "secret-path-of-bobs-phone")
    endpoint.answer_with("secret-path-of-bobs-phone", 500)
    match = game(client, ann, bob)
    with caplog.at_level("WARNING", logger="stairgames.server.push.sending"):
        move(client, ann, match, 0)
        endpoint.wait_for(1)
        settle(client)
        clock.advance(60)
        move(client, bob, match, 1)
        move(client, ann, match, 0)
        endpoint.wait_for(2)
        settle(client)
    said = [r.getMessage() for r in caplog.records if r.name == "stairgames.server.push.sending"]
    assert said == [f"a push message to {endpoint.origin} failed: 500"]
    assert "secret-path" not in caplog.text
    store = client.app.state.push.store  # type: ignore[attr-defined]
    kept = client.portal.call(_off_loop, store.of, bob["x-player"])  # type: ignore[union-attr]
    assert [d.endpoint for d in kept] == [device["endpoint"]]  # not gone: kept


def test_on_a_real_site_a_host_resolving_to_loopback_is_not_posted_to(
    tmp_path: Path, endpoint: PushEndpoint, caplog: pytest.LogCaptureFixture
) -> None:
    with running(tmp_path) as client:
        ann, bob = player(client, "Ann"), player(client, "Bob")
        keys = endpoint.subscription("phone")["keys"]
        port = endpoint.origin.rsplit(":", 1)[1]
        hidden = f"https://localhost:{port}/push/phone"  # (refused as a subscription too)
        store = client.app.state.push.store  # type: ignore[attr-defined]
        client.portal.call(  # type: ignore[union-attr]
            _off_loop,
            store.subscribe,
            bob["x-player"],
            hidden,
            keys["p256dh"],
            keys["auth"],
            "en",
            10,
        )
        match = game(client, ann, bob)
        with caplog.at_level("WARNING", logger="stairgames.server.push.sending"):
            move(client, ann, match, 0)
            settle(client)
    assert endpoint.received == []
    assert f"a push message to https://localhost:{port} failed: not a public address" in caplog.text
    assert "/push/phone" not in caplog.text


def test_each_device_of_a_player_is_told_in_its_own_language(
    client: TestClient, endpoint: PushEndpoint
) -> None:
    ann, bob = player(client, "Ann"), player(client, "Bob")
    subscribe(client, bob, endpoint, "bobs-phone", lang="ja")
    subscribe(client, bob, endpoint, "bobs-laptop", lang="en")
    match = game(client, ann, bob)
    move(client, ann, match, 0)
    endpoint.wait_for(2)
    assert all(r.problem is None for r in endpoint.received)
    [phone], [laptop] = endpoint.to("bobs-phone"), endpoint.to("bobs-laptop")
    assert laptop["body"] == "Your turn in Stairs against Ann"
    assert phone["title"] == "あなたの番です" and phone["tag"] == laptop["tag"]
