"""argparse's own words ("usage:", "options:", its errors) in the player's language on the
command line, and unchanged in English."""

from __future__ import annotations

import argparse
import gettext
import inspect
import re

import pytest
from babel.messages.extract import extract_python

from stairgames.argparse_i18n import ARGPARSE_MESSAGES, argparse_in_current_language
from stairgames.cli import main
from stairgames.i18n import display_width

PROGRAMMER_ERRORS = {
    "'required' is an invalid argument for positionals",
    "%r is not callable",
    ".__call__() not defined",
    'argument "-" with mode %r',
    "cannot have multiple subparser arguments",
    "cannot merge actions - two groups are named %r",
    "conflicting subparser alias: %s",
    "conflicting subparser: %s",
    "dest= is required for options like %r",
    "invalid conflict_resolution value: %r",
    "invalid option string %(option)r: must start with a character %(prefix_chars)r",
    "mutually exclusive arguments must be optional",
    ("conflicting option string: %s", "conflicting option strings: %s"),
}
"""argparse's messages about a mistake in building a parser, which no player meets."""

UNREACHABLE = {("expected %s argument", "expected %s arguments")}
"""Only for ``nargs=N``, which stairgames' parsers do not use (a plural: Babel extracts it
only where the forms are passed to ``ngettext``)."""


def argparse_messages_of_this_python() -> set[str | tuple[str, str]]:
    """The message ids argparse asks gettext for, read from its source as Babel would."""
    with open(inspect.getsourcefile(argparse) or "", "rb") as source:
        found = extract_python(source, {"_": None, "ngettext": (1, 2)}, [], {})
        return {
            message if isinstance(message, str) else (message[0], message[1])
            for _line, _function, message, _comments in found
            if message
        }


def english_words(message: str) -> list[str]:
    """The fixed words of an argparse message, without its ``%`` placeholders."""
    parts = re.split(r"%\(\w+\)[sr]|%[sr]", message)
    return [part.strip(" :\n") for part in parts if re.search("[a-z]{3}", part)]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """The exit status of ``stairgames ARGS`` and what it printed (out and err)."""
    try:
        status = main(list(args))
    except SystemExit as stop:  # argparse's --help and errors
        status = int(stop.code or 0)
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def test_every_word_argparse_shows_players_is_listed_for_translation():
    listed = set(ARGPARSE_MESSAGES)
    assert argparse_messages_of_this_python() - PROGRAMMER_ERRORS - UNREACHABLE <= listed


def test_play_help_in_japanese_has_no_english_argparse_words(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    status, text = run(capsys, "--lang", "ja", "play", "stairs", "--help")
    assert status == 0
    assert text.startswith("使い方: stairgames play stairs [-h]")
    assert "\nオプション：\n  -h, --help            このヘルプを表示して終了\n" in text
    for message in ARGPARSE_MESSAGES:
        for words in english_words(message):
            assert words not in text, words
    status, text = run(capsys, "--lang", "ja", "show", "--help")
    assert "\n位置引数：\n  GAME " in text and "positional" not in text


def test_help_in_japanese_fits_80_columns_and_usage_lines_up(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    status, text = run(capsys, "--lang", "ja", "play", "city_of_stairs", "--help")
    assert status == 0
    lines = text.splitlines()
    assert max(display_width(line) for line in lines) <= 80
    first, second = lines[0], lines[1]
    assert first.startswith("使い方: stairgames play city_of_stairs [-h]")
    column = display_width("使い方: stairgames play city_of_stairs ")
    assert second[:column].strip() == "" and second[column] == "["


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["play", "stairs", "--bogus"], "stairgames play stairs: エラー：不明な引数です：--bogus"),
        (
            ["play", "stairs", "--level", "god"],
            "エラー：引数 --level：選べない値です：'god'"
            "（'easy', 'medium', 'hard', 'expert' から選んでください）",
        ),
        (["play", "stairs", "--seed"], "エラー：引数 --seed：値が1つ必要です"),
        (["show", "stairs"], "stairgames show: エラー：次の引数が必要です：POSITION"),
        (["arena"], "エラー：ゲームと --players を指定してください（または --show FILE）"),
    ],
)
def test_a_bad_argument_is_refused_in_japanese(capsys, args, expected):
    status, text = run(capsys, "--lang", "ja", *args)
    assert status == 2
    assert text.startswith("使い方: stairgames ")
    assert expected in text
    assert "usage:" not in text and "error:" not in text


def test_in_english_argparse_speaks_as_it_always_did(capsys):
    status, text = run(capsys, "play", "stairs", "--help")
    assert status == 0
    assert text.startswith("usage: stairgames play stairs [-h]")
    assert "\noptions:\n  -h, --help            show this help message and exit\n" in text
    status, text = run(capsys, "play", "stairs", "--level", "god")
    assert status == 2
    assert text.endswith(
        "stairgames play stairs: error: argument --level: invalid choice: 'god' "
        "(choose from 'easy', 'medium', 'hard', 'expert')\n"
    )


def test_argparse_gets_its_own_gettext_back_after_the_command_line(capsys):
    run(capsys, "--lang", "ja", "play", "stairs", "--help")
    assert argparse._ is gettext.gettext  # type: ignore[attr-defined]
    assert argparse.ngettext is gettext.ngettext  # type: ignore[attr-defined]
    assert argparse.ArgumentParser(prog="x").format_usage() == "usage: x [-h]\n"


def test_argparse_follows_the_language_chosen_inside(capsys):
    from stairgames.i18n import set_language

    with argparse_in_current_language():
        set_language("ja")
        assert argparse.ArgumentParser(prog="x").format_usage() == "使い方: x [-h]\n"
        set_language("en")
        assert argparse.ArgumentParser(prog="x").format_usage() == "usage: x [-h]\n"
