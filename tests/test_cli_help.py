"""``stairgames solve --help`` before a game is named prints real help and exits 0
(issue 49, point 8: it printed one line and exited 2)."""

from __future__ import annotations

import pytest

from stairgames.cli import main
from stairgames.core.registry import get_spec, list_games


def _solvable() -> list[str]:
    return [game["name"] for game in list_games() if get_spec(game["name"]).solver is not None]


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_solve_help_without_a_game_lists_the_games_and_where_their_flags_are(
    flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", flag]) == 0
    printed = capsys.readouterr()
    help_text = " ".join(printed.out.split())
    assert help_text.startswith("usage: stairgames solve GAME [options]")
    assert "games with a solver: " + ", ".join(_solvable()) in help_text
    assert "stairgames solve GAME --help lists the game's own flags" in help_text
    assert "--resume goes on" in help_text
    assert printed.err == ""


def test_solve_without_a_game_says_what_is_missing_and_fails(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["solve"]) == 2
    printed = capsys.readouterr()
    assert printed.out == ""
    assert "games with a solver: " in " ".join(printed.err.split())


def test_solve_help_is_in_japanese_too(capsys: pytest.CaptureFixture[str]) -> None:
    try:
        assert main(["--lang", "ja", "solve", "--help"]) == 0
    finally:
        main(["--lang", "en", "list"])
    out = capsys.readouterr().out
    assert "ソルバーのあるゲーム" in out and "使い方" in out
