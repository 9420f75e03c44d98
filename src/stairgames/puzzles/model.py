"""A puzzle as data: a position, the solver's seat, the goal and a tree of judged moves.

A :class:`Puzzle` holds everything its judging needs (:mod:`.judge` only walks the tree):
at each :class:`Node`, where the solver moves, *every* legal move of the solver is an
:class:`Answer` with its verdict and every seat's exact share after it; the right ones
(``"best"``, ``"also"``) carry the defender's reply and the next node, the wrong ones
the line that punishes them. Nothing in a stored puzzle is an estimate: the shares are
proven by the game's exact means when the puzzle is made (:mod:`.prove`) and proven
again by the tests on a sample.

``to_json`` and ``from_json`` round-trip; ``from_json`` checks every field and raises
:class:`InvalidPuzzleError` naming the first bad one. A set of puzzles is a gzip-compressed
file of one puzzle's JSON a line (:func:`read_puzzles`, :func:`write_puzzles`).

>>> leaf = Answer("pass", "best", (1.0, 0.0), 1, 0, ("pass",), None, None)
>>> puzzle = Puzzle(
...     id="abcd1234", game="stairs", options={"size": 3}, position="D,L,D/L,D,L/D,L,D L -",
...     solver=0, goal="win", root=Node((leaf,)), themes=(), rating=1500.0,
...     source={"kind": "self-play", "seed": 1, "ply": 0},
... )
>>> Puzzle.from_json(puzzle.to_json()) == puzzle
True
"""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import json
import math
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Final

from stairgames.core.errors import StairgamesError
from stairgames.i18n import N_

BEST: Final = "best"
"""The verdict of a move that keeps the proven result in the fewest plies (or, with
chance, gives the best exact share)."""
ALSO: Final = "also"
"""The verdict of a move that keeps the proven result, as short as the best or shorter
than the puzzle asks (accepted, as lichess accepts any mate)."""
WRONG: Final = "wrong"
"""The verdict of a move that throws the proven result away (or wins too slowly)."""
VERDICTS: Final = (BEST, ALSO, WRONG)

WIN: Final = "win"
"""The goal "move and win": the solver has a proven win."""
WIN_NOT_DRAW: Final = "win_not_draw"
"""The goal "win, not just draw": a proven win where other moves draw (27)."""
BEST_CHANCE: Final = "best_chance"
"""The goal of a chance game's decision: the move with the best exact share."""
GOALS: Final = (WIN, WIN_NOT_DRAW, BEST_CHANCE)

SOURCE_KINDS: Final = ("self-play", "record", "site")
"""Where a puzzle's position came from: a seeded game of the computer players, a record
file, a game played on the site."""

MAX_LINE: Final = 12
"""The most plies of an answer's proof line."""
ID_PATTERN: Final = re.compile(r"[a-z0-9]{8}")
_ID_ALPHABET: Final = "0123456789abcdefghijklmnopqrstuvwxyz"


class InvalidPuzzleError(StairgamesError):
    """A puzzle's JSON (or a file of puzzles) is malformed: the message names the field."""


@dataclasses.dataclass(frozen=True)
class Answer:
    """One legal move of the solver at a node, judged."""

    move: str
    """The move in the game's notation."""
    verdict: str
    """``"best"``, ``"also"`` or ``"wrong"`` (:data:`VERDICTS`)."""
    shares: tuple[float, ...]
    """Every seat's exact share after the move, 0 to 1 (a win 1, a draw a half)."""
    plies: int | None
    """Two-player games without chance: the plies to :attr:`winner`'s win after the
    move under best play (its quickest win, the loser's longest defence); else ``None``."""
    winner: int | None
    """The seat that wins after the move under best play (``None``: a draw, or chance)."""
    line: tuple[str, ...]
    """The proof after the move: best play on both sides, at most :data:`MAX_LINE` plies;
    for a wrong move, how it is punished."""
    reply: str | None
    """For a right move: the defender's reply (``None``: the puzzle is solved here)."""
    next: Node | None
    """For a right move with a reply: the node after the reply."""

    @property
    def right(self) -> bool:
        """Whether the move is accepted (``"best"`` or ``"also"``)."""
        return self.verdict != WRONG

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "verdict": self.verdict,
            "shares": list(self.shares),
            "plies": self.plies,
            "winner": self.winner,
            "line": list(self.line),
            "reply": self.reply,
            "next": None if self.next is None else self.next.to_json(),
        }

    @classmethod
    def from_json(cls, data: Any, where: str = "answer") -> Answer:
        """:raises InvalidPuzzleError: a field is missing or bad."""
        fields = _object(data, where)
        verdict = _string(fields, "verdict", where)
        if verdict not in VERDICTS:
            raise _bad(where, "verdict", f"one of {', '.join(VERDICTS)}")
        shares = _list(fields, "shares", where)
        if not shares or not all(_is_number(s) and 0.0 <= s <= 1.0 for s in shares):
            raise _bad(where, "shares", "a list of numbers from 0 to 1")
        plies = _optional_int(fields, "plies", where)
        winner = _optional_int(fields, "winner", where)
        if winner is not None and not 0 <= winner < len(shares):
            raise _bad(where, "winner", "a seat")
        line = _list(fields, "line", where)
        if len(line) > MAX_LINE or not all(isinstance(m, str) and m for m in line):
            raise _bad(where, "line", f"at most {MAX_LINE} moves")
        reply = fields.get("reply")
        if reply is not None and (not isinstance(reply, str) or not reply):
            raise _bad(where, "reply", "a move or null")
        raw_next = fields.get("next")
        move = _string(fields, "move", where)
        if verdict == WRONG and (reply is not None or raw_next is not None):
            raise _bad(where, "reply", "null for a wrong move")
        if (reply is None) != (raw_next is None):
            raise _bad(where, "next", "a node exactly where there is a reply")
        after = None if raw_next is None else Node.from_json(raw_next, f"{where} {move}: next")
        return cls(
            move=move,
            verdict=verdict,
            shares=tuple(float(s) for s in shares),
            plies=plies,
            winner=winner,
            line=tuple(line),
            reply=reply,
            next=after,
        )


