"""Playing Stairs in the terminal, and replaying its record, driven by scripted input."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import stairgames
from stairgames.cli import main
from stairgames.terminal import TerminalSession


def scripted(lines: list[str]) -> object:
    feed: Iterator[str] = iter(lines)

    def answer(prompt: str) -> str:
        del prompt
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return answer


def session(
    lines: list[str], tmp_path: Path, players=("human", "random")
) -> tuple[TerminalSession, io.StringIO]:
    out = io.StringIO()
    game = stairgames.load("stairs")
    play = TerminalSession(
        game,
        list(players),
        seed=5,
        record_path=tmp_path / "game.json",
        input_fn=scripted(lines),  # type: ignore[arg-type]
        output=out,
    )
    return play, out


def test_terminal_rejects_bad_input_with_the_reason_and_asks_again(tmp_path):
    play, out = session(["c3-d4", "zz", "d3-c4", "quit"], tmp_path)
    state = play.run()
    text = out.getvalue()
    assert "Not accepted: illegal move 'c3-d4': the piece on top of c3 is not yours" in text
    assert "malformed move 'zz'" in text
    assert state.history_strings()[0] == "d3-c4"
    assert len(state.history()) == 2  # the computer answered


def test_terminal_undo_takes_back_the_move_and_the_reply(tmp_path):
    play, out = session(["d3-c4", "undo", "quit"], tmp_path)
    state = play.run()
    assert "Took back your last move." in out.getvalue()
    assert state.history() == []


def test_terminal_lists_moves_and_ends_by_agreement_with_the_reason(tmp_path):
    play, out = session(["moves", "d3-c4", "agree"], tmp_path)
    state = play.run()
    text = out.getvalue()
    assert "Legal moves (" in text and "d3-c4" in text
    assert state.is_terminal()
    assert "agreement" in text
    record = json.loads((tmp_path / "game.json").read_text())
    assert record["ended_by_agreement"] is True
    assert record["seed"] == 5
    assert record["moves"][0] == "d3-c4"


def test_computer_against_computer_finishes_and_saves_a_replayable_record(tmp_path, capsys):
    play, out = session([], tmp_path, players=("random", "random"))
    state = play.run()
    assert state.is_terminal()
    assert "Game over." in out.getvalue()
    assert main(["replay", "--no-color", str(tmp_path / "game.json")]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith("Start")
    assert f"{len(state.history())}. {state.history_strings()[-1]}" in shown
    assert "Result:" in shown


def test_unfinished_record_carries_no_seed(tmp_path):
    play, _ = session(["d3-c4", "quit"], tmp_path)
    play.run()
    record = json.loads((tmp_path / "game.json").read_text())
    assert record["seed"] is None


def test_cli_play_refuses_a_bad_option(capsys):
    assert main(["play", "stairs", "--option", "pie=true"]) == 2
    assert "unknown option 'pie'" in capsys.readouterr().err


def test_cli_list_shows_the_games(capsys):
    assert main(["list"]) == 0
    assert "stairs" in capsys.readouterr().out
