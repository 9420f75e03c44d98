"""The contract between the server and the page, in code (``server/base/contract.py``):
every JSON route declares its body and its answer, the OpenAPI document at
``/api/openapi.json`` types them, a body that does not fit is refused in the API's
error body, and every message the match's WebSocket sends in a played game fits its
model."""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Request
from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationError

from stairgames.server.base.contract import Body, ContractRoute, answers, body_model
from stairgames.server.lobby.contract import LobbyMessage
from stairgames.server.ops.contract import MATCH_SOCKET_MESSAGES
from stairgames.server.play.contract import EVENT_TYPES, REQUEST_TYPES, read_event
from stairgames.server.play.match import _FOLDS
from stairgames.server.play.routes import _CARRY_OUT
from tests.server_helpers import connect, new_match, running, token_of

NOT_JSON = {
    ("GET", "/metrics"),  # Prometheus's text
    ("GET", "/games/{game}/{name}"),  # a game's board.js and board.css
    ("POST", "/api/cards"),  # a card file's text in, play/card_files.py (its own helper)
}
"""Routes whose request or answer is not JSON (the pages are left out by their
method: ``GET`` and ``HEAD`` of ``index.html``)."""
NO_BODY = {
    ("POST", "/api/matches/{match_id}/join"),
    ("POST", "/api/challenges/{match_id}/accept"),
    ("POST", "/api/challenges/{match_id}/decline"),
    ("DELETE", "/api/challenges/{match_id}"),
    ("POST", "/api/logout"),
    ("DELETE", "/api/account/tokens/{token_id}"),
    ("POST", "/api/bot/account/upgrade"),
    ("DELETE", "/api/matches/{match_id}/plans"),
    ("POST", "/unsubscribe"),  # a mail program's one-click unsubscribe: a form body (RFC 8058)
}
"""State-changing routes that read no JSON body."""


class Named(Body):
    """The body of the example's typed route."""

    name: str


def untyped_routes(app: FastAPI) -> list[str]:
    """Each JSON route of ``app`` without a typed answer, or state-changing without a
    typed body (:class:`Body`) where it reads one."""
    found = []
    for route in app.routes:
        if not isinstance(route, APIRoute):
            continue
        for method in sorted((route.methods or set()) - {"HEAD"}):
            key = (method, route.path)
            if key in NOT_JSON or (not route.include_in_schema and _is_page(route)):
                continue
            if not _is_model(route.response_model):
                found.append(f"{method} {route.path}: no typed answer")
            if method != "GET" and key not in NO_BODY and body_model(route) is None:
                found.append(f"{method} {route.path}: no typed body")
    return found


def _is_model(declared: object) -> bool:
    """Whether ``declared`` is a pydantic model, or a list of one (FastAPI takes a
    route's return annotation, ``dict[str, Any]`` say, when it declares none)."""
    if isinstance(declared, type):
        return issubclass(declared, BaseModel)
    return typing.get_origin(declared) is list and _is_model(typing.get_args(declared)[0])


def _is_page(route: APIRoute) -> bool:
    return route.methods == {"GET", "HEAD"}


def test_every_json_route_declares_its_body_and_answer(tmp_path: Path) -> None:
    with running(tmp_path) as client:  # (started: the routes added as it starts too)
        assert isinstance(client.app, FastAPI)
        assert untyped_routes(client.app) == []


def test_a_route_without_models_is_found() -> None:
    app = FastAPI()
    app.router.route_class = ContractRoute

    @app.post("/api/untyped")
    async def untyped(request: Request) -> dict[str, Any]:
        return {}

    @app.post("/api/typed", **answers(Named))
    async def typed(body: Named) -> dict[str, Any]:
        return {"name": body.name}

    @app.get("/api/no-answer")
    async def no_answer(request: Request) -> Any:
        return {}

    assert untyped_routes(app) == [
        "POST /api/untyped: no typed answer",
        "POST /api/untyped: no typed body",
        "GET /api/no-answer: no typed answer",
    ]


