"""The perfect player of 27's basic game, read from solved tables.

:func:`perfect_play` is the game's ``perfect_play`` hook: it finds the tables ``stairgames
solve twenty_seven`` keeps (:mod:`.storage`) and values each move by the result of the
position it leads to.
"""

from __future__ import annotations

from stairgames.core.errors import InvalidOptionError, StairgamesError
from stairgames.core.game import Game, State
from stairgames.core.solvers import solved_dir
from stairgames.games.twenty_seven import rules
from stairgames.games.twenty_seven.game import TwentySevenGame, TwentySevenState
from stairgames.games.twenty_seven.notation import decode_move
from stairgames.games.twenty_seven.research.reduced import Size
from stairgames.games.twenty_seven.research.storage import GAME_TAG, Table, tables_in
from stairgames.i18n import N_


class UnsolvedPositionError(StairgamesError):
    """A position outside every solved table."""


def white_result_at_end(line: rules.Line) -> int:
    """T5 at the end of a game: 1 when white scores more, -1 less, 0 equal."""
    white, black = rules.score(line, rules.WHITE), rules.score(line, rules.BLACK)
    return (white > black) - (white < black)


class TablePerfectPlay:
    """The ``perfect_play`` of 27's basic game, read from solved tables (the whole game
    from its start, or the positions reachable from a solved root: ``--from``).

    A state is covered when each of its moves leads to a position a table holds (or a
    finished game); :meth:`action_values` refuses any other with
    :class:`UnsolvedPositionError`, saying how to solve it. The values are win, draw or
    loss (the tables keep 2 bits a position, not the score).
    """

    def __init__(self, tables: list[Table]) -> None:
        self.tables = tables

    def result(self, line: rules.Line) -> int | None:
        """The result of ``line`` for its colour to move (-1, 0, 1) under perfect play,
        ``None`` when no table holds it."""
        if rules.is_over(line, "basic"):
            white = white_result_at_end(line)
            return white if line.to_move == rules.WHITE else -white
        for table in self.tables:
            code = table.code(line)
            if code:
                return code - 2
        return None

    def action_values(self, state: State) -> dict[int, list[float]]:
        assert isinstance(state, TwentySevenState)
        seat = state.current_player()
        values: dict[int, list[float]] = {}
        for action in state.legal_actions():
            move = decode_move(action)
            line = state.line
            child = rules.pass_turn(line) if move is None else rules.apply_move(line, move)
            reply = self.result(child)
            if reply is None:
                raise UnsolvedPositionError(
                    message_id=N_(
                        "the position {position} is outside the solved tables of 27; solve "
                        'it with: stairgames solve twenty_seven --variant basic --from "{position}"'
                    ),
                    arguments={"position": state.position()},
                )
            mine = float(-reply)
            values[action] = [mine, -mine] if seat == 0 else [-mine, mine]
        return values

    def principal_variation(self, state: State, *, limit: int = 200) -> list[int]:
        """A perfect game from ``state``: at each step the first legal action of the
        greatest value for the colour to move."""
        line: list[int] = []
        current = state.clone()
        while not current.is_terminal() and len(line) < limit:
            values = self.action_values(current)
            seat = current.current_player()
            action = max(values, key=lambda a: (values[a][seat], -a))
            line.append(action)
            current.apply_action(action)
        return line


def perfect_play(game: Game) -> TablePerfectPlay:
    """The ``perfect_play`` hook of 27: the solved tables of the basic game in
    :func:`stairgames.core.solvers.solved_dir` (``twenty_seven/``).

    :raises InvalidOptionError: another variant, or no table on disk.
    """
    assert isinstance(game, TwentySevenGame)
    if game.variant != "basic":
        raise InvalidOptionError(
            message_id=N_(
                "27 is solved only in its basic variant (bases never move there); the {variant} "
                "game has no solved table"
            ),
            arguments={"variant": game.variant},
        )
    folder = solved_dir() / GAME_TAG
    tables = list(tables_in(folder, Size()))
    if not tables:
        raise InvalidOptionError(
            message_id=N_(
                "no solved table of 27 (basic) in {folder}: run `stairgames solve twenty_seven "
                "--variant basic` first (the whole game needs about 19 GB and days of one core; "
                '--from "POSITION" solves the game from one position on)'
            ),
            arguments={"folder": str(folder)},
        )
    return TablePerfectPlay(tables)


__all__ = ["TablePerfectPlay", "UnsolvedPositionError", "perfect_play", "white_result_at_end"]
