"""Typed game hooks, lazy imports, warming compiled code, checking players up front."""

from __future__ import annotations

import ast
import dataclasses
import io
import json
import os
import random
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import stairgames
from stairgames.agents import Determiniser, LevelAgent, make_agent
from stairgames.agents.evaluation import find_evaluator, find_playout
from stairgames.agents.levels import level_player
from stairgames.arena import run_arena, runner
from stairgames.cli import main
from stairgames.core import registry, uct
from stairgames.core.errors import InvalidOptionError
from stairgames.core.game import State
from stairgames.core.hooks import PlayerHooks
from stairgames.games.ishigaki_race.research import maxn_kernel as ishigaki_kernel
from stairgames.games.stairs.research import endgame_kernel as stairs_kernel
from stairgames.games.stairs.research.learn import kernel as stairs_learned_kernel
from stairgames.games.stairs.research.learn import priors as stairs_priors_kernel
from stairgames.games.twenty_seven.research import endgame_kernel as twenty_seven_kernel
from stairgames.games.twenty_seven.research import (
    retrograde_kernel as twenty_seven_retrograde_kernel,
)
from stairgames.terminal import TerminalSession
from tests.test_agents import FORCED_WINS

SRC = Path(stairgames.__file__).resolve().parents[1]
ROOT = SRC.parent
PREPARING = (
    "Preparing the computer player: its fast code is compiled once per installation "
    "(5 to 30 seconds, by the machine; later games start at once, and 'stairgames prepare' "
    "does it ahead)..."
)


def run_python(code: str, **env: str) -> str:
    """Run ``code`` in a fresh interpreter on this checkout; its standard output."""
    environment = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(SRC), str(ROOT), env.pop("PYTHONPATH", "")]),
        "PYTHONDONTWRITEBYTECODE": "1",
        **env,
    }
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


EASY_ONLY = PlayerHooks(levels={"easy": "random"})
"""Hooks naming one level and nothing else, for a replaced registration."""


@pytest.fixture
def replaced_spec(monkeypatch) -> Iterator[None]:
    """Lets a test replace a game's registration; the loaded hooks are forgotten
    before and after."""
    registry.game_names()  # every game registered before the registry is patched
    registry._loaded_hooks.cache_clear()
    yield
    monkeypatch.undo()
    registry._loaded_hooks.cache_clear()


def replace_spec(monkeypatch, name: str, **fields: Any) -> None:
    spec = registry.get_spec(name)
    monkeypatch.setitem(registry._REGISTRY, name, dataclasses.replace(spec, **fields))


# ----- typed hooks, loaded lazily ---------------------------------------------


@pytest.mark.parametrize("name", stairgames.game_names())
@pytest.mark.slow
def test_loading_and_playing_a_game_imports_neither_numba_nor_player_code(name):
    loaded = run_python(
        f"""
        import random, sys
        import stairgames

        state = stairgames.load({name!r}).new_initial_state()
        rng = random.Random(1)
        for _ in range(8):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        print(sorted(
            module for module in sys.modules
            if module.partition(".")[0] == "numba"
            or module.startswith("stairgames.agents")
            or module.split(".")[3:4] in (["play"], ["research"])
            or module == "stairgames.core.compiled"
        ))
        """
    )
    assert loaded.strip() == "[]"


@pytest.mark.parametrize("name", ["stairs", "twenty_seven"])
@pytest.mark.slow
def test_a_games_hooks_import_its_compiled_code_on_first_use(name):
    """The hooks name their compiled parts by reference (``on_first_use``): loading them
    imports neither numba nor the kernel; the first playout imports both."""
    loaded = run_python(
        f"""
        import random, sys
        import stairgames
        from stairgames.core.registry import player_hooks

        def compiled():
            return sorted(
                module for module in sys.modules
                if module in ("numba", "stairgames.core.compiled")
                or module.endswith(".endgame_kernel")
            )

        hooks = player_hooks({name!r})
        print(compiled())
        hooks.playout(stairgames.load({name!r}).new_initial_state(), random.Random(1))
        print(compiled())
        """
    )
    before, after = loaded.strip().splitlines()
    assert before == "[]"
    assert after == str(
        sorted(
            [
                "numba",
                "stairgames.core.compiled",
                f"stairgames.games.{name}.research.endgame_kernel",
            ]
        )
    )


def test_every_game_offers_players_its_hooks_as_typed_fields_of_its_registration():
    for name in stairgames.game_names():
        hooks = registry.player_hooks(name)
        assert isinstance(hooks, PlayerHooks)
        assert hooks.evaluate is not None
    stairs = registry.player_hooks("stairs")
    assert stairs.playout is not None and stairs.tree_search is not None
    assert stairs.levels["expert"] == "mcts:time=1.8,endgame=0.8,net=1,policy=1,c=0.5"
    for name in ("stairs", "twenty_seven"):
        hooks = registry.player_hooks(name)
        assert hooks.endgame_solver is not None and hooks.warm_up is not None
    assert registry.get_spec("city_of_stairs").resample_hidden is not None
    with pytest.raises(TypeError):
        stairs.levels["easy"] = "random"  # type: ignore[index]


