"""Keeps the rules, but closes an import cycle with :mod:`.hub` (a type checker's import
counts too)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tests.contract_fixture.server.play.hub import Hub


def follow(hub: Hub) -> object:
    return hub.fanout()
