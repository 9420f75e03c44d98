"""27 in the terminal: the drawing, the account of each move, play and replay."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import stairgames
from stairgames.cli import main
from stairgames.core.record import GameRecord, final_state
from stairgames.core.registry import get_spec
from stairgames.games.twenty_seven import PASS, TwentySevenState
from stairgames.games.twenty_seven.play.evaluate import evaluate
from stairgames.games.twenty_seven.view.narrate import narrate
from stairgames.games.twenty_seven.view.terminal import render_line
from stairgames.terminal import TerminalSession
from tests.scripted import scripted


def at(text: str, variant: str = "basic") -> TwentySevenState:
    state = stairgames.load("twenty_seven", variant=variant).state_from_position(text)
    assert isinstance(state, TwentySevenState)
    return state


def session(
    lines: list[str], tmp_path: Path, variant: str = "basic", players=("human", "random")
) -> tuple[TerminalSession, io.StringIO]:
    out = io.StringIO()
    play = TerminalSession(
        stairgames.load("27", variant=variant),
        list(players),
        seed=11,
        record_path=tmp_path / "game.json",
        input_fn=scripted(lines),
        output=out,
    )
    return play, out


# ----- the drawing ---------------------------------------------------------------------


def test_drawing_shows_the_stacks_field_numbers_and_whose_move():
    state = at("RWWWWWB/GW/G/GBW/G/GWB/G/G/RBBBBBBW B")
    text = render_line(state)
    rows = text.splitlines()
    assert rows[0] == "27 (basic)"
    numbers = "     0  1  2  3  4  5  6  7  8"
    assert numbers in rows
    assert rows[rows.index(numbers) - 1] == "  1  R  G  G  G  G  G  G  G  R"
    assert rows[1:3] == ["  8                          W", "  7  B                       B"]
    assert "White: 3 stacks (on fields 1, 3, 8), so moves go 3 fields" in text
    assert "Black: 2 stacks (on fields 0, 5), so moves go 2 fields" in text
    assert "target field 0 holds 6" in text
    assert "Black to move, down the line." in text


def test_drawing_uses_colours_only_when_asked():
    state = stairgames.load("27").new_initial_state()
    assert "\x1b[" not in render_line(state, colour=False)  # type: ignore[arg-type]
    coloured = get_spec("27").render(state, colour=True, viewer=0)
    assert "\x1b[1;30;47m W \x1b[0m" in coloured and "\x1b[1;37;41m R \x1b[0m" in coloured


def test_drawing_says_when_the_player_must_pass_and_when_the_game_is_over():
    blocked = at("RWWWWWWWWWB/G/G/G/GB/G/G/G/RBBBBBBB W")
    assert "has no move and must pass" in str(blocked)
    assert "White: no stack, so no move; target field 8 holds 7." in str(blocked)
    over = at("RBBBB/G/G/G/G/G/G/G/RBBBBBWWWWWWWWW W")
    assert "Game over. White wins 14 to 4" in str(over)


def test_drawing_follows_a_shortened_line():
    state = at("GRWWWWWWWWW/G/G/G/G/G/G/RBBBBBBBBB B", "expert")
    assert "     0  1  2  3  4  5  6  7" in str(state).splitlines()


# ----- the account of each move ---------------------------------------------------------


def test_narration_tells_what_moved_where_and_why_that_far():
    before = stairgames.load("27").new_initial_state()
    after = before.clone()
    after.apply_move("0:3")
    assert narrate(before, 2, after) == [
        "White moves 3 discs (WWW, bottom to top) from field 0 to field 1: 1 stack, 1 field."
    ]


def test_narration_tells_when_a_field_leaves_the_line():
    before = at("RWWWW/GWWW/GWW/G/G/G/G/GB/RBBBBBBBB B", "advanced")
    after = before.clone()
    action = after.apply_move("7:2")
    lines = narrate(before, action, after)
    assert lines[0].startswith("Black moves 2 discs (GB, bottom to top) from field 7 to field 5")
    assert lines[1] == "Field 7 leaves the line with its grey base; the line now has 8 fields."


def test_narration_tells_how_fields_are_renumbered_after_white_empties_one():
    before = at("RWWWWWW/GWWW/G/G/G/G/G/G/RBBBBBBBBB W", "expert")
    after = before.clone()
    action = after.apply_move("0:7")  # white has 2 stacks: its red base goes to field 2
    assert narrate(before, action, after)[1] == (
        "Field 0 leaves the line with its red base; the line now has 8 fields, "
        "and field 2 is now field 1."
    )
    assert after.line.fields[1] == "GRWWWWWW"


def test_narration_of_a_pass():
    before = at("RWWWWWWWWWB/G/G/G/GB/G/G/G/RBBBBBBB W")
    after = before.clone()
    after.apply_action(PASS)
    assert narrate(before, PASS, after) == ["White cannot move and passes."]


def test_evaluation_is_the_result_at_the_end():
    state = at("RBBBB/G/G/G/G/G/G/G/RBBBBBWWWWWWWWW W")
    assert evaluate(state, 0) == 1.0 and evaluate(state, 1) == -1.0


def test_evaluation_averages_the_score_and_stack_differences():
    start = stairgames.load("27").new_initial_state()
    assert evaluate(start, 0) == 0.0
    start.apply_move("0:4")  # black's target keeps 5 white discs; white now has 2 stacks
    assert evaluate(start, 1) == ((5 - 9) / 27 + (1 - 2) / 9) / 2
    assert evaluate(start, 0) == -evaluate(start, 1)


# ----- play and replay -------------------------------------------------------------------


def test_terminal_rejects_bad_input_with_the_reason_and_asks_again(tmp_path):
    play, out = session(["8:1", "0:10", "zz", "0:4", "quit"], tmp_path)
    state = play.run()
    text = out.getvalue()
    assert "Not accepted: illegal move '8:1': field 8 is topped by black, not by white" in text
    assert "Not accepted: illegal move '0:10': field 0 has only 9 movable discs" in text
    assert "malformed move 'zz'" in text
    assert state.history_strings()[0] == "0:4"
    assert len(state.history()) == 2  # the computer answered


def test_terminal_undo_takes_back_the_move_and_the_reply(tmp_path):
    play, out = session(["0:4", "undo", "quit"], tmp_path, variant="advanced")
    state = play.run()
    assert "Took back your last move." in out.getvalue()
    assert state.history() == []


def test_terminal_lists_the_legal_moves(tmp_path):
    play, out = session(["moves", "quit"], tmp_path, variant="expert")
    play.run()
    assert "0:1 0:2 0:3 0:4 0:5 0:6 0:7 0:8 0:9 0:10" in out.getvalue()


def test_terminal_human_plays_to_the_end_and_the_record_is_saved(tmp_path):
    """A human (always the last legal move) against the computer, in the expert game,
    through its passes to the result; the saved record replays to the same end."""
    out = io.StringIO()
    play = TerminalSession(
        stairgames.load("27", variant="expert"),
        ["human", "random"],
        seed=7,
        record_path=tmp_path / "game.json",
        input_fn=lambda prompt: play.state.action_to_string(play.state.legal_actions()[-1]),
        output=out,
    )
    state = play.run()
    assert state.is_terminal()
    text = out.getvalue()
    assert "pass" in state.history_strings()[::2]  # the human, on white, had to pass
    # a forced pass is said once (issue 27: it was said three times)
    passes = state.history_strings()[::2].count("pass")
    assert text.count("white (human) has no move and passes (played for you).") == passes
    assert "White cannot move and passes." not in text
    assert "has no move and must pass" not in text
    assert isinstance(state, TwentySevenState)
    outcome = state.outcome()
    assert outcome is not None
    assert f"Game over. {outcome.reason}" in " ".join(text.split())  # wrapped to 80 columns
    record = json.loads((tmp_path / "game.json").read_text())
    assert record["moves"] == state.history_strings()
    assert record["result"] == outcome.reason and record["returns"] == state.returns()
    replayed = final_state(GameRecord.load(tmp_path / "game.json"))
    assert replayed.position() == state.position()


def test_cli_plays_each_variant_to_the_end_and_the_record_replays(tmp_path, capsys):
    for variant in ("basic", "advanced", "expert"):
        path = tmp_path / f"{variant}.json"
        args = ["play", "27", "--variant", variant, "--white", "random", "--black", "random"]
        assert main([*args, "--seed", "4", "--record", str(path), "--no-color"]) == 0
        capsys.readouterr()
        record = json.loads(path.read_text())
        assert record["result"].startswith(("White wins", "Black wins", "Draw"))
        assert record["game"] == "twenty_seven"
        assert record["options"] == {"variant": variant}
        assert main(["replay", "--no-color", str(path)]) == 0
        shown = capsys.readouterr().out
        assert shown.startswith("Start") and "Result:" in shown


def test_cli_refuses_an_unknown_variant(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["play", "27", "--variant", "hard"])
    assert exit_.value.code == 2
    assert "invalid choice: 'hard'" in capsys.readouterr().err