def test_players_read_the_registration_and_find_nothing_by_a_module_name(
    monkeypatch, replaced_spec
):
    """Stairs still has an ``evaluate`` module beside its rules; registered without
    hooks, players must not find it."""
    replace_spec(monkeypatch, "stairs", player_hooks="tests.test_hooks:EASY_ONLY")
    game = stairgames.load("stairs")
    assert find_evaluator("stairs") is None
    assert find_playout("stairs") is None
    assert level_player("easy", game) == "random"
    assert level_player("hard", game) == "mcts:time=0.25"  # the default, not Stairs' own
    replace_spec(monkeypatch, "stairs", player_hooks=None)
    registry._loaded_hooks.cache_clear()
    assert registry.player_hooks("stairs") == PlayerHooks()


def test_determinisation_uses_the_resample_hidden_field_of_the_registration(
    monkeypatch, replaced_spec
):
    own = registry.get_spec("city_of_stairs").resample_hidden
    assert own is not None
    calls: list[tuple[State, int]] = []

    def spy(state: State, seat: int, rng: random.Random) -> State:
        calls.append((state, seat))
        return own(state, seat, rng)

    replace_spec(monkeypatch, "city_of_stairs", resample_hidden=spy)
    state = stairgames.load("city_of_stairs").new_initial_state()
    world = Determiniser(state, 1).sample(random.Random(0))
    assert calls == [(state, 1)]
    assert world.observation_string(1) == state.observation_string(1)


@pytest.mark.parametrize(
    "path", ["evaluation.py", "levels.py", "determinise.py", "endgame.py", "base.py"]
)
def test_players_look_up_no_hook_by_a_module_or_attribute_name(path):
    source = (SRC / "stairgames" / "agents" / path).read_text(encoding="utf-8")
    assert "importlib" not in source
    assert "getattr(" not in source


# ----- players checked against the game before it starts ----------------------


def test_a_player_that_cannot_play_the_game_is_refused_when_it_is_prepared():
    city = stairgames.load("city_of_stairs")
    with pytest.raises(InvalidOptionError, match="alphabeta plays two-player games"):
        make_agent("alphabeta", 0, game=city)
    with pytest.raises(InvalidOptionError, match="alphabeta plays two-player games"):
        TerminalSession(city, ["human", "alphabeta"], output=io.StringIO())


def test_a_level_resolves_to_its_player_when_it_is_prepared():
    agent = make_agent("expert", 1, game=stairgames.load("stairs"))
    assert isinstance(agent, LevelAgent)
    assert agent.inner is not None
    assert agent.inner.describe() == "mcts:time=1.8,c=0.5,endgame=0.8,net=1,policy=1"
    agent.prepare(stairgames.load("city_of_stairs"))
    assert agent.inner.describe() == "mcts:time=1.8,c=0.1,cutoff=1"


def test_cli_play_refuses_a_player_that_cannot_play_the_game_before_dealing_a_card(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)
    argv = ["play", "city_of_stairs", "--seats", "alphabeta,random", "--no-color"]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert "alphabeta plays two-player games without chance or hidden information" in captured.err
    assert captured.out == ""  # nothing dealt, nothing shown
    assert not (tmp_path / "records").exists()


def test_the_arena_refuses_a_player_that_cannot_play_the_game_before_any_game(monkeypatch):
    def never(task: runner.GameTask) -> dict[str, object]:
        raise AssertionError("a game was played")

    monkeypatch.setattr(runner, "play_game", never)
    shown: list[tuple[int, int]] = []
    with pytest.raises(InvalidOptionError, match="alphabeta plays two-player games"):
        run_arena(
            "ishigaki_race", ["random", "alphabeta"], games=2, progress=lambda *a: shown.append(a)
        )
    assert shown == []


def test_the_arena_progress_shows_no_game_done_as_soon_as_the_run_starts():
    shown: list[tuple[int, int]] = []
    run_arena("stairs", ["random", "greedy"], games=2, seed=1, progress=lambda *a: shown.append(a))
    assert shown == [(0, 2), (1, 2), (2, 2)]


# ----- warming compiled code outside any clock ----------------------------------


@pytest.mark.parametrize("cold", [True, False])
def test_the_terminal_says_it_prepares_the_computer_player_only_when_that_compiles(
    cold, monkeypatch, tmp_path
):
    monkeypatch.setattr(stairs_kernel.KERNEL, "cold", lambda: cold)
    out = io.StringIO()
    game = stairgames.load("stairs")
    session = TerminalSession(
        game, ["human", "expert"], seed=1, record_path=tmp_path / "g.json", output=out
    )
    assert (PREPARING in out.getvalue()) is cold
    assert session.agents[1].prepared_for is game


