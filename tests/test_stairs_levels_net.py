"""Stairs' levels with the learned value and priors, and their stand-ins named (issue 56).

A level that searches with the learned evaluation and move priors (``mcts:net=1,
policy=1``) has its searches compiled by the background warm-up with the rest of the
game's code, so its first use compiles nothing in the foreground; and while the code is
compiled, the terminal says after each of the stand-in's moves which level it plays for
and, where Stairs measured it, which level it is about as strong as
(``PlayerHooks.stand_ins``) or which two levels it is between (``stand_in_bands``).

The background process is a fake whose end each test decides (no compiling, no sleeps);
the kernels' ``cold`` is patched to say what a fresh install would say.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import stairgames
from stairgames import terminal
from stairgames.agents import LEVEL_NAMES, base, level_player, make_agent, warming
from stairgames.agents.base import parse_player_spec
from stairgames.agents.levels import stand_in_band, stand_in_like
from stairgames.core.hooks import WarmUp
from stairgames.core.registry import player_hooks
from stairgames.games.stairs.research import endgame_kernel as stairs_kernel
from stairgames.games.stairs.research.learn import kernel as learned_kernel
from stairgames.games.stairs.research.learn import priors as priors_kernel
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
    monkeypatch.setattr(priors_kernel.KERNEL, "cold", lambda: state["cold"])

    def run_locked(warm_up: WarmUp) -> None:
        runs.append(warm_up)
        state["cold"] = False
        warm_up.run()

    monkeypatch.setattr(base, "run_locked", run_locked)
    monkeypatch.setattr(warming, "_RUNNING", {})
    return runs


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_hard_and_expert_search_with_the_learned_value_and_priors(level: str) -> None:
    name, settings = parse_player_spec(level_player(level, stairgames.load("stairs")))
    assert name == "mcts" and settings.get("net") == "1" and settings.get("policy") == "1"


def test_expert_searches_longer_than_hard() -> None:
    game = stairgames.load("stairs")
    hard = parse_player_spec(level_player("hard", game))[1]
    expert = parse_player_spec(level_player("expert", game))[1]
    assert float(expert["time"]) > float(hard["time"])
    assert {k: v for k, v in expert.items() if k != "time"} == {
        k: v for k, v in hard.items() if k != "time"
    }


def test_the_background_process_compiles_the_learned_searches_after_the_games_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hooks = player_hooks("stairs")
    assert hooks.warm_up is not None and hooks.valued_warm_up is not None
    assert hooks.policy_warm_up is not None
    expected = [id(hooks.warm_up), id(hooks.valued_warm_up), id(hooks.policy_warm_up)]
    assert [id(found) for found in warming.game_warm_ups("stairs")] == expected
    ran: list[WarmUp] = []
    monkeypatch.setattr(warming, "run_locked", ran.append)
    assert warming.main(["stairs"]) == 0
    assert [id(found) for found in ran] == expected


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
    # once the process has ended, the learned searches are loaded with the rest
    assert any(found is hooks.valued_warm_up for found in cold)
    assert any(found is hooks.policy_warm_up for found in cold)


def test_the_stand_ins_name_levels_and_are_the_players_measured() -> None:
    game = stairgames.load("stairs")
    hooks = player_hooks("stairs")
    stand_ins, bands = hooks.stand_ins, hooks.stand_in_bands
    assert "expert" in stand_ins and "hard" in bands
    assert set(stand_ins) <= set(LEVEL_NAMES) and set(stand_ins.values()) <= set(LEVEL_NAMES)
    assert set(bands) <= set(LEVEL_NAMES) and not set(bands) & set(stand_ins)
    for above, below in bands.values():
        assert LEVEL_NAMES.index(above) < LEVEL_NAMES.index(below)
    assert stand_in_like("expert", "stairs") == stand_ins["expert"]
    assert stand_in_band("hard", "stairs") == bands["hard"]
    assert stand_in_like("mcts:time=1", "stairs") is None  # not a level
    assert stand_in_band("mcts:time=1", "stairs") is None
    # the players docs/research/2026-12-05-stairs-levels-priors.md measured (the same
    # searches through the protocol, without the solver or the learned parts): changing a
    # level means measuring its stand-in again
    measured = {"expert": "mcts:time=1.8,c=0.5,fast=0", "hard": "mcts:time=0.25,c=0.5,fast=0"}
    for level, player in measured.items():
        fallback = make_agent(level, 0, seed=1).fallback(game)
        assert fallback is not None and fallback.describe() == player


def _said_after_a_stand_ins_move(
    level: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> str:
    """What the terminal says after the first move of ``level``'s stand-in (the background
    compiling a fake that never ends), on one line."""
    launches = Launches()
    monkeypatch.setattr(warming, "launch", launches)
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
    said = _said_after_a_stand_ins_move("expert", tmp_path, monkeypatch)
    like = player_hooks("stairs").stand_ins["expert"]
    assert f"(a stand-in played for expert, about as strong as {like}:" in said
    assert "the fast code has been compiling for" in said  # what benchmarks/first_move counts
    assert cold == []


def test_the_terminal_says_between_which_levels_the_stand_in_was_measured(
    cold: list[WarmUp], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    said = _said_after_a_stand_ins_move("hard", tmp_path, monkeypatch)
    above, below = player_hooks("stairs").stand_in_bands["hard"]
    assert f"(a stand-in played for hard, stronger than {above} and weaker than {below}:" in said
    assert cold == []


def test_the_terminal_says_only_weaker_where_the_stand_in_was_not_measured(
    cold: list[WarmUp], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every Stairs level with a stand-in was measured: as if hard's were not
    monkeypatch.setattr(terminal, "stand_in_like", lambda level, game: None)
    monkeypatch.setattr(terminal, "stand_in_band", lambda level, game: None)
    said = _said_after_a_stand_ins_move("hard", tmp_path, monkeypatch)
    assert "(a weaker stand-in played for hard: the fast code has been compiling" in said
