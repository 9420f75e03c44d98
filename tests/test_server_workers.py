"""Issue 33: ``stairgames serve --workers N``: N uvicorn worker processes on one port,
sharing PostgreSQL; SQLite refuses more than one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgresql_helpers import PostgreSQL, free_port, postgresql_server, wait_for
from tests.serve_helpers import ENTRY, play_online_game, serving, wait_ready


@pytest.fixture(scope="module")
def postgresql() -> Iterator[PostgreSQL]:
    with postgresql_server() as server:
        yield server


def worker_pids(parent: int) -> list[int]:
    """The uvicorn workers among ``parent``'s children (not multiprocessing's tracker)."""
    try:
        children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
    except OSError:
        return []
    workers = []
    for child in children:
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in command:
            workers.append(int(child))
    return sorted(workers)


@pytest.mark.slow
def test_sqlite_refuses_more_than_one_worker(tmp_path: Path) -> None:
    command = [sys.executable, "-c", ENTRY, "serve", "--workers", "2", "--data-dir", str(tmp_path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--workers above 1 needs PostgreSQL (--database-url)" in done.stderr


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
@pytest.mark.slow
def test_two_workers_serve_one_port_and_one_killed_is_replaced(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    port = free_port()
    arguments = ["--workers", "2", "--database-url", postgresql.libpq, "--computer-workers", "0"]
    with serving(tmp_path, port, arguments) as served:
        parent = served.process.pid
        wait_for(lambda: len(worker_pids(parent)) == 2, 60, "two workers")
        first = worker_pids(parent)
        ws_base = f"ws://127.0.0.1:{port}"
        assert play_online_game(served.url, ws_base, 6)["history"]
        os.kill(first[0], signal.SIGKILL)
        wait_for(
            lambda: len(worker_pids(parent)) == 2 and first[0] not in worker_pids(parent),
            60,
            "the killed worker replaced",
        )
        wait_ready(served.url)
        assert play_online_game(served.url, ws_base, 6)["history"]
        assert served.process.poll() is None
    assert served.process.returncode == 0


def _gone(pid: int) -> bool:
    """Whether ``pid`` has ended (reaped, or a zombie no one waits for)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux's /proc")
@pytest.mark.slow
def test_workers_end_with_a_supervisor_killed_outright_and_the_port_is_free(
    tmp_path: Path, postgresql: PostgreSQL
) -> None:
    """Issue 55: ``kill -9`` of the supervisor left its workers serving the port (and
    the next start failed: address in use)."""
    port = free_port()
    arguments = ["--workers", "2", "--database-url", postgresql.libpq, "--computer-workers", "1"]
    with serving(tmp_path / "first", port, arguments) as served:
        parent = served.process.pid
        wait_for(lambda: len(worker_pids(parent)) == 2, 60, "two workers")
        workers = worker_pids(parent)
        os.kill(parent, signal.SIGKILL)
        served.process.wait()
        wait_for(lambda: all(_gone(pid) for pid in workers), 60, "the workers ended")
    with serving(tmp_path / "again", port, arguments) as again:  # the port is free
        assert play_online_game(again.url, f"ws://127.0.0.1:{port}", 2)["history"]
