"""Playing any registered game in the terminal: humans and computer players at one table.

Game-independent: the board comes from the game's renderer, moves are typed in
the game's notation, chance is drawn from one seeded generator, and the record
is saved at the end. Input and output are injectable so tests can drive it.
"""

from __future__ import annotations

import dataclasses
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

from stairgames.agents import LEVEL_NAMES, Agent, make_agent
from stairgames.agents.levels import stand_in_band, stand_in_like
from stairgames.analysis.review import (
    HINT_BUDGET,
    Assessment,
    Budget,
    Reviewer,
    format_hint,
    hint,
    percent,
)
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.errors import StairgamesError
from stairgames.core.game import AgreementOffer, Game, State
from stairgames.core.record import make_record
from stairgames.core.registry import GameSpec, get_spec
from stairgames.i18n import N_, Text, _, display_width, localize, translate, wrap

HUMAN = N_("human")
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
RULE_CODE = re.compile(r"\s*[(（][A-Z]\d+[a-z]?[)）]")
"""A rulebook section cited in a message, `` (S5)``: left out of what players read."""
CLEAR_SCREEN = "\x1b[H\x1b[2J"
CLEAR_HISTORY = "\x1b[3J"
"""Erase the terminal's scrollback too: terminals that keep cleared screens in their
history (tmux by default, many others) would otherwise show the previous person's
private screen to the next one at a shared keyboard."""
"""Clears a terminal and puts the cursor at the top left."""
YES_ANSWERS = ("y", "yes", "accept", "agree")
NO_ANSWERS = ("n", "no", "decline")


def help_text() -> str:
    """The commands, in the current language."""
    return _(
        """Commands:
  <move>     play a move in the game's notation (see below and 'moves')
  moves      list the legal moves
  hint       the computer's suggestion: its move for you, your winning chance
             and the best line (about a second of thinking)
  undo       take back your last move (vs the computer; no dice or hidden cards)
  agree      offer to end the game by agreement, where the rules allow it now;
             the other player answers (a person is asked; a computer accepts
             only a result it is proven unable to beat)
  back [N], forward [N]
             show the position N moves (1 if left out) before or after the one
             shown, as you saw it; the game does not change
  live       back to the game as it is (so does your next move)
  position   the position as text (for 'stairgames show GAME TEXT')
  help       this text
  quit       stop (Ctrl-C too); the record of the game so far is saved"""
    )