def test_the_openapi_document_types_every_request_and_answer(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        document = client.get("/api/openapi.json").json()
        assert client.get("/openapi.json").status_code == 404
    paths = document["paths"]
    created = paths["/api/matches"]["post"]
    body = created["requestBody"]["content"]["application/json"]["schema"]
    assert body == {"$ref": "#/components/schemas/NewMatch"}
    answer = created["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer == {"$ref": "#/components/schemas/MatchCreated"}
    error = created["responses"]["4XX"]["content"]["application/json"]["schema"]
    assert error == {"$ref": "#/components/schemas/ErrorAnswer"}
    detail = document["components"]["schemas"]["ErrorDetail"]["properties"]
    assert set(detail) == {"code", "id", "message", "args"}
    for path, operations in paths.items():
        for method, operation in operations.items():
            content = operation["responses"]["200"]["content"].get("application/json", {})
            schema = content.get("schema", {})
            if (method.upper(), path) in NOT_JSON or "schema" not in content:
                # (a page's HTML says no schema: GET /unsubscribe's)
                continue
            assert schema.get("$ref") or schema.get("type") == "array", (method, path, schema)


@pytest.mark.parametrize(
    ("body", "message_id"),
    [
        ({"seats": ["human", "human"]}, "a match needs a game name and an object of options"),
        ({"game": 7, "seats": []}, "a match needs a game name and an object of options"),
        ({"game": "stairs", "options": [1]}, "a match needs a game name and an object of options"),
        ({"game": "stairs", "seats": "human"}, "a match needs a list of seats"),
        ({}, "a match needs a game name and an object of options"),
    ],
)
def test_a_body_that_does_not_fit_its_model_keeps_its_refusal(
    tmp_path: Path, body: dict[str, Any], message_id: str
) -> None:
    with running(tmp_path) as client:
        reply = client.post("/api/matches", json=body)
    assert reply.status_code == 400
    assert reply.json()["error"]["id"] == message_id


def test_a_body_is_checked_before_it_is_parsed(tmp_path: Path) -> None:
    deep = "[" * 40 + "]" * 40
    with running(tmp_path) as client:
        reply = client.post(
            "/api/matches",
            content=f'{{"game": "stairs", "seats": {deep}}}',
            headers={"content-type": "application/json"},
        )
        empty = client.post("/api/login", headers={"content-type": "application/json"})
    assert reply.status_code == 400
    assert reply.json()["error"]["args"]["reason"] == "nested deeper than 16"
    assert empty.status_code == 401  # read as {}: no name, no password


def test_every_event_and_request_has_its_handler() -> None:
    assert set(_FOLDS) == set(EVENT_TYPES)
    assert set(_CARRY_OUT) == set(REQUEST_TYPES)
    with pytest.raises(ValidationError):
        read_event("castle", {})


def test_every_message_of_a_played_game_fits_its_model(tmp_path: Path) -> None:
    sent: list[dict[str, Any]] = []

    def receive(socket: Any) -> dict[str, Any]:
        message: dict[str, Any] = socket.receive_json()
        sent.append(message)
        return message

    with running(tmp_path) as client:
        created = new_match(client, "stairs", ["human", "random"], size=4)
        match, token = created["match"], token_of(created, 0)
        with connect(client, f"/ws/matches/{match}?token={token}") as socket:
            state = receive(socket)
            while state["result"] is None:
                if state["type"] == "state" and state["to_act"] == 0 and not state["thinking"]:
                    move = {"type": "move", "move": state["legal"][0], "event": state["event"]}
                    socket.send_json(move)
                state = receive(socket)
                while state["type"] != "state":
                    state = receive(socket)
            socket.send_json({"type": "bogus"})
            receive(socket)
            said = client.post(
                f"/api/matches/{match}/chat",
                json={"phrase": "hello"},
                headers={"x-seat-token": token},
            )
            assert said.status_code == 200, said.text
            while sent[-1]["type"] != "chat":
                receive(socket)
        with client.websocket_connect("/ws/lobby") as lobby:
            LobbyMessage.model_validate(lobby.receive_json())
    assert {"state", "error", "chat"} <= {message["type"] for message in sent}
    for message in sent:
        MATCH_SOCKET_MESSAGES.validate_python(message)


def test_every_message_of_a_players_channel_fits_its_model(tmp_path: Path) -> None:
    """``/ws/me`` (``server/chat/told.py``): the count, a turn, a mention and the end."""
    from stairgames.server.chat.told_contract import ME_MESSAGES
    from stairgames.server.people.players import COOKIE

    sent: list[dict[str, Any]] = []
    with running(tmp_path) as client:
        _made, secret = client.app.state.players.create("Ann")  # type: ignore[attr-defined]
        ann = {"cookie": f"{COOKIE}={secret}", "content-type": "application/json"}
        body = {"game": "stairs", "options": {"size": 4}, "seats": ["human", "computer:random"]}
        match = client.post("/api/matches", json=body, headers=ann).json()["match"]
        with client.websocket_connect("/ws/me", headers=ann) as me:
            sent.append(me.receive_json())
            with connect(client, f"/ws/matches/{match}", headers=ann) as socket:
                state = socket.receive_json()
                while state["type"] != "state" or state["thinking"]:
                    state = socket.receive_json()
                socket.send_json(
                    {"type": "move", "move": state["legal"][0], "event": state["event"]}
                )
                while sent[-1]["type"] != "your_turn":
                    sent.append(me.receive_json())
                client.post(f"/api/matches/{match}/chat", json={"text": "@Ann"}, headers=ann)
                socket.send_json({"type": "resign", "event": None})
                while sent[-1]["type"] != "ended":
                    sent.append(me.receive_json())
        with client.websocket_connect("/ws/me") as nobody:
            sent.append(nobody.receive_json())
    assert {"me", "your_turn", "ended", "error"} <= {message["type"] for message in sent}
    for message in sent:
        ME_MESSAGES.validate_python(message)
