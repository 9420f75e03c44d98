"""Vacation and planned replies (issue 54): each player's bank of vacation days and the
vacation they are on; each seat's replies planned ahead.

Revision ID: 0016
Revises: 0015

``player_vacations``: a player's ``bank`` (seconds) as of ``as_of``, the vacation they
are on (``away_since``, ``away_until``; ``automatic``: the server started it) and
whether the server may start one by itself (``auto``). A player with no row has the
bank a new player starts with, grown since they were made (``people/vacation.py``).
``match_plans``: a seat's planned ``lines`` (JSON) from the position after ``ply`` moves,
the digest of those moves ``game`` (``play/plans.py``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision: str | None = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_vacations",
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("bank", sa.Float(), nullable=False),
        sa.Column("as_of", sa.DateTime(timezone=True), nullable=False),
        sa.Column("away_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("away_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("automatic", sa.Boolean(), nullable=False),
        sa.Column("auto", sa.Boolean(), nullable=False),
    )

    op.create_table(
        "match_plans",
        sa.Column(
            "match_id",
            sa.String(64),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("lines", sa.Text(), nullable=False),
        sa.Column("stored_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("match_plans")
    op.drop_table("player_vacations")
