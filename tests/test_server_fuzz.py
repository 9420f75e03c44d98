"""Fuzzing the server's requests (hypothesis over request shapes, bounded): no answer is
a 5xx, no WebSocket drops, no refused request changes anything, and every answer can be
sent as UTF-8 (a lone surrogate echoed back cannot).

Shapes: JSON bodies of every kind (objects with the API's own fields holding any JSON
value, nested or not, with surrogates, huge numbers, deep nesting), raw bytes, paths with
odd match ids and tokens, and WebSocket messages of every request type with any fields.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from stairgames.server.base.limits import Rate
from stairgames.server.base.store import EventRow, MatchRow
from tests.server_helpers import connect, new_match, receive_until, running, state_at_rest, token_of

FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
PLENTY = Rate(per_minute=100_000, burst=100_000)
"""Rates that let every example reach the app (the limits have their own tests)."""

texts = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["stairs", "city_of_stairs", "ishigaki_race", "twenty_seven", "\ud800"]),
    st.sampled_from(["human", "online", "computer", "computer:easy", "computer:perfect"]),
    st.sampled_from(["mcts:time=3600", "computer:alphabeta", "c3-d4", "pass", "a\udfffb"]),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    texts,
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=12,
)


def _dumps(value: Any) -> bytes:
    """JSON text of ``value``, lone surrogates kept as ``\\udXXX`` escapes."""
    return json.dumps(value).encode("ascii")


match_bodies = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "game": json_values,
            "options": json_values,
            "seats": st.lists(json_values, max_size=5) | json_values,
        },
    ).map(_dumps),
    json_values.map(_dumps),
    st.binary(max_size=64),
    st.integers(min_value=20, max_value=3000).map(lambda n: b"[" * n + b"]" * n),
)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _counts(client: Any) -> tuple[int, int]:
    """(matches, events) in the database."""
    engine = client.app.state.hub.service.store.engine
    with engine.connect() as connection:
        matches = connection.scalar(select(func.count()).select_from(MatchRow))
        events = connection.scalar(select(func.count()).select_from(EventRow))
    return int(matches or 0), int(events or 0)


@pytest.mark.slow
def test_fuzzed_http_requests_never_answer_5xx_and_refusals_change_nothing(
    tmp_path: Path,
) -> None:
    with running(tmp_path, matches_per_minute=PLENTY, joins_per_minute=PLENTY) as client:
        known = new_match(client, "stairs", ["human", "online"])["match"]

        @FUZZ
        @given(
            body=match_bodies,
            content_type=st.sampled_from(["application/json", "text/html", ""]),
            match_id=st.one_of(st.just(known), st.text(max_size=80)),
            token=st.text(max_size=40),
            route=st.sampled_from(["create", "join", "view", "record", "replay", "i18n"]),
        )
        def check(body: bytes, content_type: str, match_id: str, token: str, route: str) -> None:
            before = _counts(client)
            ident = match_id.encode("utf-8", "surrogatepass").hex() if route == "i18n" else None
            headers = {"content-type": content_type} if content_type else {}
            quoted = _quote(match_id)
            if route == "create":
                response = client.post("/api/matches", content=body, headers=headers)
            elif route == "join":
                response = client.post(f"/api/matches/{quoted}/join", content=b"", headers=headers)
            elif route == "i18n":
                response = client.get(f"/api/i18n/{ident}")
            else:
                suffix = "" if route == "view" else f"/{route}"
                response = client.get(
                    f"/api/matches/{quoted}{suffix}", headers={"x-seat-token": _header_text(token)}
                )
            assert response.status_code < 500, (route, body[:80], response.text[:300])
            assert _encodable(response.text)
            if response.status_code >= 400:
                assert _counts(client) == before, (route, body[:80], response.text[:200])
                assert "error" in response.json()

        check()


def _header_text(text: str) -> str:
    """``text`` as a header may carry it (printable ASCII, as httpx sends headers)."""
    return "".join(c for c in text if " " <= c <= "~").strip()


def _quote(text: str) -> str:
    from urllib.parse import quote

    return quote(text.encode("utf-8", "surrogatepass"), safe="")


ws_messages = st.one_of(
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(
                ["move", "undo", "takeback", "takeback_answer", "resign", "rematch", "sync"]
            )
            | texts
        },
        optional={
            "event": st.integers(min_value=-3, max_value=5) | json_values,
            "move": texts | json_values,
            "accept": json_values,
        },
    ).map(lambda m: json.dumps(m)),
    json_values.map(lambda m: json.dumps(m)),
    st.text(max_size=40),
    st.integers(min_value=20, max_value=3000).map(lambda n: "[" * n + "]" * n),
)


def test_fuzzed_websocket_messages_never_drop_the_socket_and_refusals_change_nothing(
    tmp_path: Path,
) -> None:
    with running(tmp_path, messages_per_second=1e6, message_burst=1e6) as client:
        created = new_match(client, "stairs", ["human", "online"])
        url = f"/ws/matches/{created['match']}?token={token_of(created, 0)}"
        with connect(client, url) as ws:
            state_at_rest(ws)

            @FUZZ
            @given(raw=ws_messages)
            def check(raw: str) -> None:
                ws.send_json({"type": "sync"})
                event = state_at_rest(ws)["event"]
                ws.send_text(raw)
                reply = receive_until(ws, lambda m: m["type"] in ("state", "error"))
                assert _encodable(json.dumps(reply, ensure_ascii=False)), reply
                if reply["type"] == "error":
                    assert reply["error"]["code"] and reply["error"]["id"], reply
                    ws.send_json({"type": "sync"})
                    assert state_at_rest(ws)["event"] == event, raw

            check()
            ws.send_json({"type": "sync"})  # still open after every example
            assert state_at_rest(ws)["type"] == "state"
