"""The puzzles' models: a puzzle as the page gets it, a move and its verdict, the
streaks, a player's puzzle ratings (docs/web.md, "Puzzles"; the pieces:
``base/contract.py``).

Nothing here carries a puzzle's tree or its solution before the attempt ended:
:class:`PuzzleOut` has neither, :class:`MoveAnswer` has the solution only on the answer
that ends the attempt, and :class:`PuzzlePage` both only for a player whose first
attempt ended.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import JsonValue

from stairgames.i18n import N_
from stairgames.server.base.contract import Answer, Body, JsonObject, Refusals
from stairgames.server.people.contract import Rating

A_MOVE: str = N_("a move must be a short text in the game's notation")
PLAYED_MOVES: str = N_("'played' must be the list of the moves played so far")
A_STREAK: str = N_("a streak's end names its game and its count")


class RatingChange(Answer):
    """A player's puzzle rating before and after an attempt (points, the game ratings'
    scale: 1500 for a new player)."""

    before: int
    after: int


class PuzzleOut(Answer):
    """A puzzle to solve: the game and its ``title``, the start ``position``, the
    ``solver``'s seat, the ``goal`` and its words (``goal_text``, a text to translate),
    its ``themes``, its ``rating`` now (points), the ``board`` (the game's ``web_view``
    for the solver) and the solver's ``legal`` moves where the attempt stands:
    ``played`` is empty, or, for a player whose first attempt goes on, the moves it
    reached (the board and the legal moves there); whether the requester's attempt is
    ``rated`` (a player's first attempt that has not ended: giving up then costs
    rating); the site's ``plays`` of it and their ``success_rate`` (``None``: none
    yet)."""

    id: str
    game: str
    title: str
    options: JsonObject
    position: str
    solver: int
    solver_name: str
    goal: str
    goal_text: JsonValue
    themes: list[str]
    rating: int
    board: JsonObject | None
    legal: list[str]
    played: list[str]
    rated: bool
    plays: int
    success_rate: float | None


class DailyPuzzle(PuzzleOut):
    """``GET /api/puzzles/daily``: today's puzzle, and the day (``2026-12-24``, UTC)."""

    date: str


class AttemptOut(Answer):
    """The requester's first attempt at a puzzle: ``ended``, ``solved`` (once ended) and
    the ``rating_change`` it made."""

    ended: bool
    solved: bool | None
    rating_change: RatingChange | None


class PuzzlePage(PuzzleOut):
    """``GET /api/puzzles/{id}``: the puzzle, where it comes from (``source``), the
    requester's ``attempt`` (``None``: an anonymous visitor, or none yet), and only once
    that attempt ended its ``solution`` (the main line), the ``solution_boards`` (see
    :class:`MoveAnswer`) and its ``tree`` (every answer judged, as the puzzle's JSON has
    it)."""

    source: JsonObject
    attempt: AttemptOut | None
    solution: list[str] | None
    solution_boards: list[JsonObject | None] | None
    tree: JsonObject | None


class MoveBody(Body):
    """``POST /api/puzzles/{id}/moves``: what was ``played`` so far (the solver's moves
    and the replies, alternating) and the solver's next ``move``."""

    refusals: ClassVar[Refusals] = {"played": PLAYED_MOVES, "move": A_MOVE}

    played: list[JsonValue]
    move: JsonValue = None


class GiveUpBody(Body):
    """``POST /api/puzzles/{id}/give-up``: what was ``played`` so far, as for a move."""

    refusals: ClassVar[Refusals] = {"played": PLAYED_MOVES}

    played: list[JsonValue]


class Proof(Answer):
    """Why a move was wrong: after ``move`` the seat ``winner`` wins (``None``: a draw,
    or chance) in ``plies`` (``None``: with chance), as ``line`` shows; ``shares``: every
    seat's exact share after it."""

    move: str
    winner: int | None
    plies: int | None
    line: list[str]
    shares: list[float]


class MoveAnswer(Answer):
    """The verdict on a move: ``outcome`` ``right`` (the ``reply`` follows), ``solved``
    or ``wrong``, or ``gave_up`` (the answer to ``POST /api/puzzles/{id}/give-up``); its
    words (``message``, to translate); the board after the reply (after the move once
    the attempt ended; where it stood when given up) and the solver's ``legal`` moves
    there; ``played`` now; the ``rating_change`` (a player's first attempt, as it ends);
    once the attempt ended the ``solution`` and the ``solution_boards``: the game's
    drawing (``web_view``) of each position along the solution for the solver's seat,
    the start first, so one more than the solution's moves (``None`` for a game
    without a drawing); the ``proof`` of a wrong move."""

    outcome: str
    message: JsonValue
    reply: str | None
    board: JsonObject | None
    legal: list[str]
    played: list[str]
    rating_change: RatingChange | None
    solution: list[str] | None
    solution_boards: list[JsonObject | None] | None
    proof: Proof | None


class StreakEndBody(Body):
    """``POST /api/puzzles/streak/end``: the streak's ``game`` (or ``any``) and how many
    puzzles it solved (``count``)."""

    refusals: ClassVar[Refusals] = {"game": A_STREAK, "count": A_STREAK}

    game: str
    count: int


class StreakEnded(Answer):
    """What a streak's end kept: its ``game``, the ``counted`` puzzles (the count, capped
    by those the player solved in the last hour) and the player's ``best`` now
    (``None``: an anonymous visitor, whose streaks are not kept)."""

    game: str
    counted: int
    best: int | None


class PuzzlePlayer(Answer):
    """Who the puzzle ratings are of."""

    id: str
    name: str


class PuzzlesOfPlayer(Answer):
    """``GET /api/puzzles/me``: the requester (``None``: no player), their puzzle
    ``ratings`` by game and their best ``streaks`` by game (or ``any``)."""

    player: PuzzlePlayer | None
    ratings: dict[str, Rating]
    streaks: dict[str, int]
