"""Puzzles on the site (issue 52): which puzzle to give, judging a move, the ratings.

**Which puzzle.** ``next``: one of the game's puzzles (``any``: a game drawn first) whose
rating now is near the player's puzzle rating in that game (1500 for an anonymous
visitor or a new player), among those whose first attempt they have not ended: one of
the :data:`NEAREST` nearest, drawn by the service's generator (seeded by
``Settings.puzzle_seed``); once every puzzle of the game was tried, tried ones come
again. ``daily``: today's puzzle by the server's wall clock (its UTC date), the same for
everyone and every server process: the games take turns by the day, and the day's hash
chooses among the game's puzzles of a middling difficulty (:func:`daily_puzzle`). A
streak's next puzzle (``streak``): the first near :data:`STREAK_START`, then each
nearest :data:`STREAK_STEP` above the last one's rating, harder than it.

**A move.** ``judge`` walks the puzzle's tree (:mod:`stairgames.puzzles.judge`): the
request says what was ``played`` so far and the solver's ``move``; the answer is
``right`` (with the defender's reply), ``solved`` or ``wrong`` (with its proof). A
player's *first* attempt at a puzzle is the rated one: the server keeps where it stands
(``puzzle_attempts``), so its ``played`` must be that (else 409, nothing judged: a
first attempt cannot be probed with made-up lines), and as it ends it is rated as one
game between the player and the puzzle (OpenSkill through ``server/people``'s rating
machinery, pool ``puzzles:<game>``, shown on the game ratings' 1500 scale; the puzzle
starting at its shipped ``rating``), and counted in the puzzle's plays and successes.
Later attempts, and an anonymous visitor's, are judged alike and change nothing (a
player's later solve is noted for the streaks' cap).

**Giving up** (``give_up``, lichess's "View the solution"): the attempt ends where it
stands, failed: a player's first attempt is rated as a wrong move is (same rule for
``played``: where the attempt stands, else 409), and the answer is that of a move that
ends the attempt (outcome :data:`GAVE_UP`, the solution, the rating change).

**Hidden until the end.** No answer carries a puzzle's tree or its solution before the
attempt ended, not even a refusal: the solution comes with the move that ends the
attempt, the tree (and the solution) with a puzzle's page once the requester's first
attempt ended (:meth:`Puzzles.page`). Wherever the solution comes, its boards come
with it (:func:`solution_boards`), so that the page steps through it without asking
for each position.

**Off the event loop.** Every database call and every position loaded, replayed or
drawn runs in :func:`~stairgames.server.base.store.off_loop`'s threads.
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Protocol

from stairgames.core.errors import StairgamesError
from stairgames.core.game import State
from stairgames.core.registry import get_spec
from stairgames.i18n import N_, Text, text_json
from stairgames.puzzles.judge import (
    RIGHT,
    SOLVED,
    PuzzleMoveError,
    Verdict,
    goal_text,
    judge,
    node_after,
    solution,
    start_state,
)
from stairgames.puzzles.model import Puzzle
from stairgames.server.base.errors import ServerError
from stairgames.server.base.limits import ClientRates, Rate
from stairgames.server.base.store import off_loop
from stairgames.server.people.players import Player
from stairgames.server.puzzles.contract import A_MOVE, A_STREAK, PLAYED_MOVES
from stairgames.server.puzzles.store import Attempt, OutOfStepError, PuzzleStats, PuzzleStore

ANY: Final = "any"
"""The ``game`` of ``next`` and of a streak that takes puzzles of every game."""
NEAREST: Final = 8
"""``next`` draws among this many puzzles nearest the player's rating."""
STREAK_START: Final = 1000
"""The rating a streak's first puzzle is near."""
STREAK_STEP: Final = 60
"""How much harder (points) each puzzle of a streak is than the last, about."""
STREAK_NEAREST: Final = 3
"""A streak's next puzzle is drawn among this many nearest its target."""
STREAK_CAP_SECONDS: Final = 3600.0
"""A streak's end counts at most the puzzles the player solved in this many seconds."""
MOST_STREAK: Final = 10_000
DAILY_BAND: Final = (1200, 1800)
"""The daily puzzle is one of the game's puzzles shipped within these ratings (all of
them, if none is)."""
MAX_PLAYED: Final = 200
"""The most moves ``played`` may hold."""
MAX_MOVE_TEXT: Final = 100
"""The longest move text read."""
MOVES: Final = "moves"
"""The allowance of puzzle moves each client has (:attr:`Puzzles.rates`)."""
REQUESTS: Final = "requests"
"""The allowance of other puzzle requests each client has."""
GAVE_UP: Final = "gave_up"
"""The outcome of an attempt given up (:meth:`Puzzles.give_up`)."""

