"""The puzzles' tables (migration ``0012``) and their reads and writes.

- ``puzzle_attempts``: a player's *first* attempt at a puzzle, the one that counts for the
  ratings: the moves it reached while it goes on (``progress``: the solver's moves and
  the replies, as ``judge`` reads them), then when it ended, ``solved`` or not, and the
  player's puzzle rating before and after (points). ``solved_at`` says when the player
  last solved the puzzle, in that attempt or a later one (a streak's best is capped by
  the puzzles solved in the last hour).
- ``puzzle_ratings``: each player's puzzle rating per pool (``puzzles:<game>``): OpenSkill's
  μ and σ and the attempts rated, as :mod:`stairgames.server.people.ratings` makes them
  (apart from the game ratings' ``ratings`` table: those are rebuilt from the matches'
  results, and a puzzle rating is no rated game for a rename).
- ``puzzle_stats``: each puzzle's own rating (from its shipped difficulty, then moved by
  every first attempt, as the player's is), its plays (first attempts ended) and
  successes.
- ``puzzle_streaks``: each player's best streak per game (or ``any``).

Every method is one transaction and a blocking database call: the service calls them
through :func:`~stairgames.server.base.store.off_loop`.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
from collections.abc import Callable, Sequence
from typing import Final

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Integer, String, Text, func, select
from sqlalchemy import update as sql_update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from stairgames.server.base.store import Base, Repository
from stairgames.server.people.ratings import (
    POINTS_PER_MU,
    START_MU,
    START_POINTS,
    RatedResult,
    Rating,
    RatingBook,
)

POOL_PREFIX: Final = "puzzles:"
"""A puzzle rating's pool is this and the game's name: ``puzzles:stairs``."""
PUZZLE_START_SIGMA: Final = START_MU / 6.0
"""A puzzle's σ before its first rated attempt: half a new player's (its shipped
difficulty is measured, not a guess), so a first solver moves it by less than a new
player moves."""
ATTEMPTS_TO_RETRY: Final = 3
"""How often a write that met another at once (two first plays of a puzzle) is tried."""


class AttemptRow(Base):
    __tablename__ = "puzzle_attempts"
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    puzzle_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    progress: Mapped[str] = mapped_column(Text)
    started_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    solved: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    rating_before: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rating_after: Mapped[int | None] = mapped_column(Integer, nullable=True)
    solved_at: Mapped[datetime.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )


class PuzzleRatingRow(Base):
    __tablename__ = "puzzle_ratings"
    pool: Mapped[str] = mapped_column(String(200), primary_key=True)
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)


class PuzzleStatsRow(Base):
    __tablename__ = "puzzle_stats"
    puzzle_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    plays: Mapped[int] = mapped_column(Integer)
    successes: Mapped[int] = mapped_column(Integer)


class PuzzleStreakRow(Base):
    __tablename__ = "puzzle_streaks"
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    best: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


def pool_of(game: str) -> str:
    """The rating pool of ``game``'s puzzles.

    >>> pool_of("stairs")
    'puzzles:stairs'
    """
    return POOL_PREFIX + game


def mu_of(points: float) -> float:
    """The μ shown as ``points`` (the inverse of :func:`~stairgames.server.people.ratings.points`):
    where a puzzle of that shipped difficulty starts.

    >>> mu_of(1500) == START_MU
    True
    """
    return START_MU + (points - START_POINTS) / POINTS_PER_MU


def points_of(mu: float) -> int:
    """``mu`` on the shown scale."""
    return Rating(mu).points


@dataclasses.dataclass(frozen=True)
class Attempt:
    """A player's first attempt at a puzzle."""

    progress: tuple[str, ...]
    """What was played so far (the solver's moves and the replies)."""
    ended: bool
    solved: bool | None
    change: tuple[int, int] | None
    """The player's puzzle rating before and after it (points), once ended."""


