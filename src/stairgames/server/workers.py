"""``stairgames serve --workers N``: N server processes on one port, and the options a
deployment sets (``--log-format``, ``--access-log``, ``--forwarded-allow-ips``).

The workers are uvicorn's (``uvicorn.supervisors.Multiprocess``): the parent binds the
port, starts N worker processes that accept on it (the kernel hands each new connection
to one of them), starts again one that dies, and stops them all on SIGINT or SIGTERM.
Each worker builds its own app from the same command line
(:func:`stairgames.server.serve.worker_app`, an import string uvicorn calls in the
worker; the options travel in the environment,
:data:`ARGV_VARIABLE`), with its own connections to the database, its own fan-out
listener (:mod:`stairgames.server.play.fanout`) and its own pool of computer players.

What is per process and what is shared (``docs/deploy.md`` says it for operators):

- shared through PostgreSQL: the matches and their events (two writes of one event
  collide: one is refused), players, sessions, the lobby, ratings, clocks, chat, mail;
  the views of a match reach every worker's watchers through the fan-out;
- per process: the per-client limits (rates of requests and WebSocket messages,
  connections per client, spectators per match): with N workers one client may get up
  to N times each, depending on which worker takes each connection. A public site puts
  a proxy in front that limits per client for all workers together (``docs/deploy.md``:
  nginx's ``limit_req`` and ``limit_conn``);
- the computer players: each worker has its own pool (``--computer-workers`` processes
  each); a worker thinks only for the matches it serves, those whose change it committed
  (a person's move through one of its connections) or that a connection opened on it;
  another worker's change reaching it through the fan-out never makes it think.

Workers end with their supervisor, even when it is killed outright (``kill -9``): each
is sent SIGTERM when it dies (Linux's ``PR_SET_PDEATHSIG``, and a watchdog thread
everywhere; :mod:`stairgames.server.base.lifetime`), so the port is free for the next
start, and their computer players' processes end with them.

SQLite takes one server process: ``--workers`` above 1 without ``--database-url`` is
refused.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from stairgames.i18n import _

if TYPE_CHECKING:
    import uvicorn

    from stairgames.server.base.settings import Settings

ARGV_VARIABLE = "STAIRGAMES_SERVE_ARGV"
"""The environment variable the parent gives its workers ``stairgames serve``'s options
in (a JSON list)."""
WORKER_APP = "stairgames.server.serve:worker_app"
"""The import string of one worker's app, which uvicorn calls in each worker."""
WORKER_PROTOCOL = f"{__name__}:HeaderTimeoutProtocol"
"""The import string of the workers' HTTP protocol (:func:`__getattr__`)."""
SUPERVISOR_GONE_GRACE = 10.0
"""Seconds a worker whose supervisor died outright (``kill -9``) is given to stop
gracefully (it is sent SIGTERM at once) before it ends anyway."""
READY_SECONDS = 180.0
"""How long the parent waits for each worker to start before it says where to connect."""


def add_deployment_arguments(parser: argparse.ArgumentParser) -> None:
    """``--workers``, ``--log-format``, ``--access-log``, ``--forwarded-allow-ips``."""
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help=_("server processes sharing the port (PostgreSQL only; default: 1)"),
    )
    parser.add_argument(
        "--log-format",
        choices=["text", "json"],
        default="text",
        help=_("the logs' format: text, or one JSON object a line (default: text)"),
    )
    parser.add_argument(
        "--access-log",
        action="store_true",
        help=_("write a line for every request to the log (secrets removed)"),
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default=None,
        help=_(
            "the reverse proxies whose X-Forwarded-For and X-Forwarded-Proto headers are "
            "believed: addresses or networks, comma-separated (default: none)"
        ),
    )


def refuse_without_postgresql(parser: argparse.ArgumentParser, settings: Settings) -> None:
    """Stop with a usage error when ``--workers`` above 1 has no shared database."""
    if not settings.shared():
        parser.error(
            _(
                "--workers above 1 needs PostgreSQL (--database-url): "
                "SQLite takes one server process"
            )
        )


def serve_workers(config: uvicorn.Config, announce: str) -> int:
    """Run the worker processes of ``config`` (made by :func:`stairgames.server.serve.serve`
    with :data:`WORKER_APP` and :data:`WORKER_PROTOCOL`) until stopped; print ``announce``
    once every worker is ready."""
    from uvicorn.supervisors.multiprocess import Multiprocess

    class AnnouncingWorkers(Multiprocess):
        def init_processes(self) -> None:
            super().init_processes()
            if all(p.wait_until_ready(READY_SECONDS, self.should_exit) for p in self.processes):
                print(announce, flush=True)

    AnnouncingWorkers(config, sockets=[config.bind_socket()]).run()
    return 0


def __getattr__(name: str) -> Any:
    """``HeaderTimeoutProtocol``: the workers' HTTP protocol (uvicorn imports it by name
    in each worker: a class made at run time cannot be sent to another process)."""
    if name == "HeaderTimeoutProtocol":
        from stairgames.server.base.limits import header_timeout_protocol
        from stairgames.server.base.settings import Settings

        return header_timeout_protocol(Settings.header_timeout_seconds)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ARGV_VARIABLE",
    "SUPERVISOR_GONE_GRACE",
    "WORKER_APP",
    "WORKER_PROTOCOL",
    "add_deployment_arguments",
    "refuse_without_postgresql",
    "serve_workers",
]
