"""Whose turn a change brought: the rule the players' channel (``chat/told.py``) and web
push (``push/sending.py``) both tell "your turn" by."""

from __future__ import annotations

from collections.abc import Sequence

from stairgames.server.base.store import EventRecord
from stairgames.server.play.match import Match
from stairgames.server.play.seats import COMPUTER


def came_to(match: Match, records: Sequence[EventRecord], holders: dict[int, str]) -> str | None:
    """The player whose move ``match`` now waits for, if these committed ``records``
    brought it to them: it is a person's seat they hold, every seat is taken, and some
    record was made by a seat they do not hold (``None`` otherwise)."""
    seat = match.to_act()
    if seat is None or match.free_seats() or match.seats[seat].kind == COMPUTER:
        return None
    player = holders.get(seat)
    if player is None:
        return None
    others = [r for r in records if r.seat is not None and holders.get(r.seat) != player]
    return player if others else None


__all__ = ["came_to"]
