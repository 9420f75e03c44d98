"""Playing any registered game in the terminal: humans and computer players at one table.

Game-independent: the board comes from the game's renderer, moves are typed in
the game's notation, chance is drawn from one seeded generator, and the record
is saved at the end. Input and output are injectable so tests can drive it.
"""

from __future__ import annotations

import datetime
import random
import re
import shutil
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from stairgames.agents import Agent, make_agent
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.errors import StairgamesError
from stairgames.core.game import AgreementOffer, Game, State
from stairgames.core.record import make_record
from stairgames.core.registry import GameSpec, get_spec
from stairgames.i18n import N_, Text, _, display_width, translate, wrap

HUMAN = "human"
SEAT_NAMES = (
    N_("light"), N_("dark"), N_("white"), N_("black"),
    N_("red"), N_("blue"), N_("yellow"), N_("green"),
)  # fmt: skip
"""The seat names of the games, marked for translation (shown with :func:`_`)."""

SCREEN_WIDTH = 80
SCREEN_LINES = 24
"""The screen a drawing and its prompt are made to fit when the output is no terminal."""
ECHO_LIMIT = 24
"""Longest input echoed whole in a refusal; longer input is shortened with "…"."""


def help_text() -> str:
    """The commands, in the current language."""
    return _(
        """Commands:
  <move>     play a move in the game's notation (see below and 'moves')
  moves      list the legal moves
  undo       take back your last move (vs the computer; no dice or hidden cards)
  agree      offer to end the game by agreement, where the rules allow it now;
             the other player answers (a person is asked; a computer accepts
             only a result it is proven unable to beat)
  help       this text
  quit       stop (Ctrl-C too); the record of the game so far is saved"""
    )


