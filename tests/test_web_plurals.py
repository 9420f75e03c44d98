"""The page's counts through gettext's plurals, and the 14-day option (issue 51, item 6).

The front end says a count with its noun through ``ngettext`` (``web/static/i18n.js``):
each pair it uses is listed in ``stairgames.web.plurals`` (so that ``make messages``
extracts it as a plural), translated in the Japanese catalog and served by ``GET
/api/i18n/ja`` under its singular as the list of its forms. The correspondence days the
page offers are those the server takes, as docs/web.md says them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import stairgames
from stairgames.server.base.errors import ServerError
from stairgames.server.ops.pages import catalog_messages
from stairgames.server.play.clocks import CORRESPONDENCE_DAYS, parse_time_control
from stairgames.web.plurals import BROWSER_PLURALS

PACKAGE = Path(stairgames.__file__).parent
STATIC = PACKAGE / "web" / "static"
FRONT_END_FILES = [*sorted(STATIC.glob("*.js")), *sorted(PACKAGE.glob("games/*/view/*.js"))]
DOCS = PACKAGE.parent.parent / "docs" / "web.md"

_STRING = r'"((?:[^"\\]|\\.)*)"'
_NGETTEXT = re.compile(rf"\bngettext\(\s*{_STRING},\s*{_STRING}")
_T_OF_COUNT = re.compile(r'\bt\(\s*"([^"]*\{(?:count|days|minutes)\}[^"]*)"')


def front_end_plurals() -> set[tuple[str, str]]:
    """Every (singular, plural) of an ``ngettext`` call of the front end."""
    pairs: set[tuple[str, str]] = set()
    for path in FRONT_END_FILES:
        pairs |= set(_NGETTEXT.findall(path.read_text(encoding="utf-8")))
    return pairs


def test_every_plural_of_the_front_end_is_listed_for_the_catalog() -> None:
    assert front_end_plurals() == set(BROWSER_PLURALS)


def test_the_japanese_catalog_serves_each_plural_as_its_forms() -> None:
    served = catalog_messages("ja")
    for singular, _plural in BROWSER_PLURALS:
        forms = served.get(singular)
        assert isinstance(forms, list) and len(forms) == 1 and forms[0], (singular, forms)


def test_no_count_of_days_or_minutes_is_said_in_one_form_for_every_number() -> None:
    """No "1 days a move": a count of days, minutes or things said with ``t`` has no
    singular (counts that are no noun's, as "Spectators: {count}", are not caught)."""
    found = {
        text
        for path in FRONT_END_FILES
        for text in _T_OF_COUNT.findall(path.read_text(encoding="utf-8"))
        if re.search(r"\{(?:count|days|minutes)\} (?:days|minutes|players|moves)\b", text)
    }
    assert found == set()


def test_the_page_offers_the_correspondence_days_the_server_takes() -> None:
    text = (STATIC / "clocktext.js").read_text(encoding="utf-8")
    found = re.search(r"export const CORRESPONDENCE_DAYS = \[([\d, ]*)\]", text)
    assert found, "clocktext.js lists its days as CORRESPONDENCE_DAYS"
    offered = tuple(int(day) for day in found.group(1).split(","))
    assert offered == CORRESPONDENCE_DAYS == (1, 2, 3, 7, 14)


def test_docs_say_the_days_the_server_takes() -> None:
    days = ", ".join(str(day) for day in CORRESPONDENCE_DAYS[:-1])
    assert f"{days} or {CORRESPONDENCE_DAYS[-1]} days" in DOCS.read_text(encoding="utf-8")


@pytest.mark.parametrize("days", CORRESPONDENCE_DAYS)
def test_the_server_takes_each_correspondence_day(days: int) -> None:
    control = parse_time_control({"kind": "correspondence", "days": days})
    assert control.move_seconds == days * 86_400


@pytest.mark.parametrize("days", [0, 4, 10, 15, 30])
def test_the_server_refuses_other_days(days: int) -> None:
    with pytest.raises(ServerError):
        parse_time_control({"kind": "correspondence", "days": days})
