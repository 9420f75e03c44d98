"""Issue 33: ``/healthz``, ``/readyz`` and ``/metrics`` (Prometheus's text format).

The fan-out's part of readiness (PostgreSQL) is in ``test_server_fanout_postgresql.py``.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from fastapi.testclient import TestClient
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text

from stairgames.server.base.store import EventConflictError, EventRecord
from stairgames.server.ops.health import Metrics
from tests.server_helpers import (
    JSON,
    connect,
    new_match,
    receive_until,
    running,
    seat_get,
    state_at_rest,
    token_of,
)


def samples(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics``: (name, sorted labels) -> value."""
    reply = client.get("/metrics")
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("text/plain")
    found = {}
    for family in text_string_to_metric_families(reply.text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(
    found: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str
) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


def test_healthz_and_readyz_on_sqlite(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        assert client.get("/healthz").json() == {"ok": True}
        ready = client.get("/readyz")
        assert ready.status_code == 200
        assert ready.json() == {"ok": True, "checks": {"database": True, "migrations": True}}


def test_readyz_says_which_check_failed(tmp_path: Path) -> None:
    """A database whose schema is not the server's newest is not ready (503)."""
    with running(tmp_path) as client:
        engine = client.app.state.engine  # type: ignore[attr-defined]
        with engine.begin() as connection:
            old = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
            connection.execute(text("UPDATE alembic_version SET version_num = 'old'"))
        try:
            ready = client.get("/readyz")
            assert ready.status_code == 503
            assert ready.json() == {
                "ok": False,
                "checks": {"database": True, "migrations": False},
                "failed": ["migrations"],
            }
            assert client.get("/healthz").status_code == 200  # the process is up all the same
        finally:
            with engine.begin() as connection:
                connection.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": old})
        assert client.get("/readyz").status_code == 200


def test_metrics_count_requests_moves_sockets_and_computers_and_name_no_one(
    tmp_path: Path,
) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "computer:random"])
        match, token = created["match"], token_of(created, 0)
        assert seat_get(client, f"/api/matches/{match}?token={token}").status_code == 200
        assert client.get("/api/matches/nosuchmatch").status_code == 404
        with connect(client, f"/ws/matches/{match}?token={token}") as ws:
            view = state_at_rest(ws)
            ws.send_json({"type": "move", "move": view["legal"][0], "event": view["event"]})
            receive_until(ws, lambda m: m["type"] == "state" and m["event"] >= 2)
            during = samples(client)
            exposition = client.get("/metrics").text
        after = samples(client)
    requests = "stairgames_http_requests_total"
    assert value(during, requests, method="POST", route="/api/matches", status="200") == 1
    assert value(during, requests, method="GET", route="/api/matches/{match_id}", status="200") == 1
    assert value(during, requests, method="GET", route="/api/matches/{match_id}", status="404") == 1
    assert (
        value(during, "stairgames_moves_total", game="stairs") == 2
    )  # the person's, the computer's
    assert value(during, "stairgames_websocket_connections", viewer="seat") == 1
    assert value(during, "stairgames_websocket_connections", viewer="spectator") == 0
    assert value(after, "stairgames_websocket_connections", viewer="seat") == 0
    assert value(during, "stairgames_matches_in_memory") == 1
    assert value(during, "stairgames_computer_jobs") == 0
    announced = "stairgames_move_announce_seconds_count"
    assert value(during, announced, game="stairs", origin="here") == 2
    carried = "stairgames_socket_request_seconds_count"  # the person's move: one request
    assert value(during, carried, type="move") == 1
    thinking = "stairgames_computer_thinking_seconds_count"
    assert value(during, thinking, game="stairs", player="random") == 1
    assert match not in exposition and token not in exposition  # no ids, no secrets


def test_database_errors_are_counted(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "online"])
        client.post(f"/api/matches/{created['match']}/join", headers=JSON)
        store = client.app.state.hub.service.store  # type: ignore[attr-defined]
        with pytest.raises(EventConflictError):  # event 1 is the join: taken
            store.append_events(created["match"], [EventRecord(1, "move", 0, {"move": "x"})])
        found = samples(client)
    assert value(found, "stairgames_database_errors_total", error="IntegrityError") == 1