NO_PUZZLE: Final = N_("there is no puzzle {puzzle!r}")
NO_PUZZLES_OF: Final = N_("there are no puzzles of {game!r}")
OFF_THE_LINE: Final = N_("the moves played are not this puzzle's line")
NOT_LEGAL: Final = N_("{move} is not a legal move here")
OUT_OF_STEP: Final = N_("your attempt at this puzzle stands at another move; open it again")
GIVEN_UP: Final = N_("Not solved: you asked for the solution.")


class Catalogue(Protocol):
    """The puzzles the site offers: the shipped sets (:class:`ShippedCatalogue`), a list
    (:class:`ListedCatalogue`: tests), or either with the sets in ``data_dir/puzzles``
    on top (:class:`~stairgames.server.puzzles.site.SiteCatalogue`)."""

    def games(self) -> list[str]:
        """The games with puzzles, in the order the site lists them."""
        ...

    def puzzles(self, game: str) -> Sequence[Puzzle]:
        """``game``'s puzzles (none for a game without)."""
        ...

    def by_id(self, puzzle_id: str) -> Puzzle | None: ...

    def steady(self) -> Catalogue:
        """The part of it that does not change while the server runs (the daily puzzle
        is one of these, the same in every server process)."""
        ...


class ShippedCatalogue:
    """The shipped sets (``stairgames.puzzles.shipped``), read once."""

    def games(self) -> list[str]:
        from stairgames.puzzles import shipped_games

        return shipped_games()

    def puzzles(self, game: str) -> Sequence[Puzzle]:
        from stairgames.puzzles import shipped

        return shipped(game) if game in self.games() else ()

    def by_id(self, puzzle_id: str) -> Puzzle | None:
        from stairgames.puzzles import by_id

        return by_id(puzzle_id)

    def steady(self) -> Catalogue:
        return self


class ListedCatalogue:
    """The puzzles given, their games in the order they first come."""

    def __init__(self, puzzles: Sequence[Puzzle]) -> None:
        self._by_game: dict[str, list[Puzzle]] = {}
        self._by_id: dict[str, Puzzle] = {}
        for puzzle in puzzles:
            self._by_game.setdefault(puzzle.game, []).append(puzzle)
            self._by_id[puzzle.id] = puzzle

    def games(self) -> list[str]:
        return list(self._by_game)

    def puzzles(self, game: str) -> Sequence[Puzzle]:
        return tuple(self._by_game.get(game, ()))

    def by_id(self, puzzle_id: str) -> Puzzle | None:
        return self._by_id.get(puzzle_id)

    def steady(self) -> Catalogue:
        return self


def rating_now(puzzle: Puzzle, ratings: Mapping[str, int]) -> int:
    """The puzzle's rating now (points): as rated on the site, else as shipped."""
    return ratings.get(puzzle.id, round(puzzle.rating))