@pytest.mark.slow
def test_on_a_fresh_install_the_first_move_keeps_its_endgame_solver(tmp_path):
    """An empty numba cache: preparing the player compiles (and says so), so that its
    first move still proves the win in its share of the time, compiling nothing."""
    (position, wins) = FORCED_WINS[1]
    script = f"""
        import json
        import stairgames
        from stairgames.agents import make_agent
        from stairgames.games.stairs.research.endgame_kernel import KERNEL

        game = stairgames.load("stairs")
        state = game.state_from_position({position!r})
        agent = make_agent("alphabeta:time=5,endgame=0.5", state.current_player(), seed=0)
        cold = KERNEL.cold()
        said = []
        agent.prepare(game, on_compiling=lambda: said.append("preparing"))
        compiled = KERNEL.compiled_signatures()
        move = state.action_to_string(agent.act(state))
        print(json.dumps({{
            "cold": cold, "said": said, "move": move, "nodes": agent.nodes,
            "compiled_in_the_move": KERNEL.compiled_signatures() - compiled,
            "cold_after": KERNEL.cold(),
        }}))
    """
    cache = str(tmp_path / "numba-cache")
    first = json.loads(run_python(script, NUMBA_CACHE_DIR=cache))
    assert first["cold"] is True and first["said"] == ["preparing"]
    assert first["move"] in wins
    assert first["nodes"] == 0  # proven before any search
    assert first["compiled_in_the_move"] == 0
    assert first["cold_after"] is False
    again = json.loads(run_python(script, NUMBA_CACHE_DIR=cache))
    assert again["cold"] is False and again["said"] == []
    assert again["move"] in wins and again["nodes"] == 0


@pytest.mark.slow
def test_the_warm_up_leaves_nothing_to_compile_for_a_whole_game():
    """Every compiled function that the moves of a game call was compiled (or loaded)
    by the warm-up, in a process where nothing else compiled them before."""
    counts = run_python(
        """
        import random
        import stairgames
        from stairgames.agents import make_agent
        from stairgames.games.stairs.research.endgame_kernel import KERNEL as STAIRS
        from stairgames.games.twenty_seven.research.endgame_kernel import KERNEL as TWENTY_SEVEN

        for name, kernel in (("stairs", STAIRS), ("twenty_seven", TWENTY_SEVEN)):
            game = stairgames.load(name)
            players = [
                make_agent("mcts:iterations=40,endgame=1.0", 0, seed=1, game=game),
                make_agent("alphabeta:time=0.05,endgame=0.8", 1, seed=2, game=game),
            ]
            warmed = kernel.compiled_signatures()
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(players[state.current_player()].act(state))
            print(name, warmed, kernel.compiled_signatures())
        """
    )
    for line in counts.splitlines():
        name, warmed, after = line.split()
        assert int(warmed) > 0 and after == warmed, name


@pytest.mark.slow
def test_mcts_without_the_endgame_solver_warms_up_its_compiled_playout():
    """``mcts`` plays out with the compiled playout of Stairs and 27: preparing it
    compiles (or loads) the playout, so that its moves compile nothing."""
    counts = run_python(
        """
        import stairgames
        from stairgames.agents import make_agent
        from stairgames.games.stairs.research.endgame_kernel import KERNEL as STAIRS
        from stairgames.games.twenty_seven.research.endgame_kernel import KERNEL as TWENTY_SEVEN

        for name, kernel in (("stairs", STAIRS), ("twenty_seven", TWENTY_SEVEN)):
            game = stairgames.load(name)
            player = make_agent("mcts:iterations=30", 0, seed=1, game=game)
            warmed = kernel.compiled_signatures()
            player.act(game.new_initial_state())
            print(name, warmed, kernel.compiled_signatures())
        """
    )
    for line in counts.splitlines():
        name, warmed, after = line.split()
        assert int(warmed) > 0 and after == warmed, name


# ----- the numba cache follows the modules a kernel copies from -----------------


@pytest.mark.slow
def test_a_kernel_is_compiled_again_when_a_module_it_copies_from_changes(tmp_path):
    package = tmp_path / "tiny"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "rules.py").write_text("SIZE = 3\n")
    (package / "kernel.py").write_text(
        textwrap.dedent(
            """
            from stairgames.core.compiled import Kernel
            from tiny import rules

            KERNEL = Kernel(__name__, copies=(rules,))
            SIZE = rules.SIZE

            @KERNEL.compiled
            def size():
                return SIZE
            """
        )
    )
    script = """
        from tiny.kernel import KERNEL, size
        cold = KERNEL.cold()
        print(cold, size())
        KERNEL.warmed()
    """
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(tmp_path)}
    assert run_python(script, **env).split() == ["True", "3"]
    assert run_python(script, **env).split() == ["False", "3"]  # loaded from the cache
    cached = sorted(path.name for path in (tmp_path / "cache").rglob("kernel.size-*"))
    assert cached  # numba did keep it on disk
    (package / "rules.py").write_text("SIZE = 4  # the rules changed\n")
    # numba alone would load the code compiled with SIZE = 3 (kernel.py is unchanged)
    assert run_python(script, **env).split() == ["True", "4"]
    assert run_python(script, **env).split() == ["False", "4"]


