"""Playing Stairs in the terminal, and replaying its record, driven by scripted input."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import stairgames
from stairgames.cli import main
from stairgames.terminal import TerminalSession
from tests.scripted import scripted


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
        input_fn=scripted(lines),
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


@pytest.mark.slow
def test_terminal_lists_moves_and_the_computer_declines_an_offer_it_could_lose(tmp_path):
    """Defect: the computer accepted every offer. Light leads by S5 after two moves, and
    nothing is proven this early, so the computer declines and the game goes on."""
    play, out = session(["moves", "d3-c4", "agree", "quit"], tmp_path)
    state = play.run()
    text = out.getvalue()
    assert "Legal moves (110), grouped by what comes first, typed like b1-b2:" in text
    assert "d3 → d4 e4 e3 e2 d2 c2 c3 c4" in text
    assert "light (human) offers to end the game here." in text
    assert "dark (random) does not agree; the game goes on." in text
    assert not state.is_terminal()
    record = json.loads((tmp_path / "game.json").read_text())
    assert record["moves"][0] == "d3-c4" and record["moves"][-2:] == ["offer", "decline"]
    assert record["seed"] is None  # unfinished: the seed stays hidden


@pytest.mark.slow
def test_terminal_expert_declines_the_offer_after_d3_c4_and_the_game_goes_on(tmp_path):
    """The issue's check: `stairgames play stairs --dark expert`, d3-c4, agree."""
    play, out = session(["d3-c4", "agree", "quit"], tmp_path, players=("human", "expert"))
    state = play.run()
    text = out.getvalue()
    assert "dark (expert) does not agree; the game goes on." in text
    assert not state.is_terminal()
    assert state.history_strings()[-2:] == ["offer", "decline"]


def test_computer_against_computer_finishes_and_saves_a_replayable_record(tmp_path, capsys):
    play, out = session([], tmp_path, players=("random", "random"))
    state = play.run()
    assert state.is_terminal()
    assert "Game over." in out.getvalue()
    assert main(["replay", "--no-color", str(tmp_path / "game.json")]) == 0
    shown = capsys.readouterr().out
    assert shown.startswith("Start")
    last = len(state.history())
    mover = "light" if last % 2 else "dark"  # steps say who moved
    assert f"{last}. {mover} (random): {state.history_strings()[-1]}" in shown
    assert "Result:" in shown
    assert "returns" not in shown and "[" not in shown.splitlines()[-1]  # no raw data


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


def test_cli_play_help_lists_the_seat_flags_and_the_players(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "stairs", "--help"])
    assert exit_info.value.code == 0
    shown = capsys.readouterr().out
    for flag in ("--pie-rule", "--light PLAYER", "--dark PLAYER", "--seed", "--record"):
        assert flag in shown
    assert "human, random" in shown


def test_cli_play_refuses_an_unknown_or_abbreviated_flag(capsys):
    for flag in ("--bogus", "--pie"):
        with pytest.raises(SystemExit) as exit_info:
            main(["play", "stairs", flag])
        assert exit_info.value.code == 2
        assert f"unrecognized arguments: {flag}" in capsys.readouterr().err


def test_cli_play_refuses_an_unknown_player(capsys):
    assert main(["play", "stairs", "--dark", "grandmaster"]) == 2
    assert "unknown player 'grandmaster'" in capsys.readouterr().err


def test_cli_play_pie_rule_game_between_two_computers_saves_a_finished_record(tmp_path, capsys):
    path = tmp_path / "pie.json"
    argv = ["play", "stairs", "--pie-rule", "--light", "random", "--dark", "random"]
    assert main([*argv, "--seed", "7", "--record", str(path), "--no-color"]) == 0
    assert "Game over." in capsys.readouterr().out
    record = json.loads(path.read_text())
    assert record["options"] == {"pie_rule": True, "agreement": True, "size": 6}
    assert record["seed"] == 7 and record["players"] == ["random", "random"]
    assert record["returns"] in ([1.0, -1.0], [-1.0, 1.0])


def test_terminal_after_a_swap_the_seats_are_named_by_the_colours_they_play(tmp_path):
    out = io.StringIO()
    prompts: list[str] = []
    feed = iter(["d3-c4", "swap", "quit"])

    def answer(prompt: str) -> str:
        prompts.append(prompt)
        return next(feed)

    play = TerminalSession(
        stairgames.load("stairs", pie_rule=True),
        ["human", "human"],
        seed=1,
        record_path=tmp_path / "game.json",
        input_fn=answer,
        output=out,
    )
    play.run()
    assert prompts == ["light (human)> ", "dark (human)> ", "dark (human)> "]
    assert "Dark to move: the first player (colours swapped)" in out.getvalue()


