"""The Japanese players read: every message of the catalog, rendered with sample arguments,
and real screens of each game, checked for English left in Japanese text (an ASCII word
that is not notation, a number or a name), for the rulebooks' words (issue 27) and for
one kind of punctuation: full-width 「：」「（）」「、」「。」 in Japanese sentences.

Notation stays as players type it: moves (``c3-d4``, ``P03@c2``, ``0:3``, ``pass``),
commands (``moves``, ``help``), options (``--seats``, ``first_player``), players and
levels as typed (``random``, ``medium``), file names and ``stairgames`` commands. The
site's pages (the lobby, a profile, the analysis and the analysis board) are read with the
same checks in Chromium by ``tests/test_web_japanese.py``."""

from __future__ import annotations

import io
import random
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

import stairgames
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.registry import get_spec
from stairgames.i18n import catalog_path, set_language
from stairgames.terminal import TerminalSession
from tests.scripted import scripted

CJK = "\u3000-\u303f\u3040-\u30ff\u3400-\u9fff\uff01-\uff60"
JAPANESE = re.compile(f"[{CJK}]")

# ----- sample arguments ----------------------------------------------------------------

SAMPLES: dict[str, object] = {
    "name": "赤",
    "colour": "白",
    "other": "黒",
    "winner": "白",
    "player": "赤",
    "first": "青",
    "white": 5,
    "black": 4,
    "light": 3,
    "dark": 2,
    "text": "c3-d4",
    "move": "c3-d4",
    "moves": "c3-d4、c3-b4",
    "example": "c3-d4",
    "card": "P03",
    "card_id": "P03",
    "cards": "P03、E06",
    "stock": "P03、E06",
    "cell": "c2",
    "square": "c3",
    "title": "ステアー",
    "game": "ステアー",
    "game_name": "stairs",
    "games": "stairs、twenty_seven",
    "studies": "city_of_stairs",
    "path": "records/stairs.json",
    "folder": "solved/stairs",
    "file": "cards.toml",
    "filename": "cards.toml",
    "source": "cards.toml",
    "where": "cards.toml",
    "position": "race ninjas=3,9 turn=red dice=-",
    "result": "白の勝ち",
    "outcome": "白の勝ち",
    "reason": "理由",
    "exc": "理由",
    "why": "理由",
    "error": "理由",
    "message": "理由",
    "status": "散歩中",
    "interests": "猫、パン屋、凧",
    "departure": "出発カード ②",
    "diary": "猫、凧",
    "reach": "スタック1個",
    "scores": "赤 5、青 4",
    "names": "赤と青",
    "level": "ふつう",
    "levels": "easy、medium、hard、expert",
    "kind": "nw",
    "type": "int",
    "prog": "stairgames play stairs",
    "default": "2",
    "choices": "easy, medium",
    "value": "7",
    "heading": "オプション",
    "seats": "2",
    "host": "127.0.0.1",
    "port": "8000",
}
"""Placeholder values by name (anything else is ``7``): Japanese words, notation, numbers."""


def fill(template: str) -> str:
    """``template`` with every ``{placeholder}`` and ``%(name)s`` filled from SAMPLES."""

    def sample(name: str) -> object:
        return SAMPLES.get(name, 7)

    parts = []
    for literal, field, spec, conversion in string.Formatter().parse(template):
        parts.append(literal)
        if field is not None:
            value = sample(field)
            value = repr(value) if conversion == "r" and isinstance(value, str) else value
            parts.append(format(value, spec) if spec and not isinstance(value, str) else str(value))
    text = "".join(parts)
    text = re.sub(r"%\((\w+)\)[rsd]", lambda m: str(sample(m.group(1))), text)
    return re.sub(r"%[sr]", "c3-d4", text)


def japanese_catalog() -> Iterator[tuple[str, str]]:
    """(message id, rendered Japanese) for every translated message and plural form."""
    with catalog_path("ja").open("rb") as po:
        catalog = read_po(po)
    for message in catalog:
        if not message.id:
            continue
        message_id = message.id if isinstance(message.id, str) else message.id[0]
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        for form in forms:
            if form:
                yield str(message_id), fill(str(form))


# ----- the checks ----------------------------------------------------------------------

