"""Accounts under attack (issue 48): passwords hashed and checked off the event loop,
password changes limited, logins that never lock the owner out, a password change that
logs the other devices out, and the ``__Host-`` cookie."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stairgames.server.base.limits import Rate
from stairgames.server.base.store import default_database_url, make_engine
from stairgames.server.migrations import upgrade
from stairgames.server.people.players import (
    COOKIE,
    PLAIN_COOKIE,
    Hasher,
    LoopGuardedHasher,
    PlayerStore,
)
from tests.server_helpers import JSON, FakeClock, running

RIGHT = "correct horse"
WRONG = "wrong password"


class CountingHasher:
    """A hasher that counts the passwords it checked."""

    def __init__(self, hasher: Hasher) -> None:
        self.hasher = hasher
        self.checks = 0

    def hash(self, password: str) -> str:
        return self.hasher.hash(password)

    def verify(self, hash: str, password: str) -> bool:
        self.checks += 1
        return self.hasher.verify(hash, password)


def browser_at(client: TestClient, address: str, base_url: str = "http://testserver") -> TestClient:
    """Another browser on the same running app, at ``address``."""
    return TestClient(client.app, base_url=base_url, client=(address, 50000))


def players(client: TestClient) -> PlayerStore:
    store: PlayerStore = client.app.state.players  # type: ignore[attr-defined]
    return store


def account(client: TestClient, name: str = "Kato", password: str = RIGHT) -> dict[str, Any]:
    """``client`` made the player ``name`` with ``password``."""
    made = client.post("/api/me", json={"name": name}, headers=JSON)
    assert made.status_code == 200, made.text
    reply = client.post("/api/account", json={"password": password}, headers=JSON)
    assert reply.status_code == 200, reply.text
    body: dict[str, Any] = reply.json()
    return body


def log_in(client: TestClient, password: str, name: str = "Kato") -> Any:
    return client.post("/api/login", json={"name": name, "password": password}, headers=JSON)


def change(client: TestClient, old: str, new: str, cookie: str | None = None) -> Any:
    headers = JSON if cookie is None else {**JSON, "cookie": cookie}
    return client.post("/api/account/password", json={"old": old, "new": new}, headers=headers)


def me(client: TestClient, cookie: str | None = None) -> dict[str, Any]:
    reply = client.get("/api/me", headers=None if cookie is None else {"cookie": cookie})
    assert reply.status_code == 200
    body: dict[str, Any] = reply.json()
    return body


def cookie_header(client: TestClient) -> str:
    """The cookie ``client`` holds, as a ``Cookie`` header."""
    return f"{PLAIN_COOKIE}={client.cookies[PLAIN_COOKIE]}"


# ----- password changes ----------------------------------------------------------------


@pytest.mark.slow
def test_wrong_old_passwords_are_limited_per_player_with_retry_after(tmp_path: Path) -> None:
    clock = FakeClock()
    with running(tmp_path, clock=clock) as client:
        account(client, password="first password")
        codes = [change(client, WRONG, "second password").status_code for _ in range(4)]
        assert codes == [401] * 4  # five with the first password
        refused = change(client, "first password", "second password")
        assert refused.status_code == 429 and refused.headers["retry-after"] == "12"
        assert refused.json()["error"]["code"] == "too_many_requests"
        assert log_in(browser_at(client, "192.0.2.9"), "first password").status_code == 200
        # from another address, too: the player's own allowance is spent
        elsewhere = browser_at(client, "192.0.2.10")
        assert (
            change(elsewhere, "first password", "x" * 8, cookie_header(client)).status_code == 429
        )
        clock.now += 12.0  # five a minute: one more
        assert change(client, "first password", "second password").status_code == 200


@pytest.mark.slow
def test_password_changes_are_limited_per_address(tmp_path: Path) -> None:
    clock = FakeClock()
    with running(tmp_path, clock=clock) as client:
        kato, suga = browser_at(client, "192.0.2.1"), browser_at(client, "192.0.2.1")
        account(kato, "Kato")  # their first passwords spend two of the address's five
        account(suga, "Suga")
        for _ in range(2):
            assert change(kato, WRONG, "second password").status_code == 401
        assert change(suga, WRONG, "second password").status_code == 401
        assert change(suga, RIGHT, "second password").status_code == 429
        assert log_in(client, RIGHT, "Suga").status_code == 200  # nothing changed


def test_a_first_password_counts_against_the_same_allowance(tmp_path: Path) -> None:
    clock = FakeClock()
    with running(tmp_path, clock=clock) as client:
        account(client)
        codes = [
            client.post("/api/account", json={"password": "another one"}, headers=JSON).status_code
            for _ in range(3)
        ]
        assert codes == [409] * 3  # answered without hashing, costing nothing
        for _ in range(4):  # five with the first password
            assert change(client, WRONG, "second password").status_code == 401
        newcomer = browser_at(client, "testclient")
        newcomer.post("/api/me", json={"name": "Suga"}, headers=JSON)
        reply = newcomer.post("/api/account", json={"password": RIGHT}, headers=JSON)
        assert reply.status_code == 429 and "retry-after" in reply.headers
        assert me(newcomer)["account"] is False


# ----- logging in ----------------------------------------------------------------------


@pytest.mark.slow
def test_an_attacker_spending_a_names_logins_does_not_lock_its_owner_out(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    with running(tmp_path, clock=clock) as client:
        made = account(client)
        store = players(client)
        counting = store.hasher = CountingHasher(store.hasher)
        attacker = browser_at(client, "203.0.113.1")
        assert [log_in(attacker, WRONG).status_code for _ in range(10)] == [401] * 10
        for _ in range(6):  # then one every five seconds
            clock.now += 5.0
            assert log_in(attacker, WRONG).status_code == 429
        assert log_in(attacker, RIGHT).status_code == 429  # that address is refused...
        assert counting.checks == 10  # ...without checking any of these
        # the name's allowance is spent: a wrong password from a fresh address is checked
        # once, answered 429, and that address is refused from then on
        helper = browser_at(client, "203.0.113.2")
        assert log_in(helper, WRONG).status_code == 429
        assert log_in(helper, RIGHT).status_code == 429
        assert counting.checks == 11
        # the owner's right password from a fresh address logs in
        owner = browser_at(client, "198.51.100.7")
        reply = log_in(owner, RIGHT)
        assert reply.status_code == 200 and reply.json()["id"] == made["id"]
        assert me(owner)["id"] == made["id"]


@pytest.mark.slow
def test_a_right_password_forgets_the_addresses_wrong_ones(tmp_path: Path) -> None:
    clock = FakeClock()
    with running(tmp_path, clock=clock) as client:
        account(client)
        home = browser_at(client, "198.51.100.7")
        assert log_in(home, WRONG).status_code == 401  # a slip of the finger
        assert log_in(home, RIGHT).status_code == 200  # (both paid the name's allowance)
        attacker = browser_at(client, "203.0.113.1")
        assert [log_in(attacker, WRONG).status_code for _ in range(10)] == [401] * 8 + [429] * 2
        assert log_in(browser_at(client, "198.51.100.7"), RIGHT).status_code == 200


@pytest.mark.slow
def test_one_address_guessing_one_name_gets_ten_then_one_a_minute(tmp_path: Path) -> None:
    clock = FakeClock()
    many = Rate(per_minute=10_000, burst=10_000)  # the address's own allowance aside
    with running(tmp_path, clock=clock, logins_per_minute=many) as client:
        account(client)
        account(browser_at(client, "192.0.2.2"), "Suga")
        guesser = browser_at(client, "203.0.113.1")
        assert [log_in(guesser, WRONG).status_code for _ in range(10)] == [401] * 10
        refused = log_in(guesser, WRONG)
        assert refused.status_code == 429 and refused.headers["retry-after"] == "60"
        assert log_in(guesser, WRONG, "Suga").status_code == 401  # another name: its own
        clock.now += 60.0
        assert log_in(guesser, RIGHT).status_code == 200  # and its allowance refilled


# ----- sessions ------------------------------------------------------------------------


@pytest.mark.slow
def test_a_password_change_logs_out_every_other_session(tmp_path: Path) -> None:
    with running(tmp_path) as home:
        made = account(home, password="first password")
        phone, tablet = browser_at(home, "192.0.2.5"), browser_at(home, "192.0.2.6")
        assert log_in(phone, "first password").status_code == 200
        assert log_in(tablet, "first password").status_code == 200
        phone_cookie = cookie_header(phone)
        assert change(home, "first password", "second password").status_code == 200
        assert me(home)["id"] == made["id"]  # the browser that changed it stays
        assert me(phone)["id"] is None and me(tablet)["id"] is None
        assert me(browser_at(home, "192.0.2.7"), phone_cookie)["id"] is None
        assert log_in(phone, "second password").status_code == 200


# ----- the cookie ----------------------------------------------------------------------


def cookie_parts(set_cookie: str) -> tuple[str, str, set[str]]:
    """A ``Set-Cookie`` header's name, value and attributes (lowercased)."""
    first, *attributes = [part.strip() for part in set_cookie.split(";")]
    name, _, value = first.partition("=")
    return name, value, {attribute.lower() for attribute in attributes}


