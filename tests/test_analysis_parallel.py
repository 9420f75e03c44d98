"""The runner of large runs: in this process, over local processes and on Ray, with the
same results in task order; and the intervals of the balance studies."""

from __future__ import annotations

import json
import math
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
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


def ran_in_a_ray_worker(_task: int) -> bool:
    """Whether this task runs in a Ray worker process (not the driver, not a pool)."""
    ray = sys.modules.get("ray")
    return bool(
        ray is not None
        and ray.is_initialized()
        and ray.get_runtime_context().worker.mode == ray.WORKER_MODE
    )


def square_when_told(task: tuple[int, str | None]) -> int:
    """``number * number``; a task given a gate (a FIFO, see :class:`Gate`) first waits
    until it opens."""
    number, gate = task
    if gate is not None:
        reader = os.open(gate, os.O_RDONLY | os.O_NONBLOCK)
        try:
            ready, _, _ = select.select([reader], [], [], 120)
            assert ready, f"task {number} was never told to go on"
        finally:
            os.close(reader)
    return number * number


class Gate:
    """A FIFO that tasks wait on (:func:`square_when_told`, in any process of this
    machine) until :meth:`open` writes to it. It is held open for reading and writing
    here, so that neither side waits for the other to open it."""

    def __init__(self, folder: Path) -> None:
        self.path = str(folder / "gate")
        os.mkfifo(self.path)
        self._fd = os.open(self.path, os.O_RDWR | os.O_NONBLOCK)

    def open(self) -> None:
        os.write(self._fd, b"go\n")

    def close(self) -> None:
        os.close(self._fd)


def hearing(heard: list[int], gate: Gate) -> Callable[[int, object], None]:
    """An ``on_result`` that keeps the indices it hears of in ``heard`` and opens
    ``gate`` once it has heard of task 1."""

    def hear(index: int, _result: object) -> None:
        heard.append(index)
        if index == 1:
            gate.open()

    return hear


def test_results_come_back_in_task_order_in_this_process_and_over_processes(tmp_path):
    tasks = list(range(10))
    seen: list[tuple[int, int]] = []
    heard: list[int] = []
    alone = run_tasks(square_when_told, [(n, None) for n in tasks], jobs=1)
    gate = Gate(tmp_path)
    try:
        spread = run_tasks(
            square_when_told,
            [(n, gate.path if n == 0 else None) for n in tasks],  # 0 ends after 1
            jobs=2,
            progress=lambda d, t: seen.append((d, t)),
            on_result=hearing(heard, gate),
        )
    finally:
        gate.close()
    assert sorted(heard) == tasks and heard.index(1) < heard.index(0)  # out of order
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
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        preexec_fn=_hear_ctrl_c,
    )
    assert head.stdout is not None
    drain: threading.Thread | None = None
    try:
        drain = _wait_until_started(head)
        yield f"127.0.0.1:{port}"
    finally:
        _stop(head)
        if drain is not None:
            drain.join(timeout=30)  # its output ends with its processes
        head.stdout.close()
        shutil.rmtree(folder, ignore_errors=True)


def _hear_ctrl_c() -> None:
    """In the head node's process before it starts: Ctrl-C (SIGINT) back to its default,
    which a shell's background job (``make test &``, as CI may run it) inherits ignored;
    ignored, ``ray start --block`` would not hear :func:`_stop`'s Ctrl-C, and the
    module's teardown would wait its 30 s for the kill."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_until_started(head: subprocess.Popen[bytes]) -> threading.Thread:
    """Read what ``ray start`` prints until it says the runtime started (failing with
    what it printed if it ends first, or says nothing of it for 120 s): the thread that
    then reads the rest of its output and drops it (a full pipe would stall it)."""
    assert head.stdout is not None
    stream = head.stdout.fileno()
    printed = b""
    while b"Ray runtime started" not in printed:
        ready, _, _ = select.select([stream], [], [], 120)
        chunk = os.read(stream, 65536) if ready else b""
        if not chunk:
            said = printed.decode(errors="replace")
            pytest.fail(f"ray start did not start the runtime (exit {head.poll()}):\n{said}")
        printed += chunk
    drain = threading.Thread(target=head.stdout.read, daemon=True)
    drain.start()
    return drain


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
@pytest.mark.slow
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
@pytest.mark.slow
def test_run_tasks_on_a_ray_cluster_keeps_task_order(ray_cluster: str, tmp_path: Path):
    seen: list[int] = []
    heard: list[int] = []
    gate = Gate(tmp_path)
    try:
        results = run_tasks(
            square_when_told, [(n, gate.path if n == 0 else None) for n in range(8)],
            ray_address=ray_cluster, progress=lambda done, total: seen.append(done),
            on_result=hearing(heard, gate),
        )  # fmt: skip
    finally:
        gate.close()
    assert sorted(heard) == list(range(8)) and heard.index(1) < heard.index(0)
    assert results == [n * n for n in range(8)]
    assert seen == list(range(9))
    assert not parallel.import_ray().is_initialized()  # the connection was closed
    assert run_tasks(ran_in_a_ray_worker, [1, 2], ray_address=ray_cluster) == [True, True]
    assert run_tasks(ran_in_a_ray_worker, [1, 2], jobs=2) == [False, False]


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.slow
def test_each_result_is_heard_as_it_ends(jobs):
    heard: list[tuple[int, int]] = []
    results = run_tasks(abs, [-2, 3, -5], jobs=jobs, on_result=lambda i, r: heard.append((i, r)))
    assert results == [2, 3, 5]
    assert sorted(heard) == [(0, 2), (1, 3), (2, 5)]
