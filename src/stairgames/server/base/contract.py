"""The contract between the server and the page, in code: pydantic models of what a
route reads and answers, so that FastAPI's OpenAPI document (``/api/openapi.json``)
types every request and answer (docs/web.md, "The contract").

Each domain keeps its models in its own ``contract.py`` (``play/contract.py``,
``lobby/contract.py``...), built on the pieces here:

- :class:`Body`, a request's JSON body: strict (a field of JSON type ``number`` takes no
  ``"3"``, one of type ``boolean`` no ``1``: as the hand-written checks before it did),
  unknown fields ignored; its :attr:`Body.refusals` say which message id a wrong field
  is refused with (400), so that a body that does not fit is answered as before, in the
  API's error body, never FastAPI's 422.
- :class:`Answer`, a JSON answer (or a message the server sends): every field named
  (an unknown one fails, where the server validates it, rather than reach the page
  untyped); a game's own shapes (its board, its record) are a :data:`JsonObject` field.
- :class:`ErrorAnswer`, the body of every refusal: ``{"error": {"code", "id",
  "message", "args"}}`` (:func:`stairgames.server.base.errors.error_json`).
- :func:`answers`, what a route's decorator says of its answer.

A route declares both::

    @app.post("/api/matches", **answers(MatchCreated))
    async def create(body: NewMatch, request: Request) -> dict[str, Any]:
        ...

FastAPI reads the body into ``NewMatch`` and types it in the OpenAPI document; the
answer is validated against ``MatchCreated`` and written as given (a key the route
leaves out stays out: ``response_model_exclude_unset``). A route answering with a
``Response`` of its own (a cookie set, a download) declares its model all the same:
the document types it, and the tests check the bodies against it.

The body's limits stay in front of the parsing: the request limits' middleware
(``base/limits.py``) bounds its size, and :class:`ContractRoute`, the class of every
route of the app, checks its nesting and its text (:func:`parse_object`) before
FastAPI or pydantic read it; an empty body is the empty object, as it always was.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any, ClassVar

from fastapi import Request, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict

from stairgames.server.base.bodies import malformed, parse_object
from stairgames.server.base.errors import ServerError

JsonObject = dict[str, Any]
"""A JSON object whose shape is not the server's to say: a game's board, its options,
the arguments of a message (its values not checked one by one: a game's board is
large, and its shape the game's own)."""


Refusals = Mapping[str, "str | Callable[[], ServerError]"]
"""What each field of a :class:`Body` is refused with (:attr:`Body.refusals`)."""


class Body(BaseModel):
    """A request's JSON body (see the module's text)."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    refusals: ClassVar[Refusals] = {}
    """What a body is refused with when this field (the first wrong one, in the order
    of the fields) is missing or of the wrong type: a message id (400), or the refusal
    itself (another status, or arguments: :func:`refused_by`); a field not named here
    is refused as a malformed message."""

    @classmethod
    def refusal(cls, errors: Sequence[Mapping[str, Any]]) -> ServerError:
        """The 400 that a body with ``errors`` (pydantic's, their ``loc`` within the
        body) is answered with."""
        first = errors[0] if errors else None
        field = str(first["loc"][0]) if first is not None and first["loc"] else ""
        refusal = cls.refusals.get(field)
        if isinstance(refusal, str):
            return ServerError(400, refusal)
        if refusal is not None:
            return refusal()
        if first is None:
            return malformed("not a JSON object")
        where = ".".join(str(part) for part in first["loc"])
        return malformed(f"{where}: {first['msg']}" if where else first["msg"])


class NoFields(Body):
    """The body of a route that asks nothing: any JSON object (or none)."""


def refused_by(check: Callable[[object], object]) -> Callable[[], ServerError]:
    """The refusal :attr:`Body.refusals` gives a field: the one ``check`` (the route's
    check of the field's value, ``clean_password`` say) raises for a missing value."""

    def refusal() -> ServerError:
        try:
            check(None)
        except ServerError as exc:
            return exc
        raise AssertionError(f"{check.__name__} takes a missing value")

    return refusal


class Answer(BaseModel):
    """A JSON answer, or a message the server sends (see the module's text)."""

    model_config = ConfigDict(extra="forbid")


class ErrorDetail(Answer):
    """Why a request was refused: ``code`` to match (``base/error_codes.py``), ``id``
    the message to translate with ``args``, ``message`` the English for programmers."""

    code: str
    id: str
    message: str
    args: JsonObject


class ErrorAnswer(Answer):
    """The body of every refusal (any status of 400 and above)."""

    error: ErrorDetail


class Ok(Answer):
    """``{"ok": true}``: done, nothing more to say."""

    ok: bool


ERROR_ANSWERS: dict[int | str, dict[str, Any]] = {
    "4XX": {"model": ErrorAnswer, "description": "Refused"},
    "5XX": {"model": ErrorAnswer, "description": "The server failed"},
}
"""The refusals every route may answer, for the OpenAPI document."""


def answers(model: type[BaseModel] | Any) -> dict[str, Any]:
    """What a route's decorator says of its answer: ``model`` (a model, or a type of
    models such as ``list[Row]``), written as the route gave it (keys it left out stay
    out), and the :class:`ErrorAnswer` of its refusals."""
    return {
        "response_model": model,
        "response_model_exclude_unset": True,
        "responses": ERROR_ANSWERS,
    }


def body_model(route: object) -> type[Body] | None:
    """The :class:`Body` model ``route`` reads, if it reads one."""
    field = getattr(route, "body_field", None)
    model = getattr(getattr(field, "field_info", None), "annotation", None)
    if isinstance(model, type) and issubclass(model, Body):
        return model
    return None


Handler = Callable[[Request], Coroutine[Any, Any, Response]]


class ContractRoute(APIRoute):
    """A route whose JSON body (if it reads one) is checked before it is parsed: its
    nesting and its text by :func:`parse_object` (400 ``malformed message``), the empty
    body read as ``{}``; then FastAPI validates it against the route's :class:`Body`."""

    def get_route_handler(self) -> Handler:
        handler: Handler = super().get_route_handler()
        if self.body_field is None:
            return handler

        async def checked(request: Request) -> Response:
            raw = await request.body()
            data = parse_object(raw) if raw else {}
            # what FastAPI then reads: the object checked here, never parsed again
            request._body = raw or b"{}"
            request._json = data
            return await handler(request)

        return checked


__all__ = [
    "ERROR_ANSWERS",
    "Answer",
    "Body",
    "ContractRoute",
    "ErrorAnswer",
    "ErrorDetail",
    "JsonObject",
    "NoFields",
    "Ok",
    "Refusals",
    "answers",
    "body_model",
    "refused_by",
]
