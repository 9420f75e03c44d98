"""The tables of web push: each device's subscription (``push_subscriptions``) and the
server's VAPID key (``push_keys``). Every method blocks: a database thread's work
(:func:`~stairgames.server.base.store.off_loop`)."""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
from collections.abc import Callable
from typing import Final

from sqlalchemy import DateTime, ForeignKey, String, Text, delete, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from stairgames.server.base.store import Base, Repository
from stairgames.server.push.crypto import (
    load_private_key,
    new_private_key,
    private_key_pem,
)

VAPID: Final = "vapid"
"""The name of the VAPID key's row in ``push_keys``."""


class PushSubscriptionRow(Base):
    """One device of a player: its push service's endpoint and keys (``id``: the
    SHA-256 of the endpoint, so that a device is kept once)."""

    __tablename__ = "push_subscriptions"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), index=True
    )
    endpoint: Mapped[str] = mapped_column(String(1024))
    p256dh: Mapped[str] = mapped_column(String(128))
    auth: Mapped[str] = mapped_column(String(64))
    language: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))
    last_success_at: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )


class PushKeyRow(Base):
    """The server's VAPID key pair (PEM), made at the first start."""

    __tablename__ = "push_keys"
    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    private_pem: Mapped[str] = mapped_column(Text())
    created_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


@dataclasses.dataclass(frozen=True)
class Subscription:
    """A device's subscription: where its messages go and how they are encrypted."""

    id: str
    player_id: str
    endpoint: str
    p256dh: str
    auth: str
    language: str


def endpoint_id(endpoint: str) -> str:
    """The key a subscription is kept under: its endpoint's SHA-256."""
    return hashlib.sha256(endpoint.encode("utf-8")).hexdigest()


def _subscription(row: PushSubscriptionRow) -> Subscription:
    return Subscription(row.id, row.player_id, row.endpoint, row.p256dh, row.auth, row.language)


def _utc_now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


class PushStore(Repository):
    """``push_subscriptions`` and ``push_keys``; ``now`` says the moment (tests give a
    clock)."""

    def __init__(self, engine: Engine, now: Callable[[], datetime.datetime] = _utc_now) -> None:
        super().__init__(engine)
        self.now = now

    def subscribe(
        self,
        player_id: str,
        endpoint: str,
        p256dh: str,
        auth: str,
        language: str,
        devices: int,
    ) -> Subscription:
        """Keep the device of ``endpoint`` for ``player_id`` (a device subscribed again,
        by them or by another player signed in on it, takes the new keys and player);
        beyond ``devices`` subscriptions of theirs, their oldest are forgotten."""
        key = endpoint_id(endpoint)
        with self._session() as session:
            row = session.get(PushSubscriptionRow, key)
            if row is None:
                row = PushSubscriptionRow(id=key, endpoint=endpoint, last_success_at=None)
                session.add(row)
            row.player_id, row.p256dh, row.auth = player_id, p256dh, auth
            row.language, row.created_at = language, self.now()
            session.flush()
            held = list(
                session.scalars(
                    select(PushSubscriptionRow)
                    .where(PushSubscriptionRow.player_id == player_id)
                    .order_by(PushSubscriptionRow.created_at.desc(), PushSubscriptionRow.id)
                )
            )
            for old in held[devices:]:
                if old.id != key:
                    session.delete(old)
            return _subscription(row)

    def unsubscribe(self, player_id: str, endpoint: str) -> bool:
        """Forget the device of ``endpoint`` if it is ``player_id``'s: whether it was."""
        with self._session() as session:
            row = session.get(PushSubscriptionRow, endpoint_id(endpoint))
            if row is None or row.player_id != player_id:
                return False
            session.delete(row)
            return True

    def of(self, player_id: str) -> list[Subscription]:
        """The devices of ``player_id``, the newest first."""
        with self._session() as session:
            rows = session.scalars(
                select(PushSubscriptionRow)
                .where(PushSubscriptionRow.player_id == player_id)
                .order_by(PushSubscriptionRow.created_at.desc(), PushSubscriptionRow.id)
            )
            return [_subscription(row) for row in rows]

    def reached(self, subscription_id: str) -> None:
        """A message reached the device (its ``last_success_at``)."""
        with self._session() as session:
            row = session.get(PushSubscriptionRow, subscription_id)
            if row is not None:
                row.last_success_at = self.now()

    def gone(self, subscription_id: str) -> None:
        """The push service says the device is gone (404, 410): forget it."""
        with self._session() as session:
            session.execute(
                delete(PushSubscriptionRow).where(PushSubscriptionRow.id == subscription_id)
            )

    def vapid_pem(self) -> str:
        """The VAPID private key the database keeps, made now if there is none (two
        processes starting at once: the first one written wins)."""
        with self._session() as session:
            row = session.get(PushKeyRow, VAPID)
            if row is not None:
                load_private_key(row.private_pem)
                return row.private_pem
        made = private_key_pem(new_private_key())
        try:
            with self._session() as session:
                session.add(PushKeyRow(name=VAPID, private_pem=made, created_at=self.now()))
        except IntegrityError:
            pass
        with self._session() as session:
            row = session.get(PushKeyRow, VAPID)
            assert row is not None
            return row.private_pem
