"""Every text the browser shows, by its message id (the English text).

The front end (``web/static/*.js``, ``index.html`` and each game's ``view/board.js``)
looks its texts up in the catalog that ``GET /api/i18n/{lang}`` serves. ``make messages``
extracts Python sources only, so the ids are listed in Python, marked with ``N_``: the
shared pages' here (:data:`SHARED_MESSAGES`), each game's in the module its registration
names (``GameSpec.browser_messages``, a ``view/messages.py``), gathered through the
registry into :data:`BROWSER_MESSAGES`. Tests in ``tests/test_web_ui.py`` check that
every id the front end uses is listed.
"""

from __future__ import annotations

from typing import Final

from stairgames.core.registry import browser_messages, game_names
from stairgames.i18n import N_

SHARED_MESSAGES: Final = (
    # the home page
    N_("Choose a game"),
    N_("Four board games of climbing and stacking, to play here against the computer or a friend."),
    N_("New game: {game}"),
    N_("about {minutes} minutes"),
    N_("{count} players"),
    N_("{low}–{high} minutes"),
    N_("{low}–{high} players"),
    N_(", "),
    N_("A friend online (invite link)"),
    N_("A person at this screen"),
    N_("Accept the offer"),
    N_("Allow"),
    N_("Ask for a takeback"),
    N_("Back"),
    N_("Board size (3 to 8 squares a side)"),
    N_("Card set"),
    N_("Card set {name} is ready."),
    N_("Characters (colours, comma-separated)"),
    N_("Checking the card file…"),
    N_("Copy"),
    N_("Decline the offer"),
    N_("Download the record"),
    N_("Draw"),
    N_("First"),
    N_("Game over"),
    N_("I am {name}: show my cards"),
    N_("Invite a friend with this link:"),
    N_("Invite link"),
    N_("Language"),
    N_("Last"),
    N_("Level"),
    N_("Move {n} of {total}"),
    N_("Moves"),
    N_("Next"),
    N_("Not connected; trying again…"),
    N_("Offer to end by agreement"),
    N_("Opponent"),
    N_("Options"),
    N_("Pass"),
    N_("Pass the device to {name}"),
    N_("Pie rule (the second player may swap colours)"),
    N_("Players"),
    N_("Reconnecting…"),
    N_("Refuse"),
    N_("Rematch"),
    N_("Resign"),
    N_("Resign this game?"),
    N_("Rules"),
    N_("Seats"),
    N_("Something went wrong."),
    # the player in the header (static/player.js)
    N_("Playing as"),
    N_("Anonymous {number}"),
    N_("You have no name yet"),
    N_("Change name"),
    N_("Choose a name"),
    N_("Your name"),
    N_("Save"),
    N_("Cancel"),
    N_("The server cannot be reached."),
    # the lobby (static/lobby.js)
    N_("Lobby"),
    N_("Open games waiting for players. Accept one to play, or open your own."),
    N_("No open games right now."),
    N_("Open a game"),
    N_("Game"),
    N_("People (the rest: the computer)"),
    N_("How many play"),
    N_("The computer's level"),
    N_("Rated"),
    N_("Open the game"),
    N_("{taken} of {seats} seats taken"),
    N_("rated"),
    N_("casual"),
    N_("by"),
    N_("Games being played"),
    N_("Watch"),
    N_("Ratings"),
    N_("Rating"),
    N_("Uncertainty"),
    N_("Rated games"),
    N_("No rated games yet."),
    N_("Recent games"),
    N_("Playing since {date}"),
    N_("no such player"),
    N_("Withdraw"),
    N_("Accept"),
    N_("{seat}: {player}"),
    # my games (static/mygames.js)
    N_("My games"),
    N_("No games yet."),
    N_("Previous"),
    N_("the computer"),
    N_("a free seat"),
    N_("Waiting for the others"),
    N_("Shared win"),
    N_("Won"),
    N_("Lost"),
    N_("against {names}"),
    N_("Page {page} of {pages}"),
    N_("Choose a name to keep your games."),
    N_("(1) Your turn"),
    N_("{count} waiting for your move"),
    N_("Set a password"),
    N_("Log in"),
    N_("Log out"),
    N_("New password"),
    N_("Name"),
    N_("Password"),
    N_("Spectators: {count}"),
    N_("Start"),
    N_("Swap colours"),
    N_("The computer"),
    N_("The computer ({level})"),
    N_("The computer is thinking…"),
    N_("The record could not be downloaded."),
    N_("Undo"),
    N_("Upload a card file (TOML)"),
    N_("Variant"),
    N_("You are watching this game."),
    N_("Who starts"),
    N_("You lose"),
    N_("You play"),
    N_("You win"),
    N_("Your move"),
    N_("Your opponent asks to take back the last move."),
    N_("Your opponent offers to end the game by agreement."),
    N_("at random"),
    N_("easy"),
    N_("expert"),
    N_("hard"),
    N_("medium"),
    N_("the default cards"),
    N_("{name} (you)"),
    N_("{name} joined"),
    N_("You share the win"),
    N_("{names} share the win"),
    N_("{name} left"),
    N_("{name} to move"),
    N_("{name} wins"),
    N_("{name} · computer"),
    N_("{name} · computer ({level})"),
    N_("{name} · not connected"),
    # the seats of the home page (and Ishigaki Race's board.js)
    N_(", "),
    N_("Crumbling wall (the −2 steps)"),
    N_("Players"),
    N_("Seats"),
    N_("The computer ({level})"),
    N_("Who plays {name}"),
    N_("{items} and {last}"),
    # issue 27: what new players ran into
    N_("You have no legal move: you must pass."),
    N_("You declined the offer to end by agreement."),
    N_("{name} declined the offer to end by agreement."),
    N_("You asked to take back your last move; waiting for the answer…"),
    N_("Your takeback was refused."),
    N_("{name} resigned and left; the computer ({level}) plays on for them."),
    N_("The players started a rematch."),
    N_("Watch the rematch"),
    N_("You offered a rematch; waiting for the others to accept…"),
    N_("Rematch offered by {names}."),
    N_("Accept the rematch"),
    N_("Decline the rematch"),
)
"""The message ids of the shared pages (``web/static``), and the level names the
pages translate from the server's data."""


def gather_browser_messages() -> tuple[str, ...]:
    """The shared pages' message ids, then each registered game's, once each."""
    gathered = [*SHARED_MESSAGES]
    for name in game_names():
        gathered.extend(browser_messages(name))
    return tuple(dict.fromkeys(gathered))


BROWSER_MESSAGES: Final = gather_browser_messages()
"""The message ids of the browser front end: the shared pages' and every game's."""
