"""What another site can do with a visitor's browser: nothing (issue "Harden the server
against hostile visitors", finding 11).

Every HTTP answer carries a strict Content-Security-Policy, ``X-Frame-Options: DENY``,
``X-Content-Type-Options: nosniff`` and ``Referrer-Policy``; the requests that change
something must be of a content type no cross-site form can send (JSON, a card file as
TOML), else 415 and nothing changes; a WebSocket opened from a page of another site is
refused. (The pages keep working under that policy: ``tests/test_web_e2e.py`` plays each
game in Chromium and finds no violation of it.)
"""

from __future__ import annotations

import json
import re
import sqlite3
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from starlette.datastructures import Headers
from starlette.websockets import WebSocketDisconnect

import stairgames
from stairgames.games.city_of_stairs.cards import default_cards_text
from stairgames.server.app import create_app
from stairgames.server.base.settings import STATIC_DIR, Settings
from stairgames.server.ops.middleware import same_origin
from tests.browser_helpers import serving
from tests.server_helpers import JSON, connect, new_match, running, state_at_rest, token_of

WRONG_TYPE = "wrong_content_type"
DIRECTIVES = {
    "default-src": "'self'",
    "script-src": "'self'",
    "connect-src": "'self' ws://testserver wss://testserver",
    "img-src": "'self' data:",
    "style-src": "'self'",
    "frame-ancestors": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "object-src": "'none'",
}
STAIRS = {"game": "stairs", "options": {}, "seats": ["human", "online"]}
NOT_FROM_A_PAGE_OF_THIS_SITE = [
    None,  # no content type at all (an old-style form or a hand-made request)
    "text/html",
    "text/plain",
    "text/plain; charset=utf-8",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/jsonp",
]


def policy(headers: Any) -> dict[str, str]:
    directives = [
        part.strip().split(" ", 1) for part in headers["content-security-policy"].split(";")
    ]
    return {name: value for name, value in directives}


def assert_secured(response: Any) -> None:
    assert_secured_headers(response.headers, str(response.request.url))


def assert_secured_headers(headers: Any, url: str = "", host: str = "testserver") -> None:
    expected = DIRECTIVES | {"connect-src": f"'self' ws://{host} wss://{host}"}
    assert policy(headers) == expected, (url, headers)
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "same-origin"


def typed(content_type: str | None) -> dict[str, str]:
    return {} if content_type is None else {"content-type": content_type}


def stored(data_dir: Path, table: str) -> int:
    with sqlite3.connect(data_dir / "stairgames.db") as db:
        count: int = db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    return count


# ----- headers ---------------------------------------------------------------------------


def test_every_answer_carries_the_security_headers_pages_files_api_and_errors(tmp_path):
    with running(tmp_path, static_dir=STATIC_DIR, max_message_bytes=100) as client:
        created = new_match(client, "stairs", ["human", "online"])
        answers = [
            client.get("/"),
            client.get(f"/m/{created['match']}"),
            client.get("/static/app.js"),
            client.get("/static/style.css"),
            client.get("/games/stairs/board.js"),
            client.get("/games/ishigaki_race/board.css"),
            client.get("/api/games"),
            client.get(f"/api/matches/{created['match']}"),
            client.post("/api/matches", json=STAIRS),
        ]
        errors = [
            client.get("/api/matches/nope"),  # 404 of the app
            client.get("/static/nothing.js"),  # 404 of the static files
            client.get("/games/stairs/board.html"),  # 404: not a board file
            client.get("/nowhere"),  # 404 of the router
            client.put("/api/games", headers=JSON),  # 405
            client.post("/api/matches", content=b"{", headers=JSON),  # 400
            client.post("/api/matches", content=b" " * 200, headers=JSON),  # 413
            client.post("/api/matches", content=b"{}", headers=typed("text/html")),  # 415
        ]
    assert [a.status_code for a in answers] == [200] * len(answers)
    assert answers[0].headers["content-type"].startswith("text/html")
    assert answers[5].headers["content-type"].startswith("text/css")
    assert [e.status_code for e in errors] == [404, 404, 404, 404, 405, 400, 413, 415]
    for response in answers + errors:
        assert_secured(response)


