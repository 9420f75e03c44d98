"""``stairgames moderate``: what players reported, and a moderator's two acts on the web
app's database (docs/deploy.md, "Moderating"; :mod:`stairgames.server.people.blocks`).

Without an act it lists the newest reports, the newest first; ``--rename OLD NEW`` gives
a player another name (theirs is freed, whatever their rated games); ``--disable NAME``
ends every session of a player and removes their password, so that nobody can log in or
act as them again. The database is found as ``stairgames serve`` finds it
(``--data-dir``, ``--database-url``), and brought to the newest schema first.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from stairgames.i18n import _
from stairgames.server.serve import add_database_arguments, with_driver

if TYPE_CHECKING:
    from stairgames.server.people.blocks import Moderation


def moderate_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stairgames moderate",
        description=_(
            "Players' reports, and renaming or disabling a player, on the web app's database."
        ),
    )
    parser.add_argument(
        "--rename", nargs=2, metavar=("OLD", "NEW"), help=_("give the player OLD the name NEW")
    )
    parser.add_argument(
        "--disable",
        metavar="NAME",
        help=_("end every session of the player NAME and remove their password"),
    )
    add_database_arguments(parser)
    return parser


def moderate(argv: Sequence[str]) -> int:
    """``stairgames moderate [--rename OLD NEW] [--disable NAME]``: its exit status.

    :raises StairgamesError: no such player, or a name refused or taken.
    """
    args = moderate_parser().parse_args(argv)
    from stairgames.server.base.settings import Settings
    from stairgames.server.base.store import make_engine
    from stairgames.server.migrations import upgrade
    from stairgames.server.people.blocks import Moderation
    from stairgames.server.people.players import clean_name

    settings = Settings(data_dir=Path(args.data_dir), database_url=with_driver(args.database_url))
    engine = make_engine(settings.url())
    try:
        upgrade(engine)
        moderation = Moderation(engine)
        if args.rename:
            old, new = args.rename
            moderation.rename(old, clean_name(new))
            print(_("{old} is now called {new}").format(old=old, new=new.strip()))
        if args.disable:
            moderation.disable(args.disable)
            print(_("{name} is disabled").format(name=args.disable))
        if not args.rename and not args.disable:
            _print_reports(moderation)
    finally:
        engine.dispose()
    return 0


def _print_reports(moderation: Moderation) -> None:
    reports = moderation.reports()
    if not reports:
        print(_("no reports"))
    for report in reports:
        about = " ".join(
            part
            for part in (
                f"/m/{report.match_id}" if report.match_id else "",
                f"#{report.message_id}" if report.message_id is not None else "",
            )
            if part
        )
        by = report.reporter or "?"
        line = _("{at} {reporter} reported {reported}").format(
            at=report.at.isoformat(timespec="minutes"), reporter=by, reported=report.reported
        )
        print(f"{line} {about}".rstrip())
        print(f"    {report.text}")
    disabled = moderation.disabled()
    if disabled:
        print(_("disabled: {names}").format(names=", ".join(disabled)))


__all__ = ["moderate", "moderate_parser"]
