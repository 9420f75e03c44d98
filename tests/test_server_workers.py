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
