"""Issue 27, the terminal as new players met it, through a pseudo-terminal of 80×24:
every game and player count keeps what just happened on screen at each prompt, two
people at one keyboard pass it between private screens, and offers want a real answer."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import stairgames
from stairgames.terminal import TerminalSession
from tests.pty_screen import CLEAR, LINES, PtyPlay
from tests.scripted import scripted

PROMPT = r"\)> $"


def _first_move(out: str, play: PtyPlay) -> str:
    """The first legal move, from the hint or from ``moves``."""
    listed: list[str] = re.findall(r"Legal moves \(\d+\): (\S+)", out)
    if listed:
        return listed[-1]
    play.answer("moves")
    out = play.read_until(PROMPT)
    found: list[str] = re.findall(r"typed like (\S+):|Legal moves \(\d+\): (\S+)", out)[-1]
    return found[0] or found[1]


GAMES = [
    ("stairs", ["--light", "human", "--dark", "random"]),
    ("twenty_seven", ["--white", "human", "--black", "random"]),
    ("ishigaki_race", ["--seats", "human,random"]),
    ("ishigaki_race", ["--players", "3", "--seats", "human,random,random"]),
    (
        "ishigaki_race",
        ["--players", "4", "--crumbling-wall", "--seats", "human,random,random,random"],
    ),
    ("city_of_stairs", ["--seats", "human,random"]),
    ("city_of_stairs", ["--players", "3", "--seats", "human,random,random"]),
    ("city_of_stairs", ["--players", "4", "--seats", "human,random,random,random"]),
]


@pytest.mark.parametrize(("game", "flags"), GAMES, ids=[f"{g}-{' '.join(f)}" for g, f in GAMES])
def test_each_prompt_keeps_what_happened_since_the_last_on_an_80_by_24_screen(
    tmp_path: Path, game: str, flags: list[str]
) -> None:
    """Defect: City of Stairs while building (29 rows), Ishigaki Race with 3 and 4 players
    (25, 31) pushed the other players' moves off the screen before the prompt."""
    play = PtyPlay(
        ["play", game, *flags, "--seed", "5", "--record", str(tmp_path / "r.json")], cwd=tmp_path
    )
    try:
        for turn in range(8):
            out = play.read_until(PROMPT)
            since = play.since_last_answer()
            assert len(since) <= LINES, "\n".join(since)
            assert all(len(row) <= 80 for row in since)
            screen = "\n".join(play.screen())
            if turn and game == "city_of_stairs" and "to place a stock card" in screen:
                # the other players' placements are marked on the board: •B, •G, •Y
                assert re.search(r"•[BGY]\|", screen), screen
            if turn and game == "ishigaki_race":
                assert any("rolls" in row for row in play.screen()), "\n".join(play.screen())
            play.answer(_first_move(out, play))
    except EOFError:
        pass  # the game ended first
    finally:
        play.kill()


SESSION_FROM_POSITION = """
import sys
import stairgames
from stairgames.terminal import TerminalSession
game = stairgames.load(sys.argv[1])
session = TerminalSession(game, sys.argv[3].split(','), seed=5, record_path=None)
session.state = game.state_from_position(sys.argv[2])
session.run()
"""


def session_text(tmp_path: Path, game: str, seats: list[str], answers: list[str]) -> str:
    """What a terminal session of ``game`` writes, its people answering ``answers``."""
    out = io.StringIO()
    TerminalSession(
        stairgames.load(game),
        seats,
        seed=5,
        record_path=tmp_path / "r.json",
        input_fn=scripted(answers),
        output=out,
    ).run()
    return out.getvalue()


def test_27_tall_stacks_keep_the_other_players_move_on_screen(tmp_path: Path) -> None:
    """Defect: with a stack of 11 to 14 discs, 27 wrote 27 rows between two prompts."""
    play = PtyPlay(
        ["27", "RWWWWWWWWWBBB/G/G/G/G/G/G/G/RBBBBBB B", "random,human"],
        cwd=tmp_path,
        code=SESSION_FROM_POSITION,
    )
    try:
        for _turn in range(3):
            out = play.read_until(PROMPT)
            since = play.since_last_answer()
            assert len(since) <= LINES, "\n".join(since)
            if _turn:
                assert any("plays" in row or "pass" in row for row in since), "\n".join(since)
            play.answer(_first_move(out, play))
    except EOFError:
        pass
    finally:
        play.kill()


def _shows_departure(screen: str, colour: str) -> bool:
    """Whether the seat line of ``colour`` shows its departure card."""
    return any(
        part.startswith(f"{colour} likes") and re.search(r"departure [①-⑦]", part)
        for part in re.split(r"   |\n", screen)
    )