def test_the_policy_names_the_websocket_of_the_host_asked_and_nothing_odd():
    from stairgames.server.ops.middleware import content_security_policy

    assert "connect-src 'self' ws://games.example:8443 wss://games.example:8443;" in (
        content_security_policy("games.example:8443")
    )
    assert "ws://[::1]:8000 " in content_security_policy("[::1]:8000")
    for odd in (None, "", "evil.example; script-src *", "a b", "x'y"):
        assert "connect-src 'self';" in content_security_policy(odd)


# ----- content types ---------------------------------------------------------------------


@pytest.mark.parametrize("content_type", NOT_FROM_A_PAGE_OF_THIS_SITE)
def test_a_match_sent_as_anything_but_json_is_refused_and_nothing_is_made(tmp_path, content_type):
    body = b'{"game": "stairs", "options": {}, "seats": ["human", "online"]}'
    with running(tmp_path) as client:
        refused = client.post("/api/matches", content=body, headers=typed(content_type))
        made = stored(tmp_path, "matches")
        accepted = client.post(
            "/api/matches",
            content=body,
            headers={"content-type": "application/json; charset=UTF-8"},
        )
    assert refused.status_code == 415
    assert refused.json()["error"] == {
        "code": WRONG_TYPE,
        "id": "the message must be sent as {type}",
        "message": "the message must be sent as application/json",
        "args": {"type": "application/json"},
    }
    assert made == 0
    assert accepted.status_code == 200


@pytest.mark.parametrize("content_type", NOT_FROM_A_PAGE_OF_THIS_SITE)
def test_a_join_sent_as_anything_but_json_is_refused_and_the_seat_stays_free(
    tmp_path, content_type
):
    with running(tmp_path) as client:
        match = new_match(client, "stairs", ["human", "online"])["match"]
        events = stored(tmp_path, "events")
        refused = client.post(f"/api/matches/{match}/join", headers=typed(content_type))
        unchanged = stored(tmp_path, "events") == events
        joined = client.post(f"/api/matches/{match}/join", headers=JSON)  # no body, as the page
    assert refused.status_code == 415
    assert refused.json()["error"]["code"] == WRONG_TYPE
    assert unchanged
    assert joined.status_code == 200 and joined.json()["seat"] == 1  # it was still free


@pytest.mark.parametrize("content_type", [*NOT_FROM_A_PAGE_OF_THIS_SITE, "application/json"])
def test_a_card_file_sent_as_anything_but_toml_is_refused_and_not_kept(tmp_path, content_type):
    text = default_cards_text().encode()
    with running(tmp_path) as client:
        refused = client.post("/api/cards?lang=ja", content=text, headers=typed(content_type))
        kept = sorted((tmp_path / "cards").glob("*")) if (tmp_path / "cards").exists() else []
        accepted = client.post(
            "/api/cards", content=text, headers={"content-type": "application/toml; charset=utf-8"}
        )
    assert refused.status_code == 415
    assert refused.json()["error"]["code"] == WRONG_TYPE
    assert refused.json()["error"]["args"] == {"type": "application/toml"}
    assert kept == []
    assert accepted.status_code == 200 and len(accepted.json()["cards"]) == 64


def test_reading_needs_no_content_type(tmp_path):
    with running(tmp_path) as client:
        match = new_match(client, "stairs", ["human", "online"])["match"]
        for path in ("/api/games", f"/api/matches/{match}", "/api/i18n/ja"):
            assert client.get(path).status_code == 200


# ----- WebSocket origins -----------------------------------------------------------------


@pytest.mark.parametrize(
    "origin",
    [
        "http://evil.example",
        "https://evil.example",
        "http://testserver.evil.example",
        "http://testserver:8000",  # another port is another site
        "null",  # a sandboxed frame, a file
        "ftp://testserver",
        "http://[::1",
    ],
)
def test_a_websocket_from_a_page_of_another_site_is_refused(tmp_path, origin):
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "online"])
        url = f"/ws/matches/{created['match']}?token={token_of(created, 0)}"
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            connect(client, url, headers={"origin": origin}),
        ):
            pass
    assert refused.value.code == 4403


