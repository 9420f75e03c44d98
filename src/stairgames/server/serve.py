"""``stairgames serve``: run the web app with uvicorn."""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stairgames.i18n import _

if TYPE_CHECKING:
    import uvicorn
    from fastapi import FastAPI

    from stairgames.server.base.settings import Settings

log = logging.getLogger(__name__)


def serve(argv: Sequence[str]) -> int:
    parser = serve_parser()
    args = parser.parse_args(argv)
    settings = serve_settings(args, parser)
    refused = _newer_database(settings)
    if refused is not None:
        print(f"stairgames serve: {refused}", file=sys.stderr)
        return 2
    start_warming(settings)  # the process runs on by itself, reaped when it ends
    if args.workers > 1:  # N processes on one port (server/workers.py)
        return _serve_workers(argv, args, parser, settings)

    from stairgames.server.app import create_app

    config = uvicorn_config(
        create_app(settings),
        args.host,
        args.port,
        settings,
        log_format=args.log_format,
        access_log=args.access_log,
        forwarded_allow_ips=args.forwarded_allow_ips,
    )
    _announcing_server(config, announce_line(args)).run()
    return 0


def _serve_workers(
    argv: Sequence[str],
    args: argparse.Namespace,
    parser: argparse.ArgumentParser,
    settings: Settings,
) -> int:
    """Run ``args.workers`` worker processes on ``args.host``:``args.port`` until stopped
    (:mod:`stairgames.server.workers`); each builds its app with :func:`worker_app`."""
    from stairgames.server import workers

    workers.refuse_without_postgresql(parser, settings)
    os.environ[workers.ARGV_VARIABLE] = json.dumps(list(argv))
    config = uvicorn_config(
        workers.WORKER_APP,
        args.host,
        args.port,
        settings,
        log_format=args.log_format,
        access_log=args.access_log,
        forwarded_allow_ips=args.forwarded_allow_ips,
        factory=True,
        workers=args.workers,
        http=workers.WORKER_PROTOCOL,
    )
    return workers.serve_workers(config, announce_line(args))


def worker_app() -> FastAPI:
    """The app of one worker process (``stairgames serve --workers N``): the parent's
    command line read again."""
    from stairgames.server.app import create_app
    from stairgames.server.base.lifetime import die_with_parent
    from stairgames.server.workers import ARGV_VARIABLE, SUPERVISOR_GONE_GRACE

    # The supervisor killed outright (kill -9): stop as if it had asked (SIGTERM), and
    # at most SUPERVISOR_GONE_GRACE seconds later in any case, so the port is free.
    die_with_parent(os.getppid(), signal.SIGTERM, grace=SUPERVISOR_GONE_GRACE)
    parser = serve_parser()
    args = parser.parse_args(json.loads(os.environ[ARGV_VARIABLE]))
    settings = dataclasses.replace(serve_settings(args, parser), metrics_worker=str(os.getpid()))
    app = create_app(settings)
    freeze_startup_objects()  # what the worker imported (its app starts after)
    return app


def start_warming(settings: Settings) -> subprocess.Popen[bytes] | None:
    """Start compiling every game's computer players' code in the background, where
    ``settings`` ask for it (:attr:`~stairgames.server.base.settings.Settings.warm_computers`):
    one process for all games, which checks itself what is still to compile, so that the
    server starts without waiting for it. A thread waits for it to end (:func:`reaped`),
    so that it does not stay behind as a defunct child."""
    if not settings.warm_computers:
        return None
    from stairgames.agents import warming

    process = warming.start_every_game()
    reaped(process)
    return process


def reaped(process: subprocess.Popen[bytes]) -> threading.Thread:
    """A thread (started, a daemon) that waits for ``process`` to end, so that the system
    forgets it then (a child never waited for stays a zombie as long as its parent
    lives), and logs its end if it failed."""

    def wait() -> None:
        code = process.wait()
        if code:
            log.warning("compiling the computer players' code ended with code %s", code)

    thread = threading.Thread(target=wait, name="stairgames-warm-up-reaper", daemon=True)
    thread.start()
    return thread


def announce_line(args: argparse.Namespace) -> str:
    """What ``stairgames serve`` prints once it listens (a JSON line with
    ``--log-format json``)."""
    announce = _("stairgames: open http://{host}:{port}/").format(host=args.host, port=args.port)
    if args.log_format == "json":
        from stairgames.server.base.logs import json_line

        return json_line(announce)
    return announce


