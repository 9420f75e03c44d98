"""Puzzles on the site (issue 52).

Revision ID: 0012
Revises: 0011

``puzzle_attempts``: a player's first attempt at a puzzle (the moves it reached while it
goes on, then when it ended, solved or not, and the rating it changed) and when they
last solved it (a later attempt too: a streak's best is capped by the puzzles solved in
the last hour); ``puzzle_ratings``: each player's puzzle rating per pool
(``puzzles:<game>``), OpenSkill's μ and σ; ``puzzle_stats``: each puzzle's own rating
(from its shipped difficulty, then its first attempts), its plays and successes;
``puzzle_streaks``: each player's best streak per game (or ``any``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision: str | None = "0011"
branch_labels = None
depends_on = None


def _player() -> sa.Column[str]:
    return sa.Column(
        "player_id",
        sa.String(32),
        sa.ForeignKey("players.id", ondelete="CASCADE"),
        primary_key=True,
    )


def upgrade() -> None:
    op.create_table(
        "puzzle_attempts",
        _player(),
        sa.Column("puzzle_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("progress", sa.Text(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("solved", sa.Boolean(), nullable=True),
        sa.Column("rating_before", sa.Integer(), nullable=True),
        sa.Column("rating_after", sa.Integer(), nullable=True),
        sa.Column("solved_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index(
        "ix_puzzle_attempts_player_solved", "puzzle_attempts", ["player_id", "solved_at"]
    )
    op.create_table(
        "puzzle_ratings",
        sa.Column("pool", sa.String(200), primary_key=True),
        _player(),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
    )
    op.create_table(
        "puzzle_stats",
        sa.Column("puzzle_id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False, index=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("plays", sa.Integer(), nullable=False),
        sa.Column("successes", sa.Integer(), nullable=False),
    )
    op.create_table(
        "puzzle_streaks",
        _player(),
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("best", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("puzzle_streaks")
    op.drop_table("puzzle_stats")
    op.drop_table("puzzle_ratings")
    op.drop_index("ix_puzzle_attempts_player_solved", table_name="puzzle_attempts")
    op.drop_table("puzzle_attempts")