def nearest(
    puzzles: Sequence[Puzzle],
    ratings: Mapping[str, int],
    target: float,
    rng: random.Random,
    *,
    avoid: frozenset[str] | set[str] = frozenset(),
    among: int = NEAREST,
    above: int | None = None,
) -> Puzzle | None:
    """One of the ``among`` puzzles nearest ``target`` (points, by :func:`rating_now`),
    drawn by ``rng``: of those not in ``avoid`` rated above ``above`` if any, else of
    those not in ``avoid``, else of all (``None``: no puzzle at all)."""
    fresh = [p for p in puzzles if p.id not in avoid]
    higher = [p for p in fresh if above is None or rating_now(p, ratings) > above]
    pool = higher or fresh or list(puzzles)
    if not pool:
        return None
    ranked = sorted(pool, key=lambda p: (abs(rating_now(p, ratings) - target), p.id))
    return ranked[rng.randrange(max(1, min(among, len(ranked))))]


def daily_puzzle(catalogue: Catalogue, day: datetime.date) -> Puzzle | None:
    """``day``'s puzzle: the games take turns by the day, and the day's SHA-256 chooses
    among the game's puzzles shipped within :data:`DAILY_BAND` (``None``: no puzzles)."""
    games = [game for game in catalogue.games() if catalogue.puzzles(game)]
    if not games:
        return None
    game = games[day.toordinal() % len(games)]
    puzzles = sorted(catalogue.puzzles(game), key=lambda p: p.id)
    low, high = DAILY_BAND
    middling = [p for p in puzzles if low <= p.rating <= high] or puzzles
    digest = hashlib.sha256(f"{day.isoformat()} {game}".encode()).digest()
    return middling[int.from_bytes(digest[:8], "big") % len(middling)]


def _moves_list(played: Sequence[object]) -> list[str]:
    if len(played) > MAX_PLAYED or not all(
        isinstance(move, str) and 0 < len(move) <= MAX_MOVE_TEXT for move in played
    ):
        raise ServerError(400, PLAYED_MOVES)
    return [str(move) for move in played]


def _move_text(move: object) -> str:
    if not isinstance(move, str) or not move.strip() or len(move) > MAX_MOVE_TEXT:
        raise ServerError(400, A_MOVE)
    return move.strip()


@dataclasses.dataclass(frozen=True)
class _Judged:
    """A move judged, with what its answer shows."""

    verdict: Verdict
    played: list[str]
    board: dict[str, Any] | None
    legal: list[str]