@dataclasses.dataclass(frozen=True)
class PuzzleStats:
    """A puzzle as the site played it: its rating now (points), plays and successes."""

    rating: int
    plays: int
    successes: int

    @property
    def success_rate(self) -> float | None:
        """The share of first attempts that solved it (``None``: none yet)."""
        return None if self.plays == 0 else round(self.successes / self.plays, 4)


@dataclasses.dataclass(frozen=True)
class Finished:
    """A first attempt ended and rated: the player's rating and the puzzle's, before
    and after."""

    player: tuple[Rating, Rating]
    puzzle: tuple[Rating, Rating]


class OutOfStepError(Exception):
    """The moves a request says were played are not where the player's first attempt
    stands (another tab moved on, or it ended meanwhile): nothing was written."""


def _moves_text(moves: Sequence[str]) -> str:
    return json.dumps(list(moves), separators=(",", ":"))


def _moves(text: str) -> tuple[str, ...]:
    return tuple(str(move) for move in json.loads(text))


def _rating(row: PuzzleRatingRow | None) -> Rating:
    return Rating() if row is None else Rating(row.mu, row.sigma, row.games)


class PuzzleStore(Repository):
    """Reads and writes the puzzles' tables (see the module); ``clock``: now, in seconds
    since the epoch (the server's wall clock)."""

    def __init__(self, engine: Engine, clock: Callable[[], float]) -> None:
        super().__init__(engine)
        self.clock = clock

    def _now(self) -> datetime.datetime:
        return datetime.datetime.fromtimestamp(self.clock(), datetime.UTC)

    # ----- attempts ---------------------------------------------------------------------

    def attempt(self, player_id: str, puzzle_id: str) -> Attempt | None:
        """``player_id``'s first attempt at the puzzle (``None``: they never moved in it)."""
        with self._session() as session:
            row = session.get(AttemptRow, (player_id, puzzle_id))
            if row is None:
                return None
            change = None
            if row.rating_before is not None and row.rating_after is not None:
                change = (row.rating_before, row.rating_after)
            return Attempt(_moves(row.progress), row.ended_at is not None, row.solved, change)

    def advance(
        self, player_id: str, puzzle_id: str, game: str, old: Sequence[str], new: Sequence[str]
    ) -> None:
        """Move the player's first attempt on from ``old`` to ``new`` (begun here when
        ``old`` is empty and there is none).

        :raises OutOfStepError: the attempt is not at ``old`` (or it ended).
        """
        try:
            with self._session() as session:
                row = session.get(AttemptRow, (player_id, puzzle_id))
                if row is None:
                    if old:
                        raise OutOfStepError(puzzle_id)
                    session.add(self._new_attempt(player_id, puzzle_id, game, new))
                    return
                moved = session.connection().execute(
                    sql_update(AttemptRow)
                    .where(
                        AttemptRow.player_id == player_id,
                        AttemptRow.puzzle_id == puzzle_id,
                        AttemptRow.ended_at.is_(None),
                        AttemptRow.progress == _moves_text(old),
                    )
                    .values(progress=_moves_text(new))
                )
                if moved.rowcount != 1:
                    raise OutOfStepError(puzzle_id)
        except IntegrityError as exc:  # begun at once by another request
            raise OutOfStepError(puzzle_id) from exc

    def _new_attempt(
        self, player_id: str, puzzle_id: str, game: str, progress: Sequence[str]
    ) -> AttemptRow:
        return AttemptRow(
            player_id=player_id,
            puzzle_id=puzzle_id,
            game=game,
            progress=_moves_text(progress),
            started_at=self._now(),
        )

    def finish(
        self,
        player_id: str,
        puzzle_id: str,
        game: str,
        start_points: float,
        progress: Sequence[str],
        solved: bool,
    ) -> Finished | None:
        """End the player's first attempt at the puzzle (at ``progress``), ``solved`` or
        not, and rate it: one game between the player and the puzzle in the pool of
        ``game`` (the puzzle starting at ``start_points`` if it was never rated); the
        puzzle's plays and successes counted. ``None`` when that attempt had ended
        already (another request ended it): nothing is rated twice.

        :raises OutOfStepError: the attempt goes on but not at ``progress``.
        """
        for attempt in range(ATTEMPTS_TO_RETRY):
            try:
                with self._session() as session:
                    if not self._end(session, player_id, puzzle_id, game, progress, solved):
                        return None
                    finished = self._rate(session, player_id, puzzle_id, game, start_points, solved)
                    session.execute(
                        sql_update(AttemptRow)
                        .where(AttemptRow.player_id == player_id, AttemptRow.puzzle_id == puzzle_id)
                        .values(
                            rating_before=finished.player[0].points,
                            rating_after=finished.player[1].points,
                        )
                    )
                    return finished
            except IntegrityError:  # a row made at once by another request: again
                if attempt == ATTEMPTS_TO_RETRY - 1:
                    raise
        return None  # (never reached)

    def _end(
        self,
        session: Session,
        player_id: str,
        puzzle_id: str,
        game: str,
        progress: Sequence[str],
        solved: bool,
    ) -> bool:
        """Mark the attempt ended (made ended if there was none): whether this did."""
        now = self._now()
        row = session.get(AttemptRow, (player_id, puzzle_id))
        if row is None:
            if progress:
                raise OutOfStepError(puzzle_id)
            ended = self._new_attempt(player_id, puzzle_id, game, progress)
            ended.ended_at, ended.solved = now, solved
            ended.solved_at = now if solved else None
            session.add(ended)
            session.flush()
            return True
        if row.ended_at is not None:
            return False
        if _moves(row.progress) != tuple(progress):
            raise OutOfStepError(puzzle_id)
        values: dict[str, object] = {"ended_at": now, "solved": solved}
        if solved:
            values["solved_at"] = now
        ended_here = session.connection().execute(
            sql_update(AttemptRow)
            .where(
                AttemptRow.player_id == player_id,
                AttemptRow.puzzle_id == puzzle_id,
                AttemptRow.ended_at.is_(None),
                AttemptRow.progress == row.progress,
            )
            .values(**values)
        )
        return bool(ended_here.rowcount == 1)

    @staticmethod
    def _rate(
        session: Session,
        player_id: str,
        puzzle_id: str,
        game: str,
        start_points: float,
        solved: bool,
    ) -> Finished:
        pool = pool_of(game)
        player_row = session.get(PuzzleRatingRow, (pool, player_id), with_for_update=True)
        stats = session.get(PuzzleStatsRow, puzzle_id, with_for_update=True)
        if stats is None:
            stats = PuzzleStatsRow(
                puzzle_id=puzzle_id,
                game=game,
                mu=mu_of(start_points),
                sigma=PUZZLE_START_SIGMA,
                plays=0,
                successes=0,
            )
            session.add(stats)
        puzzle_key = f"puzzle {puzzle_id}"  # (no player id has a space)
        book = RatingBook()
        book.set(pool, player_id, _rating(player_row))
        book.set(pool, puzzle_key, Rating(stats.mu, stats.sigma, stats.plays))
        returns = (1.0, 0.0) if solved else (0.0, 1.0)
        changes = book.add(RatedResult(pool, (player_id, puzzle_key), returns))
        _old, new = changes[player_id]
        session.merge(
            PuzzleRatingRow(
                pool=pool, player_id=player_id, mu=new.mu, sigma=new.sigma, games=new.games
            )
        )
        _was, now = changes[puzzle_key]
        stats.mu, stats.sigma = now.mu, now.sigma
        stats.plays += 1
        stats.successes += 1 if solved else 0
        session.flush()
        return Finished(changes[player_id], changes[puzzle_key])

    def note_solved(self, player_id: str, puzzle_id: str) -> None:
        """The player solved the puzzle again (a later attempt: not rated)."""
        with self._session() as session:
            session.execute(
                sql_update(AttemptRow)
                .where(AttemptRow.player_id == player_id, AttemptRow.puzzle_id == puzzle_id)
                .values(solved_at=self._now())
            )

    def tried(self, player_id: str, game: str) -> set[str]:
        """The puzzles of ``game`` whose first attempt the player ended."""
        with self._session() as session:
            return set(
                session.scalars(
                    select(AttemptRow.puzzle_id).where(
                        AttemptRow.player_id == player_id,
                        AttemptRow.game == game,
                        AttemptRow.ended_at.is_not(None),
                    )
                )
            )

    def solved_since(self, player_id: str, game: str | None, seconds: float) -> int:
        """How many puzzles (of ``game``; ``None``: of any) the player solved in the last
        ``seconds``."""
        since = datetime.datetime.fromtimestamp(self.clock() - seconds, datetime.UTC)
        query = select(func.count()).where(
            AttemptRow.player_id == player_id, AttemptRow.solved_at >= since
        )
        if game is not None:
            query = query.where(AttemptRow.game == game)
        with self._session() as session:
            return int(session.scalar(query) or 0)

    # ----- ratings and statistics -------------------------------------------------------

    def rating(self, player_id: str, game: str) -> Rating:
        """The player's puzzle rating in ``game`` (a new player's if none)."""
        with self._session() as session:
            return _rating(session.get(PuzzleRatingRow, (pool_of(game), player_id)))

    def ratings_of(self, player_id: str) -> dict[str, Rating]:
        """The player's puzzle ratings, by game."""
        with self._session() as session:
            rows = session.scalars(
                select(PuzzleRatingRow).where(PuzzleRatingRow.player_id == player_id)
            )
            return {row.pool.removeprefix(POOL_PREFIX): _rating(row) for row in rows}

    def puzzle_ratings(self, game: str) -> dict[str, int]:
        """The rating now (points) of each puzzle of ``game`` that was rated (the others
        stand at their shipped difficulty)."""
        with self._session() as session:
            rows = session.execute(
                select(PuzzleStatsRow.puzzle_id, PuzzleStatsRow.mu).where(
                    PuzzleStatsRow.game == game
                )
            )
            return {puzzle_id: points_of(mu) for puzzle_id, mu in rows}

    def stats(self, puzzle_id: str) -> PuzzleStats | None:
        """The puzzle's rating now, plays and successes (``None``: never rated)."""
        with self._session() as session:
            row = session.get(PuzzleStatsRow, puzzle_id)
            if row is None:
                return None
            return PuzzleStats(points_of(row.mu), row.plays, row.successes)

    # ----- streaks ----------------------------------------------------------------------

    def record_streak(self, player_id: str, game: str, count: int) -> int:
        """Keep ``count`` as the player's best streak in ``game`` (or ``any``) if it is
        better; their best now."""
        for attempt in range(ATTEMPTS_TO_RETRY):
            try:
                with self._session() as session:
                    row = session.get(PuzzleStreakRow, (player_id, game), with_for_update=True)
                    if row is None:
                        session.add(
                            PuzzleStreakRow(
                                player_id=player_id, game=game, best=count, at=self._now()
                            )
                        )
                        return count
                    if count > row.best:
                        row.best, row.at = count, self._now()
                    return row.best
            except IntegrityError:
                if attempt == ATTEMPTS_TO_RETRY - 1:
                    raise
        return count  # (never reached)

    def streaks_of(self, player_id: str) -> dict[str, int]:
        """The player's best streaks, by game (or ``any``)."""
        with self._session() as session:
            rows = session.scalars(
                select(PuzzleStreakRow).where(PuzzleStreakRow.player_id == player_id)
            )
            return {row.game: row.best for row in rows}


__all__ = [
    "POOL_PREFIX",
    "PUZZLE_START_SIGMA",
    "Attempt",
    "AttemptRow",
    "Finished",
    "OutOfStepError",
    "PuzzleRatingRow",
    "PuzzleStats",
    "PuzzleStatsRow",
    "PuzzleStore",
    "PuzzleStreakRow",
    "mu_of",
    "points_of",
    "pool_of",
]
