"""The computer's analysis of finished matches, and matches started from a position.

Revision ID: 0006
Revises: 0005

``analyses``: one row a match, ``running`` or ``done`` (its JSON in ``data``);
``matches.start_position``: the position text a match started from (``NULL``: the game's
start). It needs only ``matches`` (0001): it may follow any later revision.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column(
            "match_id",
            sa.String(64),
            sa.ForeignKey("matches.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("budget", sa.Text(), nullable=False),
        sa.Column("data", sa.Text(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("start_position", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("start_position")
    op.drop_table("analyses")