def test_terminal_agreement_between_two_people_needs_the_other_to_agree(tmp_path):
    lines = ["d3-c4", "agree", "no", "c3-b3", "agree", "yes"]
    play, out = session(lines, tmp_path, players=("human", "human"))
    state = play.run()
    text = out.getvalue()
    assert "If you agree: Light wins" in text
    assert "light (human) does not agree; the game goes on." in text
    assert "dark (human) agrees: the game ends here." in text
    assert state.history_strings() == ["d3-c4", "offer", "decline", "c3-b3", "offer", "accept"]
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert "(game ended by agreement)" in text


def test_terminal_agreement_is_refused_with_the_reason_before_any_climb(tmp_path):
    """The other person is asked only when the offer is allowed."""
    play, out = session(["agree", "d3-c4", "quit"], tmp_path, players=("human", "human"))
    state = play.run()
    text = out.getvalue()
    assert "You cannot offer to end the game now: no piece has climbed yet" in text
    assert "(S5)" not in text and "illegal move" not in text
    assert "do you agree" not in text
    assert state.history_strings() == ["d3-c4"]


def test_terminal_undo_with_nothing_to_take_back_and_between_two_people(tmp_path):
    play, out = session(["undo", "d3-c4", "quit"], tmp_path)
    play.run()
    assert "Nothing to undo." in out.getvalue()
    play, out = session(["d3-c4", "undo", "quit"], tmp_path, players=("human", "human"))
    state = play.run()
    assert "Undo is for games against the computer." in out.getvalue()
    assert state.history_strings() == ["d3-c4"]


def test_cli_show_draws_a_position_and_lists_its_legal_moves(capsys):
    position = "L,D,L,D,L,D/D,L,D,L,D,L/L,D,LL,D,L,D/D,L,D,.,D,L/L,D,L,D,L,D/D,L,D,L,D,L D L"
    assert main(["show", "stairs", position, "--no-color"]) == 0
    shown = capsys.readouterr().out
    assert "  4   L1  D1  L2* D1  L1  D1   4" in shown
    assert "Dark to move" in shown
    assert "Legal moves (103):\na1-a2 a1-b2 a1-b1 c1-c2" in shown
    assert max(len(line) for line in shown.splitlines()) <= 80  # wrapped (issue 27)


def test_cli_show_takes_the_games_own_flags_and_a_pending_swap(capsys):
    """Issue 27: ``show`` lacked ``--size``/``--pie-rule``, and a position with a swap
    pending was refused ("this game is played without the pie rule")."""
    position = "L,D,L,D/D,L,D,L/L,D,L,D/D,L,D,L L -"
    assert main(["show", "stairs", "--size", "4", "--no-pie-rule", position, "--no-color"]) == 0
    assert "Light to move" in capsys.readouterr().out
    swap = "L,D,L,D,L,D/D,L,D,L,D,L/L,D,LL,D,L,D/D,L,D,.,D,L/L,D,L,D,L,D/D,L,D,L,D,L D L 0 swap"
    assert main(["show", "stairs", swap, "--no-color"]) == 0
    shown = capsys.readouterr().out
    assert "you may type swap" in shown and " swap " in shown


def test_cli_show_refuses_an_impossible_position_with_the_reason(capsys):
    position = "L,D,L,D,L,D/D,L,D,L,D,L/L,D,L,D,L,D/D,L,D,L,D,L/L,D,L,D,L,D/D,L,D,L,D,L D -"
    assert main(["show", "stairs", position]) == 2
    assert "dark cannot be to move before any piece has climbed" in capsys.readouterr().err


def test_cli_replay_refuses_a_record_that_does_not_replay(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"game": "stairs", "options": {}, "moves": ["d3-c4", "d3-d4"]}))
    assert main(["replay", str(path)]) == 2
    assert "move 2 ('d3-d4') does not replay" in capsys.readouterr().err


def test_cli_show_reads_the_board_size_from_the_position(capsys):
    """S8: a 5×5 position is shown without --option size=5 (the text draws its size)."""
    position = "D,L,D,L,D/L,D,L,D,L/D,L,D,L,D/L,D,L,D,L/D,.,DL,L,D D L"
    assert main(["show", "stairs", position, "--no-color"]) == 0
    shown = capsys.readouterr().out
    assert "Dark to move" in shown
    assert "Legal moves (" in shown and "\na1-a2 a1-b2" in shown
    assert main(["show", "stairs", position, "--option", "size=6"]) == 2
    assert "is a 5×5 board, but this game is played on 6×6" in capsys.readouterr().err
