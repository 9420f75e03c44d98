"""Earlier positions during terminal play (issue 31): ``back [N]``, ``forward [N]`` and
``live`` show the game as it was, drawn for the person at the keyboard, without changing
it; the next move is played on the game as it is. Scripted input, and a pseudo-terminal
of 80×24 for City of Stairs' tall screen."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Sequence
from pathlib import Path

import stairgames
from stairgames.core.game import State
from stairgames.core.registry import get_spec
from stairgames.terminal import TerminalSession, help_text
from tests.pty_screen import LINES, PtyPlay


def answering(lines: Sequence[str], prompts: list[str]) -> Callable[[str], str]:
    """Answers the prompts with ``lines`` (end of input after the last), keeping each
    prompt in ``prompts``."""
    feed = iter(lines)

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        line = next(feed, None)
        if line is None:
            raise EOFError
        return line

    return answer


def session(
    game: str, lines: Sequence[str], tmp_path: Path, seats: Sequence[str], **options: object
) -> tuple[TerminalSession, io.StringIO, list[str]]:
    out = io.StringIO()
    prompts: list[str] = []
    play = TerminalSession(
        stairgames.load(game, **options),
        list(seats),
        seed=5,
        record_path=tmp_path / "game.json",
        input_fn=answering(lines, prompts),
        output=out,
    )
    return play, out, prompts


def after(state: State, count: int) -> State:
    earlier = state.get_game().new_initial_state()
    for action in state.history()[:count]:
        earlier.apply_action(action)
    return earlier


def test_back_forward_and_live_show_earlier_positions_and_change_nothing(tmp_path: Path) -> None:
    lines = ["d3-c4", "back", "back", "back", "forward", "back 9", "forward 2", "live", "live"]
    lines += ["back x", "forward 0", "back", "quit"]
    play, out, prompts = session("stairs", lines, tmp_path, ("human", "random"))
    state = play.run()
    text = out.getvalue()
    assert len(state.history()) == 2  # d3-c4 and the reply, nothing more, nothing undone
    reply = state.history_strings()[1]
    render = get_spec("stairs").render
    start, first = (
        render(after(state, 0), colour=False, viewer=0),
        render(after(state, 1), colour=False, viewer=0),
    )
    # back: move 1 (d3-c4), back again: the start, and once more: nothing earlier
    assert "1. light (human): d3-c4\n" + first in text
    assert "Start\n" + start in text
    assert "Move 1 of 2 as it was; the game is unchanged ('live' returns to it).\n" in text
    assert "This is the start of the game." in text
    assert text.count("This is the start of the game.") == 1  # the third back (9: to 0)
    assert "Back to the game (move 2)." in text  # forward 2 from the start
    assert text.count("This is the game as it is now.") == 2  # live, live: there already
    assert text.count("Say how many moves with a number, as in 'back 3' or 'forward 2'.") == 2
    assert f"2. dark (random): {reply}" not in text  # the game as it is is not "earlier"
    shown = [p for p in prompts if "shown" in p]
    assert shown[0] == "light (human) (move 1 of 2 shown)> "
    assert "light (human) (move 0 of 2 shown)> " in shown
    assert prompts[-1] == "light (human) (move 1 of 2 shown)> "  # the last back, then quit


def test_a_move_typed_while_an_earlier_position_is_shown_is_played_on_the_game(
    tmp_path: Path,
) -> None:
    """The next move returns to the game as it is: it is checked and played there."""
    sessions: list[TerminalSession] = []
    typed: list[str] = []

    def a_legal_move() -> str:
        typed.append(sessions[0].move_texts()[0])  # legal in the game as it is
        return typed[-1]

    answers: list[str | Callable[[], str]] = ["d3-c4", "back 2", a_legal_move, "quit"]
    feed = iter(answers)
    prompts: list[str] = []

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        item = next(feed, None)
        if item is None:
            raise EOFError
        return item if isinstance(item, str) else item()

    play = TerminalSession(
        stairgames.load("stairs"),
        ["human", "random"],
        seed=5,
        record_path=tmp_path / "game.json",
        input_fn=answer,
        output=io.StringIO(),
    )
    sessions.append(play)
    final = play.run()
    assert prompts[2] == "light (human) (move 0 of 2 shown)> "
    assert final.history_strings()[2] == typed[0]
    assert prompts[3] == "light (human)> "  # the game as it is again, after the move


def test_city_of_stairs_shows_earlier_positions_with_the_players_own_card_only(
    tmp_path: Path,
) -> None:
    """Red steps back through every position: each is drawn for red (its own departure
    card, blue's face down), never for blue or as the whole truth."""
    lines = ["back"] * 12 + ["quit"]
    play, out, _ = session("city_of_stairs", lines, tmp_path, ("human", "random"), players=2)
    state = play.run()
    text = out.getvalue()
    render = get_spec("city_of_stairs").render
    total = len(state.history())
    seen = 0
    for count in range(total):
        earlier = after(state, count)
        mine = render(earlier, colour=False, viewer=0)
        if f"Move {count} of {total} as it was" not in text:
            continue
        seen += 1
        assert mine in text
        theirs = render(earlier, colour=False, viewer=1)
        if theirs != mine:
            assert theirs not in text
    assert seen >= 3
    assert ": deal ? to blue\n" in text  # blue's deal as red knows it
    assert not re.search(r"deal \d to blue", text)


def test_the_help_names_the_new_commands_within_80_columns() -> None:
    text = help_text()
    assert "back [N], forward [N]" in text and "\n  live " in text
    assert all(len(line) <= 80 for line in text.splitlines())


def test_back_on_city_of_stairs_fits_an_80_by_24_terminal(tmp_path: Path) -> None:
    """City's tall drawing (up to 23 rows) is shown on a cleared screen; the prompt says
    which move is shown when no other line fits."""
    play = PtyPlay(
        ["play", "city_of_stairs", "--seats", "human,random", "--seed", "5", "--record", "r.json"],
        cwd=tmp_path,
    )
    try:
        play.read_until(r"\)> $")
        for command in ("back", "back 3", "forward", "live"):
            play.answer(command)
            play.read_until(r"\)> $")
            since = play.since_last_answer()
            assert len(since) <= LINES, "\n".join(since)
            assert all(len(row) <= 80 for row in since)
            prompt = play.screen()[-1]
            if command == "live":
                assert prompt.endswith("(human)> "), prompt
            else:
                assert re.search(r"\(move \d+ of \d+ shown\)> $", prompt), prompt
        play.answer("quit")
        assert play.finish() == 0
    finally:
        play.kill()
