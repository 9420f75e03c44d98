"""Issue 34's Stairs settings of ``mcts`` (``endgame_hold``, ``endgame_trial``,
``endgame_rate``) and the backward solving of lost games
(``stairgames.games.stairs.research.turning``): behaviour only, no strength and no
timing."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

import pytest

import stairgames
from stairgames.agents import MctsAgent, make_agent
from stairgames.agents import endgame as endgame_module
from stairgames.agents.endgame import TRIAL_SHARE, EndgameProbe
from stairgames.core.game import State
from stairgames.core.hooks import PlayerHooks
from stairgames.core.registry import player_hooks
from stairgames.games.stairs.game import StairsState
from stairgames.games.stairs.research import turning
from stairgames.games.stairs.research.endgame import EndgameSolver


def random_game_moves(seed: int) -> list[str]:
    """The moves of a uniformly random game of Stairs (moves of play only)."""
    rng = random.Random(seed)
    state = stairgames.load("stairs", agreement=False).new_initial_state()
    moves = []
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        moves.append(state.action_to_string(action))
        state.apply_action(action)
    return moves


def middle_state(seed: int, plies: int) -> StairsState:
    state = turning.replay(random_game_moves(seed))[plies]
    assert not state.is_terminal()
    return state


# ----- endgame_hold ------------------------------------------------------------------


class SpySolver:
    """Proves nothing until told to, and records the budget of every call."""

    def __init__(self) -> None:
        self.nodes = 0
        self.calls: list[int | None] = []
        self.answer: dict[int, list[float]] = {}

    def prove(
        self, state: State, *, nodes: int | None = None, deadline: float | None = None
    ) -> dict[int, list[float]]:
        self.calls.append(nodes)
        self.nodes = nodes or 0
        return dict(self.answer)


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> SpySolver:
    solver = SpySolver()
    hooks = player_hooks("stairs")

    def spied(name: str) -> PlayerHooks:
        assert name == "stairs"
        return PlayerHooks(endgame_solver=lambda: solver, warm_up=hooks.warm_up)

    monkeypatch.setattr(endgame_module, "player_hooks", spied)
    return solver


def prove(probe: EndgameProbe, state: State) -> tuple[int | None, dict[int, list[float]]]:
    return probe.prove(state, started=0.0, seconds=None, iterations=1000, nodes_per_iteration=10)


@pytest.mark.parametrize("hold", [False, True])
def test_the_trial_comes_first_until_the_solver_has_proven_something(spy, hold):
    state = middle_state(1, 10)
    probe = EndgameProbe(0.5, hold=hold)
    prove(probe, state)
    assert spy.calls == [int(TRIAL_SHARE * 1000 * 10)]  # nothing proven: the search's turn
    assert probe.nodes == spy.calls[0]


def test_once_something_is_proven_hold_gives_the_whole_share_at_once(spy):
    state = middle_state(1, 10)
    seat = state.current_player()
    lost = [-1.0, 1.0] if seat == 0 else [1.0, -1.0]
    probe = EndgameProbe(0.5, hold=True)
    spy.answer = {state.legal_actions()[0]: lost}
    prove(probe, state)
    assert spy.calls == [1000, 5000]  # a trial that proved something, then the whole share
    spy.calls.clear()
    spy.answer = {}
    prove(probe, state)
    assert spy.calls == [5000]  # held: no trial any more, even when nothing is proven
    probe.restart()
    spy.calls.clear()
    prove(probe, state)
    assert spy.calls == [1000]  # a new game starts with a trial again


@pytest.mark.parametrize(("trial", "share", "first_call"), [(0.3, 0.5, 3000), (0.8, 0.5, 5000)])
def test_endgame_trial_sets_the_trials_share_capped_at_the_whole_share(
    spy, trial, share, first_call
):
    state = middle_state(1, 10)
    probe = EndgameProbe(share, trial=trial)
    prove(probe, state)
    assert spy.calls == [first_call]  # nothing proven: the search's turn


def test_endgame_trial_reaches_the_probe_of_an_mcts_player():
    agent = make_agent("mcts:iterations=800,endgame=0.6,endgame_trial=0.25", 0)
    assert isinstance(agent, MctsAgent)
    assert agent._endgame.trial == 0.25
    default = make_agent("mcts:iterations=800,endgame=0.6", 0)
    assert isinstance(default, MctsAgent)
    assert default._endgame.trial == TRIAL_SHARE


def test_without_hold_every_move_starts_with_a_trial(spy):
    state = middle_state(1, 10)
    seat = state.current_player()
    lost = [-1.0, 1.0] if seat == 0 else [1.0, -1.0]
    probe = EndgameProbe(0.5)
    spy.answer = {state.legal_actions()[0]: lost}
    prove(probe, state)
    spy.calls.clear()
    spy.answer = {}
    prove(probe, state)
    assert spy.calls == [1000]


# ----- endgame_rate and the text form ------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_endgame_rate_pays_the_solver_out_of_the_iterations(seed):
    """Each ``endgame_rate`` positions the solver searched cost the search an iteration."""
    state = middle_state(seed, 14)
    agent = MctsAgent(
        state.current_player(),
        seed=seed,
        time_limit=None,
        iterations=3000,
        endgame=0.3,
        endgame_rate=15,
    )
    agent.act(state)
    searched = agent._endgame.nodes
    assert searched > 0
    if agent.last_iterations:  # not a proven win played at once, nor a root the search proved
        paid = -(-searched // 15)
        assert agent.last_iterations <= max(1, 3000 - paid)


def test_without_endgame_rate_the_search_keeps_its_whole_iteration_budget():
    state = middle_state(0, 6)  # the opening: nothing proven, nothing cut short
    agent = MctsAgent(state.current_player(), seed=0, time_limit=None, iterations=500, endgame=0.3)
    agent.act(state)
    assert agent.last_iterations == 500


@pytest.mark.parametrize(
    "text",
    [
        "mcts:iterations=800,c=0.7,endgame=0.6,endgame_hold=1",
        "mcts:iterations=800,c=0.7,endgame=0.3,endgame_rate=15",
        "mcts:iterations=800,c=0.7,endgame=0.6,endgame_hold=1,endgame_trial=0.3",
    ],
)
def test_the_new_settings_repeat_with_a_seed_and_keep_their_text_form(text):
    state = middle_state(2, 12)
    seat = state.current_player()
    choices = [make_agent(text, seat, seed=9).act(state) for _ in range(2)]
    assert choices[0] == choices[1]
    assert make_agent(text, seat, seed=9).describe() == text


# ----- where a game turned -----------------------------------------------------------


def test_the_turning_ply_is_the_last_move_into_a_lost_position():
    movers = [0, 1] * 4 + [-1]
    # seat 0 threw the win away at ply 2, the other seat gave it back at ply 3, and
    # seat 0 threw it away again, for good, at ply 6
    assert turning.turning_ply("?WWLWWWLL", movers, 0) == 6
    assert turning.turning_ply("LLLLLLLLL", movers, 1) is None  # lost from the start
    assert turning.turning_ply("???LLLLLL", movers, 0) == 2  # from out of reach into lost
    assert turning.turning_ply("??WWWWWWW", movers, 0) is None


@pytest.mark.parametrize("seed", range(3))
def test_backward_values_agree_with_the_end_and_with_each_move(seed):
    moves = random_game_moves(seed)
    states = turning.replay(moves)
    seat = 0
    values = turning.values_backwards(states, seat, nodes=20_000, misses=2, solver=EndgameSolver())
    assert len(values) == len(states)
    end = states[-1].returns()
    assert values[-1] == (turning.WON if end[seat] > end[1 - seat] else turning.LOST)
    for ply in range(len(states) - 1):
        if values[ply] == turning.OPEN or values[ply + 1] == turning.OPEN:
            continue
        if values[ply] != values[ply + 1]:
            # a value changes only where its owner's side threw a win away
            mover = states[ply].current_player()
            assert (mover == seat) == (values[ply] == turning.WON)


def test_the_winning_moves_of_a_turning_ply_keep_the_win():
    moves = random_game_moves(4)
    states = turning.replay(moves)
    for ply in range(len(states) - 2, 0, -1):
        state = states[ply]
        seat = state.current_player()
        if turning.value_for(EndgameSolver(), state, seat, 50_000) != turning.WON:
            continue
        found = turning.winning_moves(state, seat, 50_000)
        assert found
        for move in found:
            child = state.clone()
            child.apply_action(child.string_to_action(move.move))
            assert turning.value_for(EndgameSolver(), child, seat, 50_000) == turning.WON
        return
    pytest.fail("no won position in the game")


def test_lost_games_are_read_from_checkpoint_lines(tmp_path: Path):
    lines: list[dict[str, Any]] = [
        {"kind": "run", "game": "stairs"},
        {"kind": "game", "game": "stairs", "seed": 1, "score": 1.0, "moves": ["a1-a2"]},
        {"kind": "game", "game": "stairs", "seed": 2, "score": 0.0, "moves": ["a1-a2"]},
        {"kind": "game", "game": "twenty_seven", "seed": 3, "score": 0.0, "moves": ["0:1"]},
        {"kind": "game", "game": "stairs", "seed": 4, "score": 0.5},
    ]
    path = tmp_path / "games.jsonl.gz"
    with gzip.open(path, "wt") as out:
        out.writelines(json.dumps(line) + "\n" for line in lines)
    assert [r["seed"] for r in turning.game_records([path])] == [2]
    assert [r["seed"] for r in turning.game_records([path], all_games=True)] == [1, 2]


def test_a_lost_game_is_described_with_its_turn():
    moves = random_game_moves(5)
    returns = turning.replay(moves)[-1].returns()
    record = {"seed": 5, "ours_first": returns[0] < returns[1], "score": 0.0, "moves": moves}
    turn = turning.turn_of(record, nodes=20_000, misses=2)
    assert turn.values[-1] == turning.LOST
    assert turn.turning_ply is not None  # a random game is thrown away late, within reach
    assert turn.move == moves[turn.turning_ply]
    assert f"turned at ply {turn.turning_ply}" in turning.describe(turn)
