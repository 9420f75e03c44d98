"""The runner of large runs: in this process, over local processes and on Ray, with the
same results in task order; and the intervals of the balance studies."""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from stairgames.analysis import parallel
from stairgames.analysis.parallel import run_tasks
from stairgames.analysis.statistics import (
    mean_interval,
    share_interval,
    student_t_quantile,
)
from stairgames.arena import run_arena
from stairgames.cli import main
from stairgames.core.errors import InvalidOptionError

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ROOT / "src"


def square_after_a_pause(number: int) -> int:
    """Later tasks end first, so that results come back out of order."""
    time.sleep(0.01 * (5 - number % 5))
    return number * number


def ran_in_a_ray_worker(_task: int) -> bool:
    """Whether this task runs in a Ray worker process (not the driver, not a pool)."""
    ray = sys.modules.get("ray")
    return bool(
        ray is not None
        and ray.is_initialized()
        and ray.get_runtime_context().worker.mode == ray.WORKER_MODE
    )


def test_results_come_back_in_task_order_in_this_process_and_over_processes():
    tasks = list(range(10))
    seen: list[tuple[int, int]] = []
    alone = run_tasks(square_after_a_pause, tasks, jobs=1)
    spread = run_tasks(
        square_after_a_pause, tasks, jobs=2, progress=lambda d, t: seen.append((d, t))
    )
    assert alone == spread == [n * n for n in tasks]
    assert seen == [(done, 10) for done in range(11)]


def test_no_tasks_give_no_results_and_progress_hears_of_zero():
    seen: list[tuple[int, int]] = []
    assert run_tasks(abs, [], jobs=2, progress=lambda d, t: seen.append((d, t))) == []
    assert seen == [(0, 0)]


def test_jobs_below_one_are_refused():
    with pytest.raises(InvalidOptionError, match="--jobs must be at least 1, got 0"):
        run_tasks(abs, [1], jobs=0)


def test_ray_address_without_ray_installed_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as if not installed
    with pytest.raises(InvalidOptionError, match=r"pip install 'stairgames\[ray\]'"):
        run_tasks(abs, [1], ray_address="127.0.0.1:6379")
    assert main(["arena", "stairs", "--players", "random,random", "--games", "1",
                 "--ray-address", "127.0.0.1:6379"]) == 2  # fmt: skip


def test_arena_over_processes_repeats_the_games_played_in_this_process():
    alone = run_arena("stairs", ["random", "greedy"], games=3, seed=4, jobs=1)
    spread = run_arena("stairs", ["random", "greedy"], games=3, seed=4, jobs=2)
    assert _without_clocks(alone.results) == _without_clocks(spread.results)


def _without_clocks(results: list[dict[str, object]]) -> list[dict[str, object]]:
    return [{k: v for k, v in r.items() if k not in ("seconds", "thinking")} for r in results]


# ----- intervals -------------------------------------------------------------------


def test_t_quantiles_match_the_printed_tables():
    for df, table in ((1, 12.706), (2, 4.303), (5, 2.571), (10, 2.228), (30, 2.042)):
        assert student_t_quantile(0.975, df) == pytest.approx(table, abs=5e-4)
    assert student_t_quantile(0.025, 10) == pytest.approx(-2.228, abs=5e-4)
    assert student_t_quantile(0.975, 10**6) == pytest.approx(1.95996, abs=1e-4)


def test_mean_interval_of_known_values():
    mean, low, high = mean_interval([1.0, 2.0, 3.0, 4.0])  # sd 1.291, t(3) 3.182
    assert mean == 2.5
    assert (low, high) == pytest.approx((2.5 - 2.0540, 2.5 + 2.0540), abs=1e-3)
    assert mean_interval([7.0, 7.0, 7.0]) == (7.0, 7.0, 7.0)
    one = mean_interval([3.0])
    assert one[0] == 3.0 and math.isinf(one[1]) and math.isinf(one[2])
    with pytest.raises(ValueError):
        mean_interval([])