class Puzzles:
    """The site's puzzles (see the module): ``store`` their tables, ``catalogue`` the
    puzzles offered, ``rng`` the draws of ``next`` and the streaks, ``wall_clock`` the
    server's now (the daily puzzle's date)."""

    def __init__(
        self,
        store: PuzzleStore,
        catalogue: Catalogue,
        *,
        rng: random.Random,
        wall_clock: Callable[[], float],
        rates: Mapping[str, Rate],
        rates_clock: Callable[[], float],
    ) -> None:
        self.store = store
        self.catalogue = catalogue
        self.rng = rng
        self.wall_clock = wall_clock
        self.rates = ClientRates(rates, clock=rates_clock)
        """Each client's allowances of :data:`MOVES` and :data:`REQUESTS` (a player's,
        else its address's); shared with the other server processes where they can."""

    # ----- what the routes ask ----------------------------------------------------------

    def puzzle(self, puzzle_id: str) -> Puzzle:
        """:raises ServerError: 404, no such puzzle."""
        found = self.catalogue.by_id(puzzle_id)
        if found is None:
            raise ServerError(404, NO_PUZZLE, puzzle=puzzle_id[:40])
        return found

    def game_of(self, game: str) -> str:
        """``game`` (a name or alias) as the catalogue names it, or :data:`ANY`.

        :raises ServerError: 404, no puzzles of that game.
        """
        if game == ANY:
            return ANY
        try:
            name = get_spec(game).name
        except StairgamesError:
            name = game
        if name not in self.catalogue.games():
            raise ServerError(404, NO_PUZZLES_OF, game=game[:40])
        return name

    async def next(self, player: Player | None, game: str) -> dict[str, Any]:
        """``GET /api/puzzles/next``: see the module."""
        return await off_loop(self._next, player, game)

    def _next(self, player: Player | None, game: str) -> dict[str, Any]:
        chosen = self._drawn_game(self.game_of(game))
        puzzles = self.catalogue.puzzles(chosen)
        ratings = self.store.puzzle_ratings(chosen)
        target = 1500.0
        tried: set[str] = set()
        if player is not None:
            target = float(self.store.rating(player.id, chosen).points)
            tried = self.store.tried(player.id, chosen)
        puzzle = nearest(puzzles, ratings, target, self.rng, avoid=tried)
        if puzzle is None:  # (a catalogue game has puzzles)
            raise ServerError(404, NO_PUZZLES_OF, game=chosen)
        return self._out(puzzle, player)

    def _drawn_game(self, game: str) -> str:
        if game != ANY:
            return game
        games = [name for name in self.catalogue.games() if self.catalogue.puzzles(name)]
        if not games:
            raise ServerError(404, NO_PUZZLES_OF, game=ANY)
        return self.rng.choice(games)

    async def daily(self, player: Player | None) -> dict[str, Any]:
        """``GET /api/puzzles/daily``: today's puzzle (the UTC date of the wall clock)."""
        day = datetime.datetime.fromtimestamp(self.wall_clock(), datetime.UTC).date()
        return await off_loop(self._daily, player, day)

    def _daily(self, player: Player | None, day: datetime.date) -> dict[str, Any]:
        puzzle = daily_puzzle(self.catalogue.steady(), day)
        if puzzle is None:
            raise ServerError(404, NO_PUZZLES_OF, game=ANY)
        return {**self._out(puzzle, player), "date": day.isoformat()}

    async def streak(self, player: Player | None, game: str, after: str | None) -> dict[str, Any]:
        """``GET /api/puzzles/streak``: a streak's first puzzle, or the one after
        ``after`` (see the module)."""
        return await off_loop(self._streak, player, game, after)

    def _streak(self, player: Player | None, game: str, after: str | None) -> dict[str, Any]:
        chosen = self._drawn_game(self.game_of(game))
        last = None if after is None else self.puzzle(after)
        puzzles = self.catalogue.puzzles(chosen)
        ratings = self.store.puzzle_ratings(chosen)
        avoid = self.store.tried(player.id, chosen) if player is not None else set()
        above = None
        target: float = STREAK_START
        if last is not None:
            last_ratings = ratings if last.game == chosen else self.store.puzzle_ratings(last.game)
            above = rating_now(last, last_ratings)
            target = above + STREAK_STEP
            avoid = avoid | {last.id}
        puzzle = nearest(
            puzzles, ratings, target, self.rng, avoid=avoid, among=STREAK_NEAREST, above=above
        )
        if puzzle is None:
            raise ServerError(404, NO_PUZZLES_OF, game=chosen)
        return self._out(puzzle, player)

    async def end_streak(self, player: Player | None, game: str, count: int) -> dict[str, Any]:
        """``POST /api/puzzles/streak/end``: keep the player's best streak in ``game``
        (or ``any``), the count capped by the puzzles they solved in the last hour; an
        anonymous visitor's is not kept."""
        if not 0 <= count <= MOST_STREAK:
            raise ServerError(400, A_STREAK)
        return await off_loop(self._end_streak, player, game, count)

    def _end_streak(self, player: Player | None, asked: str, count: int) -> dict[str, Any]:
        try:
            game = self.game_of(asked)
        except ServerError as exc:
            raise ServerError(400, A_STREAK) from exc
        if player is None:
            return {"game": game, "counted": 0, "best": None}
        of_game = None if game == ANY else game
        solved = self.store.solved_since(player.id, of_game, STREAK_CAP_SECONDS)
        counted = min(count, solved)
        best = self.store.record_streak(player.id, game, counted)
        return {"game": game, "counted": counted, "best": best}

    async def page(self, player: Player | None, puzzle_id: str) -> dict[str, Any]:
        """``GET /api/puzzles/{id}``: the puzzle, its source and statistics; its solution
        and tree only once the requester's first attempt ended."""
        return await off_loop(self._page, puzzle_id, player)

    def _page(self, puzzle_id: str, player: Player | None) -> dict[str, Any]:
        puzzle = self.puzzle(puzzle_id)
        attempt = None if player is None else self.store.attempt(player.id, puzzle.id)
        out = self._out(puzzle, player, attempt=attempt)
        ended = attempt is not None and attempt.ended
        return {
            **out,
            "source": dict(puzzle.source),
            "attempt": None
            if attempt is None
            else {
                "ended": attempt.ended,
                "solved": attempt.solved,
                "rating_change": _change(attempt.change),
            },
            "solution": solution(puzzle) if ended else None,
            "solution_boards": solution_boards(puzzle) if ended else None,
            "tree": puzzle.root.to_json() if ended else None,
        }

    async def me(self, player: Player | None) -> dict[str, Any]:
        """``GET /api/puzzles/me``: the player's puzzle ratings and best streaks."""
        if player is None:
            return {"player": None, "ratings": {}, "streaks": {}}
        ratings, streaks = await off_loop(self._mine, player.id)
        return {
            "player": {"id": player.id, "name": player.name},
            "ratings": {game: rating.json() for game, rating in ratings.items()},
            "streaks": streaks,
        }

    def _mine(self, player_id: str) -> tuple[dict[str, Any], dict[str, int]]:
        return self.store.ratings_of(player_id), self.store.streaks_of(player_id)

    # ----- a move -----------------------------------------------------------------------

    async def move(
        self, player: Player | None, puzzle_id: str, played: Sequence[object], move: object
    ) -> dict[str, Any]:
        """``POST /api/puzzles/{id}/moves``: the verdict on ``move`` after ``played`` (see
        the module).

        :raises ServerError: 404 no such puzzle; 400 a bad move or list, a move not
            legal there, ``played`` off the puzzle's line; 409 a player's first attempt
            standing elsewhere.
        """
        moves, text = _moves_list(played), _move_text(move)
        puzzle, rated = await self._rated_attempt(player, puzzle_id, moves)
        judged = await off_loop(_judged, puzzle, moves, text)
        outcome = judged.verdict.outcome
        change = None
        if player is not None and rated:
            change = await self._carry(player, puzzle, moves, judged)
        elif player is not None and outcome == SOLVED:
            await off_loop(self.store.note_solved, player.id, puzzle.id)
        ended = outcome != RIGHT
        boards = await off_loop(solution_boards, puzzle) if ended else None
        answer = judged.verdict.answer
        return {
            "outcome": outcome,
            "message": text_json(judged.verdict.message),
            "reply": judged.verdict.reply,
            "board": judged.board,
            "legal": judged.legal,
            "played": judged.played,
            "rating_change": change,
            "solution": solution(puzzle) if ended else None,
            "solution_boards": boards,
            "proof": None
            if answer.right
            else {
                "move": answer.move,
                "winner": answer.winner,
                "plies": answer.plies,
                "line": list(answer.line),
                "shares": list(answer.shares),
            },
        }

    async def give_up(
        self, player: Player | None, puzzle_id: str, played: Sequence[object]
    ) -> dict[str, Any]:
        """``POST /api/puzzles/{id}/give-up``: end the attempt at ``played``, failed, and
        show the solution (see the module).

        :raises ServerError: 404 no such puzzle; 400 a bad list, or ``played`` off the
            puzzle's line; 409 a player's first attempt standing elsewhere.
        """
        moves = _moves_list(played)
        puzzle, rated = await self._rated_attempt(player, puzzle_id, moves)
        board, boards = await off_loop(_board_and_solution, puzzle, moves)
        change = None
        if player is not None and rated:
            change = await self._finish(player, puzzle, moves, solved=False)
        return {
            "outcome": GAVE_UP,
            "message": text_json(Text(GIVEN_UP)),
            "reply": None,
            "board": board,
            "legal": [],
            "played": moves,
            "rating_change": change,
            "solution": solution(puzzle),
            "solution_boards": boards,
            "proof": None,
        }

    async def _rated_attempt(
        self, player: Player | None, puzzle_id: str, moves: Sequence[str]
    ) -> tuple[Puzzle, bool]:
        """The puzzle, and whether this is the player's first attempt at it, still
        going on (rated).

        :raises ServerError: 404 no such puzzle; 409 the first attempt stands elsewhere
            than ``moves``.
        """
        puzzle, attempt = await off_loop(self._puzzle_and_attempt, puzzle_id, player)
        rated = player is not None and (attempt is None or not attempt.ended)
        if rated and tuple(moves) != (attempt.progress if attempt is not None else ()):
            raise ServerError(409, OUT_OF_STEP)
        return puzzle, rated

    def _puzzle_and_attempt(
        self, puzzle_id: str, player: Player | None
    ) -> tuple[Puzzle, Attempt | None]:
        puzzle = self.puzzle(puzzle_id)
        return puzzle, None if player is None else self._attempt(player.id, puzzle)

    def _attempt(self, player_id: str, puzzle: Puzzle) -> Attempt | None:
        """The player's first attempt at ``puzzle``; one whose moves no longer follow
        the puzzle (its set changed since) starts again from its beginning."""
        attempt = self.store.attempt(player_id, puzzle.id)
        if attempt is None or attempt.ended or _follows(puzzle, attempt.progress):
            return attempt
        try:
            self.store.advance(player_id, puzzle.id, puzzle.game, attempt.progress, ())
        except OutOfStepError:
            return self.store.attempt(player_id, puzzle.id)
        return dataclasses.replace(attempt, progress=())

    async def _carry(
        self, player: Player, puzzle: Puzzle, played: list[str], judged: _Judged
    ) -> dict[str, int] | None:
        """Keep where the player's first attempt stands, or end and rate it: the rating
        change (``None`` while it goes on, or if another request ended it first).

        :raises ServerError: 409, the attempt moved on meanwhile.
        """
        outcome = judged.verdict.outcome
        if outcome != RIGHT:
            return await self._finish(player, puzzle, played, solved=outcome == SOLVED)
        try:
            await off_loop(
                self.store.advance, player.id, puzzle.id, puzzle.game, played, judged.played
            )
        except OutOfStepError as exc:
            raise ServerError(409, OUT_OF_STEP) from exc
        return None

    async def _finish(
        self, player: Player, puzzle: Puzzle, played: list[str], *, solved: bool
    ) -> dict[str, int] | None:
        """End and rate the player's first attempt, standing at ``played``: the rating
        change (``None`` if another request ended it first).

        :raises ServerError: 409, the attempt moved on meanwhile.
        """
        try:
            finished = await off_loop(
                self.store.finish, player.id, puzzle.id, puzzle.game, puzzle.rating, played, solved
            )
        except OutOfStepError as exc:
            raise ServerError(409, OUT_OF_STEP) from exc
        if finished is None:
            return None
        before, after = finished.player
        return {"before": before.points, "after": after.points}

    # ----- a puzzle as the page gets it -------------------------------------------------

    def _out(
        self, puzzle: Puzzle, player: Player | None, *, attempt: Attempt | None = None
    ) -> dict[str, Any]:
        """:class:`~.contract.PuzzleOut` of ``puzzle``: where the player's first attempt
        stands if it goes on, else its start (blocking: reads and a position drawn)."""
        if attempt is None and player is not None:
            attempt = self._attempt(player.id, puzzle)
        progress: Sequence[str] = ()
        if attempt is not None and not attempt.ended:
            progress = attempt.progress
        stats = self.store.stats(puzzle.id)
        rated = player is not None and (attempt is None or not attempt.ended)
        return puzzle_out(puzzle, progress, stats, rated=rated)