def test_city_of_stairs_two_people_pass_the_keyboard_between_private_screens(
    tmp_path: Path,
) -> None:
    """Defect: each departure card showed on its owner's turn with nothing between turns."""
    play = PtyPlay(
        ["play", "city_of_stairs", "--seats", "human,human", "--seed", "5", "--record", "r.json"],
        cwd=tmp_path,
    )
    try:
        play.read_until(r"Pass the keyboard to \w+ \(human\), then press Enter\. $")
        first = re.findall(r"Pass the keyboard to (\w+)", play.output)[-1]
        assert not re.search(r"departure [①-⑦]", play.output)
        play.answer("")
        out = play.read_until(PROMPT)
        assert out.count(CLEAR) >= 1
        screen = "\n".join(play.screen())
        assert _shows_departure(screen, first), screen
        play.answer(_first_move(out, play))
        play.read_until(r"Pass the keyboard to \w+ \(human\), then press Enter\. $")
        # the first person's card is cleared away before the keyboard changes hands
        screen = "\n".join(play.screen())
        assert not re.search(r"departure [①-⑦]", screen), screen
        # and from the terminal's history (issue 49): tmux and many others keep cleared
        # screens there, where the next person could scroll up to it
        last_card = max(m.end() for m in re.finditer(r"departure [①-⑦]", play.output))
        assert "\x1b[3J" in play.output[last_card:], "the scrollback keeps the card"
        assert "history are cleared" in play.output[last_card:]
        second = re.findall(r"Pass the keyboard to (\w+)", play.output)[-1]
        assert second != first
        play.answer("")
        play.read_until(PROMPT)
        screen = "\n".join(play.screen())
        assert _shows_departure(screen, second), screen
        assert not _shows_departure(screen, first), screen
        assert re.search(rf"{first} places", screen), screen  # what the first one did
        play.answer("quit")
        assert play.finish() == 0
    finally:
        play.kill()


def test_a_bad_answer_to_an_offer_is_refused_and_asked_again(tmp_path: Path) -> None:
    """Defect: ``maybe``, a typo or an empty line counted as "no" and used the offer up."""
    out = io.StringIO()
    lines = ["d3-c4", "agree", "maybe", "", "yse", "yes"]
    play = TerminalSession(
        stairgames.load("stairs"),
        ["human", "human"],
        seed=5,
        record_path=tmp_path / "r.json",
        input_fn=scripted(lines),
        output=out,
    )
    state = play.run()
    text = out.getvalue()
    assert text.count("Please answer yes or no.") == 3
    assert state.history_strings()[-2:] == ["offer", "accept"]


def test_replay_refuses_an_unknown_key_says_who_moved_and_ends_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Defects: any unknown key acted as Enter; steps did not say who moved; the last line
    was raw data (``returns [-1.0, 1.0]``)."""
    from stairgames.cli import main

    play = TerminalSession(
        stairgames.load("stairs"),
        ["random", "random"],
        seed=5,
        record_path=tmp_path / "r.json",
        output=io.StringIO(),
    )
    state = play.run()
    answers = iter(["x", "p", ""] + [""] * len(state.history()))
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    assert main(["replay", str(tmp_path / "r.json"), "--step"]) == 0
    out = capsys.readouterr().out
    assert "Unknown key 'x'" in out
    shown = [line for line in out.splitlines() if re.search(r"\(\d+/\d+\)$", line)]
    assert shown[:2] == [f"Start  (1/{len(state.history()) + 1})", shown[1]]
    assert re.match(r"1\. light \(random\): \S+  \(2/", shown[1])
    start = stairgames.load("stairs").new_initial_state().position()
    assert f"Position: {start}" in out
    assert out.splitlines()[-1].startswith("Result: Light wins") or out.splitlines()[-1].startswith(
        "Result: Dark wins"
    )
    assert "returns" not in out


def test_position_command_prints_the_position_text_that_show_draws(tmp_path: Path) -> None:
    out = io.StringIO()
    play = TerminalSession(
        stairgames.load("stairs"),
        ["human", "human"],
        seed=5,
        record_path=tmp_path / "r.json",
        input_fn=scripted(["d3-c4", "position", "quit"]),
        output=out,
    )
    state = play.run()
    assert f"Position: {state.position()}" in out.getvalue()


def test_preparing_the_computer_player_says_how_long_and_when_it_is_ready(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Defect: "(first time only, a few seconds)…", then nothing for some 30 seconds."""
    from stairgames.games.stairs.research import endgame_kernel as stairs_kernel

    monkeypatch.setattr(stairs_kernel.KERNEL, "cold", lambda: True)
    out = io.StringIO()
    TerminalSession(
        stairgames.load("stairs"),
        ["human", "expert"],
        seed=1,
        record_path=tmp_path / "g.json",
        output=out,
    )
    text = out.getvalue()
    assert "5 to 30 seconds" in text and "a few seconds" not in text
    assert "stairgames prepare" in text
    assert re.search(r"The computer player is ready \(\d+ s\)\.", text), text


