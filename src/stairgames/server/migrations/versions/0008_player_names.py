"""Players' names by their skeletons, and the names they had (issue 51).

Revision ID: 0008
Revises: 0007

``player_names``: each player's name by its skeleton
(:mod:`stairgames.server.base.name_skeleton`: look-alike letters, case, width and accents
ignored), unique, so that no new name may look like one held; ``retired_at`` set for a
name a player with rated games left, kept for them (nobody else may take it; their
profile finds them by it). Every existing player's name is entered, the oldest player
first; a later player whose name has the skeleton of an earlier one's keeps their name,
entered under the skeleton followed by a line break and their id (a key no name can
have), so that neither blocks the other and new names of that skeleton stay refused.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from stairgames.server.base.name_skeleton import skeleton

revision = "0008"
down_revision: str | None = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    names = op.create_table(
        "player_names",
        sa.Column("skeleton", sa.String(256), primary_key=True),
        sa.Column(
            "player_id",
            sa.String(32),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("retired_at", sa.DateTime(timezone=True), nullable=True),
    )
    players = sa.table("players", sa.column("id"), sa.column("name"), sa.column("created_at"))
    found = op.get_bind().execute(
        sa.select(players.c.id, players.c.name).order_by(players.c.created_at, players.c.id)
    )
    rows: dict[str, dict[str, object]] = {}
    for player_id, name in found:
        key = skeleton(name)
        if key in rows:
            key = f"{key}\n{player_id}"
        rows[key] = {"skeleton": key, "player_id": player_id, "name": name, "retired_at": None}
    if rows:
        op.bulk_insert(names, list(rows.values()))


def downgrade() -> None:
    op.drop_table("player_names")
