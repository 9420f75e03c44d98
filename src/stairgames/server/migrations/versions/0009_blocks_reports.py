"""Blocks, mutes, reports and disabled players (issue 51).

Revision ID: 0009
Revises: 0008

``player_blocks``: a player keeping another away (``chat_only``: a mute, their chat
hidden; else a block: no challenges, rematches or chat between them, their lobby rows
hidden); ``player_reports``: what a player reported of another (the match and chat
message it is about, if any), for a moderator (``stairgames moderate``);
``disabled_players``: the players a moderator disabled (their sessions ended, their
password removed).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision: str | None = "0008"
branch_labels = None
depends_on = None


def _player(name: str, *, primary_key: bool = False, nullable: bool = False) -> sa.Column[str]:
    return sa.Column(
        name,
        sa.String(32),
        sa.ForeignKey("players.id", ondelete="SET NULL" if nullable else "CASCADE"),
        primary_key=primary_key,
        nullable=nullable,
    )


def upgrade() -> None:
    op.create_table(
        "player_blocks",
        _player("blocker_id", primary_key=True),
        _player("blocked_id", primary_key=True),
        sa.Column("chat_only", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_player_blocks_blocked_id", "player_blocks", ["blocked_id"])
    op.create_table(
        "player_reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        _player("reporter_id", nullable=True),
        _player("reported_id"),
        sa.Column("match_id", sa.String(64), nullable=True),
        sa.Column("message_id", sa.Integer(), nullable=True),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, index=True),
    )
    op.create_table(
        "disabled_players",
        _player("player_id", primary_key=True),
        sa.Column("disabled_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("disabled_players")
    op.drop_table("player_reports")
    op.drop_index("ix_player_blocks_blocked_id", "player_blocks")
    op.drop_table("player_blocks")
