"""Tournaments' rules as pure code: the arena, the Swiss system and round tables.

Nothing here knows a game, a clock or a database: the caller passes the players, the
rounds so far and a seeded :class:`random.Random`, and gets pairings and standings
back. docs/tournaments.md tells the rules for players.
"""

from __future__ import annotations

from stairgames.tournaments.arena import (
    ArenaEntry,
    ArenaRow,
    Waiting,
    arena_points,
    arena_standings,
    on_fire,
    pair_arena,
)
from stairgames.tournaments.common import (
    Entrant,
    NoPairingError,
    Outcome,
    TournamentError,
    seed_order,
)
from stairgames.tournaments.swiss import (
    SwissGame,
    SwissRound,
    SwissRow,
    pair_swiss_round,
    swiss_standings,
)
from stairgames.tournaments.tables import (
    Table,
    TableRound,
    TableRow,
    place_points,
    seat_round,
    table_sizes,
    table_standings,
)

__all__ = [
    "ArenaEntry",
    "ArenaRow",
    "Entrant",
    "NoPairingError",
    "Outcome",
    "SwissGame",
    "SwissRound",
    "SwissRow",
    "Table",
    "TableRound",
    "TableRow",
    "TournamentError",
    "Waiting",
    "arena_points",
    "arena_standings",
    "on_fire",
    "pair_arena",
    "pair_swiss_round",
    "place_points",
    "seat_round",
    "seed_order",
    "swiss_standings",
    "table_sizes",
    "table_standings",
]