def test_each_app_has_its_own_registry(tmp_path: Path) -> None:
    with running(tmp_path / "a") as first, running(tmp_path / "b") as second:
        first.get("/healthz")
        found = samples(second)
    assert (
        value(found, "stairgames_http_requests_total", method="GET", route="/healthz", status="200")
        == 0
    )


# ----- issue 55: what an operator needs of each process -----------------------------------


def test_metrics_tell_the_process_request_times_loop_lag_and_database_pool(
    tmp_path: Path,
) -> None:
    from tests.postgresql_helpers import wait_for

    with running(tmp_path) as client:
        assert client.get("/api/games").status_code == 200
        wait_for(
            lambda: samples(client).get(("stairgames_event_loop_lag_seconds_count", ()), 0) >= 1,
            20,
            "the event loop's lag measured",
        )
        seen = samples(client)
    names = {name for name, _labels in seen}
    assert {"process_cpu_seconds_total", "process_resident_memory_bytes"} <= names
    assert {"process_open_fds", "process_max_fds"} <= names
    games = (("method", "GET"), ("route", "/api/games"))
    assert seen[("stairgames_http_request_seconds_count", games)] >= 1
    pool = {labels for name, labels in seen if name == "stairgames_database_pool_connections"}
    assert pool == {(("state", "idle"),), (("state", "in_use"),), (("state", "overflow"),)}


def test_refused_websockets_are_counted_by_route_and_code(tmp_path: Path) -> None:
    with running(tmp_path, max_connections_per_client=1) as client:
        created = new_match(client, "stairs", ["human", "human"])
        url = f"/ws/matches/{created['match']}?token={token_of(created, 0)}"
        with connect(client, url) as first:
            state_at_rest(first)
            with connect(client, url) as second:  # one connection a client: the second refused
                assert second.receive_json()["error"]["code"] == "too_many_connections"
        refused = {
            labels: value
            for (name, labels), value in samples(client).items()
            if name == "stairgames_websocket_refusals_total"
        }
    assert list(refused) and all(
        dict(labels)["route"] == "/ws/matches/{match_id}" for labels in refused
    )
    assert sum(refused.values()) == 1


def test_a_worker_labels_every_sample(tmp_path: Path) -> None:
    with running(tmp_path, metrics_worker="4242") as client:
        client.get("/healthz")
        text_ = client.get("/metrics").text
    families = list(text_string_to_metric_families(text_))
    assert families and all(
        sample.labels.get("worker") == "4242" for family in families for sample in family.samples
    )


def _announce_counts(metrics: Metrics) -> dict[str, float]:
    """The announcements timed so far, by origin (Stairs)."""
    counts: dict[str, float] = {}
    for family in text_string_to_metric_families(generate_latest(metrics.registry).decode()):
        for sample in family.samples:
            if sample.name == "stairgames_move_announce_seconds_count":
                counts[sample.labels["origin"]] = sample.value
    return counts


def test_a_move_heard_from_elsewhere_while_one_made_here_waits_is_timed_apart() -> None:
    """Defect: under load a move made through another process was heard (event 4) while
    this process still announced its own (event 3); the one pending entry of the match
    kept the first, and the other process's move was never counted."""
    metrics = Metrics()
    match = SimpleNamespace(id="m1", game_name="stairs", event=3)
    record = EventRecord(number=3, kind="move", seat=1, data={})
    metrics.committed(match, [record])  # type: ignore[arg-type]
    metrics.notified("m1", 4)  # heard before event 3's announcement ended
    metrics.announced(match)  # type: ignore[arg-type]
    assert _announce_counts(metrics) == {"here": 1.0}
    match.event = 4
    metrics.announced(match)  # type: ignore[arg-type]
    assert _announce_counts(metrics) == {"here": 1.0, "elsewhere": 1.0}
    metrics.announced(match)  # type: ignore[arg-type]  # nothing left to time
    assert _announce_counts(metrics) == {"here": 1.0, "elsewhere": 1.0}
