"""Rated results and ratings in the database (tables ``rated_results`` and ``ratings``).

:meth:`RatingStore.record` stores a rated match's result and updates its players'
ratings in one transaction (a match is rated once: recording it again changes nothing);
:meth:`RatingStore.rebuild` recomputes every rating from the stored results, in the order
the games ended (``stairgames ratings rebuild``).
"""

from __future__ import annotations

import datetime
import json

from sqlalchemy import delete, select

from stairgames.server.base.state import Kept
from stairgames.server.base.store import RatedResultRow, RatingRow, Repository
from stairgames.server.people.ratings import RatedResult, Rating, RatingBook, rebuild


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _result(row: RatedResultRow) -> RatedResult:
    players = tuple(str(player) for player in json.loads(row.players))
    returns = tuple(float(value) for value in json.loads(row.returns))
    return RatedResult(row.pool, players, returns)


class RatingStore(Repository):
    """Reads and writes the rating tables."""

    def record(
        self, match_id: str, result: RatedResult, finished_at: datetime.datetime | None = None
    ) -> dict[str, tuple[Rating, Rating]]:
        """Stores the result of the rated match ``match_id`` and rates it: each player's
        rating before and after (nothing when the match was recorded already)."""
        with self._session() as session:
            if session.get(RatedResultRow, match_id) is not None:
                return {}
            session.add(
                RatedResultRow(
                    match_id=match_id,
                    pool=result.pool,
                    players=json.dumps(list(result.players)),
                    returns=json.dumps(list(result.returns)),
                    finished_at=finished_at or _now(),
                )
            )
            book = RatingBook()
            for player in result.players:
                row = session.get(RatingRow, (result.pool, player))
                if row is not None:
                    book.set(result.pool, player, Rating(row.mu, row.sigma, row.games))
            changes = book.add(result)
            for player, (_old, new) in changes.items():
                session.merge(self._row(result.pool, player, new))
            return changes

    @staticmethod
    def _row(pool: str, player: str, rating: Rating) -> RatingRow:
        return RatingRow(
            pool=pool, player_id=player, mu=rating.mu, sigma=rating.sigma, games=rating.games
        )

    def results(self) -> list[RatedResult]:
        """Every stored rated result, in the order the games ended."""
        with self._session() as session:
            rows = session.scalars(
                select(RatedResultRow).order_by(RatedResultRow.finished_at, RatedResultRow.match_id)
            )
            return [_result(row) for row in rows]

    def rebuild(self) -> int:
        """Recomputes every rating from the stored results; how many results it read."""
        results = self.results()
        book = rebuild(results)
        with self._session() as session:
            session.execute(delete(RatingRow))
            for (pool, player), rating in book.items():
                session.add(self._row(pool, player, rating))
        return len(results)

    def ratings_of(self, player: str) -> dict[str, Rating]:
        """``player``'s rating in each pool they have played rated games in."""
        with self._session() as session:
            rows = session.scalars(select(RatingRow).where(RatingRow.player_id == player))
            return {row.pool: Rating(row.mu, row.sigma, row.games) for row in rows}


RATINGS: Kept[RatingStore] = Kept("ratings")
"""The app's ratings (``app.state.ratings``)."""
