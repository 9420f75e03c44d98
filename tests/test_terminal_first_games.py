"""The terminal a new user meets: screens that fit 80×24, moves on request and grouped,
the notation in ``help``, a forced pass played for you, short echoes, Ctrl-C."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

import stairgames
from stairgames.cli import main
from stairgames.terminal import TerminalSession, group_moves
from tests.scripted import scripted
from tests.stairs_helpers import build


def session(
    game_name: str,
    lines: list[str | type[BaseException]],
    tmp_path: Path,
    seats: tuple[str, ...] = ("human", "random"),
    **options: object,
) -> tuple[TerminalSession, io.StringIO]:
    out = io.StringIO()
    play = TerminalSession(
        stairgames.load(game_name, **options),
        list(seats),
        seed=5,
        record_path=tmp_path / "game.json",
        input_fn=scripted(lines),
        output=out,
    )
    return play, out


def screens(text: str) -> list[list[str]]:
    """The output cut at each prompt: what a 24-line screen must hold at once."""
    return [chunk.splitlines() for chunk in text.split("\n\n")]


def test_stairs_opening_screen_fits_80_by_24_and_lists_the_110_moves_only_on_request(tmp_path):
    play, out = session("stairs", [], tmp_path)
    play.run()
    text = out.getvalue()
    turn = text[: text.index("110 legal moves")]
    assert len(turn.splitlines()) + 2 <= 24
    assert "110 legal moves: type 'moves' to list them." in text
    assert "b1-b2" not in text


def test_stairs_moves_on_request_are_grouped_by_piece_within_80_columns(tmp_path):
    play, out = session("stairs", ["moves"], tmp_path)
    play.run()
    text = out.getvalue()
    after = text[text.index("Legal moves (110), grouped") :].splitlines()[1:]
    listing = after[: next(i for i, line in enumerate(after) if "→" not in line)]
    assert len(listing) <= 8
    assert listing[0].startswith("b1 → b2 c2 c1 a1 a2")
    assert all(len(line) <= 80 for line in listing)
    groups = [part for line in listing for part in line.split("   ")]
    assert sum(len(group.split(" → ")[1].split()) for group in groups) == 110


def test_group_moves_writes_what_moves_once_and_leaves_plain_words_alone():
    assert group_moves(["c3-b4", "c3-c4", "d3-c4", "pass"]) == ["c3 → b4 c4", "d3 → c4", "pass"]
    assert group_moves(["P08@b1", "P08@d1", "E14@b1"]) == ["P08 → b1 d1", "E14 → b1"]


def test_help_names_the_games_notation(tmp_path):
    for game, fragment in [
        ("stairs", "c3-d4 moves your piece from c3"),
        ("27", "F:K moves the top K discs"),
        ("ishigaki_race", "stop keeps the one die; roll rolls the second"),
        ("city_of_stairs", "P03@c2 puts stock card P03 on cell c2"),
    ]:
        play, out = (
            session(game, ["help"], tmp_path, first_player=0)
            if game
            in (
                "ishigaki_race",
                "city_of_stairs",
            )
            else session(game, ["help"], tmp_path)
        )
        play.run()
        assert fragment in out.getvalue(), game


def test_a_lone_pass_is_played_for_the_human_and_said_on_screen(tmp_path):
    play, out = session("stairs", ["quit"], tmp_path, seats=("human", "human"))
    play.state = build({"c2": "L", "b2": "DD", "c3": "DD"})
    state = play.run()
    assert state.history_strings() == ["pass"]
    assert "light (human) has no move and passes (played for you)." in out.getvalue()


def test_a_long_bad_input_is_echoed_shortened(tmp_path):
    pasted = "c3-d4 " + "and then some more words " * 8
    play, out = session("stairs", [pasted], tmp_path)
    play.run()
    text = out.getvalue()
    refusal = next(line for line in text.splitlines() if line.startswith("Not accepted"))
    assert "'c3-d4 and then some mor…'" in refusal
    assert pasted.strip() not in text


def test_ctrl_c_at_the_prompt_stops_and_saves_the_record_like_quit(tmp_path):
    play, out = session("stairs", ["d3-c4", KeyboardInterrupt], tmp_path)
    state = play.run()
    assert "Game stopped." in out.getvalue()
    record = json.loads((tmp_path / "game.json").read_text())
    assert record["moves"] == state.history_strings()[:2] and record["moves"][0] == "d3-c4"


def test_ctrl_c_while_the_computer_thinks_saves_the_record_too(tmp_path):
    play, out = session("stairs", [], tmp_path, seats=("random", "random"))

    class Interrupting:
        def act(self, state: object) -> int:
            raise KeyboardInterrupt

    play.agents[1] = Interrupting()  # type: ignore[assignment]
    state = play.run()
    assert "Game stopped." in out.getvalue()
    assert json.loads((tmp_path / "game.json").read_text())["moves"] == state.history_strings()
    assert len(state.history()) == 1


def test_ishigaki_race_screen_keeps_the_account_of_the_other_turns(tmp_path):
    play, out = session(
        "ishigaki_race",
        ["stop"] * 3,
        tmp_path,
        seats=("human", "random", "random", "random"),
        players=4,
        first_player=0,
        crumbling_wall=True,
    )
    play.run()
    text = out.getvalue()
    for prompt_at in [i for i in range(len(text)) if text.startswith("Legal moves (2)", i)][1:]:
        screen = text[:prompt_at].splitlines()[-22:]
        assert any("rolls" in line for line in screen[:10]), "\n".join(screen)
        assert all(len(line) <= 80 for line in screen)


def test_replay_steps_through_a_game_forward_back_and_quits(tmp_path, capsys, monkeypatch):
    play, _ = session("stairs", ["d3-c4", "quit"], tmp_path)
    play.run()
    answers = iter(["", "", "b", "q"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    assert main(["replay", str(tmp_path / "game.json"), "--step"]) == 0
    out = capsys.readouterr().out
    shown = [line for line in out.splitlines() if "/3)" in line]
    reply = play.state.history_strings()[1]
    first = "1. light (human): d3-c4  (2/3)"
    assert shown == ["Start  (1/3)", first, f"2. dark (random): {reply}  (3/3)", first]
    assert "Result" not in out


def test_replay_without_step_shows_every_position_and_the_result_once(tmp_path, capsys):
    play, _ = session("stairs", [], tmp_path, seats=("random", "random"))
    play.run()
    assert main(["replay", str(tmp_path / "game.json")]) == 0
    out = capsys.readouterr().out
    assert out.count("Result: ") == 1


def test_every_screen_of_stairs_and_27_fits_80_by_24():
    """Random games to the end: the drawing with its prompt fits 24 lines of 80 columns;
    27's tallest stacks lay the line on its side, and long sentences wrap."""
    from stairgames.core.registry import get_spec

    for name, options in [("stairs", {}), ("27", {"variant": "expert"}), ("27", {})]:
        spec = get_spec(name)
        for seed in range(12):
            rng = random.Random(seed)
            state = stairgames.load(name, **options).new_initial_state()
            while True:
                picture = spec.render(state, colour=False, viewer=0).splitlines()
                assert len(picture) + 1 <= 24, "\n".join(picture)
                assert max(len(line) for line in picture) <= 80, "\n".join(picture)
                if state.is_terminal():
                    break
                state.apply_action(rng.choice(state.legal_actions()))


