"""The shared front end names no game and no game's option (issue 50): what a game
offers reaches the page through ``GET /api/games`` (core/options.py's option_listing),
so a fifth game needs no change to shared JavaScript. A game's own ``view/board.js``
(outside ``web/static``) may name it.

Every script of ``web/static`` is read as JavaScript tokens: a name in code (a variable,
a property, an object's key) or a word in a string literal (a selector, a key, an id)
that is a registered game's name or alias, or any game's option name, fails. Comments
are not read, nor sentences (string literals with a space: message ids, words for people
in English, where "players" is a plain word), though a name with an underscore is never
English and fails there too. Paths of the server's API (``"/api/..."``) may hold option
names: the server names its own resources (``/api/players/{name}``, a person's
profile), which are the web contract's and not a game's; a game's name fails there too.

A game's word moves (its registration's ``move_words``: Stairs' ``pass`` and ``offer``,
Ishigaki Race's ``stop``) reach the page the same way (issue 51): a script fails where a
string literal is one of them (``legal[0] === "pass"``, ``includes("offer")``) or where
one keys a table of texts (``pass: N_("Pass")``). Being plain English words ("stop",
"accept"), they are not read in other code (``oscillator.stop()``, the server's
``view.offer``) nor in sentences.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from pathlib import Path

import stairgames
from stairgames.core.options import option_fields
from stairgames.core.registry import GameSpec, MoveWord, get_spec
from tests.tictactoe import SPEC as TICTACTOE

STATIC = Path(__file__).parents[1] / "src" / "stairgames" / "web" / "static"
WORD = re.compile(r"[A-Za-z_$][\w$]*")
RECORD_FIELDS = frozenset({"game.players", "challenge.players", "tournament.players"})
"""A record's list of the people in a game (the lobby's live games, a profile's recent
games: the server's field), or how many are in a tournament, not the option: read as the
property of those names only."""
API_PATH = "/api/"


@dataclass(frozen=True)
class Piece:
    """A piece of a script: ``code``, a ``string`` literal's text (a template's text
    between its ``${}``), or a ``path`` (a string that starts with :data:`API_PATH`)."""

    kind: str
    text: str


def pieces(script: str) -> Iterator[Piece]:
    """The script's code and strings, its comments left out (a regular expression literal
    is read as code: no script here has a quote in one)."""
    code: list[str] = []
    i = 0
    while i < len(script):
        char, pair = script[i], script[i : i + 2]
        if pair == "//":
            i = _line_end(script, i)
        elif pair == "/*":
            i = script.index("*/", i + 2) + 2
        elif char in "\"'`":
            yield Piece("code", "".join(code))
            code = []
            i = yield from _literal(script, i)
        else:
            code.append(char)
            i += 1
    yield Piece("code", "".join(code))


def _line_end(script: str, start: int) -> int:
    end = script.find("\n", start)
    return len(script) if end < 0 else end


def _literal(script: str, start: int) -> Generator[Piece, None, int]:
    """The string literal at ``start`` (a template's ``${}`` read as code); where it ends."""
    quote, i, text = script[start], start + 1, []
    while script[i] != quote:
        if script[i] == "\\":
            text.append(script[i : i + 2])
            i += 2
        elif quote == "`" and script.startswith("${", i):
            end = _closing_brace(script, i + 2)
            yield from pieces(script[i + 2 : end])
            text.append(" ${} ")  # what it joins is not one word
            i = end + 1
        else:
            text.append(script[i])
            i += 1
    joined = "".join(text)
    yield Piece("path" if joined.startswith(API_PATH) else "string", joined)
    return i + 1


def _closing_brace(script: str, start: int) -> int:
    """Where the ``}`` that closes a template's ``${`` at ``start`` is (strings inside
    skipped)."""
    depth, i = 1, start
    while True:
        char = script[i]
        if char in "\"'`":
            i = _skip_literal(script, i)
            continue
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0:
            return i
        i += 1


def _skip_literal(script: str, start: int) -> int:
    """Where the string literal at ``start`` ends."""
    generator = _literal(script, start)
    while True:
        try:
            next(generator)
        except StopIteration as done:
            end: int = done.value
            return end


def game_words() -> set[str]:
    """Every game's name and alias, the fifth game's too."""
    specs = [get_spec(name) for name in stairgames.game_names()] + [TICTACTOE]
    return {spec.name for spec in specs} | {alias for spec in specs for alias in spec.aliases}


def option_words() -> set[str]:
    """Every option's name of every game, the fifth game's too."""
    specs = [get_spec(name) for name in stairgames.game_names()] + [TICTACTOE]
    return {f.name for spec in specs for f in option_fields(spec.options_class)}


def move_words(specs: list[GameSpec] | None = None) -> set[str]:
    """Every word move of every game (the fifth game's too) that is a notation of its own
    (a pattern such as ``die:{number}`` is not one)."""
    if specs is None:
        specs = [get_spec(name) for name in stairgames.game_names()] + [TICTACTOE]
    return {w.move for spec in specs for w in spec.move_words if "{" not in w.move}


KEYED_TEXT = re.compile(r"([A-Za-z_$][\w$]*)\s*:\s*(?:(?:N_|t)\(\s*)?$")
"""Code that keys a text with a name, the text's string literal next: ``pass: N_(``,
``offer: ``."""


def named_moves(script: str, moves: set[str]) -> list[str]:
    """The word moves the script names, where this module's docstring says they count."""
    named: set[str] = set()
    for piece in pieces(script):
        if piece.kind == "string" and piece.text in moves:
            named.add(piece.text)
        elif piece.kind == "code" and (keyed := KEYED_TEXT.search(piece.text)):
            named |= {keyed.group(1)} & moves
    return sorted(named)


def named_words(script: str, games: set[str], options: set[str]) -> list[str]:
    """The games' and options' names the script names, where this module's docstring
    says they count."""
    named: set[str] = set()
    for piece in pieces(script):
        words = set(WORD.findall(piece.text))
        if piece.kind == "code":
            text = piece.text
            for field in RECORD_FIELDS:
                text = re.sub(rf"\b{re.escape(field)}\b", "", text)
            named |= set(WORD.findall(text)) & (games | options)
        elif piece.kind == "path":
            named |= words & games
        elif re.search(r"\s", piece.text.replace("${}", "")):  # a sentence
            named |= {word for word in words & (games | options) if "_" in word}
        else:
            named |= set(re.findall(r"[A-Za-z_$][\w$-]*", piece.text)) & (games | options)
    return sorted(named)


def test_no_shared_script_names_a_game_or_an_option():
    games, options = game_words(), option_words()
    named = {
        path.name: found
        for path in sorted(STATIC.glob("*.js"))
        if (found := named_words(path.read_text(encoding="utf-8"), games, options))
    }
    assert not named, f"shared JavaScript knows games: {named}"


def test_no_shared_script_names_a_games_word_move():
    moves = move_words()
    assert {"pass", "offer", "stop"} <= moves  # (the games declare them)
    named = {
        path.name: found
        for path in sorted(STATIC.glob("*.js"))
        if (found := named_moves(path.read_text(encoding="utf-8"), moves))
    }
    assert not named, f"shared JavaScript knows games' word moves: {named}"


FIXTURE = dataclasses.replace(
    TICTACTOE,
    move_words=(MoveWord("resign-by-move", "Give up"), MoveWord("cell:{number}", "Cell {number}")),
)
"""The fifth game with word moves of its own: the check reads them from the registration."""


def test_the_check_catches_a_registered_games_word_move():
    moves = move_words([FIXTURE])
    assert moves == {"resign-by-move"}  # (a pattern is no notation of its own)
    assert named_moves('if (legal[0] === "resign-by-move") x();', moves) == ["resign-by-move"]
    assert named_moves("const W = { 'resign-by-move': N_(\"Give up\") };", moves) == [
        "resign-by-move"
    ]
    stairs = {"pass", "offer", "accept"}
    assert named_moves('const WORDS = {\n  pass: N_("Pass"),\n};', stairs) == ["pass"]
    assert named_moves('if (view.legal.includes("offer")) show();', stairs) == ["offer"]
    assert named_moves('const m = { offer: "Offer to end" };', stairs) == ["offer"]


def test_the_check_reads_no_plain_word_in_code_nor_a_sentence():
    stairs = {"pass", "offer", "accept", "stop"}
    assert named_moves("oscillator.stop(1); if (view.offer) go();", stairs) == []
    assert named_moves('send({ type: "takeback_answer", accept: true });', stairs) == []
    assert named_moves('t("You have no legal move: you must pass.");', stairs) == []
    assert named_moves('$("pass-cover").hidden = true;', stairs) == []


def check(script: str) -> list[str]:
    return named_words(script, game_words(), option_words())


def test_the_check_catches_an_option_or_a_game_named_in_code_or_a_string():
    assert check('if (option.name === "pie_rule") label = "x";') == ["pie_rule"]
    assert check("const size = 6;") == ["size"]
    assert check("const { players } = counts;") == ["players"]
    assert check("box.misere = true;") == ["misere"]
    assert check('const g = "tictactoe";') == ["tictactoe"]
    assert check("root.querySelector('[data-option=\"players\"]');") == ["players"]
    assert check("const id = `${name}-${variant}`;") == ["variant"]
    assert check('t("Play city_of_stairs now");') == ["city_of_stairs"]
    assert check("api(`/api/${encodeURIComponent(name)}/stairs`);") == ["stairs"]
    assert check("const a = 'it\\'s'; const goal = 1;") == ["goal"]


def test_the_check_reads_no_comment_sentence_record_or_api_path():
    assert check('// the size\nt("Board size"); /* the goal */') == []
    assert check('t("the default cards");') == []
    assert check("const n = game.players.length;") == []
    assert check("api(`/api/players/${encodeURIComponent(name)}`);") == []
    assert check('const card = "card-set"; const sized = 1;') == []