def screen_rows(text: str, width: int = SCREEN_WIDTH) -> int:
    """The rows ``text`` takes on a terminal ``width`` columns wide (long lines wrap)."""
    return sum(max(1, -(-display_width(line) // width)) for line in text.split("\n"))


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


def reflow(
    lines: Sequence[str], width: int = SCREEN_WIDTH, gap: str = "  ", *, by_subject: bool = False
) -> list[str]:
    """``lines`` run on, each joined to the one before where both fit in ``width``
    columns (a line is never cut): an account of short sentences in fewer rows.
    ``by_subject``: only lines that begin with the same word (``Blue rolls 1.``, ``Blue
    rolls the second die.``; in Japanese the same first character, ``青``)."""
    joined: list[str] = []
    subjects: list[str] = []
    for line in lines:
        subject = _subject(line)
        fits = joined and display_width(joined[-1] + gap + line.lstrip()) <= width
        if fits and (not by_subject or subject == subjects[-1]):
            joined[-1] += gap + line.lstrip()
        else:
            joined.append(line)
            subjects.append(subject)
    return joined


def _subject(line: str) -> str:
    """A sentence's first word, in lower case; a wide character alone (Japanese)."""
    text = line.strip()
    if text and display_width(text[0]) == 2:
        return text[0]
    return text.split(" ", 1)[0].lower() if text else ""


def fit_account(told: Sequence[tuple[str, bool]], room: int) -> list[str]:
    """The account ``told`` (lines, each with whether it is minor) in at most ``room``
    rows: whole where it fits; else without the minor lines; else with the short lines
    run on (:func:`reflow`), those of one subject first; else its first rows (what
    followed the person's own move), "…" and its latest rows."""
    whole = [line for line, _minor in told]
    major = [line for line, minor in told if not minor]
    for lines in (whole, major, reflow(major, by_subject=True), reflow(major)):
        if sum(screen_rows(line) for line in lines) <= room:
            return lines
    if room < 3:
        return _latest(lines, room)
    head = _latest(lines[::-1], (room - 1) // 2)[::-1]
    tail = _latest(lines[len(head) :], room - 1 - sum(screen_rows(line) for line in head))
    return [*head, "…", *tail]


def _latest(lines: Sequence[str], room: int) -> list[str]:
    """The last of ``lines`` that fill at most ``room`` rows."""
    kept: list[str] = []
    rows = 0
    for line in reversed(lines):
        if rows + screen_rows(line) > room:
            break
        kept.insert(0, line)
        rows += screen_rows(line)
    return kept


RANDOM = N_("random")
"""The computer player that plays any legal move, by the name it is chosen with."""


def player_name(kind: str) -> str:
    """Who plays a seat, as players read it: ``human``, ``random`` and the levels
    (``medium``) in the current language, other computer players as typed (their
    settings are what one types: ``mcts:time=0.5``)."""
    if kind in (HUMAN, RANDOM):
        return _(kind)
    if kind in LEVEL_NAMES:
        return _(kind)  # the level names are in the catalog (stairgames.web.messages)
    return kind


COMMANDS = ("moves", "hint", "undo", "agree", "back", "forward", "live", "help", "quit", "position")
"""The commands at the prompt, for completion."""


def enable_line_editing(session: TerminalSession) -> bool:
    """Line editing, history and Tab completion of the legal moves and the commands at
    the prompt, with the standard library's :mod:`readline`, when standard input is a
    terminal; ``False`` where it is not (or there is no ``readline``)."""
    if not sys.stdin.isatty():
        return False
    try:
        import readline
    except ImportError:  # pragma: no cover - Windows without pyreadline
        return False

    def complete(text: str, index: int) -> str | None:
        words = [*session.move_texts(), *COMMANDS]
        matches = [word for word in words if word.startswith(text)]
        return matches[index] if index < len(matches) else None

    readline.set_completer_delims(" \t\n")
    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")
    return True


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
            self.output.write(_("{message}...").format(message=self.message) + "\n")
            self.output.flush()
        return self

    def __exit__(self, *exc: object) -> None:
        self.seconds = time.perf_counter() - self._started
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self.output.write("\r" + " " * (display_width(self.message) + 16) + "\r")
            self.output.flush()

    def _spin(self) -> None:
        frame = 0
        while not self._stop.wait(self.interval):
            elapsed = time.perf_counter() - self._started
            symbol = self.FRAMES[frame % len(self.FRAMES)]
            line = _("{message} {symbol} {seconds} s").format(
                message=self.message, symbol=symbol, seconds=f"{elapsed:4.1f}"
            )
            self.output.write(f"\r{line}")
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
        hint_budget: Budget = HINT_BUDGET,
        background: bool | None = None,
        start: State | None = None,
        notes: Sequence[str] = (),
    ) -> None:
        """``start``: a state of ``game`` to play on (a resumed game; the moves before it
        cannot be undone), else the game's start. ``notes``: said first by :meth:`run`,
        before the seats (where the game was resumed from)."""
        self.game = game
        self.background = background
        """Whether computer players compile their code in the background, playing a
        plain-Python fallback meanwhile (:meth:`stairgames.agents.Agent.prepare`);
        ``None``: when a person watches (the output is a terminal), so that scripted
        play repeats its seed's games exactly."""
        self.hint_budget = hint_budget
        """What the ``hint`` command may think (:func:`stairgames.analysis.review.hint`)."""
        self._reviewer: Reviewer | None = None
        """The hints' reviewer, kept from one hint to the next (what it proved stays)."""
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
        self.account: list[str] = []
        """What was said since a person's screen was last drawn (moves, dice, draws):
        drawn again above the board when the screen is cleared, so it stays in sight."""
        self._shown_to: int | None = None
        """The person whose private view the screen shows now, if any."""
        self._prepare_players()
        self.state: State = game.new_initial_state() if start is None else start.clone()
        self.notes = tuple(notes)
        self.undo_stack: list[State] = []
        self._viewing: int | None = None
        """The earlier position shown (``back``, ``forward``): the moves played before it;
        ``None``: the game as it is. The game never changes for it."""
        self.seat_names = info.seat_names

    def _prepare_players(self) -> None:
        """Check every computer player against the game and warm its compiled code,
        before anything is dealt or timed (:meth:`stairgames.agents.Agent.prepare`):
        with a person watching, code still to compile is compiled in the background
        while the board is read, and the computer plays a plain-Python search until
        it is ready (and says so); otherwise here, with a progress line."""
        background = self._is_tty() if self.background is None else self.background
        told: set[int] = set()
        for agent in self.agents.values():
            progress: list[ThinkingIndicator] = []

            def compiling(progress: list[ThinkingIndicator] = progress) -> None:
                indicator = ThinkingIndicator(self.output, self._preparing_message())
                progress.append(indicator.__enter__())

            agent.prepare(self.game, on_compiling=compiling, background=background)
            handle = agent.warming
            if handle is not None and id(handle) not in told:
                told.add(id(handle))
                self.tell(
                    _(
                        "The computer player's fast code is being compiled in the background "
                        "(first time only: 10 to 60 seconds, by the machine). Until it is "
                        "ready the computer plays a stand-in without the fast code (a "
                        "plain-Python search in the same time, or the game's quicker "
                        "estimate), which is weaker."
                    )
                )
            for indicator in progress:
                indicator.__exit__(None, None, None)
                self.tell(
                    _("The computer player is ready ({seconds} s).").format(
                        seconds=f"{indicator.seconds:.0f}"
                    )
                )

    @staticmethod
    def _preparing_message() -> str:
        return _(
            "Preparing the computer player: its fast code is compiled once per "
            "installation (5 to 30 seconds, by the machine; later games start at once, "
            "and 'stairgames prepare' does it ahead)"
        )

    # ----- output -----------------------------------------------------------

    def say(self, text: str = "") -> None:
        print(text, file=self.output)

    def tell(self, text: str, *, minor: bool = False) -> None:
        """Say what happened at the table, and keep it for the next person's screen: each
        line broken at spaces (or between wide characters) to the screen's width, so that
        a long sentence is not cut mid-word by the terminal. ``minor``: a line that what
        follows says again (a computer's move, which the game's account then tells), left
        out of a screen that has no room for everything."""
        lines = [part for line in text.split("\n") for part in wrap(line, SCREEN_WIDTH) or [""]]
        self.say("\n".join(lines))
        self.account.extend(lines)
        self._story().extend((line, minor) for line in lines if line)

    def _story(self) -> list[tuple[str, bool]]:
        """Every line told at the table so far, each with whether it is minor: each
        person's screen shows what they have not seen yet (:attr:`_seen`)."""
        story: list[tuple[str, bool]] = self.__dict__.setdefault("_told", [])
        return story

    def _seen(self) -> dict[int, int]:
        """For each person's seat, how much of :meth:`_story` their screen has shown."""
        seen: dict[int, int] = self.__dict__.setdefault("_seen_by", {})
        return seen

    def _is_tty(self) -> bool:
        return bool(getattr(self.output, "isatty", lambda: False)())

    def _clear(self, *, history: bool = False) -> None:
        """Clear the terminal, and its scrollback with ``history`` (nothing where the
        output is no terminal)."""
        if self._is_tty():
            self.output.write(CLEAR_SCREEN + (CLEAR_HISTORY if history else ""))
            self.output.flush()

    def _private(self) -> bool:
        """Whether several people share the keyboard in a game with hidden information,
        so that each one's screen must be kept from the others."""
        humans = sum(1 for kind in self.players if kind == HUMAN)
        return humans > 1 and self.game.info().hidden_information

    def _pass_keyboard(self, seat: int) -> bool:
        """Between two people's private screens: clear the terminal, ask for the keyboard
        to be passed to ``seat``, wait for Enter and clear again; ``False`` on quit."""
        if not self._private() or self._shown_to == seat:
            return True
        self._clear(history=True)  # the scrollback too: it would keep the private screen
        self._shown_to = None
        notice = _(
            "(The screen and its history are cleared; a terminal that keeps cleared "
            "screens anyway may still hold earlier ones if you scroll up.)"
        )
        self.say("\n".join(wrap(notice, SCREEN_WIDTH)))
        question = _("Pass the keyboard to {player}, then press Enter. ").format(
            player=self.seat_label(seat)
        )
        if self._ask(question) is None:
            return False
        self._clear()
        self._shown_to = seat
        return True

    def _hide_private(self) -> None:
        """Before the computer plays at a shared keyboard: clear the private screen of the
        person who moved last (the next person's is cleared by :meth:`_pass_keyboard`)."""
        if self._private() and self._shown_to is not None:
            self._clear(history=True)
            self._shown_to = None

    def _show_turn(self, seat: int, cleared: bool) -> int:
        """Draw the screen of ``seat``'s turn: what that person has not seen yet, then the
        board. On a terminal where that would push the account off the screen, or where
        part of it went by on someone else's screen, the screen is cleared and the
        account drawn again above the board, as much of it as fits
        (:func:`fit_account`). Returns the rows used since the last prompt (its row
        included)."""
        picture = self.spec.render(self.state, colour=self.colour, viewer=self._viewer())
        story = self._story()
        unseen = [line for line, _minor in story[self._seen().get(seat, 0) :]]
        recent = [line for line in self.account if line]
        used = 1 + sum(screen_rows(line) for line in recent)
        drawing = screen_rows(picture)
        total = self._screen_lines()
        elsewhere = len(unseen) > len(recent)  # some went by on another person's screen
        if self._is_tty() and (cleared or elsewhere or used + drawing + 2 > total):
            if not cleared:
                self._clear()
            room = total - drawing - 1  # the prompt's row; the move hint only if left over
            kept = fit_account(story[self._seen().get(seat, 0) :], room)
            for line in kept:
                self.say(line)
            used = sum(screen_rows(line) for line in kept)
        self.account = []
        self._seen()[seat] = len(story)
        self.say(picture)
        return used + drawing

    def _viewer(self) -> int | None:
        humans = [seat for seat, kind in enumerate(self.players) if kind == HUMAN]
        if len(humans) == 1:
            return humans[0]
        if self._private():  # a shared keyboard: only whoever has it now
            return self._shown_to
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
        """The seat as people know it now, by the colour it plays (which an action may
        change) and who plays it: ``dark (medium)``."""
        return _("{colour} ({player})").format(
            colour=_(self.state.seat_name(seat)), player=player_name(self.players[seat])
        )

    # ----- play -------------------------------------------------------------

    def run(self) -> State:
        """Play until the game ends or a human quits; returns the final state."""
        for note in self.notes:
            self.tell(note)
        seats = _(", ").join(self.seat_label(s) for s in range(len(self.players)))
        self.tell(_("{title}: {seats}").format(title=_(self.spec.title), seats=seats))
        self.tell(_("Type 'help' for commands and how to write a move."))
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
                self._hide_private()
                self._computer_turn(seat)
        return True

    def _apply(self, action: int, *, narrate: bool = True) -> None:
        """Play ``action`` and tell the table what it did (``narrate``: the game's account)."""
        before = self.state.clone()
        text = self.state.action_to_string(action)
        self.state.apply_action(action)
        self._viewing = None  # a move: back to the game as it is
        if not narrate:
            return
        if self.spec.narrate is not None:
            for sentence in self.spec.narrate(before, action, self.state):
                for line in wrap(sentence, SCREEN_WIDTH, subsequent_indent="  "):
                    self.tell(line)
        elif before.is_chance_node():
            self.tell(_("Chance: {outcome}").format(outcome=text))
        self._tell_new_colours(before)

    def _tell_new_colours(self, before: State) -> None:
        """Say so when an action changed the colours the seats play (Stairs' ``swap``)."""
        for seat, kind in enumerate(self.players):
            old, new = before.seat_name(seat), self.state.seat_name(seat)
            if old != new:
                self.tell(
                    _("Colours exchanged: {old} ({player}) now plays {new}.").format(
                        old=_(old), player=player_name(kind), new=_(new)
                    )
                )

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
        warming = agent.warming
        with ThinkingIndicator(
            self.output, _("{player} is thinking").format(player=label)
        ) as thinking:
            action = agent.act(self.state)
        if warming is not None and agent.warming is None:
            self.tell(
                _(
                    "The computer player's fast code is ready (compiled in {seconds} s): "
                    "it plays at full strength from now on."
                ).format(seconds=f"{warming.elapsed():.0f}")
            )
        text = self.state.action_to_string(action)
        self.tell(
            _("{player} plays {move} ({seconds} s)").format(
                player=label, move=text, seconds=f"{thinking.seconds:.1f}"
            ),
            minor=self.spec.narrate is not None,  # the game's account says the move again
        )
        if agent.last_fallback and warming is not None:
            self.tell(self._stand_in_note(seat, warming.elapsed()))
        self._apply(action)

    def _stand_in_note(self, seat: int, seconds: float) -> str:
        """What the terminal says after a move of a computer's stand-in: which level it
        played for and how strong the stand-in is, where the game measured it
        (:func:`stairgames.agents.levels.stand_in_like` and ``stand_in_band``)."""
        kind = self.players[seat]
        elapsed = f"{seconds:.0f}"
        if kind not in LEVEL_NAMES:
            note = _("(the weaker stand-in: the fast code has been compiling for {seconds} s)")
            return note.format(seconds=elapsed)
        like = stand_in_like(kind, self.game.name)
        band = stand_in_band(kind, self.game.name)
        if like is None and band is not None:
            return _(
                "(a stand-in played for {level}, stronger than {above} and weaker than "
                "{below}: the fast code has been compiling for {seconds} s)"
            ).format(level=_(kind), above=_(band[0]), below=_(band[1]), seconds=elapsed)
        if like is None:
            return _(
                "(a weaker stand-in played for {level}: the fast code has been compiling "
                "for {seconds} s)"
            ).format(level=_(kind), seconds=elapsed)
        return _(
            "(a stand-in played for {level}, about as strong as {like}: the fast code "
            "has been compiling for {seconds} s)"
        ).format(level=_(kind), like=_(like), seconds=elapsed)

    def _has_human(self) -> bool:
        return HUMAN in self.players

    def _human_turn(self, seat: int) -> bool:
        """Ask for a move until one is legal; ``False`` when the human quits (``quit``,
        end of input, or Ctrl-C)."""
        self._viewing = None
        if self._pass_if_forced(seat):
            return True
        cleared = self._shown_to != seat and self._private()
        if not self._pass_keyboard(seat):
            return False
        lines = self._show_turn(seat, cleared)
        offer = self.state.agreement_offer()
        if offer is not None:
            return self._answer_offer(seat, offer)
        self._hint_moves(room=self._screen_lines() - lines - 1)
        while True:
            try:
                line = self.input_fn(f"{self._prompt(seat)}> ").strip()
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
            if command in ("position", "pos"):
                self._say_position()
                continue
            words = command.split()
            if words[0] in ("back", "forward", "live"):
                self._browse(words)
                continue
            if command == "hint":
                self._hint()
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
                self._say_wrapped(
                    _("Not accepted: {reason}").format(reason=self._refusal(exc, line))
                )
                continue
            self.undo_stack.append(self.state.clone())
            self._apply(action)
            return True

    def _refusal(self, error: StairgamesError, line: str) -> str:
        """Why a move was refused, in the player's language, the input shortened."""
        reason = RULE_CODE.sub("", translate(error))
        if len(line) > ECHO_LIMIT:
            reason = reason.replace(line, shorten(line))
        return reason

    def _say_wrapped(self, text: str) -> None:
        """Say ``text`` broken at words to the screen's width (wide characters count two)."""
        for line in wrap(text, SCREEN_WIDTH, subsequent_indent="  "):
            self.say(line)

    def _pass_if_forced(self, seat: int) -> bool:
        """Play a lone ``pass`` for the human, saying so; ``True`` when it was played."""
        legal = self.state.legal_actions()
        if len(legal) != 1 or self.state.action_to_string(legal[0]) != "pass":
            return False
        self.tell(
            _("{player} has no move and passes (played for you).").format(
                player=self.seat_label(seat)
            )
        )
        self._apply(legal[0], narrate=False)  # said once, just above
        return True

    def _help(self) -> None:
        """The commands, then the game's own notes; on a terminal too short for both with
        the prompt (the Japanese of City of Stairs at 24 rows), a part at a time, Enter
        showing the next."""
        parts = [help_text(), *([_(self.spec.help)] if self.spec.help else [])]
        if not self._is_tty() or screen_rows("\n".join(parts)) < self._screen_lines():
            self.say("\n".join(parts))
            return
        for index, part in enumerate(parts):
            if index and self._ask(_("(Enter: more help) ")) is None:
                return
            self.say(part)

    def move_texts(self) -> list[str]:
        return [self.state.action_to_string(a) for a in self.state.legal_actions()]

    def _hint_moves(self, room: int) -> None:
        """At the start of a turn: the legal moves when they fit on one line, else how to
        list them; nothing where the screen has no line left."""
        if room < 1:
            return
        moves = self.move_texts()
        listing = _("Legal moves ({count}): {moves}").format(
            count=len(moves), moves=" ".join(moves)
        )
        if display_width(listing) <= SCREEN_WIDTH:
            self.say(listing)
        else:
            self.say(_("{count} legal moves: type 'moves' to list them.").format(count=len(moves)))

    def _list_moves(self) -> None:
        """Every legal move; many moves grouped by what they move (``c3-b4 c4 d4``)."""
        moves = self.move_texts()
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

    def _hint(self) -> None:
        """The engine's move for the person to move, their share (winning chance) with it
        and the best line: the review's assessment of this one position, from what this
        seat may know (:func:`stairgames.analysis.review.hint`)."""
        try:
            with ThinkingIndicator(self.output, _("Looking for a hint")):
                if self._reviewer is None:
                    self._reviewer = Reviewer(self.game, budget=self.hint_budget, seed=self.seed)
                found = hint(self.state, reviewer=self._reviewer)
        except StairgamesError as exc:
            self._say_wrapped(_("No hint here: {reason}").format(reason=translate(exc)))
            return
        line = self._line_to_chance(found.line)
        for text in format_hint(self.state, dataclasses.replace(found, line=line)):
            self._say_wrapped(text)
        if len(line) < len(found.line):
            choices = self._choices(found)
            if choices:
                self._say_wrapped(
                    _("Your choices: {choices}").format(choices=_(", ").join(choices))
                )

    def _line_to_chance(self, line: Sequence[str]) -> tuple[str, ...]:
        """The moves of ``line`` (a hint's best line) up to the first chance event: what
        the dice or the cards then bring is not known, and the search's line only picks
        one outcome of many."""
        state = self.state.clone()
        kept: list[str] = []
        for move in line:
            if state.is_chance_node() or state.is_terminal():
                break
            kept.append(move)
            try:
                state.apply_move(move)
            except StairgamesError:
                break
        return tuple(kept)

    def _choices(self, found: Assessment) -> list[str]:
        """Each legal move the hint valued, with the person's share after it: proven, or
        the search's estimate with its interval (``stop 46%``, ``roll 41±3%``)."""
        mover = found.mover
        assert mover is not None
        choices: list[str] = []
        for action in self.state.legal_actions():
            move = self.state.action_to_string(action)
            if action in found.actions:
                choices.append(f"{move} {percent(found.actions[action][mover])}")
            elif action in found.estimates:
                estimate = found.estimates[action]
                choices.append(f"{move} {percent(estimate.shares[mover], estimate.uncertainty)}")
        return choices

    # ----- earlier positions (back, forward, live) ----------------------------------

    def _prompt(self, seat: int) -> str:
        """The prompt's words: the seat, and the move shown while it is an earlier one."""
        if self._viewing is None:
            return self.seat_label(seat)
        return _("{player} (move {n} of {total} shown)").format(
            player=self.seat_label(seat), n=self._viewing, total=self.state.move_number()
        )

    def _browse(self, words: Sequence[str]) -> None:
        """``back [N]``, ``forward [N]``, ``live``: show the position N moves (1 if left
        out) before or after the one shown, or the game as it is. An earlier position is
        drawn for the person at the keyboard (their own cards only), as they saw it; the
        game does not change, and the next move is played on the game as it is."""
        total = self.state.move_number()
        shown = total if self._viewing is None else self._viewing
        command, count = words[0], 1
        if len(words) > 1:
            if len(words) > 2 or command == "live" or not words[1].isdigit() or words[1] == "0":
                self.say(_("Say how many moves with a number, as in 'back 3' or 'forward 2'."))
                return
            count = int(words[1])
        if command == "back":
            if shown == 0:
                start = _("This is the start of the game.")
                self.say(start if total else _("No move has been played yet."))
                return
            target = max(0, shown - count)
        else:
            target = min(total, shown + count) if command == "forward" else total
        if target == total:
            if self._viewing is None:
                self.say(_("This is the game as it is now."))
                return
            self._viewing = None
            self._show_now()
            return
        self._viewing = target
        self._show_earlier(target, total)

    def _state_after(self, count: int) -> State:
        """The game after its first ``count`` moves (chance's included)."""
        state = self.game.new_initial_state()
        for action in self.state.history()[:count]:
            state.apply_action(action)
        return state

    def _show_earlier(self, shown: int, total: int) -> None:
        """Draw the position after ``shown`` moves for the person at the keyboard: which
        move led there and, where the screen has room, that the game is unchanged (the
        prompt says which move is shown in any case)."""
        viewer = self._viewer()
        before = self._state_after(shown - 1) if shown else None
        state = self._state_after(shown)
        if before is None:
            title = _("Start")
        else:
            moves = (
                self.state.history_strings(viewer)
                if viewer is not None
                else self.state.public_history_strings()
            )
            if before.is_chance_node():
                who = _("chance")
            else:
                mover = before.current_player()
                who = _("{colour} ({player})").format(
                    colour=_(before.seat_name(mover)), player=player_name(self.players[mover])
                )
            title = _("{number}. {player}: {move}").format(
                number=shown, player=who, move=moves[shown - 1]
            )
        note = _("Move {n} of {total} as it was; the game is unchanged ('live' returns to it).")
        note = note.format(n=shown, total=total)
        self._draw_apart([title], state, wrap(note, SCREEN_WIDTH, subsequent_indent="  "))

    def _show_now(self) -> None:
        self._draw_apart(
            [_("Back to the game (move {n}).").format(n=self.state.move_number())], self.state, []
        )

    def _draw_apart(self, above: list[str], state: State, below: list[str]) -> None:
        """``state`` drawn for the person at the keyboard on a screen of its own (cleared,
        on a terminal), with the lines ``above`` and ``below`` it where there is room."""
        picture = self.spec.render(state, colour=self.colour, viewer=self._viewer())
        if self._is_tty():
            self._clear()
            room = self._screen_lines() - screen_rows(picture) - 1  # the prompt's row
            above = above[: max(0, room)]
            room -= sum(screen_rows(line) for line in above)
            below = below if sum(screen_rows(line) for line in below) <= room else []
        for line in above:
            self.say(line)
        self.say(picture)
        for line in below:
            self.say(line)

    def _say_position(self) -> None:
        """The position in the game's position text (``stairgames show GAME TEXT`` draws
        it); not in games with hidden cards, whose position text holds them."""
        if self.game.info().hidden_information:
            self.say(_("The position text is not shown in games with hidden cards."))
            return
        self.say(_("Position: {text}").format(text=self.state.position()))

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
            reason = exc.arguments.get("reason") if exc.arguments else None
            why = localize(reason) if isinstance(reason, Text) else translate(exc)
            self._say_wrapped(
                _("You cannot offer to end the game now: {reason}").format(
                    reason=RULE_CODE.sub("", why)
                )
            )
            return False
        self._apply(action)
        self.tell(_("{player} offers to end the game here.").format(player=self.seat_label(seat)))
        return True

    def _answer_offer(self, seat: int, offer: AgreementOffer) -> bool:
        """Ask ``seat``, a person, to accept or decline an offer; ``False`` on quit."""
        self.say(_("If you agree: {result}").format(result=self._result_if_accepted(offer)))
        question = _("{player}, do you agree to end the game here? (yes/no) ").format(
            player=self.seat_label(seat)
        )
        yes = {*YES_ANSWERS, _("y"), _("yes")}
        no = {*NO_ANSWERS, _("n"), _("no")}
        while True:
            answer = self._ask(question)
            if answer is None:
                return False
            if answer in yes or answer in no:
                break
            self.say(_("Please answer yes or no."))
        accepted = answer in yes
        self._apply(offer.accept if accepted else offer.decline)
        self._say_answer(seat, accepted)
        return True

    def _ask(self, question: str) -> str | None:
        """The person's answer to ``question``, trimmed and in lower case; ``None`` when
        they quit (``quit``, ``exit``, ``q``, or the end of input)."""
        try:
            answer = self.input_fn(question).strip().lower()
        except EOFError:
            self.say()
            return None
        return None if answer in ("quit", "exit", "q") else answer

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
        self.tell(message.format(player=self.seat_label(seat)))

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