def puzzle_out(
    puzzle: Puzzle, progress: Sequence[str], stats: PuzzleStats | None, *, rated: bool = False
) -> dict[str, Any]:
    """A puzzle as ``PuzzleOut`` shows it, at ``progress`` (moves on its line);
    ``rated``: whether the requester's attempt counts for their rating."""
    spec = get_spec(puzzle.game)
    _node, state = node_after(puzzle, progress)
    return {
        "id": puzzle.id,
        "game": spec.name,
        "title": spec.title,
        "options": dict(puzzle.options),
        "position": puzzle.position,
        "solver": puzzle.solver,
        "solver_name": state.seat_name(puzzle.solver),
        "goal": puzzle.goal,
        "goal_text": text_json(goal_text(puzzle, state)),
        "themes": list(puzzle.themes),
        "rating": round(puzzle.rating) if stats is None else stats.rating,
        "board": _board(puzzle, state),
        "legal": _legal(state),
        "played": list(progress),
        "rated": rated,
        "plays": 0 if stats is None else stats.plays,
        "success_rate": None if stats is None else stats.success_rate,
    }


def _board(puzzle: Puzzle, state: State) -> dict[str, Any] | None:
    spec = get_spec(puzzle.game)
    if spec.web_view is None:
        return None
    board: dict[str, Any] = spec.web_view(state, puzzle.solver)
    return board


