"""Keeping people away: blocks, mutes and reports (issue 51; docs/web.md, "Blocks, mutes
and reports"), and what a moderator does (``stairgames moderate``).

A player may **block** another: no challenge of either is taken by the other
(:data:`BLOCKED`, 403), neither may offer the other a rematch, the blocked one's chat is
hidden from the blocker and their challenges from the blocker's lobby. A **mute** hides
their chat only. As lichess does, a block hides the blocked player from the blocker, not
the blocker from them: the blocked player's messages are still written, and read by
everyone else.

Where the server knows the reader it leaves the hidden out itself: ``GET .../chat``
lists no message of a player the asker blocked or muted, the lobby's socket and ``GET
/api/challenges`` no challenge of one they blocked. The chat's live messages go to each
seat's connections, made once for all of them: the page hides those of the names in
``GET /api/blocks``.

A **report** names a player, with a text and optionally the match and the chat message
it is about; a moderator reads them (``stairgames moderate``), and may rename a player
(:meth:`Moderation.rename`: any free name, even one their rated games would otherwise
keep) or disable one (:meth:`Moderation.disable`: their sessions end and their password
is removed, so that nobody can log in or act as them again).
"""

from __future__ import annotations

import dataclasses
import datetime
import weakref
from typing import Any, Final

from fastapi import FastAPI, Request
from sqlalchemy import Boolean, DateTime, ForeignKey, Integer, String, Text, delete, or_, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from stairgames.i18n import N_
from stairgames.server.base.contract import Ok, answers
from stairgames.server.base.errors import ServerError
from stairgames.server.base.name_skeleton import skeleton
from stairgames.server.base.store import (
    Base,
    PlayerRow,
    PlayerSessionRow,
    Repository,
    SeatPlayerRow,
    off_loop,
)
from stairgames.server.people.blocks_contract import BlockBody, BlockList, ReportBody
from stairgames.server.people.names import PlayerNameRow
from stairgames.server.people.players import (
    Player,
    current_player_async,
    name_key,
    players_of,
    required_player_async,
)

BLOCKS_ROUTE: Final = "/api/blocks"
REPORTS_ROUTE: Final = "/api/reports"
BLOCKED: Final = N_("a block stands between you and a player of this game")
"""The refusal of a challenge taken, or a rematch offered, across a block (403)."""
REPORT_LENGTH: Final = 1000
"""The most characters a report's text may have."""
KINDS: Final = ("block", "mute", "none")
"""What ``POST /api/blocks`` may set: a block, a mute, or neither."""
REPORTS_LISTED: Final = 50
"""The reports ``stairgames moderate`` lists, the newest first."""


class BlockRow(Base):
    """``blocker_id`` keeps ``blocked_id`` away (``chat_only``: a mute)."""

    __tablename__ = "player_blocks"
    blocker_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    blocked_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    chat_only: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


class ReportRow(Base):
    """What ``reporter_id`` reported of ``reported_id`` (about a match and a chat
    message, when given)."""

    __tablename__ = "player_reports"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="SET NULL"), nullable=True
    )
    reported_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE")
    )
    match_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    message_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), index=True)


class DisabledPlayerRow(Base):
    """A player a moderator disabled, and when."""

    __tablename__ = "disabled_players"
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    disabled_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


@dataclasses.dataclass(frozen=True)
class Report:
    """A report as a moderator reads it (names as they are now)."""

    id: int
    at: datetime.datetime
    reporter: str | None
    reported: str
    match_id: str | None
    message_id: int | None
    text: str


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _aware(moment: datetime.datetime) -> datetime.datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=datetime.UTC)


