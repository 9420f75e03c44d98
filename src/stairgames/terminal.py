"""Playing any registered game in the terminal: humans and computer players at one table.

Game-independent: the board comes from the game's renderer, moves are typed in
the game's notation, chance is drawn from one seeded generator, and the record
is saved at the end. Input and output are injectable so tests can drive it.
"""

from __future__ import annotations

import datetime
import random
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from stairgames.agents import Agent, make_agent
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.errors import StairgamesError
from stairgames.core.game import Game, State
from stairgames.core.record import make_record
from stairgames.core.registry import GameSpec, get_spec

HUMAN = "human"

HELP = """Commands:
  <move>     play a move in the game's notation (see 'moves')
  moves      list the legal moves
  undo       take back your last move (against the computer, no dice or hidden cards)
  agree      end the game by agreement, where the game allows it (the other
             people at the keyboard are asked; computer players agree)
  help       this text
  quit       stop; the record of the game so far is saved"""


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
                f"{info.title} with these options has {info.num_players} seats, "
                f"got {len(players)} players"
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
        self.say("Preparing the computer player (first time only, a few seconds)...")

    # ----- output -----------------------------------------------------------

    def say(self, text: str = "") -> None:
        print(text, file=self.output)

    def _viewer(self) -> int | None:
        humans = [seat for seat, kind in enumerate(self.players) if kind == HUMAN]
        if len(humans) == 1:
            return humans[0]
        current = self.state.current_player()
        return current if current in humans else None

    def show(self) -> None:
        self.say()
        self.say(self.spec.render(self.state, colour=self.colour, viewer=self._viewer()))

    def seat_label(self, seat: int) -> str:
        """The seat as people know it now (after a Stairs ``swap``, seat 0 is dark)."""
        return f"{self.state.seat_name(seat)} ({self.players[seat]})"

    # ----- play -------------------------------------------------------------

    def run(self) -> State:
        """Play until the game ends or a human quits; returns the final state."""
        self.say(
            f"{self.spec.title}: " + ", ".join(self.seat_label(s) for s in range(len(self.players)))
        )
        self.say("Type 'help' for commands.")
        quit_requested = False
        while not self.state.is_terminal():
            if self.state.is_chance_node():
                self._apply(sample_chance_outcome(self.state, self.rng))
                continue
            seat = self.state.current_player()
            if self.players[seat] == HUMAN:
                if not self._human_turn(seat):
                    quit_requested = True
                    break
            else:
                self._computer_turn(seat)
        self.show()
        if quit_requested:
            self.say("Game stopped.")
        self._save_record()
        return self.state

    def _apply(self, action: int) -> None:
        before = self.state.clone()
        text = self.state.action_to_string(action)
        self.state.apply_action(action)
        if self.spec.narrate is not None:
            for line in self.spec.narrate(before, action, self.state):
                self.say(line)
        elif before.is_chance_node():
            self.say(f"Chance: {text}")

    def _computer_turn(self, seat: int) -> None:
        agent = self.agents[seat]
        label = self.seat_label(seat)
        if not self._has_human():
            self._apply(agent.act(self.state))
            return
        with ThinkingIndicator(self.output, f"{label} is thinking") as thinking:
            action = agent.act(self.state)
        text = self.state.action_to_string(action)
        self.say(f"{label} plays {text} ({thinking.seconds:.1f} s)")
        self._apply(action)

    def _has_human(self) -> bool:
        return HUMAN in self.players

    def _human_turn(self, seat: int) -> bool:
        """Ask for a move until one is legal; ``False`` when the human quits."""
        self.show()
        self._list_moves()
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
                self.say(HELP)
                continue
            if command in ("moves", "m", "legal"):
                self._list_moves()
                continue
            if command == "undo":
                self._undo()
                return True
            if command == "agree":
                if self._agree(seat):
                    return True
                continue
            try:
                action = self.state.string_to_action(line)
            except StairgamesError as exc:
                self.say(f"Not accepted: {exc}")
                continue
            self.undo_stack.append(self.state.clone())
            self._apply(action)
            return True

    def _list_moves(self) -> None:
        moves = [self.state.action_to_string(a) for a in self.state.legal_actions()]
        self.say(f"Legal moves ({len(moves)}): " + " ".join(moves))

    def _undo(self) -> None:
        info = self.game.info()
        if info.chance or info.hidden_information:
            self.say("Undo is not available in games with dice or hidden cards.")
        elif len(self.agents) == 0:
            self.say("Undo is for games against the computer.")
        elif not self.undo_stack:
            self.say("Nothing to undo.")
        else:
            self.state = self.undo_stack.pop()
            self.say("Took back your last move.")

    def _agree(self, seat: int) -> bool:
        """End the game by agreement when every other human agrees too (computer
        players always agree); ``False`` when it does not end."""
        end = getattr(self.state, "end_by_agreement", None)
        if end is None:
            self.say("This game cannot end by agreement.")
            return False
        for other, kind in enumerate(self.players):
            if other == seat or kind != HUMAN:
                continue
            question = f"{self.seat_label(other)}, do you agree to end the game here? (yes/no) "
            try:
                answer = self.input_fn(question).strip().lower()
            except EOFError:
                answer = ""
            if answer not in ("y", "yes"):
                self.say(f"{self.seat_label(other)} does not agree; the game goes on.")
                return False
        try:
            end()
        except StairgamesError as exc:
            self.say(f"Not accepted: {exc}")
            return False
        if self.agents:
            self.say("The computer agrees to stop here.")
        return True

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
            self.say(f"Could not save the record: {exc}")
            return
        self.say(f"Record saved to {path}")
