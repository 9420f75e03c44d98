"""The request allowances every server process shares (issue 33).

Revision ID: 0007
Revises: 0006

``client_allowances``: one token bucket a kind of request and client (its address
hashed), spent and refilled by one atomic statement on PostgreSQL
(:class:`stairgames.server.base.limits.SharedAllowances`); ``at`` is the database's clock in
seconds since the epoch. Nothing in it needs to survive a crash, so on PostgreSQL the
table is ``UNLOGGED`` (no write-ahead log); SQLite, one process, keeps its buckets in
memory and never uses it. It needs no other table: it may follow any later revision.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "client_allowances",
        sa.Column("kind", sa.String(32), primary_key=True),
        sa.Column("client", sa.String(64), primary_key=True),
        sa.Column("allowance", sa.Float(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("granted", sa.Boolean(), nullable=False),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE client_allowances SET UNLOGGED")


def downgrade() -> None:
    op.drop_table("client_allowances")