@dataclasses.dataclass(frozen=True)
class Node:
    """A position where the solver moves: every legal move of the solver, judged."""

    answers: tuple[Answer, ...]

    def answer(self, move: str) -> Answer | None:
        """The answer for ``move`` (its notation as the tree writes it), or ``None``."""
        for answer in self.answers:
            if answer.move == move:
                return answer
        return None

    @property
    def best(self) -> Answer:
        """The first ``"best"`` answer (every node has one)."""
        return next(answer for answer in self.answers if answer.verdict == BEST)

    def depth(self) -> int:
        """The solver's moves on the main line from here (this node's included)."""
        best = self.best
        return 1 + (0 if best.next is None else best.next.depth())

    def to_json(self) -> dict[str, Any]:
        return {"answers": [answer.to_json() for answer in self.answers]}

    @classmethod
    def from_json(cls, data: Any, where: str = "root") -> Node:
        """:raises InvalidPuzzleError: a field is missing or bad."""
        fields = _object(data, where)
        raw = _list(fields, "answers", where)
        answers = tuple(
            Answer.from_json(item, f"{where}: answer {i}") for i, item in enumerate(raw)
        )
        if not any(answer.verdict == BEST for answer in answers):
            raise _bad(where, "answers", 'a list with a "best" answer')
        moves = [answer.move for answer in answers]
        if len(set(moves)) != len(moves):
            raise _bad(where, "answers", "a list of distinct moves")
        return cls(answers)


@dataclasses.dataclass(frozen=True)
class Puzzle:
    """A position, whose turn, what to achieve, and the judged moves."""

    id: str
    """8 characters ``[a-z0-9]``, from the game, its options and the position
    (:func:`puzzle_id`)."""
    game: str
    """The registry name."""
    options: dict[str, Any]
    """The game's options, as :func:`stairgames.load` takes them."""
    position: str
    """The position text (``game.state_from_position``) at the start."""
    solver: int
    """The seat the solver plays: to move at the start."""
    goal: str
    """:data:`WIN`, :data:`WIN_NOT_DRAW` or :data:`BEST_CHANCE`."""
    root: Node
    themes: tuple[str, ...]
    """Theme ids, from the game's :class:`~stairgames.core.puzzles.PuzzleKit`."""
    rating: float
    """Difficulty on the game-rating scale (1500: average)."""
    source: dict[str, Any]
    """``{"kind": "self-play"|"record"|"site", "seed"|"match": ..., "ply": n}``."""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "options": dict(self.options),
            "position": self.position,
            "solver": self.solver,
            "goal": self.goal,
            "root": self.root.to_json(),
            "themes": list(self.themes),
            "rating": self.rating,
            "source": dict(self.source),
        }

    @classmethod
    def from_json(cls, data: Any) -> Puzzle:
        """A puzzle from its JSON (as :meth:`to_json` makes it), every field checked.

        :raises InvalidPuzzleError: a field is missing or bad; the message names it.
        """
        fields = _object(data, "puzzle")
        puzzle_id = _string(fields, "id", "puzzle")
        if not ID_PATTERN.fullmatch(puzzle_id):
            raise _bad("puzzle", "id", "8 characters a-z, 0-9")
        where = f"puzzle {puzzle_id}"
        options = fields.get("options")
        if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
            raise _bad(where, "options", "an object")
        solver = fields.get("solver")
        if not isinstance(solver, int) or isinstance(solver, bool) or solver < 0:
            raise _bad(where, "solver", "a seat")
        goal = _string(fields, "goal", where)
        if goal not in GOALS:
            raise _bad(where, "goal", f"one of {', '.join(GOALS)}")
        themes = _list(fields, "themes", where)
        if not all(isinstance(theme, str) and theme for theme in themes):
            raise _bad(where, "themes", "a list of theme ids")
        rating: Any = fields.get("rating")
        if not _is_number(rating):
            raise _bad(where, "rating", "a number")
        source = fields.get("source")
        if not isinstance(source, dict) or source.get("kind") not in SOURCE_KINDS:
            raise _bad(where, "source", f"an object whose kind is one of {', '.join(SOURCE_KINDS)}")
        root = Node.from_json(fields.get("root"), f"{where}: root")
        return cls(
            id=puzzle_id,
            game=_string(fields, "game", where),
            options=dict(options),
            position=_string(fields, "position", where),
            solver=solver,
            goal=goal,
            root=root,
            themes=tuple(themes),
            rating=float(rating),
            source=dict(source),
        )


