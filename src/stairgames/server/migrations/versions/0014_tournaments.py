"""Tournaments on the site (issue 53; docs/tournaments.md, "On the site").

Revision ID: 0014
Revises: 0013

``tournaments``: each tournament's kind (``arena``, ``swiss``, ``tables``), game,
options and clock (JSON), start time, duration (arena) or rounds, rated or not, bots
allowed or not, creator, status (``created``, ``started``, ``finished``) and the round
being played; ``tournament_entrants``: who joined, when, their rating then, whether they
left, their points and streak; ``tournament_pairings``: each round's games, their match
and the players in seat order, and their result once played.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision: str | None = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("time_control", sa.Text, nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False, index=True),
        sa.Column("minutes", sa.Integer, nullable=True),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("bots", sa.Boolean, nullable=False),
        sa.Column(
            "creator_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("status", sa.String(16), nullable=False, index=True),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tournament_entrants",
        sa.Column(
            "tournament_id",
            sa.String(32),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("left_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("points", sa.Float, nullable=False),
        sa.Column("streak", sa.Integer, nullable=False),
    )
    op.create_table(
        "tournament_pairings",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column(
            "tournament_id",
            sa.String(32),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("match_id", sa.String(64), nullable=True, index=True),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("tournament_pairings")
    op.drop_table("tournament_entrants")
    op.drop_table("tournaments")
