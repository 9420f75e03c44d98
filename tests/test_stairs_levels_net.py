"""Stairs' levels with the learned value, and their stand-ins named (issue 56).

A level that searches with the learned evaluation (``mcts:net=1``) has its valued search
compiled by the background warm-up with the rest of the game's code, so its first use
compiles nothing in the foreground; and while the code is compiled, the terminal says
after each of the stand-in's moves which level it plays for and, where Stairs measured
it (``PlayerHooks.stand_ins``), which level it is about as strong as.

The background process is a fake whose end each test decides (no compiling, no sleeps);
the kernels' ``cold`` is patched to say what a fresh install would say.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import stairgames
from stairgames.agents import LEVEL_NAMES, base, level_player, make_agent, warming
from stairgames.agents.base import parse_player_spec
from stairgames.agents.levels import stand_in_like
from stairgames.core.hooks import WarmUp
from stairgames.core.registry import player_hooks
from stairgames.games.stairs.research import endgame_kernel as stairs_kernel
from stairgames.games.stairs.research.learn import kernel as learned_kernel
from stairgames.terminal import TerminalSession
from tests.first_move_helpers import Launches


@pytest.fixture
def cold(monkeypatch: pytest.MonkeyPatch) -> list[WarmUp]:
    """Every compiled kernel of Stairs, the learned evaluation's included, looks cold
    until a warm-up runs in this process; the warm-ups run here are recorded (and do
    what they do on a warm install: load the compiled code)."""
    runs: list[WarmUp] = []
    state = {"cold": True}
    monkeypatch.setattr(stairs_kernel.KERNEL, "cold", lambda: state["cold"])
    monkeypatch.setattr(learned_kernel.KERNEL, "cold", lambda: state["cold"])

    def run_locked(warm_up: WarmUp) -> None:
        runs.append(warm_up)
        state["cold"] = False
        warm_up.run()

    monkeypatch.setattr(base, "run_locked", run_locked)
    monkeypatch.setattr(warming, "_RUNNING", {})
    return runs


def test_hard_searches_with_the_learned_value() -> None:
    _, settings = parse_player_spec(level_player("hard", stairgames.load("stairs")))
    assert settings.get("net") == "1"


def test_the_background_process_compiles_the_valued_search_after_the_games_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hooks = player_hooks("stairs")
    assert hooks.warm_up is not None and hooks.valued_warm_up is not None
    own = warming.game_warm_ups("stairs")
    assert [id(found) for found in own] == [id(hooks.warm_up), id(hooks.valued_warm_up)]
    ran: list[WarmUp] = []
    monkeypatch.setattr(warming, "run_locked", ran.append)
    assert warming.main(["stairs"]) == 0
    assert [id(found) for found in ran] == [id(hooks.warm_up), id(hooks.valued_warm_up)]


def test_a_level_on_the_learned_value_compiles_nothing_before_its_first_move(
    cold: list[WarmUp],
) -> None:
    game = stairgames.load("stairs")
    launches = Launches()
    agent = make_agent("hard", 1, seed=3)
    agent.prepare(game, background=True, launcher=launches)
    assert launches.started == ["stairs"] and cold == []  # nothing compiled here
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    assert state.is_legal(agent.act(state)) and agent.last_fallback
    launches.processes[0].end()
    assert state.is_legal(agent.act(state)) and not agent.last_fallback
    hooks = player_hooks("stairs")
    # once the process has ended, the valued search is loaded with the rest
    assert any(found is hooks.valued_warm_up for found in cold)


def test_the_stand_ins_name_levels_and_experts_is_the_player_measured() -> None:
    game = stairgames.load("stairs")
    stand_ins = player_hooks("stairs").stand_ins
    assert "expert" in stand_ins
    assert set(stand_ins) <= set(LEVEL_NAMES) and set(stand_ins.values()) <= set(LEVEL_NAMES)
    assert stand_in_like("expert", "stairs") == stand_ins["expert"]
    assert stand_in_like("mcts:time=1", "stairs") is None  # not a level
    # the player docs/research/2026-12-05-stairs-levels-net.md measured, alphabeta:time=1.8
    # (without the endgame solver): changing expert means measuring its stand-in again
    fallback = make_agent("expert", 0, seed=1).fallback(game)
    assert fallback is not None and fallback.describe() == "alphabeta:time=1.8"


def _said_after_a_stand_ins_move(level: str, tmp_path: Path, launches: Launches) -> str:
    out = io.StringIO()
    session = TerminalSession(
        stairgames.load("stairs"),
        ["human", level],
        seed=1,
        record_path=tmp_path / "g.json",
        output=out,
        input_fn=lambda prompt: "quit",
        background=True,
    )
    assert launches.started == ["stairs"]
    session.state.apply_action(session.state.legal_actions()[0])
    session._computer_turn(1)
    return " ".join(out.getvalue().split())


def test_the_terminal_names_the_level_and_its_stand_ins_strength(
    cold: list[WarmUp], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    launches = Launches()
    monkeypatch.setattr(warming, "launch", launches)
    said = _said_after_a_stand_ins_move("expert", tmp_path, launches)
    like = player_hooks("stairs").stand_ins["expert"]
    assert f"(a stand-in played for expert, about as strong as {like}:" in said
    assert "the fast code has been compiling for" in said  # what benchmarks/first_move counts
    assert cold == []


def test_the_terminal_says_only_weaker_where_the_stand_in_was_not_measured(
    cold: list[WarmUp], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    launches = Launches()
    monkeypatch.setattr(warming, "launch", launches)
    level = next(name for name in ("medium", "hard") if stand_in_like(name, "stairs") is None)
    said = _said_after_a_stand_ins_move(level, tmp_path, launches)
    assert f"(a weaker stand-in played for {level}: the fast code has been compiling" in said
