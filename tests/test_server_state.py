"""What the app keeps, typed (server/base/state.py): kept under its name, read back from
the app or from one of its requests."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.requests import Request

from stairgames.server.base.state import Kept

COUNT: Kept[int] = Kept("count")


def _request_of(app: Starlette) -> Request:
    return Request({"type": "http", "app": app, "method": "GET", "path": "/", "headers": []})


def test_a_kept_value_is_read_from_the_app_and_its_requests() -> None:
    app = Starlette()
    assert COUNT.keep(app, 3) == 3
    assert COUNT.of(app) == 3
    assert COUNT.of(_request_of(app)) == 3
    assert app.state.count == 3  # where tests may read it


def test_find_is_none_before_the_value_is_kept() -> None:
    app = Starlette()
    assert COUNT.find(app) is None
    assert COUNT.find(_request_of(app)) is None
    COUNT.keep(app, 0)
    assert COUNT.find(app) == 0
