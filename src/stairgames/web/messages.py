"""Every text the browser shows, by its message id (the English text).

The front end (``web/static/*.js``, ``index.html`` and each game's ``web/board.js``)
looks its texts up in the catalog that ``GET /api/i18n/{lang}`` serves. ``make messages``
extracts Python sources only, so the ids are listed here, marked with ``N_``; tests in
``tests/test_web_ui.py`` check that every id the front end uses is listed.
"""

from __future__ import annotations

from typing import Final

from stairgames.i18n import N_

BROWSER_MESSAGES: Final = (
    N_(", "),
    N_("27 discs on a line of 9 fields: 9 white, 9 black, 7 grey and 2 red bases."),
    N_("27 line"),
    N_("A friend online (invite link)"),
    N_(
        "A move takes the top piece of a stack your colour tops onto a neighbouring stack"
        " (8 directions) of exactly the same height: it climbs one level."
    ),
    N_("A person at this screen"),
    N_("Accept the offer"),
    N_("Allow"),
    N_("Ask for a takeback"),
    N_(
        "At the greatest height, more stacks topped by your colour win; on equal counts "
        "whoever arrived there last loses."
    ),
    N_("Back"),
    N_("Board size (3 to 8 squares a side)"),
    N_(
        "Build the city: on your turn put one of the two stock cards on a ringed cell, "
        "next to the seaside or a card; every row ends with exactly three stairs."
    ),
    N_("Card set"),
    N_("Card set {name} is ready."),
    N_("Characters (colours, comma-separated)"),
    N_("Checking the card file…"),
    N_("Choose a stock card first, then a highlighted cell."),
    N_("Choose a stock card, then a highlighted cell."),
    N_("Choose where to go: the buttons on the city."),
    N_("City of Stairs board"),
    N_("Copy"),
    N_("Decline the offer"),
    N_("Diary cards turned up: {names}"),
    N_("Download the record"),
    N_("Draw"),
    N_(
        "Each experience turns up its diary card: 2 points for an interest of yours, 1 "
        "otherwise, 3 for the lighthouse. A stroll ends at the lighthouse, with five "
        "diary cards, or trapped."
    ),
    N_("Each player has 18 pieces on a checkered 6×6 board."),
    N_("First"),
    N_("Game"),
    N_("Game over"),
    N_("I am {name}: show my cards"),
    N_("Interests: {names}"),
    N_("Invite a friend with this link:"),
    N_("Invite link"),
    N_("Language"),
    N_("Last"),
    N_("Level"),
    N_("Move {count} of field {field}: choose where"),
    N_("Move {n} of {total}"),
    N_("Moves"),
    N_("New game"),
    N_("Next"),
    N_("Not connected; trying again…"),
    N_("Now choose a highlighted cell."),
    N_("Offer to end by agreement"),
    N_(
        "Only your lowest movable pieces may move. Who cannot move passes; the game ends "
        "when neither can move."
    ),
    N_("Opponent"),
    N_("Options"),
    N_("Pass"),
    N_("Pass the device to {name}"),
    N_("Pie rule (the second player may swap colours)"),
    N_("Play in the browser"),
    N_("Players"),
    N_("Reconnecting…"),
    N_("Refuse"),
    N_("Rematch"),
    N_("Resign"),
    N_("Resign this game?"),
    N_("Rules"),
    N_("Seaside card {number}"),
    N_("Seats"),
    N_("Something went wrong."),
    N_("Spectators: {count}"),
    N_("Stairs board"),
    N_("Start"),
    N_("Stock"),
    N_("Stock card {card}"),
    N_("Swap colours"),
    N_("The computer"),
    N_("The computer ({level})"),
    N_("The computer is thinking…"),
    N_("The lighthouse, above row 4: {points} points"),
    N_("The record could not be downloaded."),
    N_(
        "Then each player strolls from the seaside card their departure card names, kept "
        "secret until then: ↖ or ↗ climbs a row, ↺ turns around, ≈ lets you ignore an "
        "arrow; a coloured icon is for that colour only, and a corner acts only on a "
        "walker entering from its side."
    ),
    N_("Undo"),
    N_("Upload a card file (TOML)"),
    N_("Variant"),
    N_(
        "Who cannot move passes; the game ends when neither can move. You score the discs"
        " on your target field above its base."
    ),
    N_("You are watching this game."),
    N_("Who starts"),
    N_("You lose"),
    N_("You play"),
    N_("You win"),
    N_("Your departure card: seaside {number}"),
    N_("Your move"),
    N_("Your opponent asks to take back the last move."),
    N_("Your opponent offers to end the game by agreement."),
    N_(
        "Your stacks are the stacks your colour tops. Move the top discs of one of them "
        "exactly as many fields as you have stacks, towards your far end."
    ),
    N_("at random"),
    N_("black"),
    N_("bottom left: {icons}"),
    N_("bottom right: {icons}"),
    N_("dark"),
    N_("easy"),
    N_("empty"),
    N_("expert"),
    N_("five diary cards"),
    N_("grey"),
    N_("hard"),
    N_("light"),
    N_("lighthouse"),
    N_("medium"),
    N_("reached the lighthouse"),
    N_("red"),
    N_("stairs"),
    N_("the default cards"),
    N_("trapped"),
    N_("white"),
    N_("{colour} may ignore ↖/↗"),
    N_("{colour} on top, height {height}"),
    N_("{colour} only {arrow}"),
    N_("{colour} turns around"),
    N_("{count} discs, {colour} on top"),
    N_("{name} (you)"),
    N_("{count} left"),
    N_("{name} joined"),
    N_("Score so far: white {white}, black {black}"),
    N_("You share the win"),
    N_("{names} share the win"),
    N_("{name} left"),
    N_("{name} to move"),
    N_("{name} wins"),
    N_("{name} · computer"),
    N_("{name} · computer ({level})"),
    N_("{name} · not connected"),
    # the seats of the home page, and Ishigaki Race (games/ishigaki_race/web/board.js)
    N_(", "),
    N_("Blue"),
    N_("Castle wall"),
    N_("Crumbling wall (the −2 steps)"),
    N_("GOAL"),
    N_("Goal round: {arrived} on the goal; {left} play one more turn."),
    N_("Green"),
    N_("Last roll: {name}"),
    N_("Players"),
    N_("Red"),
    N_("Roll the second die"),
    N_(
        "Roll-off between {names}: the highest roll wins (one die: its value; a higher"
        " second die: the sum; a lower one: 0; doubles: the sum)."
    ),
    N_("START"),
    N_("Seats"),
    N_("Stop: climb {steps}"),
    N_("Stop: score {score}"),
    N_("The computer ({level})"),
    N_("The crumbling wall"),
    N_("The last turns"),
    N_("The winning chances are being worked out; they show from the next roll."),
    N_("Who plays {name}"),
    N_("Winning chances"),
    N_("Yellow"),
    N_("climbs"),
    N_("die {value}"),
    N_("doubles!"),
    N_("higher: climb on the sum · lower: slip 1 step · doubles: the highest fall 3"),
    N_("higher: score the sum · lower: score 0 · doubles: score the sum"),
    N_("keep the one die"),
    N_("lands on the crumbling step {step} and drops to step {to}"),
    N_("roll-off"),
    N_("second die not rolled"),
    N_("slips"),
    N_("to step {to}"),
    N_("wins {chance}"),
    N_("{items} and {last}"),
    N_("{name} on step {step}"),
    N_("{name} rolled {value} and decides: stop or roll the second die."),
    N_("{name} rolled {value}: stop or roll?"),
    N_("{name} rolls"),
    N_("{name} wins!"),
    N_("{name}'s departure card, face down"),
    N_("{name}'s departure card: seaside {number}"),
    N_("{points} point"),
    N_("{points} points"),
    N_("↖: up a row, then left"),
    N_("↗: up a row, then right"),
    N_("↺: turn around"),
    N_("≈: ignore the arrow and keep going"),
)
"""The message ids of the browser front end."""
