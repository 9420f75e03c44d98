"""What the app keeps for its requests (its services, stores and settings), typed.

Starlette's ``app.state`` holds anything under any name, untyped. Each domain names what
it keeps there with a :class:`Kept` of its own type, next to that type
(``play/hub.py``: ``HUB = Kept[Hub]("hub")``), and reads it back only through it
(``HUB.of(request)``), so that every read is typed and a domain needs nothing of the
domains above it to name its own service (docs/architecture.md, "The server's
layers"). The app (``server/app.py``) fills them when it starts. The value stays under
its name in ``app.state`` (``app.state.hub``), where tests may read it.
"""

from __future__ import annotations

import typing
from typing import Generic, TypeVar

from starlette.applications import Starlette
from starlette.requests import HTTPConnection

T = TypeVar("T")

Holder = Starlette | HTTPConnection
"""The app, or a request or WebSocket of it."""


class Kept(Generic[T]):
    """One thing the app keeps under ``name`` in its ``state``, of type ``T``."""

    def __init__(self, name: str) -> None:
        self.name = name

    def keep(self, app: Starlette, value: T) -> T:
        """Keep ``value`` in ``app`` (when the app starts); ``value`` returned."""
        setattr(app.state, self.name, value)
        return value

    def of(self, holder: Holder) -> T:
        """What ``holder``'s app keeps (it must have been kept: :meth:`keep`)."""
        return typing.cast(T, getattr(_app(holder).state, self.name))

    def find(self, holder: Holder) -> T | None:
        """What ``holder``'s app keeps, or ``None`` before it is kept (before the app
        started, or a part the app's settings leave out)."""
        return typing.cast(T | None, getattr(_app(holder).state, self.name, None))


def _app(holder: Holder) -> Starlette:
    if isinstance(holder, HTTPConnection):
        return typing.cast(Starlette, holder.app)
    return holder
