"""The server against hostile requests: malformed text, endless bodies, floods of
requests, half-sent headers, server paths, and what a finished game reveals.

Each test names the finding of the hardening issue it covers. The app runs for real:
FastAPI's test client for HTTP and WebSocket, uvicorn on loopback (configured as
``stairgames serve`` runs it) where the transport itself is under test.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stairgames.games.city_of_stairs.cards import default_cards_text
from stairgames.server.app import create_app
from stairgames.server.base.limits import ClientRates, Rate
from stairgames.server.base.settings import Settings
from tests.browser_helpers import serving
from tests.server_helpers import (
    FakeClock,
    connect,
    error_reply,
    migrate_together,
    new_match,
    running,
    seat_get,
    state_at_rest,
    token_of,
)

MALFORMED = "malformed_body"


def _encodable(message: dict[str, Any]) -> bool:
    """Whether a message can be sent as UTF-8 (a lone surrogate cannot)."""
    try:
        json.dumps(message, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _upload(client: Any, body: bytes) -> Any:
    """``POST /api/cards`` as the page sends it."""
    return client.post("/api/cards", content=body, headers={"content-type": "application/toml"})


# ----- finding 3: malformed input gets a 4xx, never a 500 or a dropped socket --------


@pytest.mark.parametrize(
    "body",
    [
        b'{"game": "\\ud800", "options": {}, "seats": ["human", "human"]}',
        b'{"game": "stairs", "options": {"\\udfff": 1}, "seats": ["human", "human"]}',
        b'{"game": "stairs", "options": {}, "seats": ["human", "\\udc00uman"]}',
        b"[" * 2000 + b"]" * 2000,
        b'{"a": ' + b"[" * 1500 + b"]" * 1500 + b"}",
    ],
    ids=["surrogate-game", "surrogate-key", "surrogate-seat", "deep-array", "deep-in-object"],
)
def test_finding_3_malformed_json_is_answered_400_and_creates_nothing(
    tmp_path: Path, body: bytes
) -> None:
    with running(tmp_path) as client:
        response = client.post(
            "/api/matches", content=body, headers={"content-type": "application/json"}
        )
        assert response.status_code == 400, response.text
        assert response.json()["error"]["code"] == MALFORMED
        assert client.app.state.hub.service.cached_ids() == set()  # type: ignore[attr-defined]


def test_finding_3_malformed_websocket_messages_are_refused_and_the_socket_stays_open(
    tmp_path: Path,
) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "human"])
        url = f"/ws/matches/{created['match']}?token={token_of(created, 0)}"
        with connect(client, url) as ws:
            start = state_at_rest(ws)
            for raw in (
                '{"type": "\\ud800"}',
                '{"type": "move", "move": "a\\udfffb-c", "event": 0}',
                "[" * 2000 + "]" * 2000,
                '{"type": "move", "move": ' + "[" * 30 + "]" * 30 + ', "event": 0}',
            ):
                ws.send_text(raw)
                reply = error_reply(ws)
                assert reply["error"]["code"] == MALFORMED and _encodable(reply), reply
            ws.send_json({"type": "sync"})
            assert state_at_rest(ws)["event"] == start["event"]  # still open, unchanged


@pytest.mark.parametrize(
    "text",
    ["a = " + "[" * 20000, "x = " + "{a = " * 5000, "[lighthouse]\npoints = nan"],
    ids=["deep-arrays", "deep-tables", "nan"],
)
@pytest.mark.slow
def test_finding_3_hostile_card_files_are_refused_400(tmp_path: Path, text: str) -> None:
    with running(tmp_path) as client:
        response = _upload(client, text.encode())
        assert response.status_code == 400, response.text
        assert "error" in response.json()


def test_finding_3_an_error_quoting_nan_is_valid_json(tmp_path: Path) -> None:
    bad = default_cards_text().replace("points = 3", "points = nan")
    with running(tmp_path) as client:
        response = _upload(client, bad.encode())
    assert response.status_code == 400
    assert "nan" in json.dumps(response.json()["error"]["args"])


# ----- finding 4: a body is read only up to the limit ---------------------------------


def _raw_request(base: str, head: bytes, then: bytes = b"", *, timeout: float = 20) -> bytes:
    """Send ``head`` (and ``then``) to the server at ``base`` and read until it closes."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=timeout) as connection:
        connection.sendall(head + then)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
        return answer


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[str]:
    settings = Settings(
        data_dir=tmp_path, computer_workers=0, static_dir=tmp_path, header_timeout_seconds=0.5
    )
    with serving(create_app(settings), settings) as base:
        yield base


