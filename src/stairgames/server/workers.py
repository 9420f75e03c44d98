"""``stairgames serve --workers N``: N server processes on one port, and the options a
deployment sets (``--log-format``, ``--access-log``, ``--forwarded-allow-ips``).

The workers are uvicorn's (``uvicorn.supervisors.Multiprocess``): the parent binds the
port, starts N worker processes that accept on it (the kernel hands each new connection
to one of them), starts again one that dies, and stops them all on SIGINT or SIGTERM.
Each worker builds its own app from the same command line (:func:`worker_app`, an
import string uvicorn calls in the worker; the options travel in the environment,
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

SQLite takes one server process: ``--workers`` above 1 without ``--database-url`` is
refused.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from stairgames.i18n import _

if TYPE_CHECKING:
    from fastapi import FastAPI

    from stairgames.server.app import Settings

ARGV_VARIABLE = "STAIRGAMES_SERVE_ARGV"
"""The environment variable the parent gives its workers ``stairgames serve``'s options
in (a JSON list)."""
WORKER_APP = f"{__name__}:worker_app"
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


def serve_workers(
    argv: Sequence[str],
    args: argparse.Namespace,
    parser: argparse.ArgumentParser,
    settings: Settings,
) -> int:
    """Run ``args.workers`` worker processes on ``args.host``:``args.port`` until stopped."""
    if not settings.shared():
        parser.error(
            _(
                "--workers above 1 needs PostgreSQL (--database-url): "
                "SQLite takes one server process"
            )
        )
    from uvicorn.supervisors.multiprocess import Multiprocess

    from stairgames.server.serve import announce_line, uvicorn_config

    os.environ[ARGV_VARIABLE] = json.dumps(list(argv))
    config = uvicorn_config(
        WORKER_APP,
        args.host,
        args.port,
        settings,
        log_format=args.log_format,
        access_log=args.access_log,
        forwarded_allow_ips=args.forwarded_allow_ips,
        factory=True,
        workers=args.workers,
        http=f"{__name__}:HeaderTimeoutProtocol",
    )
    announce = announce_line(args)

    class AnnouncingWorkers(Multiprocess):
        def init_processes(self) -> None:
            super().init_processes()
            if all(p.wait_until_ready(READY_SECONDS, self.should_exit) for p in self.processes):
                print(announce, flush=True)

    AnnouncingWorkers(config, sockets=[config.bind_socket()]).run()
    return 0


def worker_app() -> FastAPI:
    """The app of one worker process: the parent's command line read again."""
    from stairgames.server.app import create_app
    from stairgames.server.serve import freeze_startup_objects, serve_parser, serve_settings

    parser = serve_parser()
    args = parser.parse_args(json.loads(os.environ[ARGV_VARIABLE]))
    app = create_app(serve_settings(args, parser))
    freeze_startup_objects()  # what the worker imported (its app starts after)
    return app


def __getattr__(name: str) -> Any:
    """``HeaderTimeoutProtocol``: the workers' HTTP protocol (uvicorn imports it by name
    in each worker: a class made at run time cannot be sent to another process)."""
    if name == "HeaderTimeoutProtocol":
        from stairgames.server.app import Settings
        from stairgames.server.base.limits import header_timeout_protocol

        return header_timeout_protocol(Settings.header_timeout_seconds)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ARGV_VARIABLE", "add_deployment_arguments", "serve_workers", "worker_app"]