@pytest.mark.parametrize(
    "origin", [None, "http://testserver", "HTTP://TestServer", "http://testserver:80"]
)
def test_a_websocket_from_this_site_or_no_browser_is_served(tmp_path, origin):
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "online"])
        url = f"/ws/matches/{created['match']}?token={token_of(created, 0)}"
        with connect(client, url, headers={} if origin is None else {"origin": origin}) as ws:
            assert state_at_rest(ws)["you"] == 0


@pytest.mark.parametrize(
    ("origin", "host", "same"),
    [
        ("https://games.example", "games.example", True),
        ("https://games.example", "games.example:443", True),
        ("https://games.example:443", "games.example", True),
        ("http://games.example", "games.example:80", True),
        ("http://127.0.0.1:8000", "127.0.0.1:8000", True),
        ("http://[::1]:8000", "[::1]:8000", True),
        ("https://games.example", "games.example:80", False),
        ("http://games.example", "games.example:443", False),
        ("http://127.0.0.1:8001", "127.0.0.1:8000", False),
        ("http://localhost:8000", "127.0.0.1:8000", False),
        ("http://games.example", None, False),
        ("", "games.example", False),
    ],
)
def test_same_origin_compares_scheme_default_ports_host_and_port(origin, host, same):
    headers = {"origin": origin} | ({} if host is None else {"host": host})
    assert same_origin(Headers(headers=headers)) is same


def test_the_real_server_answers_a_cross_site_websocket_handshake_with_403(tmp_path):
    """Served by uvicorn as ``stairgames serve`` serves it, a browser's handshake from
    another site gets 403 and no WebSocket; one from the page's own site is served."""
    sync_client = pytest.importorskip("websockets.sync.client")
    exceptions = pytest.importorskip("websockets.exceptions")
    with serving(create_app(Settings(data_dir=tmp_path, computer_workers=0))) as base:
        request = urllib.request.Request(
            base + "/api/matches", data=json.dumps(STAIRS).encode(), headers=JSON
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            assert_secured_headers(response.headers, host=base.removeprefix("http://"))
            match = json.load(response)["match"]
        url = base.replace("http://", "ws://") + f"/ws/matches/{match}"
        with pytest.raises(exceptions.InvalidStatus) as refused:
            sync_client.connect(url, origin="http://evil.example", open_timeout=10)
        assert refused.value.response.status_code == 403
        with sync_client.connect(url, origin=base, open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "state"


# ----- the front end keeps to the policy ---------------------------------------------------

PACKAGE = Path(stairgames.__file__).parent
FRONT_END = [
    *sorted((PACKAGE / "web" / "static").glob("*.html")),
    *sorted((PACKAGE / "web" / "static").glob("*.js")),
    *sorted(PACKAGE.glob("games/*/web/*.js")),
]
INLINE = {
    "an inline script": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),
    "an inline event handler": re.compile(r"<[^>]+\son[a-z]+\s*=", re.I),
    "a style attribute": re.compile(
        r"""(<[^>]+\sstyle\s*=|setAttribute\(\s*["']style["'])""", re.I
    ),
    "a style element": re.compile(r"""<style\b|createElement\(\s*["']style["']""", re.I),
    "a javascript: address": re.compile(r"javascript:", re.I),
    "eval": re.compile(r"\beval\(|new Function\(|set(?:Timeout|Interval)\(\s*[\"'`]"),
    "another site": re.compile(r"""(?:src|href)\s*=\s*["'](?:https?:)?//""", re.I),
}


@pytest.mark.parametrize("path", FRONT_END, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_front_end_has_nothing_the_policy_forbids(path):
    text = path.read_text(encoding="utf-8")
    found = {what for what, pattern in INLINE.items() if pattern.search(text)}
    assert found == set(), f"{path.name}: {found}"
