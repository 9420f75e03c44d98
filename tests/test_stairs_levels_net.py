"""Stairs' levels with the learned value (issue 56).

A level that searches with the learned evaluation (``mcts:net=1``) has its valued search
compiled by the background warm-up with the rest of the game's code, so its first use
compiles nothing in the foreground.

The background process is a fake whose end each test decides (no compiling, no sleeps);
the kernels' ``cold`` is patched to say what a fresh install would say.
"""

from __future__ import annotations

import pytest

import stairgames
from stairgames.agents import base, level_player, make_agent, warming
from stairgames.agents.base import parse_player_spec
from stairgames.core.hooks import WarmUp
from stairgames.core.registry import player_hooks
from stairgames.games.stairs.research import endgame_kernel as stairs_kernel
from stairgames.games.stairs.research.learn import kernel as learned_kernel
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
