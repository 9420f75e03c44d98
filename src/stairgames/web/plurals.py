"""Every plural text the browser shows, by its two English forms (issue 51).

The front end says a count with its noun through ``ngettext(singular, plural, n, args)``
(``web/static/i18n.js``): "1 day a move", "2 days a move". ``GET /api/i18n/{lang}`` serves
such a message under its singular with the list of its forms (one in Japanese). ``make
messages`` extracts the pairs from the ``deferred.ngettext`` calls here;
a game's board says its own through ``ui.ngettext``, listed with its message ids
(``GameSpec.browser_messages``) and gathered here through the registry;
``tests/test_web_plurals.py`` checks that the front end's calls and this list agree.
"""

from __future__ import annotations

from typing import Final

from stairgames.core.registry import browser_plurals, game_names
from stairgames.i18n import deferred

SHARED_PLURALS: Final = (
    # the home page (static/pagetext.js)
    deferred.ngettext("{count} player", "{count} players"),
    deferred.ngettext("about {minutes} minute", "about {minutes} minutes"),
    # time controls (static/clocktext.js)
    deferred.ngettext("Correspondence, {days} day a move", "Correspondence, {days} days a move"),
    deferred.ngettext("{days} day a move", "{days} days a move"),
    # the computer's analysis (static/analysis.js)
    deferred.ngettext(
        "{proven} of {count} move proven exactly.", "{proven} of {count} moves proven exactly."
    ),
    # the puzzles (static/puzzles.js)
    deferred.ngettext("{count} time", "{count} times"),
    deferred.ngettext("{count} solved", "{count} solved"),
    # the tournaments (static/tournaments.js)
    deferred.ngettext("{count} minute", "{count} minutes"),
    deferred.ngettext("{count} round", "{count} rounds"),
)
"""The plural messages of the shared pages: (singular, plural), the singular the message
id."""


def gather_browser_plurals() -> tuple[tuple[str, str], ...]:
    """The shared pages' plurals, then each registered game's board's, once each."""
    gathered = [*SHARED_PLURALS]
    for name in game_names():
        gathered.extend(browser_plurals(name))
    return tuple(dict.fromkeys(gathered))


BROWSER_PLURALS: Final = gather_browser_plurals()
"""The plural messages of the front end: the shared pages' and every game's board's."""
