"""When the database cannot be reached (issue 55, first finding): requests are answered
503 with ``Retry-After`` and sockets closed with 4503, each with the code
``database_unavailable``, and the log says so once an outage (a line, then a summary
when it answers again), never a traceback a request."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError
from starlette.websockets import WebSocketDisconnect

from stairgames.server.base.outages import RETRY_SECONDS, SOCKET_CLOSE_CODE, OutageLog
from tests.server_helpers import JSON, new_match, running

OUTAGE_LOGGER = "stairgames.server.base.outages"


def down(*_args: Any, **_kwargs: Any) -> Any:
    """What a database call raises while the database is down."""
    raise OperationalError("SELECT 1", {}, ConnectionRefusedError("connection refused"))


def outage_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == OUTAGE_LOGGER]


def test_requests_in_an_outage_are_answered_503_and_logged_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.INFO)
    with running(tmp_path) as client:
        store = client.app.state.tournaments.store  # type: ignore[attr-defined]
        monkeypatch.setattr(store, "listing", down)
        answers = [client.get("/api/tournaments") for _ in range(5)]
        for answer in answers:
            assert answer.status_code == 503
            assert answer.headers["retry-after"] == str(RETRY_SECONDS)
            assert answer.json()["error"]["code"] == "database_unavailable"
        assert len(outage_lines(caplog)) == 1
        assert not [r for r in caplog.records if r.exc_info], "no traceback a request"
        monkeypatch.undo()
        assert client.get("/readyz").status_code == 200  # it answers again
        assert client.get("/api/tournaments").status_code == 200
    lines = outage_lines(caplog)
    assert len(lines) == 2 and "5 requests and sockets were refused" in lines[1].getMessage()


def test_a_socket_in_an_outage_is_told_and_closed_to_try_again(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.INFO)
    with running(tmp_path) as client:
        match = new_match(client, "stairs", ["human", "online"], size=4)["match"]
        hub = client.app.state.hub  # type: ignore[attr-defined]
        monkeypatch.setattr(hub.service, "get_async", down)
        monkeypatch.setattr(hub.service, "get", down)
        for _ in range(3):
            with client.websocket_connect(f"/ws/matches/{match}") as ws:
                message = ws.receive_json()
                assert message["type"] == "error"
                assert message["error"]["code"] == "database_unavailable"
                with pytest.raises(WebSocketDisconnect) as closed:
                    ws.receive_json()
                assert closed.value.code == SOCKET_CLOSE_CODE
        assert len(outage_lines(caplog)) == 1
        assert not [r for r in caplog.records if r.exc_info], "no traceback a socket"
        monkeypatch.undo()
        with client.websocket_connect(f"/ws/matches/{match}") as ws:
            assert ws.receive_json()["type"] in {"state", "presence"}
        assert client.get("/api/games", headers=JSON).status_code == 200
    lines = outage_lines(caplog)
    assert len(lines) == 2 and "3 requests and sockets were refused" in lines[1].getMessage()


def kept(outages: OutageLog) -> tuple[float | None, int]:
    """When the outage began and how many were refused since (``None``: no outage)."""
    return outages.since, outages.refused


def test_the_outage_log_sums_up_each_outage_apart() -> None:
    now = [100.0]
    outages = OutageLog(clock=lambda: now[0])
    outages.answered()  # no outage: nothing to say
    assert kept(outages) == (None, 0)
    outages.failed(OperationalError("x", {}, OSError()))
    outages.failed(OperationalError("x", {}, OSError()))
    assert kept(outages) == (100.0, 2)
    now[0] = 107.5
    outages.answered()
    assert kept(outages) == (None, 0)
