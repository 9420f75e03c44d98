"""A fast first move (issue 34), what was left: Ishigaki Race for three players (and
four on small walls) gets its max^n solver's compiled code ready like Stairs and 27 (a
warm-up in its hooks, run by ``stairgames prepare`` and in the background) and plays the
game's estimate meanwhile; the web page is told while a computer plays its weaker
stand-in; ``stairgames serve`` starts compiling every game's code as it starts.

No compiling, no sleeps, no clocks: the compiling process is a fake whose end each test
decides, and the solver's compiled code is replaced by a recorder wherever a move would
reach it.
"""

from __future__ import annotations

import random
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import stairgames
from stairgames import cli
from stairgames.agents import LEVEL_NAMES, base, make_agent, warming
from stairgames.agents.greedy import GreedyAgent
from stairgames.agents.levels import stand_in_band, stand_in_like
from stairgames.core.game import State
from stairgames.core.hooks import WarmUp
from stairgames.core.registry import game_names, player_hooks
from stairgames.games.ishigaki_race.play import evaluate as ishigaki
from stairgames.games.ishigaki_race.research import maxn_kernel
from stairgames.games.stairs.research import endgame_kernel as stairs_kernel
from stairgames.server import serve
from stairgames.server.base.settings import Settings
from stairgames.server.play import computer
from stairgames.server.play.computer import WARMING, ComputerPool
from tests.first_move_helpers import FakeProcess, Launches
from tests.server_helpers import connect, new_match, receive_until, running, token_of


@pytest.fixture
def cold_solver(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[Any]]:
    """The max^n solver's compiled code looks cold (a fresh install) until a warm-up
    runs here; warm-ups run here are recorded, not run, and the solution the full
    player asks for is recorded and not solved (no compiling): ``warm_ups`` and
    ``solved``."""
    seen: dict[str, list[Any]] = {"warm_ups": [], "solved": []}
    state = {"cold": True}
    monkeypatch.setattr(maxn_kernel.KERNEL, "cold", lambda: state["cold"])

    def run_locked(warm_up: WarmUp) -> None:
        seen["warm_ups"].append(warm_up)
        state["cold"] = False

    def exact_solution(board: Any, players: int) -> None:
        seen["solved"].append((board, players))

    monkeypatch.setattr(base, "run_locked", run_locked)
    monkeypatch.setattr(warming, "_RUNNING", {})
    monkeypatch.setattr(ishigaki, "exact_solution", exact_solution)
    ishigaki.chance_of_winning.cache_clear()
    return seen


def _play(state: State, rng: random.Random, until_seat: int) -> None:
    """Chance outcomes and other seats' first legal moves until ``until_seat`` decides
    between two actions at least (or the game ends)."""
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            state.apply_action(rng.choices(actions, [p for _, p in outcomes])[0])
        elif state.current_player() == until_seat and len(state.legal_actions()) > 1:
            return
        else:
            state.apply_action(state.legal_actions()[0])


# ----- Ishigaki Race: a warm-up and a fallback ------------------------------------------


def test_ishigaki_race_offers_a_warm_up_and_an_estimate_where_its_evaluation_compiles() -> None:
    hooks = player_hooks("ishigaki_race")
    assert hooks.warm_up is not None and hooks.estimate is not None
    assert hooks.estimate(stairgames.load("ishigaki_race", players=3)) is not None
    assert (
        hooks.estimate(stairgames.load("ishigaki_race", players=4, goal=10, crumbling_squares=()))
        is not None
    )
    # two players: value iteration, nothing compiled; four on the 20-step wall: their
    # table or the estimate already, never solved in a move
    assert hooks.estimate(stairgames.load("ishigaki_race")) is None
    assert hooks.estimate(stairgames.load("ishigaki_race", players=4)) is None


@pytest.mark.parametrize("level", ["easy", "expert"])
def test_ishigaki_levels_warm_up_for_three_players_only(level: str) -> None:
    hooks = player_hooks("ishigaki_race")
    three = stairgames.load("ishigaki_race", players=3)
    assert make_agent(level, 0).warm_ups(three) == [hooks.warm_up]
    assert make_agent(level, 0).warm_ups(stairgames.load("ishigaki_race")) == []


