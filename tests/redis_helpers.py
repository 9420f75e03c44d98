"""A Redis server of the tests' own (Debian's ``redis-server``), on loopback, in a
temporary folder, with nothing kept on disk; a test module makes a fixture of it. It
skips, saying why, where ``redis-server`` or the ``redis`` package is missing."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from stairgames.bench.postgresql import free_port
from tests.postgresql_helpers import DEADLINE, wait_for


@dataclass
class Redis:
    """A running ``redis-server`` (:func:`redis_server`): its address, and how to stop
    and start it again on the same port."""

    port: int
    folder: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary is not None
        self.process = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
                "--protected-mode",
                "yes",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(self.answers, DEADLINE, "redis-server answering")

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is not None:
            process.terminate()
            process.wait(timeout=DEADLINE)

    def answers(self) -> bool:
        try:
            return self.command("PING") is True
        except Exception:
            return False

    def command(self, *words: str) -> object:
        import redis

        with redis.Redis(port=self.port, decode_responses=True, socket_timeout=5) as client:
            return client.execute_command(*words)

    def kill_client(self, name: str) -> int:
        """End the connections named ``name`` from the server's side (as a restart or a
        network fault would); how many there were."""
        listed = str(self.command("CLIENT", "LIST"))
        ids = [
            field.split("=", 1)[1]
            for line in listed.splitlines()
            if f" name={name} " in f" {line} "
            for field in line.split()
            if field.startswith("id=")
        ]
        for client_id in ids:
            self.command("CLIENT", "KILL", "ID", client_id)
        return len(ids)


@contextlib.contextmanager
def redis_server() -> Iterator[Redis]:
    pytest.importorskip("redis", reason="the redis package is not installed (pip install redis)")
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (apt install redis-server): skipped")
    with tempfile.TemporaryDirectory(prefix="stairgames-redis-") as folder:
        server = Redis(port=free_port(), folder=Path(folder))
        server.start()
        try:
            yield server
        finally:
            server.stop()