@pytest.mark.slow
def test_a_kernel_that_changes_drops_what_the_kernels_it_copies_from_compiled_for_it(tmp_path):
    """A generic kernel (as :mod:`stairgames.core.uct`) compiled for a game kernel's
    functions keeps that code in its own cache files, keyed on its own source alone: a
    change to the game kernel drops them too (their stale entries once broke numba's
    saving of new ones), and every kernel warmed on the generic kernel's old files is
    cold again."""
    package = tmp_path / "tiny"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "generic.py").write_text(
        textwrap.dedent(
            """
            from stairgames.core.compiled import Kernel

            KERNEL = Kernel(__name__)

            @KERNEL.compiled
            def twice(step, x):
                return step(step(x))
            """
        )
    )
    game = """
        from stairgames.core.compiled import Kernel
        from tiny import generic

        KERNEL = Kernel(__name__, copies=(generic,))

        @KERNEL.compiled
        def step(x):
            return x {step}

        def run():
            return generic.twice(step, 1)
        """
    (package / "game.py").write_text(textwrap.dedent(game.format(step="+ 1")))
    (package / "other.py").write_text(textwrap.dedent(game.format(step="* 3")))
    script = """
        from tiny import game, other
        cold = game.KERNEL.cold(), other.KERNEL.cold()
        print(*cold, game.run(), other.run())
        game.KERNEL.warmed()
        other.KERNEL.warmed()
    """
    alone = """
        from tiny import {name}
        print({name}.KERNEL.cold(), {name}.run())
        {name}.KERNEL.warmed()
    """
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(tmp_path)}
    # compiled for the first time one after the other (as a fresh install's warm-ups),
    # neither drops what the other compiled
    assert run_python(alone.format(name="game"), **env).split() == ["True", "3"]
    assert run_python(alone.format(name="other"), **env).split() == ["True", "9"]
    assert run_python(script, **env).split() == ["False", "False", "3", "9"]
    generic_files = sorted(path.name for path in (tmp_path / "cache").rglob("generic.twice-*"))
    assert generic_files  # the generic function compiled for both games, on disk
    (package / "game.py").write_text(textwrap.dedent(game.format(step="+ 10")))
    dropped = """
        from tiny import generic, game
        print(sorted(path.name for path in generic.KERNEL.cache_dir().glob("generic.twice-*")))
    """
    assert run_python(dropped, **env).strip() == "[]"
    assert run_python(script, **env).split() == ["True", "True", "21", "9"]
    assert run_python(script, **env).split() == ["False", "False", "21", "9"]


def stairgames_imports(module: ModuleType) -> set[str]:
    """The stairgames modules that ``module``'s source imports, directly."""
    tree = ast.parse(Path(str(module.__file__)).read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.module.startswith("stairgames")
        ):
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                found.add(submodule if submodule in sys.modules else node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("stairgames"))
    return found


KERNELS = [
    stairs_kernel,
    stairs_learned_kernel,
    stairs_priors_kernel,
    twenty_seven_kernel,
    twenty_seven_retrograde_kernel,
    uct,
    ishigaki_kernel,
]


@pytest.mark.parametrize("module", KERNELS, ids=lambda m: m.__name__)
def test_every_module_a_kernel_copies_from_is_in_its_digest(module):
    kernel = module.KERNEL
    declared = {copied.__name__ for copied in kernel.copies}
    unseen = {module.__name__}
    seen: set[str] = set()
    while unseen:
        name = unseen.pop()
        seen.add(name)
        unseen |= stairgames_imports(sys.modules[name]) - seen
    assert seen - {module.__name__, "stairgames.core.compiled"} == declared
    names = {path.name for path in kernel.sources()}
    own = Path(str(module.__file__)).name
    assert names >= ({"compiled.py", "uct.py"} if module is uct else {own, "rules.py"})


def test_every_kernel_module_is_checked_above():
    found = {
        path.relative_to(SRC).with_suffix("").as_posix().replace("/", ".")
        for path in (SRC / "stairgames").rglob("*.py")
        if "Kernel(__name__" in path.read_text(encoding="utf-8") and path.name != "compiled.py"
    }
    assert found == {module.__name__ for module in KERNELS}