@pytest.mark.parametrize("level", ["medium", "expert"])
def test_a_cold_three_player_ishigaki_computer_plays_the_estimate_until_compiled(
    level: str, cold_solver: dict[str, list[Any]]
) -> None:
    game = stairgames.load("ishigaki_race", players=3)
    launches = Launches()
    agent = make_agent(level, 1, seed=3)
    agent.prepare(game, background=True, launcher=launches)
    assert launches.started == ["ishigaki_race"] and agent.compiling()
    assert cold_solver["warm_ups"] == []  # nothing compiled here
    rng = random.Random(5)
    state = game.new_initial_state()
    moves = 0
    while moves < 12:
        _play(state, rng, 1)
        if state.is_terminal():
            state = game.new_initial_state()  # another game
            continue
        action = agent.act(state)
        assert state.is_legal(action) and agent.last_fallback
        state.apply_action(action)
        moves += 1
    assert cold_solver["solved"] == [] and cold_solver["warm_ups"] == []
    launches.processes[0].end()
    state = game.new_initial_state()
    _play(state, rng, 1)
    assert state.is_legal(agent.act(state))  # loads what was compiled, then as configured
    assert not agent.last_fallback and agent.warming is None
    assert cold_solver["warm_ups"] == [player_hooks("ishigaki_race").warm_up]


def test_the_ishigaki_fallback_is_the_same_player_on_the_estimate() -> None:
    three = stairgames.load("ishigaki_race", players=3)
    player = make_agent("greedy:noise=0.3", 0, seed=1)
    fallback = player.fallback(three)
    assert isinstance(fallback, GreedyAgent) and fallback.estimate
    assert (fallback.noise, fallback.warm_ups(three)) == (0.3, [])
    assert make_agent("greedy", 0).fallback(stairgames.load("ishigaki_race")) is None


def test_the_estimate_is_the_evaluation_without_the_max_n_solution(
    cold_solver: dict[str, list[Any]],
) -> None:
    game = stairgames.load("ishigaki_race", players=3)
    state = game.new_initial_state()
    _play(state, random.Random(2), 0)
    value = ishigaki.estimated(state, 0)
    assert -1.0 <= value <= 1.0 and cold_solver["solved"] == []
    # the full evaluation asks for the solution (here: not at hand) and, without it,
    # gives the same estimate
    assert ishigaki.evaluate(state, 0) == value and cold_solver["solved"]


