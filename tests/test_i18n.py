"""Japanese (and English) for every text players read: the catalogs, the choice of
language, translated errors, and the terminal and command line in Japanese."""

from __future__ import annotations

import io
import json
import random
import re
import string
import tomllib
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po

import stairgames
from stairgames.cli import main
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.errors import IllegalMoveError, StairgamesError
from stairgames.i18n import (
    LOCALE_DIR,
    Count,
    Lines,
    Names,
    Text,
    _,
    catalog_path,
    current_language,
    language_from_environment,
    localize,
    ngettext,
    set_language,
    text_json,
    translate,
    wrap,
)
from stairgames.terminal import TerminalSession
from tests.scripted import scripted

SOURCES = Path(stairgames.__file__).parent
ROOT = SOURCES.parent.parent


def extracted_ids() -> set[str | tuple[str, str]]:
    """Every message marked in the sources, as Babel extracts it (what `make messages` does)."""
    ids: set[str | tuple[str, str]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(SOURCES), method_map=[("**.py", "python")], keywords=DEFAULT_KEYWORDS
    ):
        ids.add(message if isinstance(message, str) else (message[0], message[1]))
    return ids


def catalog_ids(path: Path) -> dict[object, object]:
    """Message id (a plural's is a tuple of its forms) to translation, for a .po or .pot."""
    with path.open("rb") as po:
        catalog = read_po(po)
    return {
        message.id if isinstance(message.id, str) else tuple(message.id): message.string
        for message in catalog
        if message.id
    }


