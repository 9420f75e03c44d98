"""The models of blocks, mutes and reports (``/api/blocks``, ``/api/reports``;
docs/web.md, "Blocks, mutes and reports"; the pieces: ``base/contract.py``)."""

from __future__ import annotations

from typing import ClassVar

from stairgames.i18n import N_
from stairgames.server.base.contract import Answer, Body, Refusals


class BlockBody(Body):
    """``POST /api/blocks``: the player ``name``d is blocked (``kind`` ``block``), muted
    (``mute``) or neither (``none``)."""

    refusals: ClassVar[Refusals] = {
        "name": N_("a name must be text"),
        "kind": N_("'kind' is block, mute or none"),
    }
    name: str
    kind: str


class Blocked(Answer):
    """A player the asker blocked or muted: their ``id``, ``name`` now and ``kind``
    (``block`` or ``mute``)."""

    id: str
    name: str
    kind: str


class BlockList(Answer):
    """``GET`` and ``POST /api/blocks``: whom the asker blocked or muted, by name (none
    for a browser that is no player)."""

    blocks: list[Blocked]


class ReportBody(Body):
    """``POST /api/reports``: the player ``name``d, what happened (``text``), and the
    ``match`` and chat ``message`` it is about, if any."""

    refusals: ClassVar[Refusals] = {"name": N_("a name must be text")}
    name: str
    text: str
    match: str | None = None
    message: int | None = None