def serve_parser() -> argparse.ArgumentParser:
    """``stairgames serve``'s options (each worker process reads them again)."""
    parser = argparse.ArgumentParser(
        prog="stairgames serve", description=_("Play in the browser: run the web app.")
    )
    parser.add_argument("--host", default="127.0.0.1", help=_("address to listen on"))
    parser.add_argument("--port", type=int, default=8000, help=_("port to listen on"))
    add_database_arguments(parser)
    parser.add_argument(
        "--computer-workers",
        type=int,
        default=1,
        help=_("processes the computer players think in (default: 1)"),
    )
    parser.add_argument(
        "--no-warm-up",
        action="store_true",
        help=_(
            "do not start compiling the computer players' code in the background when the "
            "server starts (the first games then compile it)"
        ),
    )
    parser.add_argument(
        "--no-client-limits",
        action="store_true",
        help=_(
            "lift the limits on what one address may do (matches, joins, messages, "
            "connections): for load tests from one machine, never for a public server"
        ),
    )
    parser.add_argument(
        "--fanout-url",
        default=None,
        help=_(
            "a Redis (redis://host:6379/0) whose pub/sub tells the server processes of one "
            "PostgreSQL database of each other's moves, instead of PostgreSQL's "
            "LISTEN/NOTIFY (docs/deploy.md)"
        ),
    )
    parser.add_argument(
        "--puzzles-from-games",
        action="store_true",
        help=_(
            "keep each finished game of a game with puzzles as a record in "
            "DATA_DIR/puzzle-records/, for `stairgames puzzles generate` (its positions "
            "may become public puzzles)"
        ),
    )
    from stairgames.server.mail.sending import add_mail_arguments

    add_mail_arguments(parser)  # --smtp-url, --mail-from, --public-url (server/mail/sending.py)
    from stairgames.server.workers import add_deployment_arguments

    add_deployment_arguments(parser)  # --workers, --log-format, ... (server/workers.py)
    return parser