class BlockStore(Repository):
    """The ``player_blocks`` and ``player_reports`` tables; its methods block (a
    database thread's work)."""

    def choose(self, blocker: str, blocked: str, kind: str) -> None:
        """``blocker`` blocks (``"block"``), mutes (``"mute"``) or neither (``"none"``)
        ``blocked``."""
        with self._session() as session:
            row = session.get(BlockRow, (blocker, blocked))
            if kind == "none":
                if row is not None:
                    session.delete(row)
                return
            if row is None:
                row = BlockRow(blocker_id=blocker, blocked_id=blocked, created_at=_now())
                session.add(row)
            row.chat_only = kind == "mute"

    def blocks_of(self, blocker: str) -> list[dict[str, Any]]:
        """Whom ``blocker`` blocked or muted: ``{"id", "name", "kind"}``, by name."""
        with self._session() as session:
            rows = session.execute(
                select(PlayerRow.id, PlayerRow.name, BlockRow.chat_only)
                .join(BlockRow, BlockRow.blocked_id == PlayerRow.id)
                .where(BlockRow.blocker_id == blocker)
                .order_by(PlayerRow.name)
            ).all()
            return [
                {"id": id_, "name": name, "kind": "mute" if chat_only else "block"}
                for id_, name, chat_only in rows
            ]

    def hidden_from(self, reader: str) -> frozenset[str]:
        """The players whose chat ``reader`` does not read (blocked or muted)."""
        with self._session() as session:
            found = session.scalars(
                select(BlockRow.blocked_id).where(BlockRow.blocker_id == reader)
            )
            return frozenset(found)

    def blocked_names(self, readers: frozenset[str]) -> dict[str, frozenset[str]]:
        """For each of ``readers`` who blocked anyone, the names of those they blocked
        (not those only muted)."""
        if not readers:
            return {}
        found: dict[str, set[str]] = {}
        with self._session() as session:
            rows = session.execute(
                select(BlockRow.blocker_id, PlayerRow.name)
                .join(PlayerRow, PlayerRow.id == BlockRow.blocked_id)
                .where(BlockRow.blocker_id.in_(sorted(readers)), BlockRow.chat_only.is_(False))
            )
            for blocker, name in rows:
                found.setdefault(blocker, set()).add(name)
        return {blocker: frozenset(names) for blocker, names in found.items()}

    def blocked_among(self, player: str, others: set[str]) -> bool:
        """Whether a block (not a mute) stands between ``player`` and any of ``others``,
        whoever made it."""
        others = others - {player}
        if not others:
            return False
        with self._session() as session:
            found = session.scalar(
                select(BlockRow.blocker_id)
                .where(
                    BlockRow.chat_only.is_(False),
                    or_(
                        (BlockRow.blocker_id == player) & BlockRow.blocked_id.in_(sorted(others)),
                        (BlockRow.blocked_id == player) & BlockRow.blocker_id.in_(sorted(others)),
                    ),
                )
                .limit(1)
            )
            return found is not None

    def seat_blocked(self, match_id: str, seat: int) -> bool:
        """Whether a block stands between the player holding ``seat`` of the match and
        one holding another of its seats (a rematch is then refused)."""
        with self._session() as session:
            holders = dict(
                session.execute(
                    select(SeatPlayerRow.seat, SeatPlayerRow.player_id).where(
                        SeatPlayerRow.match_id == match_id
                    )
                ).all()
            )
        asker = holders.get(seat)
        if asker is None:
            return False
        return self.blocked_among(asker, set(holders.values()))

    def report(
        self,
        reporter: str,
        reported: str,
        text: str,
        match_id: str | None = None,
        message_id: int | None = None,
    ) -> int:
        """Files a report: its number."""
        with self._session() as session:
            row = ReportRow(
                reporter_id=reporter,
                reported_id=reported,
                match_id=match_id,
                message_id=message_id,
                text=text,
                created_at=_now(),
            )
            session.add(row)
            session.flush()
            return row.id


class Moderation(Repository):
    """What ``stairgames moderate`` reads and does (blocking calls)."""

    def reports(self, limit: int = REPORTS_LISTED) -> list[Report]:
        """The newest ``limit`` reports, the newest first."""
        with self._session() as session:
            rows = session.scalars(
                select(ReportRow).order_by(ReportRow.created_at.desc(), ReportRow.id.desc())
            ).all()[:limit]
            ids = {row.reporter_id for row in rows} | {row.reported_id for row in rows}
            names = dict(
                session.execute(
                    select(PlayerRow.id, PlayerRow.name).where(
                        PlayerRow.id.in_(sorted(i for i in ids if i))
                    )
                ).all()
            )
            return [
                Report(
                    row.id,
                    _aware(row.created_at),
                    names.get(row.reporter_id) if row.reporter_id else None,
                    names.get(row.reported_id, row.reported_id),
                    row.match_id,
                    row.message_id,
                    row.text,
                )
                for row in rows
            ]

    def _named(self, name: str) -> PlayerRow:
        with self._session() as session:
            row = session.scalars(select(PlayerRow).where(PlayerRow.name_key == name_key(name)))
            found = row.first()
        if found is None:
            raise ServerError(404, N_("no such player"))
        return found

    def rename(self, old: str, new: str) -> None:
        """Renames the player called ``old`` to ``new`` (already
        :func:`~stairgames.server.people.players.clean_name`'d); their name is freed, not
        kept for them, whatever their rated games.

        :raises ServerError: 404, no player is called ``old``; 409, ``new`` is taken.
        """
        player = self._named(old)
        try:
            with self._session() as session:
                row = session.get(PlayerRow, player.id)
                assert row is not None
                session.execute(
                    delete(PlayerNameRow).where(
                        PlayerNameRow.player_id == row.id, PlayerNameRow.retired_at.is_(None)
                    )
                )
                session.flush()
                session.add(
                    PlayerNameRow(
                        skeleton=skeleton(new), player_id=row.id, name=new, retired_at=None
                    )
                )
                row.name, row.name_key = new, name_key(new)
        except IntegrityError:
            raise ServerError(409, N_("that name is taken")) from None

    def disable(self, name: str) -> None:
        """Disables the player called ``name``: every session of theirs ends and their
        password is removed (nobody can log in as them), and the moment is kept.

        :raises ServerError: 404, no player is called ``name``.
        """
        player = self._named(name)
        with self._session() as session:
            row = session.get(PlayerRow, player.id)
            assert row is not None
            row.password_hash = None
            session.execute(delete(PlayerSessionRow).where(PlayerSessionRow.player_id == row.id))
            if session.get(DisabledPlayerRow, row.id) is None:
                session.add(DisabledPlayerRow(player_id=row.id, disabled_at=_now()))

    def disabled(self) -> list[str]:
        """The names of the disabled players."""
        with self._session() as session:
            rows = session.scalars(
                select(PlayerRow.name).join(
                    DisabledPlayerRow, DisabledPlayerRow.player_id == PlayerRow.id
                )
            )
            return sorted(rows)


