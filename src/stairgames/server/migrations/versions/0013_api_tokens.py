"""API tokens and bot accounts (issue 53).

Revision ID: 0013
Revises: 0012

``api_tokens``: a player's API tokens, each kept as the SHA-256 of its secret, with its
scopes (a comma list), description, when made, last used and revoked; ``bot_players``:
the players who became bot accounts, and since when (irreversible).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision: str | None = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("secret_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("scopes", sa.String(200), nullable=False),
        sa.Column("description", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_table(
        "bot_players",
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("bot_players")
    op.drop_table("api_tokens")
