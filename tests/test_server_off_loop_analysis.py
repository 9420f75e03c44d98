"""Issue 48: the computer's analysis and the e-mail routes never block the event loop.

With the loop guard on (``Settings.loop_guard``, as every test server has it), a database
connection taken on the event loop's thread raises, and so does a password hashed there:
these tests go through the routes (an analysis of a finished game told to its watchers,
the analysis board with an uploaded card set, an address confirmed, a password reset),
so that any such call fails them, in a route or in a background task (the log is read
too). The analysis board's card file must be read off the loop as well (a probe says
where it was). Each player's allowance of analyses and positions holds whatever their
address."""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stairgames.games.city_of_stairs.cards import default_cards_text
from stairgames.server.analysis import analysis
from stairgames.server.base.limits import Rate
from stairgames.server.base.settings import STATIC_DIR
from stairgames.server.base.store import BlockingOnLoopError, on_event_loop_thread
from stairgames.server.mail.routes import MailService
from stairgames.server.people.players import COOKIE, PLAIN_COOKIE, PlayerStore
from stairgames.server.play.card_files import card_folder, resolve_cards_option
from tests.server_helpers import JSON, FakeClock, connect, new_match, receive_until, running
from tests.test_server_analysis import STAIRS_3, TINY, finished, wait_done
from tests.test_server_mail import (
    Inbox,
    clock,  # noqa: F401  (a fixture)
    confirmed,
    link_in,
    mailing,
    settle,
    smtp,  # noqa: F401  (a fixture)
    token_in,
)


def browser_at(client: TestClient, address: str) -> TestClient:
    """Another browser on the same running app, at ``address``."""
    return TestClient(client.app, client=(address, 50000))


def players_of(client: TestClient) -> PlayerStore:
    store: PlayerStore = client.app.state.players  # type: ignore[attr-defined]
    return store


def player(client: TestClient, name: str, password: str | None = None) -> dict[str, str]:
    """A new player (with ``password``, an account): its browser's headers."""
    made, secret = players_of(client).create(name)
    if password is not None:
        players_of(client).add_password(made, password)
    return {**JSON, "cookie": f"{COOKIE}={secret}"}


def blocked_on_the_loop(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The log's records of a blocking call refused on the loop (a background task's)."""
    return [
        record.getMessage()
        for record in caplog.records
        if "BlockingOnLoopError" in (record.exc_text or "")
        or (record.exc_info is not None and isinstance(record.exc_info[1], BlockingOnLoopError))
        or "event loop's thread" in record.getMessage()
    ]


def assert_guarded(client: TestClient) -> None:
    """The server's guard is on: a database read on its loop raises."""
    service: MailService = client.app.state.mail  # type: ignore[attr-defined]

    async def on_the_loop() -> Any:
        return service.store.address_of("nobody")

    assert client.portal is not None
    with pytest.raises(BlockingOnLoopError):
        client.portal.call(on_the_loop)