def serve_settings(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Settings:
    """The app's settings that ``stairgames serve``'s options ask for."""
    from stairgames.server.base.settings import Settings
    from stairgames.server.mail.sending import mail_settings_of

    settings = Settings(
        data_dir=Path(args.data_dir),
        database_url=with_driver(args.database_url),
        computer_workers=max(0, args.computer_workers),
        warm_computers=not args.no_warm_up,
        puzzles_from_games=args.puzzles_from_games,
        fanout_url=args.fanout_url,
    )
    if args.fanout_url and not settings.shared():
        parser.error(_("--fanout-url needs a shared database (--database-url postgresql://...)"))
    if args.no_client_limits:
        settings = without_client_limits(settings)
    return dataclasses.replace(settings, mail=mail_settings_of(args, parser))


def _announcing_server(config: uvicorn.Config, announce: str) -> uvicorn.Server:
    """A uvicorn server that prints ``announce`` once it listens (not before: a script
    or a test waiting for the line can connect as soon as it reads it)."""
    import uvicorn

    class AnnouncingServer(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if self.started:
                freeze_startup_objects()
                print(announce, flush=True)

    return AnnouncingServer(config)


def freeze_startup_objects() -> None:
    """Leave what the process made to start (modules, the app, its tables) out of the
    garbage collector's full collections for good (``gc.freeze``). Measured under a
    thousand games (issue 33), each server's full collections walked all of it and
    stopped the event loop for 130-210 ms, seven or eight times in three minutes: most
    of the moves slower than 50 ms. Frozen, a full collection walks only what came
    after (the matches, the connections)."""
    import gc

    gc.collect()
    gc.freeze()


def add_database_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data-dir", default="data", help=_("folder of the SQLite database (default: data)")
    )
    parser.add_argument(
        "--database-url",
        default=None,
        help=_("a database instead of SQLite, e.g. postgresql+psycopg://user@host/db"),
    )


def _newer_database(settings: Settings) -> str | None:
    """Why this release must not start on the settings' database (a newer release
    migrated it), or ``None``; the database is only read."""
    from stairgames.server.base.store import make_engine
    from stairgames.server.migrations import NewerDatabaseError, current_revision, refuse_newer

    engine = make_engine(settings.url())
    try:
        found = current_revision(engine)
    except Exception:  # an unreachable database: the server's own start says so
        return None
    finally:
        engine.dispose()
    try:
        refuse_newer(found)
    except NewerDatabaseError as refused:
        return str(refused)
    return None


def db(argv: Sequence[str]) -> int:
    """``stairgames db current|upgrade|downgrade [REVISION]``: the web app's schema by hand
    (docs/deploy.md, "Upgrades and rollbacks")."""
    parser = argparse.ArgumentParser(
        prog="stairgames db",
        description=_("The web app's database schema: its revision, upgrades and rollbacks."),
    )
    parser.add_argument(
        "action",
        choices=["current", "upgrade", "downgrade"],
        help=_(
            "current: the revision the database is at; upgrade: to the newest (or REVISION); "
            "downgrade: one revision back (or to REVISION)"
        ),
    )
    parser.add_argument("revision", nargs="?", default=None, help=_("a revision, e.g. 0013"))
    add_database_arguments(parser)
    args = parser.parse_args(argv)
    from stairgames.server.base.settings import Settings
    from stairgames.server.base.store import make_engine
    from stairgames.server.migrations import (
        HEAD,
        NewerDatabaseError,
        current_revision,
        downgrade,
        known_revisions,
        upgrade,
    )

    if args.revision is not None and args.revision not in known_revisions():
        parser.error(
            _("unknown revision {revision}: this release knows {first} to {last}").format(
                revision=args.revision, first=known_revisions()[0], last=HEAD
            )
        )
    settings = Settings(data_dir=Path(args.data_dir), database_url=with_driver(args.database_url))
    engine = make_engine(settings.url())
    try:
        if args.action == "upgrade":
            upgrade(engine, args.revision or "head")
        elif args.action == "downgrade":
            downgrade(engine, args.revision or "-1")
        now = current_revision(engine)
    except NewerDatabaseError as refused:
        print(f"stairgames db: {refused}", file=sys.stderr)
        return 2
    finally:
        engine.dispose()
    print(_("the database is at revision {revision}").format(revision=now or _("none")))
    return 0


def ratings(argv: Sequence[str]) -> int:
    """``stairgames ratings rebuild``: every rating recomputed from the stored results."""
    parser = argparse.ArgumentParser(
        prog="stairgames ratings",
        description=_("Players' ratings on the web app's database."),
    )
    parser.add_argument(
        "action",
        choices=["rebuild"],
        help=_("rebuild: recompute every rating from the stored results of rated games"),
    )
    add_database_arguments(parser)
    args = parser.parse_args(argv)
    from stairgames.server.base.settings import Settings
    from stairgames.server.base.store import make_engine
    from stairgames.server.migrations import upgrade
    from stairgames.server.people.rating_store import RatingStore

    settings = Settings(data_dir=Path(args.data_dir), database_url=with_driver(args.database_url))
    engine = make_engine(settings.url())
    try:
        upgrade(engine)
        count = RatingStore(engine).rebuild()
    finally:
        engine.dispose()
    print(_("ratings rebuilt from {count} rated games").format(count=count))
    return 0


def without_client_limits(settings: Settings) -> Settings:
    """``settings`` where one address may do as much as a crowd (load tests from one
    machine): rates of requests and messages and the connections per client lifted;
    body sizes, header deadlines and computer budgets stay."""
    from stairgames.server.base.limits import Rate

    plenty = Rate(per_minute=1e9, burst=1e9)
    return dataclasses.replace(
        settings,
        matches_per_minute=plenty,
        joins_per_minute=plenty,
        card_uploads_per_minute=plenty,
        players_per_minute=plenty,
        logins_per_minute=plenty,
        puzzle_moves_per_minute=plenty,
        puzzles_per_minute=plenty,
        messages_per_second=1e9,
        message_burst=1e9,
        max_connections_per_client=1_000_000,
    )


def uvicorn_config(
    app: Any,
    host: str,
    port: int,
    settings: Settings,
    *,
    log_format: str | None = None,
    access_log: bool = False,
    forwarded_allow_ips: str | None = None,
    **more: Any,
) -> uvicorn.Config:
    """How ``stairgames serve`` runs ``app`` on uvicorn (the tests serve it the same way).

    ``log_format``: ``text`` or ``json`` (:func:`stairgames.server.base.logs.log_config`;
    ``None``, for tests: uvicorn's own set-up, warnings only); ``access_log``: a line for
    every request; ``forwarded_allow_ips``: the proxies whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed (``None``: no one's). ``more``: other options of
    ``uvicorn.Config`` (the workers')."""
    import uvicorn

    from stairgames.server.base import logs
    from stairgames.server.base.limits import header_timeout_protocol

    logging: dict[str, Any] = {"log_level": "warning"}
    if log_format is not None:
        logging = {"log_config": logs.log_config(log_format, access_log=access_log)}
    more.setdefault(
        "http",
        header_timeout_protocol(settings.header_timeout_seconds, settings.body_timeout_seconds),
    )
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws_max_size=64 * 1024,  # larger frames are cut off before they are read
        # The views are a few kilobytes: compressing every one of them cost the server
        # (and each browser) more time than the bytes it saved on a link.
        ws_per_message_deflate=False,
        access_log=access_log,
        # X-Forwarded-* from the configured proxies only (uvicorn's default: 127.0.0.1)
        proxy_headers=bool(forwarded_allow_ips),
        forwarded_allow_ips=forwarded_allow_ips or None,
        **logging,
        **more,
    )
    logs.install()  # no seat token in the access log (after uvicorn set its loggers up)
    return config


def with_driver(url: str | None) -> str | None:
    """``postgresql://`` means psycopg 3 (SQLAlchemy would pick psycopg2)."""
    if url is not None and url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url
