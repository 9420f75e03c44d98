"""Solving puzzles at the terminal: ``stairgames puzzle [GAME] [--id ID] [--seed S]``.

Game-independent, like :mod:`stairgames.terminal`: the board comes from the game's
renderer (``GameSpec.render``), the moves are typed in the game's notation, and each
move is answered by the puzzle's judge (:func:`stairgames.puzzles.judge`), which only
walks the puzzle's proven tree. A right move is answered by the defender's reply, a
wrong one by the proof that refutes it, and once a puzzle ends its solution is shown
and the next puzzle offered. Input and output are injectable so tests can drive it.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Final, TextIO

from stairgames.core.errors import StairgamesError
from stairgames.core.game import State
from stairgames.core.registry import GameSpec, get_spec, puzzle_kit
from stairgames.i18n import N_, Text, _, display_width, localize, translate, wrap
from stairgames.puzzles import Puzzle, by_id, judge, shipped, shipped_games, solution, start_state
from stairgames.puzzles.judge import RIGHT, SOLVED, goal_text
from stairgames.terminal import RULE_CODE, SCREEN_WIDTH, fill, group_moves, shorten

SOLVED_OUTCOME: Final = "solved"
FAILED: Final = "failed"
SKIPPED: Final = "skipped"
QUIT: Final = "quit"

QUIT_WORDS: Final = ("quit", "exit", "q")


def help_text() -> str:
    """The commands of a puzzle, in the current language."""
    return _(
        """Commands:
  <move>     play a move in the game's notation
  moves      list the legal moves
  solution   give up and see the solution (the puzzle counts as failed)
  skip       the next puzzle, this one left unsolved
  position   the position as text (for 'stairgames show GAME TEXT')
  help       this text
  quit       stop (Ctrl-C too)"""
    )


def theme_names(puzzle: Puzzle) -> list[str]:
    """The puzzle's themes, each by its name in the current language (its game's puzzle
    kit names them, ``core/puzzles.py``); an id the kit does not know as it is."""
    kit = puzzle_kit(puzzle.game)
    names = kit.all_names() if kit is not None else {}
    return [_(names[theme]) if theme in names else theme for theme in puzzle.themes]


class PuzzleSession:
    """Puzzles one after another at the terminal, until they run out or the person quits."""

    def __init__(
        self,
        puzzles: Iterable[Puzzle],
        *,
        colour: bool = False,
        input_fn: Callable[[str], str] = input,
        output: TextIO | None = None,
    ) -> None:
        self.puzzles = puzzles
        self.colour = colour
        self.input_fn = input_fn
        self.output = sys.stdout if output is None else output
        self.results: list[str] = []
        """Each puzzle's end, in order: ``"solved"``, ``"failed"`` or ``"skipped"``."""

    # ----- output -----------------------------------------------------------

    def say(self, text: str = "") -> None:
        for line in text.split("\n"):
            for part in wrap(line, SCREEN_WIDTH, subsequent_indent="  ") or [""]:
                print(part, file=self.output)

    def _ask(self, question: str) -> str | None:
        """The person's answer, trimmed; ``None`` at the end of input."""
        try:
            return self.input_fn(question).strip()
        except EOFError:
            print(file=self.output)
            return None

    # ----- the session ------------------------------------------------------

    def run(self) -> list[str]:
        """Offer the puzzles in turn; returns how each ended (:attr:`results`)."""
        try:
            self._run()
        except KeyboardInterrupt:
            print(file=self.output)
        self._summary()
        return self.results

    def _run(self) -> None:
        self.say(_("Type 'help' for commands and how to write a move."))
        first = True
        for number, puzzle in enumerate(self.puzzles, start=1):
            if not first:
                answer = self._ask(_("Next puzzle? (Enter: yes, q: quit) "))
                if answer is None or answer.lower() in {*QUIT_WORDS, _("q")}:
                    return
            first = False
            ended = self.solve(puzzle, number)
            if ended == QUIT:
                return
            self.results.append(ended)
        self.say(_("No more puzzles."))

    def _summary(self) -> None:
        if not self.results:
            return
        solved = self.results.count(SOLVED_OUTCOME)
        self.say(
            _("Puzzles solved: {solved} of {count}.").format(solved=solved, count=len(self.results))
        )

    # ----- one puzzle -------------------------------------------------------

    def solve(self, puzzle: Puzzle, number: int = 1) -> str:
        """One puzzle: its board, its goal, moves read and judged until it is solved or
        failed; returns ``"solved"``, ``"failed"``, ``"skipped"`` or ``"quit"``."""
        spec = get_spec(puzzle.game)
        state = start_state(puzzle)
        played: list[str] = []
        self.say()
        self.say(
            _("Puzzle {number}: {title}, {id} (rating {rating})").format(
                number=number, title=_(spec.title), id=puzzle.id, rating=round(puzzle.rating)
            )
        )
        if puzzle.themes:
            self.say(_("Themes: {themes}").format(themes=_(", ").join(theme_names(puzzle))))
        goal = localize(goal_text(puzzle, state))
        self._draw(spec, state, puzzle.solver)
        self.say(_("Goal: {goal}.").format(goal=goal))
        while True:
            line = self._ask(f"{_(state.seat_name(puzzle.solver))}> ")
            if line is None:
                return QUIT
            command = line.lower()
            if not command:
                continue
            if command in QUIT_WORDS:
                return QUIT
            if command in ("help", "h", "?"):
                self.say(help_text())
                continue
            if command in ("moves", "m", "legal"):
                self._list_moves(state)
                continue
            if command in ("position", "pos"):
                self.say(_("Position: {text}").format(text=state.position()))
                continue
            if command == "skip":
                return SKIPPED
            if command == "solution":
                self.say(_("You gave up."))
                self._show_solution(puzzle)
                return FAILED
            try:
                verdict = judge(puzzle, played, line)
            except StairgamesError as exc:
                reason = RULE_CODE.sub("", translate(exc)).replace(line, shorten(line))
                self.say(_("Not accepted: {reason}").format(reason=reason))
                continue
            move = verdict.answer.move
            if verdict.outcome == RIGHT:
                reply = verdict.reply
                assert reply is not None  # a right move that does not end is answered
                self.say(localize(verdict.message))
                self._play(spec, state, move)
                self._play(spec, state, reply, reply=True)
                played += [move, reply]
                self._draw(spec, state, puzzle.solver)
                self.say(_("Goal: {goal}.").format(goal=goal))
                continue
            if verdict.outcome == SOLVED:
                self._play(spec, state, move)
                self._draw(spec, state, puzzle.solver)
                self.say(localize(verdict.message))
                self._show_solution(puzzle)
                return SOLVED_OUTCOME
            self.say(_("Wrong: {message}.").format(message=localize(verdict.message)))
            if verdict.answer.line:
                self.say(_("The proof: {line}").format(line=" ".join((move, *verdict.answer.line))))
            self._show_solution(puzzle)
            return FAILED

    def _draw(self, spec: GameSpec, state: State, viewer: int) -> None:
        print(spec.render(state, colour=self.colour, viewer=viewer), file=self.output)

    def _play(self, spec: GameSpec, state: State, move: str, *, reply: bool = False) -> None:
        """Play ``move`` on ``state``, told as the game tells its moves where it does
        (``GameSpec.narrate``), else, for the defender's reply, by its notation."""
        before = state.clone()
        mover = None if state.is_chance_node() else state.current_player()
        action = state.string_to_action(move)
        state.apply_action(action)
        if spec.narrate is not None:
            for sentence in spec.narrate(before, action, state):
                self.say(sentence)
        elif reply:
            who = _("chance") if mover is None else _(before.seat_name(mover))
            self.say(_("{player} replies {move}.").format(player=who, move=move))

    def _show_solution(self, puzzle: Puzzle) -> None:
        self.say(_("The solution: {line}").format(line=" ".join(solution(puzzle))))

    def _list_moves(self, state: State) -> None:
        moves = [state.action_to_string(a) for a in state.legal_actions()]
        listing = _("Legal moves ({count}): {moves}").format(
            count=len(moves), moves=" ".join(moves)
        )
        if display_width(listing) <= SCREEN_WIDTH:
            self.say(listing)
            return
        self.say(
            _("Legal moves ({count}), grouped by what comes first, typed like {example}:").format(
                count=len(moves), example=moves[0]
            )
        )
        for line in fill(group_moves(moves)):
            self.say(line)


