"""Web push (issue 54): each device's subscription and the server's VAPID key.

Revision ID: 0015
Revises: 0014

``push_subscriptions``: a player's devices, each by its push service's ``endpoint`` (a
secret capability URL), with its keys (``p256dh``, ``auth``), the language its messages
come in, when it subscribed and when a message last reached it; ``push_keys``: the VAPID
key pair, made at the first start (one row, ``vapid``), PEM.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision: str | None = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("endpoint", sa.String(1024), nullable=False),
        sa.Column("p256dh", sa.String(128), nullable=False),
        sa.Column("auth", sa.String(64), nullable=False),
        sa.Column("language", sa.String(8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_success_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "push_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("private_pem", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("push_keys")
    op.drop_table("push_subscriptions")
