"""Computer players at the terminal: ``--level``, player settings per seat, the thinking line."""

from __future__ import annotations

import io
import json
import re
import threading

import stairgames
from stairgames.cli import main
from stairgames.terminal import TerminalSession, ThinkingIndicator
from tests.scripted import scripted


def test_a_computer_opponent_shows_that_it_is_thinking_and_what_it_played(tmp_path):
    out = io.StringIO()
    session = TerminalSession(
        stairgames.load("stairs"),
        ["human", "medium"],
        seed=1,
        record_path=tmp_path / "g.json",
        input_fn=scripted(["d3-c4", "quit"]),
        output=out,
    )
    state = session.run()
    text = out.getvalue()
    assert "dark (medium) is thinking..." in text
    reply = state.history_strings()[1]
    assert f"dark (medium) plays {reply} (" in text


def test_thinking_indicator_without_a_terminal_writes_one_line():
    out = io.StringIO()
    with ThinkingIndicator(out, "dark (hard) is thinking"):
        pass
    assert out.getvalue() == "dark (hard) is thinking...\n"


class FakeTerminal(io.StringIO):
    """A terminal that tells (``spun``) once the spinner has drawn two frames."""

    def __init__(self) -> None:
        super().__init__()
        self.frames = 0
        self.spun = threading.Event()

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if text.startswith("\rthinking "):
            self.frames += 1
            if self.frames >= 2:
                self.spun.set()
        return super().write(text)


def test_thinking_indicator_on_a_terminal_spins_and_clears_its_line():
    out = FakeTerminal()
    with ThinkingIndicator(out, "thinking", interval=0.01):
        assert out.spun.wait(timeout=60), "the spinner drew no two frames"
    text = out.getvalue()
    frames = re.findall(r"\rthinking (.) +\d+\.\d s", text)
    assert frames[:2] == ["|", "/"]
    assert text.endswith("\r" + " " * (len("thinking") + 16) + "\r")  # the line cleared


def test_cli_level_sets_the_computer_seats_and_players_take_settings(tmp_path, capsys):
    record = tmp_path / "game.json"
    argv = ["play", "stairs", "--level", "easy", "--light", "mcts:iterations=5", "--seed", "3"]
    assert main([*argv, "--record", str(record), "--no-color"]) == 0
    data = json.loads(record.read_text())
    assert data["players"] == ["mcts:iterations=5", "easy"]
    assert "Record saved" in capsys.readouterr().out


def test_cli_play_refuses_an_unknown_player_with_the_choices(capsys):
    assert main(["play", "stairs", "--dark", "wizard"]) == 2
    err = capsys.readouterr().err
    assert "unknown player 'wizard'" in err and "mcts" in err and "expert" in err


def test_cli_play_refuses_a_bad_player_setting(capsys):
    assert main(["play", "stairs", "--dark", "mcts:time=soon"]) == 2
    assert "not a number" in capsys.readouterr().err


def test_cli_list_names_the_players_and_levels(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "mcts" in out and "alphabeta" in out and "expert" in out