def puzzle_id(game: str, options: Mapping[str, Any], position: str) -> str:
    """The stable id of a puzzle from its game, options and position: 8 characters.

    >>> puzzle_id("stairs", {"size": 4}, "L,D,L,D/D,L,D,L/L,D,L,D/D,L,D,L L -")
    'ycm21lgh'
    """
    key = json.dumps([game, dict(options), position], sort_keys=True, separators=(",", ":"))
    number = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")
    letters = []
    for _ in range(8):
        number, digit = divmod(number, len(_ID_ALPHABET))
        letters.append(_ID_ALPHABET[digit])
    return "".join(letters)


def read_puzzles(path: str | Path) -> list[Puzzle]:
    """The puzzles of a file (one JSON object a line; gzip-compressed where the name ends
    in ``.gz``).

    :raises InvalidPuzzleError: a line is not a puzzle (the message names the file and
        line), or the file cannot be read.
    """
    path = Path(path)
    try:
        with _open(path, "rt") as lines:
            return list(_parsed(lines, str(path)))
    except (OSError, EOFError, UnicodeDecodeError) as exc:
        raise InvalidPuzzleError(
            message_id=N_("cannot read the puzzles in {path}: {reason}"),
            arguments={"path": str(path), "reason": str(exc)},
        ) from exc


def parse_puzzles(lines: Iterable[str], source: str = "<text>") -> list[Puzzle]:
    """The puzzles of lines of JSON (blank lines skipped).

    :raises InvalidPuzzleError: a line is not a puzzle; the message names the line.
    """
    return list(_parsed(lines, source))


def _parsed(lines: Iterable[str], source: str) -> Iterator[Puzzle]:
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield Puzzle.from_json(json.loads(line))
        except (json.JSONDecodeError, InvalidPuzzleError) as exc:
            raise InvalidPuzzleError(
                message_id=N_("{source}, line {line}: {reason}"),
                arguments={"source": source, "line": number, "reason": str(exc)},
            ) from exc


def write_puzzles(path: str | Path, puzzles: Iterable[Puzzle], *, append: bool = False) -> int:
    """Write ``puzzles`` one a line (gzip-compressed where the name ends in ``.gz``);
    returns how many. ``append``: after those already there."""
    count = 0
    with _open(Path(path), "at" if append else "wt") as out:
        for puzzle in puzzles:
            out.write(json.dumps(puzzle.to_json(), ensure_ascii=False, sort_keys=True) + "\n")
            count += 1
    return count


def _open(path: Path, mode: str) -> Any:
    if path.name.endswith(".gz"):
        return gzip.open(path, mode, encoding="utf-8")
    return path.open(mode, encoding="utf-8")


# ----- checking JSON fields ----------------------------------------------------------------


def _bad(where: str, field: str, expected: str) -> InvalidPuzzleError:
    return InvalidPuzzleError(
        message_id=N_("{where}: {field} must be {expected}"),
        arguments={"where": where, "field": field, "expected": expected},
    )


def _object(data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise InvalidPuzzleError(
            message_id=N_("{where} must be a JSON object"), arguments={"where": where}
        )
    return data


def _string(fields: dict[str, Any], name: str, where: str) -> str:
    value = fields.get(name)
    if not isinstance(value, str) or not value:
        raise _bad(where, name, "a text")
    return value


def _list(fields: dict[str, Any], name: str, where: str) -> list[Any]:
    value = fields.get(name)
    if not isinstance(value, list):
        raise _bad(where, name, "a list")
    return value


def _optional_int(fields: dict[str, Any], name: str, where: str) -> int | None:
    value = fields.get(name)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise _bad(where, name, "a whole number or null")
    return value


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


__all__ = [
    "ALSO",
    "BEST",
    "BEST_CHANCE",
    "GOALS",
    "MAX_LINE",
    "SOURCE_KINDS",
    "VERDICTS",
    "WIN",
    "WIN_NOT_DRAW",
    "WRONG",
    "Answer",
    "InvalidPuzzleError",
    "Node",
    "Puzzle",
    "parse_puzzles",
    "puzzle_id",
    "read_puzzles",
    "write_puzzles",
]
