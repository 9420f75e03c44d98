"""Clocks and summaries: a match's time control, when its game ended, the server
processes' heartbeats (so that the time all of them were down is given back to the
clocks), and each match's summary as of its last event (whose turn, the result, who
plays each seat), so that a player's list of games is read, not replayed.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("time_control", sa.Text(), nullable=True))
        batch.add_column(sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("summary", sa.Text(), nullable=True))
        batch.add_column(
            sa.Column("summary_event", sa.Integer(), nullable=False, server_default="0")
        )
    op.create_table(
        "server_heartbeats",
        sa.Column("process", sa.String(64), primary_key=True),
        sa.Column("beat_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_heartbeats")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("summary_event")
        batch.drop_column("summary")
        batch.drop_column("ended_at")
        batch.drop_column("time_control")