def test_the_prompt_edits_lines_recalls_them_and_completes_commands(tmp_path: Path) -> None:
    """Defect: no line editing or history, the arrow keys printed ``^[[A``. With
    :mod:`readline`, Up recalls the last line and Tab completes a command or a move."""
    play = PtyPlay(["play", "stairs", "--seats", "human,human", "--record", "r.json"], cwd=tmp_path)
    try:
        play.read_until(PROMPT)
        play.answer("moves")
        play.read_until(PROMPT)
        play.answer("\x1b[A")  # Up, then Enter: "moves" again
        out = play.read_until(PROMPT)
        assert "Legal moves (110), grouped" in out and "Not accepted" not in out
        assert "^[[A" not in play.output
        play.answer("posi\t")  # Tab completes "position"
        out = play.read_until(PROMPT)
        assert "Position: L,D,L,D,L,D/" in out, out
        play.answer("quit")
        assert play.finish() == 0
    finally:
        play.kill()


def test_a_long_refusal_is_wrapped_at_words_within_80_columns(tmp_path: Path) -> None:
    """Defect: long refusals were broken mid-word by the terminal."""
    text = session_text(tmp_path, "city_of_stairs", ["human", "random"], ["zz9", "quit"])
    start = text.index("Not accepted:")
    refusal = text[start:].splitlines()[:4]
    assert all(len(line) <= 80 for line in refusal), refusal
    assert refusal[1].startswith("  ")  # the refusal goes on, indented
    assert (
        "\n".join(refusal)
        .replace("\n  ", " ")
        .startswith("Not accepted: malformed move 'zz9': place a stock card as CARD@CELL")
    )


def test_refusals_leave_out_the_rulebooks_section_codes(tmp_path: Path) -> None:
    """Defect: refusals ended in rule codes such as (S4), meaningless to new players."""
    text = session_text(tmp_path, "stairs", ["human", "human"], ["pass", "quit"])
    assert "passing is allowed only with no move to make" in text
    assert not re.search(r"\([STCI]\d+\)", text)


def test_the_swap_is_offered_and_the_new_colours_are_said(tmp_path: Path) -> None:
    """Defect: nothing said that ``swap`` was available, nor that colours changed."""
    out = io.StringIO()
    play = TerminalSession(
        stairgames.load("stairs", pie_rule=True),
        ["human", "human"],
        seed=5,
        record_path=tmp_path / "r.json",
        input_fn=scripted(["d3-c4", "swap", "quit"]),
        output=out,
    )
    play.run()
    text = out.getvalue()
    assert "Pie rule: instead of moving, you may type swap to exchange colours." in text
    assert "Colours exchanged: light (human) now plays dark." in text
    assert "Colours exchanged: dark (human) now plays light." in text


@pytest.mark.parametrize("name", ["stairs", "27"])
def test_the_end_says_neither_player_can_move(name: str) -> None:
    """Defect: Stairs and 27 never said the game ended because neither player could move."""
    import random

    from stairgames.core.registry import get_spec

    state = stairgames.load(name).new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    picture = get_spec(name).render(state, colour=False, viewer=None)
    assert "Neither player can move, so the game is over." in picture


def test_play_help_lists_every_seat_the_game_may_have(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Defect: ``--yellow``/``--green`` appeared in ``--help`` only with ``--players N``."""
    from stairgames.cli import main

    for game in ("ishigaki_race", "city_of_stairs"):
        with pytest.raises(SystemExit):
            main(["play", game, "--help"])
        out = capsys.readouterr().out
        assert "--yellow" in out and "--green" in out
        assert "mcts:iterations=N" in " ".join(out.split())


def test_prepare_compiles_every_level_ahead_so_no_first_game_waits(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Defect: the first computer game waited for compiling (now done by ``stairgames
    prepare``, which ``make serve`` and ``make play`` run when they install)."""
    from stairgames.agents import LEVEL_NAMES, make_agent
    from stairgames.cli import main

    assert main(["prepare", "nim"]) == 2  # refused, naming the games
    assert "stairs" in capsys.readouterr().err
    assert main(["prepare"]) == 0  # every game (what make runs)
    assert "Ishigaki Race: the computer players are ready" in capsys.readouterr().out
    assert main(["prepare", "stairs", "twenty_seven"]) == 0
    printed = capsys.readouterr().out
    assert re.search(r"Stairs: the computer players are ready \(\d+\.\d s\)", printed)
    assert re.search(r"27: the computer players are ready", printed)
    for name in ("stairs", "twenty_seven"):
        game = stairgames.load(name)
        for level in LEVEL_NAMES:
            assert not any(w.cold() for w in make_agent(level, 0).warm_ups(game)), (name, level)