SECURE_CONTEXTS = ["https://testserver", "http://localhost", "http://127.0.0.1", "http://[::1]"]


@pytest.mark.parametrize("base_url", SECURE_CONTEXTS)
def test_a_secure_context_gets_a_host_prefixed_secure_cookie(tmp_path: Path, base_url: str) -> None:
    with running(tmp_path) as client:
        browser = browser_at(client, "192.0.2.1", base_url)
        reply = browser.post("/api/me", json={"name": "Kato"}, headers=JSON)
        name, secret, attributes = cookie_parts(reply.headers["set-cookie"])
        assert name == COOKIE == "__Host-sg_player"
        assert {"secure", "httponly", "path=/", "samesite=lax"} <= attributes
        assert not any(attribute.startswith("domain") for attribute in attributes)
        assert me(browser, f"{COOKIE}={secret}")["name"] == "Kato"


def test_plain_http_to_another_host_gets_the_plain_cookie(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        browser = browser_at(client, "192.0.2.1", "http://192.0.2.80:8000")
        reply = browser.post("/api/me", json={"name": "Kato"}, headers=JSON)
        name, secret, attributes = cookie_parts(reply.headers["set-cookie"])
        assert name == PLAIN_COOKIE == "sg_player"
        assert {"httponly", "path=/", "samesite=lax"} <= attributes and "secure" not in attributes
        assert me(browser, f"{PLAIN_COOKIE}={secret}")["name"] == "Kato"


def test_a_browser_with_the_old_cookie_is_moved_to_the_new_one(tmp_path: Path) -> None:
    engine = make_engine(default_database_url(tmp_path))
    upgrade(engine)
    _made, secret = PlayerStore(engine).create("Kato")  # by a server before this one
    engine.dispose()
    with running(tmp_path) as client:
        browser = browser_at(client, "192.0.2.1", "https://testserver")
        reply = browser.get("/api/me", headers={"cookie": f"{PLAIN_COOKIE}={secret}"})
        assert reply.json()["name"] == "Kato"
        cookies = {
            name: (value, attributes)
            for name, value, attributes in map(cookie_parts, reply.headers.get_list("set-cookie"))
        }
        assert cookies[COOKIE][0] == secret and "secure" in cookies[COOKIE][1]
        assert "max-age=0" in cookies[PLAIN_COOKIE][1]  # the old one cleared
        assert me(browser, f"{COOKIE}={secret}")["name"] == "Kato"


def test_a_secure_page_takes_no_old_cookie_made_since_the_server_started(
    tmp_path: Path,
) -> None:
    # a page of another port of the host may plant sg_player, but not __Host-sg_player
    with running(tmp_path) as client:
        _mallory, planted = players(client).create("Mallory")
        browser = browser_at(client, "192.0.2.1", "https://testserver")
        reply = browser.get("/api/me", headers={"cookie": f"{PLAIN_COOKIE}={planted}"})
        assert reply.json()["id"] is None
        cleared = [cookie_parts(c) for c in reply.headers.get_list("set-cookie")]
        assert any(n == PLAIN_COOKIE and "max-age=0" in a for n, _, a in cleared)
        made = browser.post(
            "/api/me", json={}, headers={**JSON, "cookie": f"{PLAIN_COOKIE}={planted}"}
        )
        assert made.json()["name"] != "Mallory"  # a player of its own


def test_logging_out_clears_both_cookies_and_both_sessions(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        store = players(client)
        _one, new = store.create("Kato")
        _two, old = store.create("Suga")
        browser = browser_at(client, "192.0.2.1", "https://testserver")
        both = f"{COOKIE}={new}; {PLAIN_COOKIE}={old}"
        reply = browser.post("/api/logout", headers={**JSON, "cookie": both})
        cleared = {cookie_parts(c)[0] for c in reply.headers.get_list("set-cookie")}
        assert cleared == {COOKIE, PLAIN_COOKIE}
        assert store.by_secret(new) is None and store.by_secret(old) is None


# ----- the event loop ------------------------------------------------------------------


def test_the_guard_makes_a_password_hashed_on_the_event_loop_raise(tmp_path: Path) -> None:
    engine = make_engine(default_database_url(tmp_path))
    upgrade(engine)
    store = PlayerStore(engine, guard_loop=True)
    kato, _ = store.create("Kato")
    suga, _ = store.create("Suga")

    async def on_the_loop() -> None:
        with pytest.raises(RuntimeError, match="password hashing on the event loop"):
            store.add_password(kato, RIGHT)
        with pytest.raises(RuntimeError, match="password hashing on the event loop"):
            store.hasher.verify("$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaA", RIGHT)
        made = await store.add_password_async(kato, RIGHT, "192.0.2.1")
        assert made.account
        player, _secret = await store.log_in("kato", RIGHT, "192.0.2.1")
        assert player.id == kato.id
        with pytest.raises(Exception, match="wrong name or password"):
            await store.log_in("nobody", RIGHT, "192.0.2.1")  # the dummy check, off the loop

    asyncio.run(on_the_loop())
    assert store.add_password(suga, RIGHT).account  # a thread without a loop may
    engine.dispose()


@pytest.mark.slow
def test_the_account_routes_hash_nothing_on_the_event_loop(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        store = players(client)
        if not isinstance(store.hasher, LoopGuardedHasher):
            store.hasher = LoopGuardedHasher(store.hasher)
        account(client, password="first password")
        other = browser_at(client, "192.0.2.3")
        assert log_in(other, WRONG).status_code == 401
        assert log_in(other, WRONG, "Nobody").status_code == 401
        assert log_in(other, "first password").status_code == 200
        assert change(client, WRONG, "second password").status_code == 401
        assert change(client, "first password", "second password").status_code == 200
        assert client.post("/api/logout", headers=JSON).status_code == 200
        assert me(client)["id"] is None