def _legal(state: State) -> list[str]:
    if state.is_terminal() or state.is_chance_node():
        return []
    return [state.action_to_string(action) for action in state.legal_actions()]


def _follows(puzzle: Puzzle, progress: Sequence[str]) -> bool:
    try:
        node_after(puzzle, progress)
    except StairgamesError:
        return False
    return True


def solution_boards(puzzle: Puzzle) -> list[dict[str, Any] | None]:
    """The game's drawing of each position along the puzzle's solution, for the
    solver's seat: the start, then after each move (blocking: positions replayed)."""
    state = start_state(puzzle)
    boards = [_board(puzzle, state)]
    for move in solution(puzzle):
        state.apply_action(state.string_to_action(move))
        boards.append(_board(puzzle, state))
    return boards


def _board_and_solution(
    puzzle: Puzzle, played: list[str]
) -> tuple[dict[str, Any] | None, list[dict[str, Any] | None]]:
    """The board after ``played`` and :func:`solution_boards` (blocking: positions
    replayed).

    :raises ServerError: 400, ``played`` off the line.
    """
    try:
        _node, state = node_after(puzzle, played)
    except StairgamesError as exc:
        raise ServerError(400, OFF_THE_LINE) from exc
    return _board(puzzle, state), solution_boards(puzzle)