def test_stairgames_prepare_runs_every_games_own_warm_up(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ran: list[WarmUp] = []
    monkeypatch.setattr(warming, "run_locked", ran.append)
    assert cli.main(["prepare", "ishigaki_race"]) == 0
    assert ran == [player_hooks("ishigaki_race").warm_up]
    capsys.readouterr()


# ----- the web page is told while the computer plays its stand-in ------------------------


@pytest.fixture
def cold_stairs(monkeypatch: pytest.MonkeyPatch) -> Launches:
    """Stairs' compiled code looks cold; background compiling is a fake (returned)."""
    state = {"cold": True}
    monkeypatch.setattr(stairs_kernel.KERNEL, "cold", lambda: state["cold"])

    def run_locked(warm_up: WarmUp) -> None:
        state["cold"] = False
        warm_up.run()

    launches = Launches()
    monkeypatch.setattr(base, "run_locked", run_locked)
    monkeypatch.setattr(warming, "_RUNNING", {})
    monkeypatch.setattr(warming, "launch", launches)
    monkeypatch.setattr(computer, "_AGENTS", {})
    return launches


def test_a_worker_notes_a_move_its_fallback_chose(cold_stairs: Launches) -> None:
    game = stairgames.load("stairs")
    state = game.new_initial_state()
    first = state.action_to_string(state.legal_actions()[0])
    notes: list[str | None] = []
    move = computer.choose_move(
        "stairs", {}, "medium", 1, [first], 7, background=True, on_note=notes.append
    )
    assert move and notes == [WARMING] and cold_stairs.started == ["stairs"]
    cold_stairs.processes[0].end()
    computer.choose_move(
        "stairs", {}, "medium", 1, [first], 7, background=True, on_note=notes.append
    )
    assert notes == [WARMING, None]


def test_the_pool_keeps_the_note_of_each_games_players_last_move() -> None:
    pool = ComputerPool(0)
    pool._noted("stairs", {}, "medium", ("move", "a1-b2", WARMING))
    assert pool.note("stairs", {}, "medium") == WARMING
    assert pool.note("stairs", {"size": 4}, "medium") is None
    assert pool.note("stairs", {}, "hard") is None
    pool._noted("stairs", {}, "medium", ("move", "a1-b2", None))
    assert pool.note("stairs", {}, "medium") is None
    pool._noted("stairs", {}, "medium", ("move", "a1-b2"))  # an older worker's reply
    assert pool.note("stairs", {}, "medium") is None


class WarmingPool(ComputerPool):
    """A pool whose computer plays the first legal move, noted as its fallback's (its
    :meth:`~ComputerPool.choose` as it is, in thread mode: the thread's part replaced)."""

    def __init__(self) -> None:
        super().__init__(0)

    async def _choose_in_thread(self, job: tuple[Any, ...]) -> str:
        game_name, options, player, _seat, moves = job[:5]
        state = stairgames.load(game_name, **options).new_initial_state()
        for move in moves:
            state.apply_move(move)
        self._noted(game_name, options, player, ("move", "", WARMING))
        return state.action_to_string(state.legal_actions()[0])


def test_the_match_view_says_the_computer_plays_its_stand_in(tmp_path: Path) -> None:
    with running(tmp_path) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        hub.computers = WarmingPool()
        created = new_match(client, "stairs", ["computer:medium", "human"])
        url = f"/ws/matches/{created['match']}?token={token_of(created, 1)}"
        with connect(client, url) as ws:
            told = receive_until(ws, lambda m: m["type"] == "state" and m["event"] == 1)
        assert told["computer_note"] == WARMING
        assert told["computer_stand_in"]["level"] == "medium"  # the level it plays for
        assert client.get(f"/api/matches/{created['match']}").json()["computer_note"] == WARMING
        other = new_match(client, "stairs", ["human", "computer:hard"])
        fresh = client.get(f"/api/matches/{other['match']}").json()
        assert fresh["computer_note"] is None  # no move of that player was a stand-in's
        assert "computer_stand_in" not in fresh
        expert = new_match(client, "stairs", ["computer:expert", "human"])
        url = f"/ws/matches/{expert['match']}?token={token_of(expert, 1)}"
        with connect(client, url) as ws:
            told = receive_until(ws, lambda m: m["type"] == "state" and m["event"] == 1)
        like = stand_in_like("expert", "stairs")
        assert like in LEVEL_NAMES  # Stairs measured expert's stand-in
        assert told["computer_stand_in"] == {
            "level": "expert",
            "like": like,
            "above": None,
            "below": None,
        }
        hard = new_match(client, "stairs", ["computer:hard", "human"])
        url = f"/ws/matches/{hard['match']}?token={token_of(hard, 1)}"
        with connect(client, url) as ws:
            told = receive_until(ws, lambda m: m["type"] == "state" and m["event"] == 1)
        band = stand_in_band("hard", "stairs")
        assert band is not None  # Stairs measured hard's stand-in between two levels
        assert told["computer_stand_in"] == {
            "level": "hard",
            "like": None,
            "above": band[0],
            "below": band[1],
        }


def test_the_page_shows_the_note_in_its_language() -> None:
    static = Path(stairgames.__file__).parent / "web" / "static"
    text = "The computer is getting ready (compiling, first time only)"
    assert text in (static / "index.html").read_text(encoding="utf-8")
    assert 'view.computer_note !== "warming"' in (static / "app.js").read_text(encoding="utf-8")


# ----- serve compiles every game's code as it starts -------------------------------------


def test_serve_starts_compiling_every_game_at_once_unless_told_not_to(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    launches = Launches()
    monkeypatch.setattr(warming, "launch_arguments", launches)
    parser = serve.serve_parser()
    settings = serve.serve_settings(parser.parse_args([]), parser)
    assert settings.warm_computers
    started: object = serve.start_warming(settings)
    assert started is launches.processes[0]
    assert launches.started == [[warming.COLD_ONLY, *game_names()]]
    quiet = serve.serve_settings(parser.parse_args(["--no-warm-up"]), parser)
    assert not quiet.warm_computers and serve.start_warming(quiet) is None
    assert serve.start_warming(Settings()) is None  # apps made otherwise (tests): off
    assert len(launches.started) == 1


def test_stairgames_serve_starts_the_warm_up_before_it_listens(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    events: list[str] = []

    class Server:
        def run(self) -> None:
            events.append("listens")

    def start(arguments: Sequence[str]) -> subprocess.Popen[bytes]:
        events.append("warming")
        return FakeProcess()  # type: ignore[return-value]

    monkeypatch.setattr(warming, "launch_arguments", start)
    monkeypatch.setattr(serve, "_announcing_server", lambda config, line: Server())
    assert serve.serve(["--data-dir", str(tmp_path)]) == 0
    assert events == ["warming", "listens"]
    events.clear()
    assert serve.serve(["--data-dir", str(tmp_path), "--no-warm-up"]) == 0
    assert events == ["listens"]


def test_the_warming_process_compiles_only_what_is_cold_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ran: list[str] = []
    warm_ups = {
        "hot": WarmUp(run=lambda: None, cold=lambda: False),
        "cold": WarmUp(run=lambda: None, cold=lambda: True),
    }
    monkeypatch.setattr(
        warming, "game_warm_ups", lambda name: [warm_ups[name]] if name in warm_ups else []
    )
    monkeypatch.setattr(
        warming, "run_locked", lambda w: ran.append(next(n for n, x in warm_ups.items() if x is w))
    )
    assert warming.main([warming.COLD_ONLY, "hot", "cold", "none"]) == 0
    assert ran == ["cold"]
    ran.clear()
    assert warming.main(["hot"]) == 0 and ran == ["hot"]