def test_share_interval_is_wilsons_with_ties_split():
    rate, low, high = share_interval(90, 100)
    assert rate == 0.9 and (round(low, 3), round(high, 3)) == (0.826, 0.945)
    rate, low, high = share_interval(2.5, 5)  # a tie counted as half a win
    assert rate == 0.5 and low < 0.5 < high and low == pytest.approx(1 - high)


# ----- a real Ray cluster ------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[str]:
    """A Ray head node of this machine (2 CPUs, small object store) in a temporary
    folder, stopped afterwards by ending the process group it was started in; one for
    the tests of this file."""
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'stairgames[ray]')")
    ray_command = shutil.which("ray", path=os.path.dirname(sys.executable))
    if ray_command is None:
        pytest.skip("Ray's 'ray' command is not beside this Python")
    port = _free_port()
    folder = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # Ray's socket paths must stay short
    environment = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(SOURCES), str(ROOT), os.environ.get("PYTHONPATH", "")]),
        RAY_USAGE_STATS_ENABLED="0",
    )
    head = subprocess.Popen(
        [
            ray_command,
            "start",
            "--head",
            "--block",
            f"--port={port}",
            "--num-cpus=2",
            "--num-gpus=0",
            "--object-store-memory=80000000",
            "--include-dashboard=false",
            "--disable-usage-stats",
            f"--temp-dir={folder}",
        ],
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        _wait_for_port(port, head)
        yield f"127.0.0.1:{port}"
    finally:
        _stop(head)
        shutil.rmtree(folder, ignore_errors=True)


def _wait_for_port(port: int, head: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if head.poll() is not None:
            pytest.fail(f"ray start ended early with status {head.returncode}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.5)
    pytest.fail("the Ray head node did not open its port within 60 s")


def _stop(head: subprocess.Popen[bytes]) -> None:
    """End the head node and everything it started (its own process group): Ctrl-C,
    which ``ray start --block`` answers by stopping its processes (in about 2 s)."""
    try:
        os.killpg(head.pid, signal.SIGINT)
        head.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(head.pid, signal.SIGKILL)
        head.wait()
    except ProcessLookupError:
        pass


@pytest.mark.ray
def test_arena_on_a_ray_cluster_gives_the_results_of_local_processes(
    ray_cluster: str, tmp_path: Path
):
    common = ["arena", "stairs", "--players", "random,greedy", "--games", "3", "--seed", "11"]
    assert main([*common, "--jobs", "2", "--out", str(tmp_path / "local.json")]) == 0
    assert main([*common, "--ray-address", ray_cluster, "--out", str(tmp_path / "ray.json")]) == 0
    local = json.loads((tmp_path / "local.json").read_text())["results"]
    on_ray = json.loads((tmp_path / "ray.json").read_text())["results"]
    assert len(on_ray) == 3
    assert _without_clocks(on_ray) == _without_clocks(local)


@pytest.mark.ray
def test_run_tasks_on_a_ray_cluster_keeps_task_order(ray_cluster: str):
    seen: list[int] = []
    results = run_tasks(
        square_after_a_pause, list(range(8)), ray_address=ray_cluster,
        progress=lambda done, total: seen.append(done),
    )  # fmt: skip
    assert results == [n * n for n in range(8)]
    assert seen == list(range(9))
    assert not parallel.import_ray().is_initialized()  # the connection was closed
    assert run_tasks(ran_in_a_ray_worker, [1, 2], ray_address=ray_cluster) == [True, True]
    assert run_tasks(ran_in_a_ray_worker, [1, 2], jobs=2) == [False, False]


@pytest.mark.parametrize("jobs", [1, 2])
def test_each_result_is_heard_as_it_ends(jobs):
    heard: list[tuple[int, int]] = []
    results = run_tasks(abs, [-2, 3, -5], jobs=jobs, on_result=lambda i, r: heard.append((i, r)))
    assert results == [2, 3, 5]
    assert sorted(heard) == [(0, 2), (1, 3), (2, 5)]
