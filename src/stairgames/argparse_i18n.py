"""argparse in the player's language: its own words ("usage:", "options:", "show this help
message and exit", its errors) and help that wraps Japanese within the terminal.

argparse looks its words up at run time through the module globals ``argparse._`` and
``argparse.ngettext`` (gettext). :func:`argparse_in_current_language` points them at
:mod:`stairgames.i18n` while the command line runs, so they come from stairgames'
catalogs; :data:`ARGPARSE_MESSAGES` lists the words a player can meet, marked for
extraction so that ``make messages`` keeps them in the catalogs. Messages argparse
gives only for a programmer's mistake (``conflicting option string``) stay English, as
does any word a later Python adds until it is listed here (a test names it).

:class:`HelpFormatter` wraps help by display width (a Japanese character takes two
columns), aligns a usage whose translated prefix (``使い方: ``) is wider than it is
long, and ends section titles as the catalog's ``%(heading)s:`` says (``オプション：``)
on Pythons before 3.13 too, where argparse writes the ``:`` itself.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from stairgames import i18n
from stairgames.i18n import N_, display_width, wrap

ARGPARSE_MESSAGES = (
    # help
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    # errors
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("unexpected option string: %s"),
    # Python 3.13 and later
    N_("%(heading)s:"),
    N_(" (default: %(default)s)"),
    N_("show program's version number and exit"),
    N_("subcommands"),
    N_("%(prog)s: warning: %(message)s\n"),
    N_("argument '%(argument_name)s' is deprecated"),
    N_("option '%(option)s' is deprecated"),
    N_("command '%(parser_name)s' is deprecated"),
    # Python 3.14 and later
    N_("invalid choice: %(value)r, maybe you meant %(closest)r? (choose from %(choices)s)"),
)
"""argparse's words a player can meet, as argparse's own message ids (``%``-formats)."""


def _gettext(message: str) -> str:
    # argparse also asks for ``_(None)`` (a subparser group without a description)
    return i18n._(message) if message else message


@contextlib.contextmanager
def argparse_in_current_language() -> Iterator[None]:
    """While inside, argparse's own words are in the current language (chosen with
    :func:`stairgames.i18n.set_language`, read each time a word is needed); they are put
    back as they were on leaving, exceptions (``SystemExit`` from ``--help``) included.

    Parsers must be built inside too: argparse translates its group titles
    ("options") when a parser is made.
    """
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._ = _gettext  # type: ignore[attr-defined]
    argparse.ngettext = i18n.ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help, wrapped by display width where a text has wide characters
    (Japanese characters take two columns, and lines may break between them), with a usage
    aligned under a wide prefix. Text without wide characters is laid out by argparse."""

    _spaces = re.compile(r"\s+")

    if sys.version_info < (3, 13):

        class _Section(argparse.HelpFormatter._Section):
            """A section whose title ends as the catalog says (Python 3.13 asks for
            ``%(heading)s:`` itself; earlier ones write ``heading:``)."""

            def format_help(self) -> str:
                text = super().format_help()
                heading = self.heading
                if not text or heading is None or heading == argparse.SUPPRESS:
                    return text
                indent = " " * self.formatter._current_indent
                plain = f"\n{indent}{heading}:\n"
                if not text.startswith(plain):
                    return text
                title = i18n._("%(heading)s:") % {"heading": heading}
                return f"\n{indent}{title}\n" + text[len(plain) :]

    def _split_lines(self, text: str, width: int) -> list[str]:
        if not _has_wide_characters(text):
            return super()._split_lines(text, width)
        return wrap(self._spaces.sub(" ", text).strip(), width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if not _has_wide_characters(text):
            return super()._fill_text(text, width, indent)
        text = self._spaces.sub(" ", text).strip()
        return "\n".join(wrap(text, width, indent=indent, subsequent_indent=indent))

    def _format_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[Any],
        prefix: str | None,
    ) -> str:
        """argparse lines up the usage's later lines under the program's name by counting
        characters: lay it out with a stand-in prefix of the translated one's width, then
        put the translated one in its place."""
        if prefix is None:
            prefix = i18n._("usage: ")
        if not _has_wide_characters(prefix):
            return super()._format_usage(usage, actions, groups, prefix)
        stand_in = " " * display_width(prefix)
        text = super()._format_usage(usage, actions, groups, stand_in)
        return text.replace(stand_in, prefix, 1)


def _has_wide_characters(text: str) -> bool:
    return display_width(text) != len(text)


__all__ = ["ARGPARSE_MESSAGES", "HelpFormatter", "argparse_in_current_language"]