def test_27_draws_a_stack_taller_than_14_lying_down_base_first():
    from stairgames.games.twenty_seven import render_line

    state = stairgames.load("27").state_from_position("RWWWWWWWWWBBBBBBBBB/G/G/G/G/G/G/G/R W")
    rows = render_line(state).splitlines()  # type: ignore[arg-type]
    assert rows[1] == "field  base → top"
    assert rows[2] == "    0  R W W W W W W W W W B B B B B B B B B"
    assert rows[3] == "    1  G"


@pytest.mark.parametrize("language", ["en", "ja"])
def test_help_and_every_games_notation_fit_80_columns(language):
    from stairgames.core.registry import game_names, get_spec
    from stairgames.i18n import _, display_width, set_language
    from stairgames.terminal import help_text

    set_language(language)
    for name in game_names():
        text = help_text() + "\n" + _(get_spec(name).help)
        assert max(display_width(line) for line in text.splitlines()) <= 80, text


@pytest.mark.parametrize("language", ["en", "ja"])
def test_what_the_table_is_told_is_broken_at_words_to_80_columns(language, tmp_path):
    """The terminal breaks a long sentence it tells (the computer compiling, a result)
    at spaces, or between Japanese characters, instead of letting the terminal cut a
    word at column 80; lines already short are kept as they are."""
    from stairgames.i18n import _, display_width, set_language

    set_language(language)
    try:
        play, out = session("stairs", [], tmp_path)
        sentence = _(
            "The computer player's fast code is being compiled in the background "
            "(first time only: 10 to 60 seconds, by the machine). Until it is "
            "ready the computer plays a stand-in without the fast code (a "
            "plain-Python search in the same time, or the game's quicker "
            "estimate), which is weaker."
        )
        out.truncate(0)
        out.seek(0)
        play.tell(sentence + "\nshort line")
    finally:
        set_language("en")
    lines = out.getvalue().splitlines()
    assert len(lines) >= 3 and lines[-1] == "short line"
    assert max(display_width(line) for line in lines) <= 80
    joiner = " " if language == "en" else ""
    assert joiner.join(lines[:-1]) == sentence
    assert play.account[-len(lines) :] == lines  # the next person's screen shows the same
