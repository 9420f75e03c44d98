"""Rated results and ratings in the database (tables ``rated_results`` and ``ratings``).

:meth:`RatingStore.record` stores a rated match's result and updates its players'
ratings in one transaction (a match is rated once: recording it again changes nothing);
:meth:`RatingStore.rebuild` recomputes every rating from the stored results, in the order
the games ended (``stairgames ratings rebuild``); :meth:`RatingStore.changes_of` says what a
rated match changed, for its view (the ratings before it folded from the results before
it, since only the ratings as they are now are stored).
"""

from __future__ import annotations

import datetime
import json

from sqlalchemy import Engine, and_, delete, or_, select

from stairgames.server.base.state import Kept
from stairgames.server.base.store import RatedResultRow, RatingRow, Repository
from stairgames.server.people.ratings import RatedResult, Rating, RatingBook, rebuild

Changes = dict[str, tuple[Rating, Rating]]
"""Each player's rating before and after a rated match, by player."""

CHANGES_KEPT = 10_000
"""How many matches' :meth:`RatingStore.changes_of` one process keeps (then it starts again)."""


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _result(row: RatedResultRow) -> RatedResult:
    players = tuple(str(player) for player in json.loads(row.players))
    returns = tuple(float(value) for value in json.loads(row.returns))
    return RatedResult(row.pool, players, returns)


class RatingStore(Repository):
    """Reads and writes the rating tables."""

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine)
        self._changes: dict[str, Changes] = {}
        """The changes of the rated matches met (:meth:`changes_of`): they never change."""

    def record(
        self, match_id: str, result: RatedResult, finished_at: datetime.datetime | None = None
    ) -> Changes:
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
        self._keep_changes(match_id, changes)
        return changes

    def changes_of(self, match_id: str) -> Changes:
        """Each player's rating before and after the rated match ``match_id`` (nothing
        when it was not rated): the results of its pool folded up to it, in the order the
        games ended, once per process."""
        kept = self._changes.get(match_id)
        if kept is not None:
            return kept
        with self._session() as session:
            row = session.get(RatedResultRow, match_id)
            if row is None:
                return {}
            up_to = session.scalars(
                select(RatedResultRow)
                .where(
                    RatedResultRow.pool == row.pool,
                    or_(
                        RatedResultRow.finished_at < row.finished_at,
                        and_(
                            RatedResultRow.finished_at == row.finished_at,
                            RatedResultRow.match_id <= match_id,
                        ),
                    ),
                )
                .order_by(RatedResultRow.finished_at, RatedResultRow.match_id)
            )
            results = [_result(result) for result in up_to]
        book = RatingBook()
        changes: Changes = {}
        for result in results:
            changes = book.add(result)
        return self._keep_changes(match_id, changes)

    def _keep_changes(self, match_id: str, changes: Changes) -> Changes:
        if len(self._changes) >= CHANGES_KEPT:
            self._changes.clear()
        self._changes[match_id] = changes
        return changes

    def rating(self, pool: str, player: str) -> Rating:
        """``player``'s rating in ``pool`` now (a new player's when they have none)."""
        with self._session() as session:
            row = session.get(RatingRow, (pool, player))
            return Rating() if row is None else Rating(row.mu, row.sigma, row.games)

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
        self._changes.clear()
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
