"""Issue 49, point 1: at one keyboard no person's private card is in the terminal's
screen or its history at another person's prompt. Played through a pty into a terminal
emulator that keeps its history as tmux does (:class:`tests.pty_screen.Terminal`: cleared
screens too), whole games of City of Stairs with every seat a person."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from tests.pty_screen import LoggedPlay, Terminal

CLEAR = b"\x1b[H\x1b[2J"
CLEAR_HISTORY = b"\x1b[3J"


def test_the_emulator_keeps_cleared_screens_and_scrolled_rows_in_its_history() -> None:
    """As tmux does: a clear moves the screen into the history; ``ESC[3J`` empties it."""
    terminal = Terminal()
    terminal.feed(b"red likes cat; departure \xe2\x91\xa6\r\n")
    terminal.feed(CLEAR)
    assert not any(terminal.display())
    assert terminal.history() == ["red likes cat; departure ⑦"]
    terminal.feed(b"".join(b"row %d\r\n" % n for n in range(30)))
    assert terminal.history()[-1] == "row 6"  # scrolled off the top of 24 rows
    terminal.feed(CLEAR + CLEAR_HISTORY)
    assert terminal.history() == [] and not any(terminal.display())


def private_lines(rows: list[str], seat_names: dict[int, str]) -> dict[int, list[str]]:
    """For each seat, the seat lines in ``rows`` that show its departure card before its
    stroll: ``red likes cat, bakery, kite; departure ⑦`` (once the stroll has begun, the
    card is public and the line goes on with the diary and points)."""
    found: dict[int, list[str]] = {}
    for row in rows:
        for part in re.split(r" {3,}", row):
            for seat, name in seat_names.items():
                if re.fullmatch(rf"{name} likes [^;]*; departure [①-⑦]", part.strip()):
                    found.setdefault(seat, []).append(part)
    return found


def play_at_one_keyboard(tmp_path: Path, players: int, *, keep_history: bool = False) -> int:
    """A whole City of Stairs game of ``players`` people at one keyboard, random moves;
    at every prompt, no other seat's private line on the screen or in the history.
    Returns the prompts checked."""
    env = {"STAIRGAMES_TEST_KEEP_HISTORY": "1"} if keep_history else {}
    seats = ",".join(["human"] * players)
    options = ["--players", str(players), "--seats", seats, "--seed", str(players)]
    play = LoggedPlay(
        ["play", "city_of_stairs", *options, "--record", "r.json"],
        cwd=tmp_path,
        env=env,
    )
    rng = random.Random(players)
    prompts = 0
    names: dict[int, str] = {}
    try:
        while True:
            entry = play.next_question()
            if "ask" in entry:
                play.answer("")
                continue
            seat = entry["prompt"]
            names[seat] = entry["label"].split(" ")[0]
            prompts += 1
            leaks = private_lines(play.terminal.everything(), names)
            leaks.pop(seat, None)
            assert not leaks, f"at {entry['label']}'s prompt: {leaks}"
            play.answer(rng.choice(entry["moves"]))
    except EOFError:
        pass
    finally:
        play.kill()
    assert re.search(r"Game over\.", play.output), play.output[-2000:]
    assert len(names) == players
    return prompts


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.slow
def test_no_private_card_in_the_screen_or_its_history_at_another_persons_prompt(
    tmp_path: Path, players: int
) -> None:
    """Defect: the pass screen cleared with ``ESC[2J`` only; tmux kept the previous
    person's screen, departure card and all, in its history."""
    assert play_at_one_keyboard(tmp_path, players) > 20  # every placement and stroll


def test_the_check_finds_the_card_where_the_history_is_kept(tmp_path: Path) -> None:
    """The same game with the scrollback left alone (``ESC[3J`` not sent): the previous
    person's departure card is found in the history at the next person's prompt."""
    with pytest.raises(AssertionError, match=r"prompt: \{\d: \['\w+ likes"):
        play_at_one_keyboard(tmp_path, 2, keep_history=True)