_STORES: weakref.WeakKeyDictionary[Engine, BlockStore] = weakref.WeakKeyDictionary()


def blocks_on(engine: Engine) -> BlockStore:
    """The blocks of the database of ``engine`` (one store a database)."""
    store = _STORES.get(engine)
    if store is None:
        store = _STORES[engine] = BlockStore(engine)
    return store


def blocks_of(request: Any) -> BlockStore:
    """The blocks of the request's app (those of its players' database)."""
    return blocks_on(players_of(request).engine)


def clean_report(text: object) -> str:
    """``text`` trimmed, if it may be a report's.

    :raises ServerError: 400.
    """
    said = text.strip() if isinstance(text, str) else ""
    if not said or len(said) > REPORT_LENGTH:
        raise _bad_report()
    return said


async def _other(request: Request, name: str, me: Player) -> Player:
    """The player called ``name``, not ``me``.

    :raises ServerError: 404, none; 400, ``me``.
    """
    other = await off_loop(players_of(request).by_name, name[:200])
    if other is None:
        raise ServerError(404, N_("no such player"))
    if other.id == me.id:
        raise ServerError(400, N_("you cannot block or report yourself"))
    return other


async def _listing(request: Request, player: Player | None) -> dict[str, Any]:
    if player is None:
        return {"blocks": []}
    return {"blocks": await off_loop(blocks_of(request).blocks_of, player.id)}


def _bad_report() -> ServerError:
    return ServerError(
        400, N_("a report says what happened in 1 to {max} characters"), max=REPORT_LENGTH
    )


ReportBody.refusals = {"text": _bad_report}
# (the checks live here, and people/blocks_contract.py may not import this module back)


def add_block_routes(app: FastAPI) -> None:
    """``GET`` and ``POST /api/blocks``, ``POST /api/reports`` (see docs/web.md;
    their models: ``people/blocks_contract.py``)."""

    @app.get(BLOCKS_ROUTE, **answers(BlockList))
    async def my_blocks(request: Request) -> dict[str, Any]:
        return await _listing(request, await current_player_async(request))

    @app.post(BLOCKS_ROUTE, **answers(BlockList))
    async def set_block(body: BlockBody, request: Request) -> dict[str, Any]:
        me = await required_player_async(request)
        if body.kind not in KINDS:
            raise ServerError(400, N_("'kind' is block, mute or none"))
        other = await _other(request, body.name, me)
        await off_loop(blocks_of(request).choose, me.id, other.id, body.kind)
        return await _listing(request, me)

    @app.post(REPORTS_ROUTE, **answers(Ok))
    async def report(body: ReportBody, request: Request) -> dict[str, Any]:
        me = await required_player_async(request)
        text = clean_report(body.text)
        other = await _other(request, body.name, me)
        store = blocks_of(request)
        match = body.match[:64] if body.match else None
        await off_loop(store.report, me.id, other.id, text, match, body.message)
        return {"ok": True}


__all__ = [
    "BLOCKED",
    "BLOCKS_ROUTE",
    "REPORTS_ROUTE",
    "BlockStore",
    "Moderation",
    "Report",
    "add_block_routes",
    "blocks_of",
    "blocks_on",
]