NOTATION_WORDS = frozenset(
    re.split(
        r"\s+",
        """
    moves hint help undo agree quit pass swap offer accept decline yes no stop roll nw ne turn on
    ignore human online computer random greedy mcts alphabeta perfect easy medium hard
    expert time depth iterations noise stairgames list play replay show arena analyze serve
    solve cards figs step plots lang en ja ja_JP pip install ray matplotlib stairs
    twenty_seven ishigaki_race city_of_stairs basic advanced GAME POSITION FILE DIR LEVEL
    HOST NAME VALUE PLAYER PLAYERS COLOUR COMMAND SEED N LANG auto true false setup race
    goal rolloff over ninjas dice departures strolls stock city start characters arrived
    left view full public id icons event players variant size pie_rule agreement
    crumbling_wall crumbling_squares first_player options seats games jobs memory resume
    position TEXT prepare make try-larger show from max-games option record analysis ratings
    rebuild review back forward live RECORD SEAT kill moderate block mute OLD NEW
    JSON TOML PNG SQLite PostgreSQL UTF Ray Elo Bradley Terry Wilson GiB GB CI Ctrl Enter
    docs md data int declined agreed none solution skip puzzle puzzles generate verify RECORDS
    API BOT Bot Bearer Authorization read direct any URL bot swiss tables ISO
    db current upgrade downgrade REVISION Redis https end train npz Adam JAX GPU
    """.strip(),
    )
)
"""ASCII words a Japanese text may hold: commands, moves, options, fields of positions and
records, players and levels as typed, and names (formats, tools, statistics)."""

NOT_WORDS = [
    re.compile(r"`[^`]*`"),  # a command to type
    re.compile(r"'[^'\n]*'"),  # a literal: 'moves', 'K,?'
    re.compile(r"「[\x20-\x7e]*」"),  # notation in Japanese quotes: 「c3-d4」
    re.compile(r"\w+://\S*"),  # addresses
    re.compile(r"--?[\w-]+(=\S*)?"),  # options
    re.compile(r"[\w./-]*\.(json|toml|md|py|png|txt)(?![A-Za-z])"),  # file names
    re.compile(r"\S*[\d@=:/+<>\[\]]\S*"),  # moves, settings and cells: P03@c2, mcts:time=0.5
]

ASCII_WORD = re.compile(r"[A-Za-z][A-Za-z_-]*[A-Za-z]")
"""A word of two letters or more (one letter is notation: files, colours, icons)."""


def english_words(text: str) -> list[str]:
    """The ASCII words of ``text`` that are not notation, numbers or names."""
    for pattern in NOT_WORDS:
        text = pattern.sub(" ", text)
    return [word for word in ASCII_WORD.findall(text) if word not in NOTATION_WORDS]


GLOSSARY = {
    "駒": "コマ (Stairs rulebook)",
    "山(?!札)": "スタック (the rulebook's stack; 山札 is City of Stairs' deck)",
    "市松": "チェッカー模様 (Stairs rulebook)",
    "投了": "降参 (投了 is shogi's)",
    "棋譜": "記録 (棋譜 is shogi's and go's)",
    "終局": "終了 (終局 is shogi's and go's)",
    "指す|指せ|で打ちます": "できる, 入力する, プレイする (指す and 打つ are shogi's and go's)",
    "灰(?!色)": "灰色",
    "囲まれたマス": "強調されたマス (the board's word for the cells a card may go on)",
    "合法手が\\d+あります": "合法手が…通りあります",
    "コンピュータ(?!ー)": "コンピューター",
    "最高の高さ": "一番高い段",
    "ゲーム終了.*ゲーム終了": "one ゲーム終了",
}
"""Words of issue 27 that Japanese players should not read, with the word to use."""

MIXED_PUNCTUATION = re.compile(
    f"(?<=[{CJK}]) ?(?::(?=\\s|$)|[;(])|;|(?<!\\()\\)(?= ?[{CJK}])|(?<=[\\w}}]): (?=\\S)|\\.\\.\\."
)
"""ASCII punctuation inside Japanese: 「白の手番: 席 0」, 「(席 0) 好きなもの」, 「…; …」."""

ARGPARSE_PREFIX = re.compile(r"^[^:\n]+: (?=エラー|警告)|^使い方: |(?<=\n)使い方: ")
"""The ASCII ``prog: `` before argparse's error and the usage prefix stay as argparse
writes them (the usage's later lines are aligned under it)."""


