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
    N_("{low}–{high} minutes"),
    N_("{low}–{high} players"),
    N_(", "),
    N_("none"),
    N_("{label}: {value}"),
    N_("A friend online (invite link)"),
    N_("A person at this screen"),
    N_("Allow"),
    N_("Ask for a takeback"),
    N_("Back"),
    N_("Copy"),
    N_("Download the record"),
    N_("Draw"),
    N_("Game aborted"),
    N_("Ratings: {changes}"),
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
    N_("Not connected: your move is sent once the connection is back"),
    N_("Your move was not sent: the game went on meanwhile"),
    N_("Offer to end by agreement"),
    N_("Opponent"),
    N_("Options"),
    N_("Pass the device to {name}"),
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
    N_("Going on"),
    N_("Aborted"),
    N_("against {names}"),
    N_("Page {page} of {pages}"),
    N_("Choose a name to keep your games."),
    N_("Hide"),
    N_("Show"),
    N_("Hidden games ({count})"),
    N_("Back to My games"),
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
    N_("The computer"),
    N_("The computer ({level})"),
    N_("The computer is thinking…"),
    N_(
        "The computer is getting ready (compiling, first time only); until then it "
        "plays a quicker, weaker search."
    ),
    N_(
        "The computer ({level}) is getting ready (compiling, first time only); until then "
        "a stand-in plays for it, about as strong as {like}."
    ),
    N_(
        "The computer ({level}) is getting ready (compiling, first time only); until then "
        "a stand-in plays for it, stronger than {above} and weaker than {below}."
    ),
    N_(
        "The computer ({level}) is getting ready (compiling, first time only); until then "
        "a quicker, weaker stand-in plays for it."
    ),
    N_("The record could not be downloaded."),
    N_("Undo"),
    N_("You are watching this game."),
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
    N_("Seats"),
    N_("The computer ({level})"),
    N_("Who plays {name}"),
    N_("{items} and {last}"),
    # the home page: an option of kind "file" whose game gives no words of its own
    # (static/pagetext.js fileWords)
    N_("no file"),
    N_("Upload a file"),
    N_("Checking the file…"),
    N_("{name} is ready."),
    # issue 27: what new players ran into
    N_("You asked to take back your last move; waiting for the answer…"),
    N_("Your takeback was refused."),
    N_("{name} resigned and left; the computer ({level}) plays on for them."),
    N_("The players started a rematch."),
    N_("Watch the rematch"),
    N_("You offered a rematch; waiting for the others to accept…"),
    N_("Rematch offered by {names}."),
    N_("Accept the rematch"),
    N_("Decline the rematch"),
    # issue 30: clocks and being told
    N_("Clock"),
    N_("No clock"),
    N_("no clock"),
    N_("Real time {clock}"),
    N_("{days} d {hours} h left"),
    N_("{hours} h {minutes} min left"),
    N_("Sound on my turn"),
    N_("Notify me when it is my turn"),
    N_("Your takeback was accepted."),
    N_("Nobody answered your takeback in time."),
    # issue 53: API tokens on the account page (static/accounttokens.js, account.html) and
    # the BOT mark (static/botmark.js)
    N_("API tokens"),
    N_(
        "A token lets a program act as you through the API (a bot, say): whoever holds it"
        " can, so keep it secret."
    ),
    N_("What it is for"),
    N_("Play as a bot (bot:play)"),
    N_("Open and answer challenges (challenge:write)"),
    N_("Read (read)"),
    N_("Create a token"),
    N_("Your new token, shown this once: copy it now."),
    N_("No tokens yet."),
    N_("Revoke"),
    N_("last used {day}"),
    N_("never used"),
    N_("made {day}"),
    N_("BOT"),
    N_("a program playing through the API"),
    # issue 30: e-mail: the account page and the pages of mailed links (static/account.js,
    # account.html, confirm-email.html, unsubscribe.html, reset-password.html)
    N_("Forgot your password?"),
    N_("Your account"),
    N_("Back to the games"),
    N_("Confirm your e-mail address"),
    N_("Press the button to confirm this address for stairgames."),
    N_("Confirm"),
    N_(
        "Your address is confirmed: stairgames tells you by e-mail when a correspondence"
        " game waits for your move."
    ),
    N_("This link is no longer valid."),
    N_("Stop turn e-mails"),
    N_("Press the button to stop the e-mails stairgames sends when a game waits for your move."),
    N_("Stop the e-mails"),
    N_("You will get no more turn e-mails. You can turn them on again on your account page."),
    N_("Choose a new password"),
    N_(
        "Your new password is set, and every other browser was logged out. Log in with it on"
        " the home page."
    ),
    N_("This server sends no e-mail."),
    N_(
        "Only a player with a password can give an e-mail address: set one (or log in) on"
        " the home page."
    ),
    N_("E-mail"),
    N_("E-mail address"),
    N_("Remove the address"),
    N_("Only you and the server see this address."),
    N_("A confirmation e-mail is on its way: open its link."),
    N_("Not confirmed yet: look for our e-mail."),
    N_("Confirmed."),
    N_("E-mail me when a correspondence game waits for my move (at most one an hour)"),
    N_("That is not an e-mail address."),
    N_("Send me a link"),
    N_(
        "If that player has a confirmed e-mail address, a link to choose a new password is"
        " on its way."
    ),
    # issue 54: web push on the account page (static/push.js, account.html)
    N_("Notifications on this device"),
    N_(
        "Get a notification on this device when it is your turn, a game of yours ends or"
        " someone challenges you, even with the site closed."
    ),
    N_("This browser cannot receive notifications."),
    N_("Turn on notifications"),
    N_("Turn off notifications"),
    N_("Notifications are blocked for this site: allow them in the browser's settings."),
    N_("Notifications are on for this device."),
    N_("Notifications are off for this device."),
    # issue 54: vacation (static/vacation.js), premove (static/premove.js) and planned
    # replies (static/plans.js)
    N_("on vacation until {moment}"),
    N_("Vacation"),
    N_(
        "On vacation, your correspondence games wait for you: their clocks stop until you"
        " are back or your days run out. Real-time games go on."
    ),
    N_("You are on vacation until {moment}."),
    N_("You are not on vacation."),
    N_(
        "Days left: {days}. The bank grows by {year} days a year, up to {most}; a vacation"
        " spends it by the hour, not by whole days."
    ),
    N_("End my vacation"),
    N_("Start a vacation"),
    N_("Start a vacation by itself when a correspondence deadline is an hour away"),
    N_("Premove: {move} (click to cancel)"),
    N_("Your premove {move} was not legal then: not played"),
    N_("Plan replies"),
    N_(
        "Type your opponent's move, then your reply, and so on, in the game's notation. When"
        " they play the first move of a line, your reply is played at once; any other move"
        " cancels your plans. Nobody else sees them."
    ),
    N_("if {theirs}, {mine}"),
    N_("then if {theirs}, {mine}"),
    N_("Delete"),
    N_("Delete line {n}"),
    N_("No replies planned."),
    N_("New line"),
    N_("Add line"),
    N_("If your opponent plays"),
    N_("you play"),
    N_("Add this reply"),
    # issue 30: the chat (static/chat.js; the phrases are server/chat/chat.py's PHRASES)
    N_("Chat"),
    N_("Hide chat"),
    # blocks, mutes and reports (blocks.js: the chat and the profile)
    N_("Block"),
    N_("Unblock"),
    N_("Mute"),
    N_("Unmute"),
    N_("Report"),
    N_("Report {name}: what happened?"),
    N_("Thank you: a moderator will read your report."),
    N_("You blocked this player."),
    N_("You muted this player."),
    # a challenge to one player (profile.js, lobby.js, told.js)
    N_("Challenge"),
    N_("Challenges to you"),
    N_("A challenge to {name}"),
    N_("Open to anyone"),
    N_("for {name} alone"),
    N_("Decline"),
    N_("Close"),
    N_("The players do not see what spectators write."),
    N_("No messages yet."),
    N_("Message"),
    N_("Send"),
    N_("{name} (spectator)"),
    N_("{player} ({seat})"),
    # issue 31: stepping through a game (static/stepping.js)
    N_("Viewing move {n}"),
    N_("Viewing the start of the game"),
    N_("Back to the game"),
    N_("Back to the end"),
    # issue 31: the computer's analysis of a finished game (static/analysis.js; the mark
    # names, the measures and some lines are stairgames.analysis.review's too)
    N_("The computer's analysis"),
    N_("Analyse this game"),
    N_("Progress of the analysis"),
    N_("Analysing: move {done} of {total}"),
    N_("The analysis is starting…"),
    N_("The {measure} of {name} along the game"),
    N_(
        "The {measure} of {name} after each move: a filled point is proven, a hollow one "
        "the search's estimate. Click a point to see its move."
    ),
    N_("Move {n} {move}: {name} {value}"),
    N_("Move {n}: {move}{mark}"),
    N_("{symbol} ({name})"),
    N_("The {measure} of {name}: {before} before the move, {after} after it ({how})"),
    N_("proven"),
    N_("the search's estimate, ±{points} points"),
    N_("Better: {move}"),
    N_("Best line: {line}"),
    N_(
        "{name}: {inaccuracies} inaccuracies (?!), {mistakes} mistakes (?), "
        "{blunders} blunders (??)"
    ),
    N_("Budget: {iterations} search iterations a position (seed {seed})."),
    N_("Explore this position on the analysis board"),
    N_("inaccuracy"),
    N_("mistake"),
    N_("blunder"),
    N_("winning chance"),
    # issue 31: the analysis board (static/analysisboard.js)
    N_("Analysis board"),
    N_("Position text (empty: the start)"),
    N_("Show this position"),
    N_("Play a move"),
    N_("Play"),
    N_("Take back"),
    N_("Back to the position"),
    N_("Copy the link"),
    N_("Link to this analysis"),
    N_("Play on against the computer"),
    N_("A game with hidden cards cannot start from a position."),
    N_("Evaluation"),
    N_("No moves explored yet."),
    N_("This position"),
    N_("The engine is thinking…"),
    N_("The engine could not value this position."),
    N_("Chance: choose what the dice or the cards give"),
    N_("{outcome} ({chance})"),
    N_("The {measure} of each seat ({how}):"),
    N_("The engine's move: {move}"),
    N_("The {measure} of {name} after each move (exact):"),
    N_("The {measure} of {name} after each outcome (exact):"),
    N_("A draw with perfect play, with {move} (proven)"),
    N_("{name} wins in {plies} with {move} (proven)"),
    N_("{name} wins in {plies}, whatever {other} plays (proven)"),
    N_("{name} wins in at most {plies} with {move} (proven)"),
    N_("{name} wins in at most {plies}, whatever {other} plays (proven)"),
    N_("{name} wins with {move} (proven)"),
    N_("{name} wins, whatever {other} plays (proven)"),
    N_("better"),
    # issue 52: the puzzles (static/puzzles.js) and the home page's puzzle of the day
    N_("Puzzles"),
    N_("Puzzle of the day"),
    N_("Solve it"),
    N_("Puzzles for you"),
    N_("Streak"),
    N_("Positions from real games with proven answers: find the move that keeps the win."),
    N_("Any game"),
    N_("Next puzzle"),
    N_("A new streak"),
    N_("Link to this puzzle"),
    N_("Explore on the analysis board"),
    N_("About this puzzle"),
    N_("{game}: puzzle {id}"),
    N_("{game} · difficulty {rating}"),
    N_("The reply: {move}"),
    N_("Wrong: {message}."),
    N_("The proof: {line}"),
    N_("The solution: {line}"),
    N_("You solved this puzzle."),
    N_("You did not solve this puzzle."),
    N_("Your puzzle rating: {before} → {after} ({change})"),
    N_("Your puzzle rating in {game}: {rating}"),
    N_("Difficulty"),
    N_("Themes"),
    N_("Played"),
    N_("Solved"),
    N_("From"),
    N_("Day"),
    N_("a game of the computer players"),
    N_("a recorded game"),
    N_("a game played on this site"),
    N_("Streak: {count}"),
    N_("The streak ended: {count}"),
    N_("Your best: {best}"),
    N_("Your move: {move}"),
    N_("Show the solution"),
    N_("Show the solution? The puzzle then counts as not solved."),
    # issue 53: the tournaments (static/tournaments.js)
    N_("Tournaments"),
    N_("Arenas, Swiss tournaments and round tables: join one, or create your own."),
    N_("No tournaments yet."),
    N_("Create a tournament"),
    N_("Any account (a player with a password) may create one."),
    N_("Kind"),
    N_("Players at a table"),
    N_("Starts"),
    N_("Minutes"),
    N_("Rounds"),
    N_("Bots may play"),
    N_("Create the tournament"),
    N_("Arena"),
    N_("Swiss"),
    N_("Round tables"),
    N_("{game} · {kind}"),
    N_("Finished"),
    N_("Not started yet"),
    N_("Under way until {time}"),
    N_("Round {round} of {rounds}"),
    N_("from {time}"),
    N_("bots may play"),
    N_("no bots"),
    N_("by {name}"),
    N_("Join"),
    N_("Leave"),
    N_("All tournaments"),
    N_("Your game"),
    N_("Standings"),
    N_("Player"),
    N_("Points"),
    N_("Games"),
    N_("Nobody has joined yet."),
    N_("(left)"),
    N_("Wins in a row"),
    N_("On fire: every result counts double"),
    N_("{name} sits this round out"),
    N_("{name} has the bye"),
    N_("over"),
    N_("being played"),
    N_("Round {round}"),
    # the screen-reader mode (static/nvui.js)
    N_("Screen-reader mode"),
    N_("Play by text"),
    N_("Your move or command (h for help)"),
    N_("Enter"),
    N_("Legal moves"),
    N_("Play this move"),
    N_("No move yet."),
    N_("Not a legal move or command: {text}. Type v to hear the legal moves, h for help."),
    N_("Not a command: {text}, and you have no move to play now. Type h for help."),
    N_("This game gives no text of its position; the legal moves and the move list work."),
    N_("{name}: {move}"),
    N_("This game has no clock."),
    N_("{name}: {time}, running"),
    N_("{name}: {time}"),
    N_("You have no move to play now."),
    N_("Legal moves: {moves}"),
    N_("Type m and a square or piece, as m c3."),
    N_("No legal move of {piece}."),
    N_("Moves of {piece}: {moves}"),
    N_("Type a move in its notation and press Enter, or choose it in the list of legal moves."),
    N_("Commands: l the last move; p the position row by row; s the position as a list;"),
    N_("t whose turn; c the clocks; v the legal moves; m and a square, its legal moves; h help."),
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