def puzzle_order(game: str | None, puzzle_id: str | None, rng: random.Random) -> list[Puzzle]:
    """The puzzles a session offers: those of ``game`` (a name or alias; every game with
    a shipped set where ``None``) in an order drawn by ``rng``, the puzzle ``puzzle_id``
    first where given.

    :raises StairgamesError: no such game or puzzle, or the game has no puzzles.
    """
    first = None
    if puzzle_id is not None:
        first = by_id(puzzle_id.strip().lower())
        if first is None:
            raise StairgamesError(
                message_id=N_("no puzzle {id!r}"), arguments={"id": puzzle_id[:20]}
            )
        if game is not None and get_spec(game).name != first.game:
            raise StairgamesError(
                message_id=N_("puzzle {id} is a puzzle of {title}"),
                arguments={"id": first.id, "title": Text(get_spec(first.game).title)},
            )
        game = first.game
    names = shipped_games()
    if game is not None:
        spec = get_spec(game)
        if spec.name not in names:
            raise StairgamesError(
                message_id=N_("{title} has no puzzles; games with puzzles: {games}"),
                arguments={"title": Text(spec.title), "games": ", ".join(names)},
            )
        names = [spec.name]
    pool = [puzzle for name in names for puzzle in shipped(name)]
    rng.shuffle(pool)
    if first is not None:
        pool = [first, *(p for p in pool if p.id != first.id)]
    return pool


def puzzle_command(argv: Sequence[str]) -> int:
    """``stairgames puzzle [GAME] [--id ID] [--seed S] [--no-color]``."""
    import argparse
    import os

    from stairgames.argparse_i18n import HelpFormatter

    parser = argparse.ArgumentParser(
        prog="stairgames puzzle",
        description=_(
            "Solve puzzles in the terminal: positions from real games whose answers are "
            "proven by the game's exact solver."
        ),
        formatter_class=HelpFormatter,
    )
    parser.add_argument(
        "game",
        nargs="?",
        metavar="GAME",
        help=_("the game (default: every game with puzzles: {games})").format(
            games=", ".join(shipped_games())
        ),
    )
    parser.add_argument("--id", metavar="ID", help=_("start with this puzzle"))
    parser.add_argument("--seed", type=int, help=_("seed for the order of the puzzles"))
    parser.add_argument("--no-color", action="store_true", help=_("plain text without colours"))
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    order = puzzle_order(args.game, args.id, random.Random(seed))
    colour = not args.no_color and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    PuzzleSession(order, colour=colour, input_fn=lambda prompt: input(prompt)).run()
    return 0


__all__ = ["PuzzleSession", "goal_text", "help_text", "puzzle_command", "puzzle_order"]