def test_finding_4_a_chunked_body_is_refused_once_past_the_limit_without_its_end(
    served: str,
) -> None:
    head = (
        b"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    chunk = b"x" * 4096
    chunks = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for _ in range(4))
    # the body never ends: the server must answer without waiting for the rest
    answer = _raw_request(served, head, chunks)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"the message is too large" in answer


def test_finding_4_a_declared_length_over_the_limit_is_refused_before_reading(
    served: str,
) -> None:
    head = (
        b"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 200000000\r\n\r\n"
    )
    assert _raw_request(served, head).startswith(b"HTTP/1.1 413")


# ----- finding 6: rates per client, slow headers --------------------------------------


def test_finding_6_match_creations_are_limited_per_client_with_retry_after(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    with running(tmp_path, clock=clock, matches_per_minute=Rate(per_minute=6, burst=3)) as client:
        for _ in range(3):
            new_match(client, "stairs", ["human", "human"])
        refused = client.post(
            "/api/matches", json={"game": "stairs", "options": {}, "seats": ["human", "human"]}
        )
        assert refused.status_code == 429, refused.text
        assert refused.headers["retry-after"] == "10"
        assert refused.json()["error"]["code"] == "too_many_requests"
        assert len(client.app.state.hub.service.cached_ids()) == 3  # type: ignore[attr-defined]
        clock.now += 10  # one more a minute / 6
        new_match(client, "stairs", ["human", "human"])
        # other requests are not counted against it
        assert client.get("/api/games").status_code == 200


def test_finding_6_card_uploads_are_limited_per_client(tmp_path: Path) -> None:
    clock = FakeClock()
    text = default_cards_text().encode()
    limit = Rate(per_minute=2, burst=2)
    with running(tmp_path, clock=clock, card_uploads_per_minute=limit) as client:
        assert [_upload(client, text).status_code for _ in range(3)] == [
            200,
            200,
            429,
        ]


def test_finding_6_each_client_has_its_own_allowance() -> None:
    clock = FakeClock()
    rates = ClientRates({"matches": Rate(per_minute=60, burst=1)}, clock=clock)
    assert rates.take("matches", "10.0.0.1") == 0.0
    assert rates.take("matches", "10.0.0.1") == pytest.approx(1.0)
    assert rates.take("matches", "10.0.0.2") == 0.0
    assert rates.take("other", "10.0.0.1") == 0.0  # a kind without a rate is not limited
    clock.now += 1.0
    assert rates.take("matches", "10.0.0.1") == 0.0


def test_finding_6_forgotten_buckets_keep_memory_bounded() -> None:
    clock = FakeClock()
    rates = ClientRates({"matches": Rate(per_minute=60, burst=1)}, clock=clock, keep=100)
    for client in range(1000):
        rates.take("matches", f"10.0.{client // 256}.{client % 256}")
        clock.now += 1.0  # each earlier client's bucket refills in a second
    assert len(rates._buckets) <= 100


@pytest.mark.slow
def test_finding_6_a_connection_that_never_finishes_its_headers_is_closed(served: str) -> None:
    # half a request, then nothing: the server closes the connection (the read below
    # waits for that, up to the socket's own 20 s limit)
    answer = _raw_request(served, b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    assert answer == b""


def test_finding_6_a_connection_that_sends_nothing_is_closed(served: str) -> None:
    assert _raw_request(served, b"") == b""


def test_finding_6_a_whole_request_still_answers_on_that_server(served: str) -> None:
    answer = _raw_request(
        served, b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    assert answer.startswith(b"HTTP/1.1 200")


# ----- finding 7: no server path in any view or record ---------------------------------


def test_finding_7_an_uploaded_card_set_shows_its_id_never_a_server_path(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        card_id = _upload(client, default_cards_text().encode()).json()["cards"]
        created = new_match(client, "city_of_stairs", ["human", "online"], players=2, cards=card_id)
        match = created["match"]
        answers = [
            client.get(f"/api/matches/{match}").text,
            seat_get(client, f"/api/matches/{match}?token={token_of(created, 0)}").text,
            client.get(f"/api/matches/{match}/record").text,
            seat_get(client, f"/api/matches/{match}/record?token={token_of(created, 0)}").text,
        ]
        with connect(client, f"/ws/matches/{match}") as ws:
            answers.append(json.dumps(state_at_rest(ws)))
        assert client.get(f"/api/matches/{match}").json()["options"]["cards"] == card_id
        assert client.get(f"/api/matches/{match}/record").json()["options"]["cards"] == card_id
    for answer in answers:
        assert str(tmp_path) not in answer and ".toml" not in answer, answer[:300]


# ----- finding 10: a resigned game reveals the same in its record and its replay -------


def test_finding_10_a_resigned_hidden_card_game_has_a_full_record_like_its_replay(
    tmp_path: Path,
) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "city_of_stairs", ["human", "online"], players=2)
        match, token = created["match"], token_of(created, 0)
        with connect(client, f"/ws/matches/{match}?token={token}") as ws:
            view = state_at_rest(ws)
            ws.send_json({"type": "resign", "event": view["event"]})
            ended = state_at_rest(ws)
            while not ended["result"]:
                ended = state_at_rest(ws)
        for viewer in ({}, {"x-seat-token": token}):
            record = client.get(f"/api/matches/{match}/record", headers=viewer).json()
            frames = client.get(f"/api/matches/{match}/replay", headers=viewer).json()["frames"]
            assert record["view"] == "full" and isinstance(record["seed"], int)
            assert not any("?" in move for move in record["moves"]), record["moves"]
            assert record["moves"] == [frame["move"] for frame in frames[1:]]


# ----- finding 8: migrations under a lock ---------------------------------------------


def test_finding_8_servers_starting_together_on_an_empty_sqlite_file_all_migrate_it(
    tmp_path: Path,
) -> None:
    """(PostgreSQL's advisory lock: ``tests/test_server_postgresql.py``.)"""

    from stairgames.server.base.store import default_database_url, make_engine
    from stairgames.server.migrations import HEAD, current_revision

    engines = [make_engine(default_database_url(tmp_path)) for _ in range(4)]
    failures = migrate_together(engines)
    assert failures == [] and current_revision(engines[0]) == HEAD
    for engine in engines:
        engine.dispose()


def test_finding_3_a_request_that_fails_inside_the_server_keeps_the_socket_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from stairgames.server.play.matches import MatchService

    def broken(*_args: Any) -> None:
        raise RuntimeError("a bug")

    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "human"])
        url = f"/ws/matches/{created['match']}?token={token_of(created, 0)}"
        with connect(client, url) as ws:
            view = state_at_rest(ws)
            monkeypatch.setattr(MatchService, "resign", broken)
            ws.send_json({"type": "resign", "event": view["event"]})
            reply = error_reply(ws)
            assert reply["error"]["code"] == "server_error"
            monkeypatch.undo()
            ws.send_json({"type": "move", "move": view["legal"][0], "event": view["event"]})
            assert state_at_rest(ws)["history"] == [view["legal"][0]]
    assert "a bug" in caplog.text


def test_a_head_request_for_a_page_answers_like_get_without_a_body(tmp_path: Path) -> None:
    """``curl -I`` and link checkers ask for pages with HEAD (it was 405)."""
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>x</title>")
    with running(tmp_path, static_dir=static) as client:
        for path in ("/", "/m/anything"):
            head, get = client.head(path), client.get(path)
            assert head.status_code == get.status_code == 200
            assert head.content == b"" and head.headers["content-type"].startswith("text/html")
