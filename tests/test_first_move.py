"""A fast first move (issue 34): code still to compile is compiled in the background
while the computer plays a plain-Python fallback, which is swapped for the compiled
search once the compiling has ended; the terminal says so.

The background process is replaced by a fake one whose end each test decides (no
compiling, no sleeps, no clocks); the warm-up's ``cold`` is patched to say what a
fresh install would say.
"""

from __future__ import annotations

import io
import threading
from pathlib import Path
from typing import Any

import pytest

import stairgames
from stairgames.agents import base, make_agent, warming
from stairgames.agents.alphabeta import AlphaBetaAgent
from stairgames.agents.mcts import MctsAgent
from stairgames.bench import first_move as first_move_benchmark
from stairgames.core.game import Game, State
from stairgames.core.hooks import WarmUp
from stairgames.games.stairs.research import endgame_kernel as stairs_kernel
from stairgames.terminal import TerminalSession
from tests.first_move_helpers import Launches


@pytest.fixture
def cold(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Stairs' compiled code looks cold (a fresh install) until a warm-up runs in this
    process; each one run here is recorded (and does what it does on a warm install:
    loads the compiled code)."""
    runs: list[str] = []
    state = {"cold": True}
    monkeypatch.setattr(stairs_kernel.KERNEL, "cold", lambda: state["cold"])

    def run_locked(warm_up: WarmUp) -> None:
        if state["cold"]:
            runs.append("run")
        state["cold"] = False
        warm_up.run()

    monkeypatch.setattr(base, "run_locked", run_locked)
    monkeypatch.setattr(warming, "_RUNNING", {})
    return runs


def _after_one_move(game: Game) -> State:
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("level", ["medium", "hard", "expert"])
@pytest.mark.slow
def test_a_cold_player_plays_its_fallback_until_the_compiling_ends_then_the_compiled_search(
    level: str, cold: list[str]
) -> None:
    game = stairgames.load("stairs")
    launches = Launches()
    agent = make_agent(level, 1, seed=3)
    agent.prepare(game, background=True, launcher=launches)
    assert launches.started == ["stairs"] and cold == []  # nothing compiled here
    assert agent.warming is not None and agent.compiling()
    state = _after_one_move(game)
    for _ in range(2):  # still compiling: legal moves from the fallback
        action = agent.act(state)
        assert state.is_legal(action) and agent.last_fallback
    assert cold == []
    launches.processes[0].end()
    action = agent.act(state)  # loads what was compiled, then searches compiled
    assert state.is_legal(action)
    assert not agent.last_fallback and agent.warming is None and cold == ["run"]
    assert len(launches.started) == 1


def test_the_fallback_is_the_same_search_without_compiled_parts_and_the_same_time() -> None:
    game = stairgames.load("stairs")
    mcts = make_agent("mcts:time=0.25,endgame=0.8", 0, seed=1)
    fallback = mcts.fallback(game)
    assert isinstance(mcts, MctsAgent) and isinstance(fallback, MctsAgent)
    assert (fallback.fast, fallback.endgame, fallback.time_limit) == (False, 0.0, 0.25)
    assert fallback.warm_ups(game) == []
    alphabeta = make_agent("alphabeta:time=1.8,endgame=0.8", 0, seed=1)
    fallback = alphabeta.fallback(game)
    assert isinstance(fallback, AlphaBetaAgent)
    assert (fallback.endgame, fallback.time_limit) == (0.0, 1.8)
    # nothing compiled, nothing to fall back from
    assert make_agent("greedy", 0).fallback(game) is None
    assert make_agent("mcts:time=0.1,fast=0", 0).fallback(game) is None


def test_players_of_one_game_share_one_background_compiling(cold: list[str]) -> None:
    game = stairgames.load("stairs")
    launches = Launches()
    first, second = make_agent("medium", 0, seed=1), make_agent("expert", 1, seed=2)
    first.prepare(game, background=True, launcher=launches)
    second.prepare(game, background=True, launcher=launches)
    assert launches.started == ["stairs"] and first.warming is second.warming


def test_a_failed_background_compiling_compiles_in_the_foreground(cold: list[str]) -> None:
    game = stairgames.load("stairs")
    launches = Launches()
    agent = make_agent("medium", 1, seed=3)
    agent.prepare(game, background=True, launcher=launches)
    launches.processes[0].end(1)
    assert agent.warming is not None and not agent.warming.succeeded()
    state = _after_one_move(game)
    assert state.is_legal(agent.act(state)) and not agent.last_fallback and cold == ["run"]


def test_without_background_preparing_compiles_first_as_before(cold: list[str]) -> None:
    """Drivers that must repeat a seed's games (the arena, benchmarks, scripted play)
    keep preparing in the foreground: the player is ready before its first move."""
    game = stairgames.load("stairs")
    said: list[str] = []
    agent = make_agent("medium", 1, seed=3)
    agent.prepare(game, on_compiling=lambda: said.append("compiling"))
    assert said == ["compiling"] and cold == ["run"] and agent.warming is None


def test_a_warm_player_does_not_compile_in_the_background(cold: list[str]) -> None:
    game = stairgames.load("stairs")
    make_agent("medium", 0).prepare(game)  # warm now
    assert cold == ["run"]
    launches = Launches()
    agent = make_agent("hard", 1, seed=3)
    agent.prepare(game, background=True, launcher=launches)
    assert launches.started == [] and agent.warming is None


class _Loading(base.Agent):
    """A player whose compiled code is on disk already: its warm-up (loading it) waits
    for the test's gate, and records the thread it ran in."""

    def __init__(self, gate: threading.Event, fails: int = 0) -> None:
        super().__init__(1)
        self.gate = gate
        self.fails = fails
        self.loaded: list[str] = []

    def load(self) -> None:
        if not self.gate.wait(timeout=10):  # loaded before the gate opened: in prepare
            raise AssertionError("the code was loaded before the board was shown")
        if self.fails:
            self.fails -= 1
            raise RuntimeError("loading failed")
        self.loaded.append(threading.current_thread().name)

    def warm_ups(self, game: Game) -> list[WarmUp]:
        return [WarmUp(run=self.load, cold=lambda: False)]

    def step(self, state: State) -> int:
        assert self.loaded, "searched before the compiled code was loaded"
        return state.legal_actions()[0]


def test_a_warm_player_loads_its_compiled_code_while_the_board_is_read() -> None:
    """Compiled already (a later start): preparing with a person waiting returns before
    the code is loaded, which a thread does meanwhile; the first move waits for it."""
    game = stairgames.load("stairs")
    gate = threading.Event()
    agent = _Loading(gate)
    launches = Launches()
    agent.prepare(game, background=True, launcher=launches)
    assert agent.loaded == [] and launches.started == [] and agent.warming is None
    gate.set()
    state = _after_one_move(game)
    assert state.is_legal(agent.act(state))
    assert agent.loaded == ["stairgames-load"] and not agent.last_fallback


def test_a_failed_load_in_the_thread_is_done_again_at_the_first_move() -> None:
    game = stairgames.load("stairs")
    gate = threading.Event()
    gate.set()
    agent = _Loading(gate, fails=1)
    agent.prepare(game, background=True)
    state = _after_one_move(game)
    assert state.is_legal(agent.act(state))
    assert agent.loaded == [threading.current_thread().name]
    failing = _Loading(gate, fails=2)  # fails again in the foreground: the error is raised
    failing.prepare(game, background=True)
    with pytest.raises(RuntimeError, match="loading failed"):
        failing.act(state)


def test_without_background_a_warm_player_loads_before_preparing_returns() -> None:
    game = stairgames.load("stairs")
    gate = threading.Event()
    gate.set()
    agent = _Loading(gate)
    agent.prepare(game)
    assert agent.loaded == [threading.current_thread().name]


def test_an_offer_while_compiling_is_answered_without_the_solver(cold: list[str]) -> None:
    """The solver that proves an answer is what is being compiled: anything short of the
    best result is declined, as an offer the solver cannot prove is."""
    game = stairgames.load("stairs")
    for first in range(3):
        launches = Launches()
        agent = make_agent("expert", 1, seed=3)
        agent.prepare(game, background=True, launcher=launches)
        state = game.new_initial_state()
        state.apply_action(state.legal_actions()[first])
        state.apply_action(state.legal_actions()[0])
        state.apply_move("offer")  # light offers; dark answers
        offer = state.agreement_offer()
        assert offer is not None and state.current_player() == 1
        expected = offer.accept if offer.returns[1] >= 1.0 else offer.decline
        assert agent.act(state) == expected and cold == []


class Terminal(io.StringIO):
    """The output of a session shown on a terminal (a person watches)."""

    def isatty(self) -> bool:
        return True


def _session(
    launches: Launches, tmp_path: Path, moves: list[str], **kwargs: Any
) -> tuple[TerminalSession, io.StringIO]:
    out = kwargs.pop("output", io.StringIO())
    answers = iter(moves)
    session = TerminalSession(
        stairgames.load("stairs"),
        ["human", "medium"],
        seed=1,
        record_path=tmp_path / "g.json",
        output=out,
        input_fn=lambda prompt: next(answers, "quit"),
        **kwargs,
    )
    return session, out


def _unwrapped(out: io.StringIO) -> str:
    """What the terminal said, its sentences joined again where it broke them to the
    screen's width."""
    return " ".join(out.getvalue().split())


def test_the_terminal_says_the_computer_plays_a_weaker_search_while_compiling_then_ready(
    cold: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    launches = Launches()
    monkeypatch.setattr(warming, "launch", launches)
    game = stairgames.load("stairs")
    first = game.new_initial_state()
    opening = first.action_to_string(first.legal_actions()[0])
    session, out = _session(launches, tmp_path, [], background=True)
    said = _unwrapped(out)
    assert "compiled in the background (first time only" in said
    assert "plays a stand-in without the fast code" in said and "which is weaker" in said
    assert "Preparing the computer player" not in said  # nothing waited for
    assert launches.started == ["stairs"] and cold == []
    session.state.apply_move(opening)
    session._computer_turn(1)
    # the level it plays for (its strength: tests/test_stairs_levels_net.py)
    assert "stand-in played for medium" in _unwrapped(out)
    assert first_move_benchmark.STAND_IN in _unwrapped(out)  # what the benchmark counts
    launches.processes[0].end()
    session.state.apply_action(session.state.legal_actions()[0])
    session._computer_turn(1)
    text = _unwrapped(out)
    assert "The computer player's fast code is ready (compiled in" in text
    assert "it plays at full strength from now on." in text
    assert first_move_benchmark.READY in text.split("fast code is ready")[1]
    assert cold == ["run"]


def test_the_terminal_compiles_in_the_background_only_where_a_person_watches(
    cold: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a terminal, in the background; output to a file or a pipe (scripted play,
    which must repeat a seed's games), in the foreground, with its progress line."""
    launches = Launches()
    monkeypatch.setattr(warming, "launch", launches)
    _session(launches, tmp_path, [], output=Terminal())
    assert launches.started == ["stairs"]
    monkeypatch.setattr(warming, "_RUNNING", {})
    cold.clear()
    _, out = _session(launches, tmp_path, [])
    assert launches.started == ["stairs"] and cold == ["run"]
    assert "Preparing the computer player" in out.getvalue()