def placeholders(text: str) -> set[str]:
    """The named fields of a ``str.format`` template."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.mark.slow
def test_every_message_in_the_sources_has_a_japanese_translation():
    japanese = catalog_ids(catalog_path("ja"))
    untranslated = []
    for message_id in extracted_ids():
        translation = japanese.get(message_id)
        forms = translation if isinstance(translation, tuple) else (translation,)
        if not all(isinstance(form, str) and form.strip() for form in forms):
            untranslated.append(message_id)
    assert untranslated == []


def test_the_template_is_current_with_the_sources():
    assert set(catalog_ids(LOCALE_DIR / "stairgames.pot")) == extracted_ids()


def test_the_catalog_holds_no_message_the_sources_dropped():
    assert set(catalog_ids(catalog_path("ja"))) <= extracted_ids()


def test_every_translation_uses_the_same_named_placeholders_and_formats():
    """Every placeholder is kept, but for one: a seat's number (counted from 0, for
    programs) may be left out where the sentence names the player (``{name}``)."""
    japanese = catalog_ids(catalog_path("ja"))
    for message_id, translation in japanese.items():
        sources = message_id if isinstance(message_id, tuple) else (message_id,)
        forms = translation if isinstance(translation, tuple) else (translation,)
        expected = set().union(*(placeholders(source) for source in sources))
        for form in forms:
            assert isinstance(form, str)
            found = placeholders(form)
            if {"seat", "name"} <= expected and "name" in found:
                found |= {"seat"}
            assert found == expected, (message_id, form)
            form.format(**dict.fromkeys(expected, "x"))


def test_plurals_are_chosen_by_count():
    assert ngettext("{count} point", "{count} points", 1).format(count=1) == "1 point"
    assert ngettext("{count} point", "{count} points", 2).format(count=2) == "2 points"
    set_language("ja")
    assert ngettext("{count} point", "{count} points", 1).format(count=1) == "1点"
    assert str(Count("{count} point", "{count} points", 1)) == "1 point"


def test_the_locale_chooses_the_language_and_lang_overrides_it():
    assert language_from_environment({"LANG": "ja_JP.UTF-8"}) == "ja"
    assert language_from_environment({"LC_ALL": "ja_JP.UTF-8", "LANG": "en_US.UTF-8"}) == "ja"
    assert language_from_environment({"LC_MESSAGES": "C", "LANG": "ja_JP.UTF-8"}) == "en"
    assert language_from_environment({"LANGUAGE": "fr:ja", "LANG": "en_US"}) == "ja"
    assert language_from_environment({}) == "en"
    with pytest.raises(ValueError, match="unknown language"):
        set_language("xx")


def test_an_error_keeps_its_english_message_and_carries_an_id_and_arguments():
    state = stairgames.load("stairs").new_initial_state()
    with pytest.raises(IllegalMoveError) as raised:
        state.apply_move("c3-d4")
    error = raised.value
    assert str(error) == "illegal move 'c3-d4': the piece on top of c3 is not yours"
    assert error.message_id == "illegal move {text!r}: {reason}"
    assert error.arguments["text"] == "c3-d4"
    set_language("ja")
    assert str(error) == "illegal move 'c3-d4': the piece on top of c3 is not yours"
    assert translate(error) == "「c3-d4」はできません：c3の一番上のコマはあなたのものではありません"


def test_an_error_without_an_id_is_shown_in_english():
    set_language("ja")
    assert translate(StairgamesError("something broke")) == "something broke"


def test_nested_texts_names_and_counts_are_localized():
    text = Text(
        "{scores}: {names} share the win with {points}",
        {
            "scores": Names((Text("{name} {points}", {"name": Text("red"), "points": 5}),), False),
            "names": Names(("blue", "green")),
            "points": Count("{count} point", "{count} points", 1),
        },
    )
    assert str(text) == "red 5: blue and green share the win with 1 point"
    set_language("ja")
    assert localize(text) == "赤 5：青と緑が1点で勝利を分けあいます"


def test_lines_list_texts_one_a_line_and_translate_each_inside_an_error():
    lines = Lines((Text("{name} {points}", {"name": Text("red"), "points": 5}), "red"))
    error = StairgamesError(
        message_id="{count} problems:\n{lines}", arguments={"lines": lines, "count": 2}
    )
    assert str(error) == "2 problems:\n  - red 5\n  - red"
    set_language("ja")
    assert localize(lines) == "  - 赤 5\n  - red"
    assert translate(error) == "2 problems:\n  - 赤 5\n  - red"  # an unknown id stays English


def test_japanese_lines_wrap_between_wide_characters_within_the_width():
    lines = wrap("あいうえお" * 10, 20)
    assert all(len(line) * 2 <= 20 for line in lines) and "".join(lines) == "あいうえお" * 10


def test_a_wrapped_line_never_starts_with_closing_nor_ends_with_opening_punctuation():
    assert wrap("あいうえおかきくけ。（さしす）せそ", 20) == [
        "あいうえおかきくけ。",
        "（さしす）せそ",
    ]
    assert wrap("あ" * 9 + "。い", 18) == ["あ" * 8, "あ。い"]
    assert wrap("あ" * 8 + "（い）", 18) == ["あ" * 8, "（い）"]
    assert wrap("one two three", 7) == ["one two", "three"]


def test_the_catalogs_are_package_data():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    data = pyproject["tool"]["setuptools"]["package-data"]["stairgames"]
    assert "locale/*/LC_MESSAGES/*.po" in data and "locale/*.pot" in data
    assert any(
        dependency.startswith("babel") for dependency in pyproject["project"]["dependencies"]
    )


@pytest.mark.parametrize(
    ("game", "options", "seats", "moves", "expected"),
    [
        ("stairs", {}, ["human", "random"], ["zz", "d3-c4"], ["白の手番", "受け付けられません"]),
        ("27", {}, ["human", "random"], ["9:9"], ["白の手番", "目標フィールド"]),
        (
            "ishigaki_race",
            {"players": 3, "crumbling_wall": True, "first_player": 0},
            ["human", "random", "random"],
            ["jump", "roll", "stop", "stop"],
            ["いしがき・れえす", "くずれそうな石垣", "サイコロ", "受け付けられません"],
        ),
        (
            "city_of_stairs",
            {"players": 2, "first_player": 0},
            ["human", "random"],
            ["help", "P99@a1"],
            ["灯台", "ストック", "出発カード", "カード@マス"],
        ),
    ],
)
def test_each_game_plays_in_japanese_and_every_screen_fits(
    tmp_path, game, options, seats, moves, expected
):
    set_language("ja")
    out = io.StringIO()
    session = TerminalSession(
        stairgames.load(game, **options),
        seats,
        seed=3,
        record_path=tmp_path / "game.json",
        input_fn=scripted(moves),
        output=out,
    )
    session.run()
    text = out.getvalue()
    for fragment in expected:
        assert fragment in text, fragment
    for english in ("to move", "Legal moves", "Not accepted", "Record saved", "Game stopped"):
        assert english not in text, english
    picture = session.spec.render(session.state, colour=False, viewer=0).splitlines()
    assert len(picture) + 1 <= 24
    from stairgames.i18n import display_width

    assert max(display_width(line) for line in picture) <= 80, "\n".join(picture)


def test_cli_lang_ja_shows_usage_results_and_errors_in_japanese(tmp_path, capsys):
    assert main(["--lang", "ja"]) == 2
    assert "使い方: stairgames コマンド" in capsys.readouterr().out
    assert main(["play", "stairs", "--seats", "random,dragon", "--lang=ja"]) == 2
    assert "不明なプレイヤー「dragon」" in capsys.readouterr().err
    record = tmp_path / "game.json"
    assert (
        main(
            ["--lang", "ja", "play", "stairs", "--seats", "random,random", "--record", str(record)]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "ゲーム終了。" in out and "の勝ち" in out and "記録を保存しました" in out
    assert main(["--lang", "xx", "list"]) == 2
    assert "unknown language 'xx'" in capsys.readouterr().err


def test_cli_without_lang_follows_the_locale(monkeypatch, capsys):
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    assert main(["list"]) == 0
    assert "階段の街" in capsys.readouterr().out
    assert _("Stairs") == "ステアー"


def test_bad_positions_options_and_records_are_refused_in_japanese(tmp_path, capsys):
    assert main(["--lang", "ja", "show", "ishigaki_race", "race ninjas=3,99 turn=red dice=-"]) == 2
    assert "局面「race ninjas=3,99 turn=red dice=-」：青が99段目にいて、ごおる（20）より上です" in (
        capsys.readouterr().err
    )
    assert main(["--lang", "ja", "play", "ishigaki_race", "--players", "7"]) == 2
    assert "いしがき・れえすは2〜4人用です（7人が指定されました）" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    assert main(["--lang", "ja", "replay", str(bad)]) == 2
    assert "記録は JSON のオブジェクトでなければなりません" in capsys.readouterr().err
    with pytest.raises(StairgamesError) as raised:
        stairgames.load("ishigaki_race").state_from_position("race ninjas=3,99 turn=red dice=-")
    assert str(raised.value) == (
        "position 'race ninjas=3,99 turn=red dice=-': blue stands on step 99, above the goal (20)"
    )


def test_the_usual_reasons_a_file_cannot_be_read_are_translated(tmp_path, capsys):
    missing = tmp_path / "nowhere.json"
    assert main(["replay", str(missing)]) == 2
    assert "[Errno 2] No such file or directory" in capsys.readouterr().err
    assert main(["--lang", "ja", "replay", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("エラー：記録「") and "ファイルもフォルダもありません" in err
    assert "No such file" not in err
    set_language("ja")
    assert translate(IsADirectoryError(21, "Is a directory", str(tmp_path))).endswith(
        "フォルダです"
    )
    assert translate(OSError(28, "No space left on device")) == "[Errno 28] No space left on device"


# ----- texts as JSON for the browser ------------------------------------------------


def said_like_the_browser(node: Any, catalog: dict[str, Any]) -> str:
    """``node`` (from :func:`text_json`) in the language of ``catalog`` (what ``GET
    /api/i18n/{lang}`` serves), step by step as ``say`` in ``web/static/i18n.js`` does."""
    if node is None:
        return ""
    if not isinstance(node, dict):
        return str(node)
    if "names" in node:
        words = [said_like_the_browser(item, catalog) for item in node["names"]]
        comma: str = catalog.get(", ", ", ")
        if not node["and"] or len(words) < 2:
            return comma.join(words)
        last = catalog.get("{items} and {last}", "{items} and {last}")
        return filled_like_the_browser(
            last, {"items": comma.join(words[:-1]), "last": words[-1]}, catalog
        )
    if "lines" in node:
        return "\n".join(node["bullet"] + said_like_the_browser(i, catalog) for i in node["lines"])
    template = catalog.get(node["id"]) or node["id"]
    if isinstance(template, list):
        template = template[0] if node.get("n") == 1 else template[-1]
    elif "plural" in node and node["id"] not in catalog and node["n"] != 1:
        template = node["plural"]
    return filled_like_the_browser(template, node.get("args", {}), catalog)


def filled_like_the_browser(template: str, args: dict[str, Any], catalog: dict[str, Any]) -> str:
    """i18n.js ``fill``: each ``{name}`` (spec ignored) from ``args``, texts said first."""

    def one(match: re.Match[str]) -> str:
        name, conversion = match.group(1), match.group(2)
        if name not in args:
            return match.group(0)
        value = args[name]
        if isinstance(value, dict):
            return said_like_the_browser(value, catalog)
        return f"'{value}'" if conversion == "!r" and isinstance(value, str) else str(value)

    return re.sub(r"\{(\w+)(![rsa])?(:[^{}]*)?\}", one, template)


def finished_city_of_stairs_outcome(seed: int) -> Any:
    rng = random.Random(seed)
    state = stairgames.load("city_of_stairs", players=3).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    outcome = state.outcome()
    assert outcome is not None and outcome.text is not None
    return outcome.text


NESTED_TEXTS = [
    Text(
        "{scores}: {names} share the win with {points}",
        {
            "scores": Names(
                tuple(
                    Text("{name} {points}", {"name": Text(c), "points": p})
                    for c, p in [("red", 7), ("blue", 6)]
                ),
                False,
            ),
            "names": Names(("blue", "green")),
            "points": Count("{count} point", "{count} points", 2),
        },
    ),
    Text(
        "{scores}: {winner} wins",
        {"scores": Names((Text("red"),), conjunction=False), "winner": Text("red")},
    ),
    Count("{count} point", "{count} points", 1),
    Names(("red", "blue", "green")),
    Lines((Text("{name} {points}", {"name": Text("red"), "points": 5}), "red")),
    StairgamesError(
        message_id="{count} problems:\n{lines}",
        arguments={"lines": Lines((Text("red"), Text("blue"))), "count": 2},
    ),
    IllegalMoveError(message_id="{name} resigns", arguments={"name": Text("blue")}),
]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("value", NESTED_TEXTS, ids=lambda v: type(v).__name__)
def test_nested_texts_as_json_read_in_the_browser_as_localize_gives_them(
    value: object, language: str
) -> None:
    from stairgames.server.ops.pages import catalog_messages

    node = json.loads(json.dumps(text_json(value)))
    set_language(language)
    assert said_like_the_browser(node, catalog_messages(language)) == localize(value)


@pytest.mark.parametrize("seed", range(4))
def test_a_city_of_stairs_result_as_json_reads_in_japanese_as_localize_gives_it(seed: int) -> None:
    from stairgames.server.ops.pages import catalog_messages

    text = finished_city_of_stairs_outcome(seed)
    node = text_json(text)
    assert isinstance(node["args"]["scores"], dict), "the scores are a list of texts, not English"
    set_language("ja")
    said = said_like_the_browser(node, catalog_messages(current_language()))
    assert said == localize(text)
    assert not re.search(r"red|blue|green|yellow|wins|points?\b", said), said


def test_colour_codes_take_no_column() -> None:
    """Issue 49: a coloured line was counted as wider than it shows, so Ishigaki Race's
    screen at 80×24 was cleared too soon and a player's own roll wiped before it could be
    read, while rows at the bottom stayed blank."""
    from stairgames.i18n import display_width

    assert display_width("\x1b[1;31mred\x1b[0m ninja") == len("red ninja")
    assert display_width("\x1b[33m石垣\x1b[0m") == 4