def card_file(data_dir: Path) -> str:
    """The default card set kept as an uploaded file: its id."""
    text = default_cards_text() + "# kept for the analysis board\n"
    card_id = hashlib.sha256(text.encode()).hexdigest()
    folder = card_folder(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{card_id}.toml").write_text(text, encoding="utf-8")
    return card_id


def test_an_analysis_and_the_analysis_board_go_through_the_guarded_loop(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    read_on_loop: list[bool] = []

    def probed(options: dict[str, Any], data_dir: Path) -> dict[str, Any]:
        read_on_loop.append(on_event_loop_thread())
        return resolve_cards_option(options, data_dir)

    monkeypatch.setattr(analysis, "resolve_cards_option", probed)
    with caplog.at_level(logging.WARNING), running(tmp_path, loop_guard=True, **TINY) as client:
        assert_guarded(client)
        kato = player(client, "Kato")
        match = finished(client)
        with connect(client, f"/ws/matches/{match}") as ws:  # a spectator
            receive_until(ws, lambda m: m["type"] == "state")
            started = client.post(f"/api/matches/{match}/analysis", headers=kato)
            assert started.status_code == 200, started.text
            told = receive_until(ws, lambda m: m["type"] == "analysis" and m["status"] != "running")
        assert told["status"] == "done", told
        assert told["analysis"]["decisions"] == told["done"] > 0
        stored = wait_done(client, match)
        assert stored == {k: v for k, v in told.items() if k != "type"}
        again = client.post(f"/api/matches/{match}/analysis", headers=kato)
        assert again.status_code == 200 and again.json() == stored
        assert client.get(f"/api/matches/{match}/record").json()["analysis"] == stored["analysis"]

        board = client.post(
            "/api/analysis/position", headers=kato, json={"game": "stairs", "position": STAIRS_3}
        )
        assert board.status_code == 200, board.text
        assert board.json()["evaluation"]["proven"] and board.json()["board"]["size"] == 3
        cards = {"players": 2, "cards": card_file(tmp_path)}
        dealt = client.post(
            "/api/analysis/position",
            headers=JSON,
            json={"game": "city_of_stairs", "options": cards},
        )
        assert dealt.status_code == 200, dealt.text
        assert dealt.json()["chance"] and dealt.json()["hidden_information"]
        bad = client.post(
            "/api/analysis/position", headers=JSON, json={"game": "stairs", "moves": ["z9-z8"]}
        )
        assert bad.status_code == 400
    assert read_on_loop and not any(read_on_loop)  # the card file was read off the loop
    assert blocked_on_the_loop(caplog) == []


def test_an_address_is_confirmed_and_a_password_reset_through_the_guarded_loop(
    tmp_path: Path,
    smtp: tuple[Inbox, str],  # noqa: F811
    clock: FakeClock,  # noqa: F811
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The reset is confirmed from a browser that holds its session in the plain-HTTP
    cookie (``sg_player``): that session is kept, every other one logged out."""
    inbox, url = smtp
    with (
        caplog.at_level(logging.WARNING),
        running(
            tmp_path, mail=mailing(url), wall_clock=clock, loop_guard=True, static_dir=STATIC_DIR
        ) as client,
    ):
        assert_guarded(client)
        kato = player(client, "Kato", "old password")
        page = client.get("/account", headers={"cookie": kato["cookie"]})
        assert page.status_code == 200 and 'id="address"' in page.text
        confirmed(client, inbox, kato, "kato@example.org")
        # the page's language (its player's address's), read off the loop
        assert client.get("/api/account/language", headers=kato).json() == {"lang": "en"}
        shown = client.get("/api/account", headers=kato).json()
        assert shown["email"]["confirmed"] is True and shown["name"] == "Kato"
        switched = client.post("/api/account/notifications", headers=kato, json={"on": False})
        assert switched.status_code == 200 and switched.json()["email"]["notifications"] is False

        laptop = browser_at(client, "10.0.0.9")
        logged_in = laptop.post(
            "/api/login", headers=JSON, json={"name": "Kato", "password": "old password"}
        )
        assert logged_in.status_code == 200, logged_in.text
        laptop_secret = logged_in.cookies[PLAIN_COOKIE]  # plain HTTP: the plain cookie
        mailed = len(inbox.mails)
        asked = client.post("/api/account/reset", headers=JSON, json={"name": "Kato"})
        assert asked.status_code == 200
        settle(client)
        path = link_in(inbox.wait_for(mailed + 1)[-1], "/reset-password")
        assert client.get(path).status_code == 200
        reset = client.post(
            "/api/account/reset/confirm",
            headers={**JSON, "cookie": f"{PLAIN_COOKIE}={laptop_secret}"},
            json={"token": token_in(path), "password": "new password"},
        )
        assert reset.status_code == 200 and reset.json() == {"ok": True, "name": "Kato"}
        on_laptop = client.get("/api/me", headers={"cookie": f"{PLAIN_COOKIE}={laptop_secret}"})
        assert on_laptop.json()["name"] == "Kato"  # the browser that reset it stays in
        assert client.get("/api/me", headers={"cookie": kato["cookie"]}).json()["id"] is None
        fresh = browser_at(client, "10.0.0.10")
        new = fresh.post(
            "/api/login", headers=JSON, json={"name": "Kato", "password": "new password"}
        )
        assert new.status_code == 200
    assert blocked_on_the_loop(caplog) == []


def test_each_player_has_an_allowance_of_analyses_and_positions_whatever_the_address(
    tmp_path: Path,
) -> None:
    """Two at once, then one a minute, per player over every address (and per address,
    as before); a refused request spends nothing, a browser that is no player has its
    address's allowance only."""
    rate = Rate(per_minute=1, burst=2)
    with running(
        tmp_path, analyses_per_minute=rate, positions_per_minute=rate, loop_guard=True
    ) as client:
        kato, suga = player(client, "Kato"), player(client, "Suga")
        match = new_match(client, "stairs", ["human", "computer:random"], size=3)["match"]
        url = f"/api/matches/{match}/analysis"
        answers = [browser_at(client, f"10.0.1.{n}").post(url, headers=kato) for n in range(3)]
        assert [a.status_code for a in answers] == [409, 409, 429]  # (the game is not over)
        assert int(answers[-1].headers["retry-after"]) > 0
        assert answers[-1].json()["error"]["code"] == "too_many_requests"
        assert browser_at(client, "10.0.1.2").post(url, headers=suga).status_code == 409
        assert browser_at(client, "10.0.1.3").post(url, headers=JSON).status_code == 409

        bad_board = {"game": "stairs", "moves": [3]}  # refused, once counted
        route = "/api/analysis/position"
        boards = [
            browser_at(client, f"10.0.2.{n}").post(route, headers=kato, json=bad_board)
            for n in range(3)
        ]
        assert [b.status_code for b in boards] == [400, 400, 429]
        assert int(boards[-1].headers["retry-after"]) > 0
        again = browser_at(client, "10.0.2.2").post(route, headers=suga, json=bad_board)
        assert again.status_code == 400