def _judged(puzzle: Puzzle, played: list[str], move: str) -> _Judged:
    """``move`` judged after ``played``, and the board and legal moves it leads to: after
    the reply while the puzzle goes on, else after the move (blocking: a position
    replayed).

    :raises ServerError: 400, ``played`` off the line, or ``move`` not legal there.
    """
    try:
        _node, state = node_after(puzzle, played)
    except StairgamesError as exc:
        raise ServerError(400, OFF_THE_LINE) from exc
    try:
        verdict = judge(puzzle, played, move)
    except PuzzleMoveError as exc:
        raise ServerError(400, NOT_LEGAL, move=move[:40]) from exc
    state.apply_action(state.string_to_action(verdict.answer.move))
    now_played = [*played, verdict.answer.move]
    legal: list[str] = []
    if verdict.outcome == RIGHT and verdict.reply is not None:
        state.apply_action(state.string_to_action(verdict.reply))
        now_played.append(verdict.reply)
        legal = _legal(state)
    return _Judged(verdict, now_played, _board(puzzle, state), legal)


def _change(change: tuple[int, int] | None) -> dict[str, int] | None:
    return None if change is None else {"before": change[0], "after": change[1]}


__all__ = [
    "ANY",
    "GAVE_UP",
    "MOVES",
    "REQUESTS",
    "Catalogue",
    "ListedCatalogue",
    "Puzzles",
    "ShippedCatalogue",
    "daily_puzzle",
    "goal_text",
    "nearest",
    "puzzle_out",
    "rating_now",
    "solution_boards",
]