def shorten(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text``, cut to ``limit`` characters with "…" when longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def group_moves(moves: Sequence[str]) -> list[str]:
    """Moves grouped by what they move: ``c3 → b4 c4 d4`` for ``c3-b4``, ``c3-c4`` and
    ``c3-d4`` (the part before ``-``, ``@`` or ``:`` is written once); moves without
    such a part stand alone."""
    groups: dict[str, list[str]] = {}
    for move in moves:
        match = re.match(r"^(.+?)[-@:](.+)$", move)
        prefix, rest = (match.group(1), match.group(2)) if match else (move, "")
        groups.setdefault(prefix, []).append(rest)
    return [
        f"{prefix} → {' '.join(rests)}" if rests[0] else prefix for prefix, rests in groups.items()
    ]


def fill(parts: Sequence[str], width: int = SCREEN_WIDTH, gap: str = "   ") -> list[str]:
    """``parts`` side by side, as many to a line as ``width`` columns hold."""
    lines: list[str] = []
    for part in parts:
        if lines and display_width(lines[-1] + gap + part) <= width:
            lines[-1] += gap + part
        else:
            lines.append(part)
    return lines


class ThinkingIndicator:
    """Shows that a computer player is thinking: a spinner with the time on a terminal,
    one line elsewhere. Use as a context manager around the player's ``step``."""

    FRAMES = "|/-\\"

    def __init__(self, output: TextIO, message: str, *, interval: float = 0.2) -> None:
        self.output = output
        self.message = message
        self.interval = interval
        self.seconds = 0.0
        self._started = 0.0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._live = bool(getattr(output, "isatty", lambda: False)())

    def __enter__(self) -> ThinkingIndicator:
        self._started = time.perf_counter()
        if self._live:
            self._thread = threading.Thread(target=self._spin, daemon=True)
            self._thread.start()
        else:
            self.output.write(f"{self.message}...\n")
            self.output.flush()
        return self

    def __exit__(self, *exc: object) -> None:
        self.seconds = time.perf_counter() - self._started
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self.output.write("\r" + " " * (len(self.message) + 16) + "\r")
            self.output.flush()

    def _spin(self) -> None:
        frame = 0
        while not self._stop.wait(self.interval):
            elapsed = time.perf_counter() - self._started
            symbol = self.FRAMES[frame % len(self.FRAMES)]
            self.output.write(f"\r{self.message} {symbol} {elapsed:4.1f} s")
            self.output.flush()
            frame += 1


class TerminalSession:
    """One game at the terminal."""

    def __init__(
        self,
        game: Game,
        players: Sequence[str],
        *,
        seed: int | None = None,
        colour: bool = False,
        record_path: Path | None = None,
        input_fn: Callable[[str], str] = input,
        output: TextIO | None = None,
    ) -> None:
        self.game = game
        self.spec: GameSpec = get_spec(game.name)
        info = game.info()
        if len(players) != info.num_players:
            raise StairgamesError(
                message_id=N_("{title} with these options has {seats} seats, got {count} players"),
                arguments={
                    "title": Text(info.title),
                    "seats": info.num_players,
                    "count": len(players),
                },
            )
        self.players = list(players)
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
        self.rng = random.Random(self.seed)
        self.colour = colour
        self.record_path = record_path
        self.input_fn = input_fn
        self.output = sys.stdout if output is None else output
        self.agents: dict[int, Agent] = {
            seat: make_agent(kind, seat, seed=self.rng.randrange(2**32))
            for seat, kind in enumerate(self.players)
            if kind != HUMAN
        }
        self._prepare_players()
        self.state: State = game.new_initial_state()
        self.undo_stack: list[State] = []
        self.seat_names = info.seat_names

    def _prepare_players(self) -> None:
        """Check every computer player against the game and warm its compiled code,
        before anything is dealt or timed (:meth:`stairgames.agents.Agent.prepare`)."""
        for agent in self.agents.values():
            agent.prepare(self.game, on_compiling=self._say_preparing)

    def _say_preparing(self) -> None:
        self.say(_("Preparing the computer player (first time only, a few seconds)..."))

    # ----- output -----------------------------------------------------------

    def say(self, text: str = "") -> None:
        print(text, file=self.output)

    def _viewer(self) -> int | None:
        humans = [seat for seat, kind in enumerate(self.players) if kind == HUMAN]
        if len(humans) == 1:
            return humans[0]
        current = self.state.current_player()
        return current if current in humans else None

    def show(self) -> int:
        """Draw the state for the viewer; returns the lines the drawing took."""
        picture = self.spec.render(self.state, colour=self.colour, viewer=self._viewer())
        self.say(picture)
        return picture.count("\n") + 1

    def _screen_lines(self) -> int:
        if getattr(self.output, "isatty", lambda: False)():
            return shutil.get_terminal_size((SCREEN_WIDTH, SCREEN_LINES)).lines
        return SCREEN_LINES

    def seat_label(self, seat: int) -> str:
        """The seat as people know it now (after a Stairs ``swap``, seat 0 is dark)."""
        kind = self.players[seat]
        player = _("human") if kind == HUMAN else kind
        return f"{_(self.state.seat_name(seat))} ({player})"

    # ----- play -------------------------------------------------------------

    def run(self) -> State:
        """Play until the game ends or a human quits; returns the final state."""
        seats = ", ".join(self.seat_label(s) for s in range(len(self.players)))
        self.say(f"{_(self.spec.title)}: {seats}")
        self.say(_("Type 'help' for commands and how to write a move."))
        try:
            quit_requested = not self._play()
        except KeyboardInterrupt:
            self.say()
            quit_requested = True
        self.say()
        self.show()
        if quit_requested:
            self.say(_("Game stopped."))
        self._save_record()
        return self.state

    def _play(self) -> bool:
        """Play turns until the game ends (``True``) or a human quits (``False``)."""
        while not self.state.is_terminal():
            if self.state.is_chance_node():
                self._apply(sample_chance_outcome(self.state, self.rng))
                continue
            seat = self.state.current_player()
            if self.players[seat] == HUMAN:
                if not self._human_turn(seat):
                    return False
            else:
                self._computer_turn(seat)
        return True

    def _apply(self, action: int) -> None:
        before = self.state.clone()
        text = self.state.action_to_string(action)
        self.state.apply_action(action)
        if self.spec.narrate is not None:
            for sentence in self.spec.narrate(before, action, self.state):
                for line in wrap(sentence, SCREEN_WIDTH, subsequent_indent="  "):
                    self.say(line)
        elif before.is_chance_node():
            self.say(_("Chance: {outcome}").format(outcome=text))

    def _computer_turn(self, seat: int) -> None:
        agent = self.agents[seat]
        label = self.seat_label(seat)
        offer = self.state.agreement_offer()
        if offer is not None:
            action = agent.act(self.state)
            self._apply(action)
            self._say_answer(seat, action == offer.accept)
            return
        if not self._has_human():
            self._apply(agent.act(self.state))
            return
        with ThinkingIndicator(
            self.output, _("{player} is thinking").format(player=label)
        ) as thinking:
            action = agent.act(self.state)
        text = self.state.action_to_string(action)
        self.say(
            _("{player} plays {move} ({seconds} s)").format(
                player=label, move=text, seconds=f"{thinking.seconds:.1f}"
            )
        )
        self._apply(action)

    def _has_human(self) -> bool:
        return HUMAN in self.players

    def _human_turn(self, seat: int) -> bool:
        """Ask for a move until one is legal; ``False`` when the human quits (``quit``,
        end of input, or Ctrl-C)."""
        lines = self.show()
        offer = self.state.agreement_offer()
        if offer is not None:
            return self._answer_offer(seat, offer)
        if self._pass_if_forced(seat):
            return True
        self._hint_moves(room=self._screen_lines() - lines - 1)
        while True:
            try:
                line = self.input_fn(f"{self.seat_label(seat)}> ").strip()
            except EOFError:
                self.say()
                return False
            command = line.lower()
            if not line:
                continue
            if command in ("quit", "exit", "q"):
                return False
            if command in ("help", "h", "?"):
                self._help()
                continue
            if command in ("moves", "m", "legal"):
                self._list_moves()
                continue
            if command == "undo":
                self._undo()
                return True
            if command in ("agree", "offer"):
                if self._offer(seat):
                    return True
                continue
            try:
                action = self.state.string_to_action(line)
            except StairgamesError as exc:
                self.say(_("Not accepted: {reason}").format(reason=self._refusal(exc, line)))
                continue
            self.undo_stack.append(self.state.clone())
            self._apply(action)
            return True

    def _refusal(self, error: StairgamesError, line: str) -> str:
        """Why a move was refused, in the player's language, the input shortened."""
        reason = translate(error)
        if len(line) > ECHO_LIMIT:
            reason = reason.replace(line, shorten(line))
        return reason

    def _pass_if_forced(self, seat: int) -> bool:
        """Play a lone ``pass`` for the human, saying so; ``True`` when it was played."""
        legal = self.state.legal_actions()
        if len(legal) != 1 or self.state.action_to_string(legal[0]) != "pass":
            return False
        self.say(
            _("{player} has no move and passes (played for you).").format(
                player=self.seat_label(seat)
            )
        )
        self._apply(legal[0])
        return True

    def _help(self) -> None:
        self.say(help_text())
        if self.spec.help:
            self.say(_(self.spec.help))

    def _move_texts(self) -> list[str]:
        return [self.state.action_to_string(a) for a in self.state.legal_actions()]

    def _hint_moves(self, room: int) -> None:
        """At the start of a turn: the legal moves when they fit on one line, else how to
        list them; nothing where the screen has no line left."""
        if room < 1:
            return
        moves = self._move_texts()
        listing = _("Legal moves ({count}): {moves}").format(
            count=len(moves), moves=" ".join(moves)
        )
        if display_width(listing) <= SCREEN_WIDTH:
            self.say(listing)
        else:
            self.say(_("{count} legal moves: type 'moves' to list them.").format(count=len(moves)))

    def _list_moves(self) -> None:
        """Every legal move; many moves grouped by what they move (``c3-b4 c4 d4``)."""
        moves = self._move_texts()
        listing = _("Legal moves ({count}): {moves}").format(
            count=len(moves), moves=" ".join(moves)
        )
        if display_width(listing) <= SCREEN_WIDTH:
            self.say(listing)
            return
        self.say(
            _("Legal moves ({count}) by piece, typed like {example}:").format(
                count=len(moves), example=moves[0]
            )
        )
        for line in fill(group_moves(moves)):
            self.say(line)

    def _undo(self) -> None:
        info = self.game.info()
        if info.chance or info.hidden_information:
            self.say(_("Undo is not available in games with dice or hidden cards."))
        elif len(self.agents) == 0:
            self.say(_("Undo is for games against the computer."))
        elif not self.undo_stack:
            self.say(_("Nothing to undo."))
        else:
            self.state = self.undo_stack.pop()
            self.say(_("Took back your last move."))

    def _offer(self, seat: int) -> bool:
        """Offer to end the game by agreement, where the rules allow it now (the reason
        is said where they do not); ``True`` when the offer was made. The other player
        answers on its turn: a person at the keyboard is asked, a computer answers by
        its rule."""
        try:
            action = self.state.offer_action()
        except StairgamesError as exc:
            self.say(_("Not accepted: {reason}").format(reason=translate(exc)))
            return False
        self._apply(action)
        self.say(_("{player} offers to end the game here.").format(player=self.seat_label(seat)))
        return True

    def _answer_offer(self, seat: int, offer: AgreementOffer) -> bool:
        """Ask ``seat``, a person, to accept or decline an offer; ``False`` on quit."""
        self.say(_("If you agree: {result}").format(result=self._result_if_accepted(offer)))
        question = _("{player}, do you agree to end the game here? (yes/no) ").format(
            player=self.seat_label(seat)
        )
        try:
            answer = self.input_fn(question).strip().lower()
        except EOFError:
            self.say()
            return False
        if answer in ("quit", "exit", "q"):
            return False
        accepted = answer in ("y", "yes", "accept", _("y"), _("yes"))
        self._apply(offer.accept if accepted else offer.decline)
        self._say_answer(seat, accepted)
        return True

    def _result_if_accepted(self, offer: AgreementOffer) -> str:
        accepted = self.state.clone()
        accepted.apply_action(offer.accept)
        outcome = accepted.outcome()
        assert outcome is not None
        return outcome.localized()

    def _say_answer(self, seat: int, accepted: bool) -> None:
        message = (
            _("{player} agrees: the game ends here.")
            if accepted
            else _("{player} does not agree; the game goes on.")
        )
        self.say(message.format(player=self.seat_label(seat)))

    def _record_viewer(self) -> int | None:
        """Whose view an unfinished game's record holds: the one human's, else (several
        people at one screen, or none) the public view."""
        humans = [seat for seat, kind in enumerate(self.players) if kind == HUMAN]
        return humans[0] if len(humans) == 1 else None

    def _save_record(self) -> None:
        record = make_record(
            self.state, seed=self.seed, players=tuple(self.players), viewer=self._record_viewer()
        )
        path = self.record_path
        if path is None:
            stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
            path = Path("records") / f"{self.game.name}-{stamp}.json"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            record.save(path)
        except OSError as exc:
            self.say(_("Could not save the record: {reason}").format(reason=exc))
            return
        self.say(_("Record saved to {path}").format(path=path))