def problems(text: str) -> list[str]:
    """Everything in a Japanese ``text`` players should not read, described."""
    found = [f"English {word!r}" for word in english_words(text)]
    found += [
        f"{match.group(0)!r}: say {word}"
        for pattern, word in GLOSSARY.items()
        if (match := re.search(pattern, text, re.DOTALL))
    ]
    if JAPANESE.search(text):
        bare = ARGPARSE_PREFIX.sub("", text)
        found += [f"ASCII {m.group(0)!r} in Japanese" for m in MIXED_PUNCTUATION.finditer(bare)]
    return found


def test_the_check_finds_english_words_shogi_words_and_mixed_punctuation() -> None:
    assert problems("「c3-d4」はできません：合法手の一覧は 'moves' で表示されます") == []
    assert problems("手: P03@c2 は --seats 2,3 と mcts:time=0.5、stairgames solve") != []
    assert problems("手：P03@c2 は --seats 2,3 と mcts:time=0.5、stairgames solve") == []
    assert english_words("first_player は 0 か None です") == ["None"]
    assert english_words("既定値 False") == ["False"]
    assert problems("棋譜を保存しました") and problems("赤 (席 0) 好きなもの: 猫; 未配布")
    assert problems("ストックの山札 14枚") == []
    assert problems("stairgames play stairs: エラー：不明な引数です：--bogus") == []


# ----- every message of the catalog ------------------------------------------------------


def test_every_japanese_message_reads_as_japanese() -> None:
    found = {
        message_id: (rendered, issues)
        for message_id, rendered in japanese_catalog()
        if (issues := problems(rendered))
    }
    assert found == {}


# ----- real screens ----------------------------------------------------------------------

GAMES = [
    ("stairs", {"pie_rule": True}),
    ("twenty_seven", {"variant": "expert"}),
    ("ishigaki_race", {"players": 3, "crumbling_wall": True}),
    ("city_of_stairs", {"players": 3}),
]


def positions(game: str, options: dict[str, Any], seed: int) -> Iterator[Any]:
    """The states of a random game, from the start to its end."""
    rng = random.Random(seed)
    state = stairgames.load(game, **options).new_initial_state()
    yield state
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        yield state


def screens(game: str, options: dict[str, Any]) -> Iterator[str]:
    """Every 7th position of two random games, and the last, drawn for a seat and for all."""
    spec = get_spec(stairgames.load(game, **options).name)
    for seed in range(2):
        last = None
        for index, state in enumerate(positions(game, options, seed)):
            last = state
            if index % 7 == 0:
                yield spec.render(state, colour=False, viewer=0)
        assert last is not None
        yield spec.render(last, colour=False, viewer=None)


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[game for game, _ in GAMES])
def test_each_game_draws_its_positions_in_japanese(game: str, options: dict[str, Any]) -> None:
    set_language("ja")
    found = {}
    for picture in screens(game, options):
        for line in picture.splitlines():
            if issues := problems(line):
                found[line] = issues
    assert found == {}


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[game for game, _ in GAMES])
def test_each_game_plays_in_the_terminal_in_japanese(
    tmp_path: Path, game: str, options: dict[str, Any]
) -> None:
    set_language("ja")
    out = io.StringIO()
    players = options.get("players", 2)
    session = TerminalSession(
        stairgames.load(game, **options),
        ["human"] + ["random"] * (players - 1),
        seed=5,
        record_path=tmp_path / "game.json",
        input_fn=scripted(["help", "moves", "zz", "quit"]),
        output=out,
    )
    session.run()
    found = {}
    for line in out.getvalue().splitlines():
        if issues := problems(line):
            found[line] = issues
    assert found == {}


SEAT_NUMBER = re.compile(r"席 ?\d")


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[game for game, _ in GAMES])
def test_screens_name_players_not_seat_numbers(game: str, options: dict[str, Any]) -> None:
    set_language("ja")
    shown = [
        line
        for picture in screens(game, options)
        for line in picture.splitlines()
        if SEAT_NUMBER.search(line)
    ]
    assert shown == []


def test_the_terminal_names_each_seat_and_level_in_japanese(tmp_path: Path) -> None:
    set_language("ja")
    out = io.StringIO()
    TerminalSession(
        stairgames.load("stairs"),
        ["human", "easy"],
        seed=5,
        record_path=tmp_path / "game.json",
        input_fn=scripted(["quit"]),
        output=out,
    ).run()
    assert out.getvalue().startswith("ステアー：白（人間）、黒（やさしい）\n")
