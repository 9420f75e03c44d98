"""``stairgames serve``: run the web app with uvicorn."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from stairgames.i18n import _


def serve(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="stairgames serve", description=_("Play in the browser: run the web app.")
    )
    parser.add_argument("--host", default="127.0.0.1", help=_("address to listen on"))
    parser.add_argument("--port", type=int, default=8000, help=_("port to listen on"))
    parser.add_argument(
        "--data-dir", default="data", help=_("folder of the SQLite database (default: data)")
    )
    parser.add_argument(
        "--database-url",
        default=None,
        help=_("a database instead of SQLite, e.g. postgresql+psycopg://user@host/db"),
    )
    parser.add_argument(
        "--computer-workers",
        type=int,
        default=1,
        help=_("processes the computer players think in (default: 1)"),
    )
    args = parser.parse_args(argv)
    import uvicorn

    from stairgames.server.app import Settings, create_app

    settings = Settings(
        data_dir=Path(args.data_dir),
        database_url=_with_driver(args.database_url),
        computer_workers=max(0, args.computer_workers),
    )
    print(_("stairgames: open http://{host}:{port}/").format(host=args.host, port=args.port))
    uvicorn.run(
        create_app(settings),
        host=args.host,
        port=args.port,
        log_level="warning",
        ws_max_size=64 * 1024,  # larger frames are cut off before they are read
        # The views are a few kilobytes: compressing every one of them cost the server
        # (and each browser) more time than the bytes it saved on a link.
        ws_per_message_deflate=False,
    )
    return 0


def _with_driver(url: str | None) -> str | None:
    """``postgresql://`` means psycopg 3 (SQLAlchemy would pick psycopg2)."""
    if url is not None and url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url
