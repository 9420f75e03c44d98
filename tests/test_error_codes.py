"""Every refusal of the server carries a stable machine ``code`` apart from its message id.

The catalogue is :data:`stairgames.server.base.error_codes.ERROR_CODES`. These tests read
the server's source: every message id a :class:`ServerError` can be made with must be in
the catalogue (so rewording a sentence without its entry fails here), every entry must
still be raised somewhere, and each site must name its message id in a way this scan can
follow (an ``N_("...")`` literal, or a name bound to one). A body model's ``refusals``
table (field -> message id, :class:`stairgames.server.base.contract.Body`) counts as the
sites of its message ids; the one place that raises from such a table is followed to it.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import stairgames.server
from stairgames.core.errors import IllegalMoveError, InvalidOptionError, StairgamesError
from stairgames.server.base.error_codes import ERROR_CODES, REFUSED, SERVER_ERROR, code_of
from stairgames.server.base.errors import ServerError, error_json

SERVER = Path(stairgames.server.__file__).parent
CODE = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Site:
    """One place a refusal is made: where, and its message id (None if not followed)."""

    where: str
    message_id: str | None


def _n_literal(node: ast.expr) -> str | None:
    """The text of ``N_("...")``, or None."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "N_"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return node.args[0].value
    return None


def _bound_texts(tree: ast.Module) -> dict[str, str]:
    """Names bound to an ``N_("...")`` anywhere in a module (constants and locals)."""
    bound: dict[str, str] = {}
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        value: ast.expr | None = None
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        text = _n_literal(value) if value is not None else None
        for target in targets:
            if text is not None and isinstance(target, ast.Name):
                bound[target.id] = text
    return bound


def _imported_names(tree: ast.Module) -> dict[str, str]:
    """``name -> module`` for each ``from stairgames... import name``."""
    imported: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                imported[alias.asname or alias.name] = node.module
    return imported


def _names_from_refusal_tables(tree: ast.Module) -> set[str]:
    """Names bound to a lookup in a ``refusals`` table (``cls.refusals.get(field)``)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(inner, ast.Attribute) and inner.attr == "refusals"
            for inner in ast.walk(node.value)
        ):
            names |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    return names


def _refusal_tables(tree: ast.Module) -> list[tuple[int, ast.expr]]:
    """``(line, message)`` of each value of a ``refusals = {...}`` table."""
    values: list[tuple[int, ast.expr]] = []
    for node in ast.walk(tree):
        target = (
            node.target
            if isinstance(node, ast.AnnAssign)
            else node.targets[0]
            if isinstance(node, ast.Assign) and len(node.targets) == 1
            else None
        )
        value = getattr(node, "value", None)
        if isinstance(target, ast.Name) and target.id == "refusals" and isinstance(value, ast.Dict):
            values += [(message.lineno, message) for message in value.values]
    return values


def _server_error_classes(tree: ast.Module) -> set[str]:
    """Classes of this module that derive from ServerError (directly)."""
    return {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        and any(isinstance(base, ast.Name) and base.id == "ServerError" for base in node.bases)
    }


def _refusal_calls(tree: ast.Module) -> list[ast.Call]:
    """``ServerError(status, message, ...)`` and, inside its subclasses,
    ``super().__init__(status, message, ...)``."""
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "ServerError"
    ]
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name in _server_error_classes(tree):
            calls += [
                call
                for call in ast.walk(node)
                if isinstance(call, ast.Call)
                and isinstance(call.func, ast.Attribute)
                and call.func.attr == "__init__"
                and isinstance(call.func.value, ast.Call)
                and isinstance(call.func.value.func, ast.Name)
                and call.func.value.func.id == "super"
            ]
    return calls


def refusal_sites(source: str, name: str, resolve: dict[str, dict[str, str]]) -> list[Site]:
    """Every refusal made in ``source`` (module ``name``), with its message id where the
    scan can follow it; ``resolve`` gives other modules' bound texts for imported names."""
    tree = ast.parse(source)
    bound = _bound_texts(tree)
    imported = _imported_names(tree)
    from_tables = _names_from_refusal_tables(tree)

    def text_of(message: ast.expr) -> str | None:
        text = _n_literal(message)
        if text is None and isinstance(message, ast.Name):
            text = bound.get(message.id)
            if text is None and message.id in imported:
                text = resolve.get(imported[message.id], {}).get(message.id)
        return text

    sites = [Site(f"{name}:{line}", text_of(message)) for line, message in _refusal_tables(tree)]
    for call in _refusal_calls(tree):
        message = call.args[1] if len(call.args) >= 2 else None
        if isinstance(message, ast.Name) and message.id in from_tables:
            continue  # its message ids are the refusals tables' values, sites above
        where = f"{name}:{call.lineno}"
        sites.append(Site(where, text_of(message) if message is not None else None))
    return sites


def _module_name(path: Path) -> str:
    relative = path.relative_to(SERVER.parent.parent).with_suffix("")
    return ".".join(relative.parts)


def server_sites() -> list[Site]:
    """Every refusal site in the server's source."""
    paths = sorted(SERVER.rglob("*.py"))
    sources = {_module_name(path): path.read_text(encoding="utf-8") for path in paths}
    resolve = {name: _bound_texts(ast.parse(source)) for name, source in sources.items()}
    sites: list[Site] = []
    for name, source in sources.items():
        sites += refusal_sites(source, name, resolve)
    return sites


def test_every_refusal_names_a_message_id_the_scan_can_follow() -> None:
    unfollowed = [site.where for site in server_sites() if site.message_id is None]
    assert not unfollowed, f"refusals whose message id this scan cannot read: {unfollowed}"


def test_every_message_id_the_server_refuses_with_has_a_code() -> None:
    missing = sorted(
        {site.message_id for site in server_sites() if site.message_id is not None}
        - set(ERROR_CODES)
    )
    assert not missing, f"add these to server/base/error_codes.py: {missing}"


def test_every_catalogued_message_id_is_still_raised() -> None:
    raised = {site.message_id for site in server_sites()}
    stale = sorted(set(ERROR_CODES) - raised)
    assert not stale, f"no refusal uses these any more: {stale}"


def test_codes_are_short_snake_case_names() -> None:
    bad = sorted(code for code in ERROR_CODES.values() if not CODE.match(code))
    assert not bad


def test_the_scan_finds_an_uncatalogued_refusal() -> None:
    source = (
        "from stairgames.i18n import N_\n"
        "GONE = N_('a sentence nobody catalogued')\n"
        "def refuse():\n"
        "    raise ServerError(400, N_('another sentence nobody catalogued'))\n"
        "def refuse_too():\n"
        "    raise ServerError(409, GONE)\n"
        "def unreadable(message):\n"
        "    raise ServerError(400, message)\n"
        "class Mine(ServerError):\n"
        "    def __init__(self):\n"
        "        super().__init__(429, N_('a third sentence'))\n"
    )
    sites = refusal_sites(source, "fixture", {})
    assert [site.message_id for site in sites] == [
        "another sentence nobody catalogued",
        "a sentence nobody catalogued",
        None,
        "a third sentence",
    ]
    assert not {site.message_id for site in sites} & set(ERROR_CODES)


def test_the_scan_reads_a_body_models_refusals_table() -> None:
    source = (
        "WRONG = N_('a wrong field')\n"
        "class Made(Body):\n"
        "    refusals: ClassVar[dict[str, str]] = {'a': WRONG, 'b': N_('another')}\n"
        "def refusal(cls, field):\n"
        "    message_id = cls.refusals.get(field)\n"
        "    return ServerError(400, message_id)\n"
    )
    assert [site.message_id for site in refusal_sites(source, "fixture", {})] == [
        "a wrong field",
        "another",
    ]


def test_the_scan_follows_a_name_imported_from_another_server_module() -> None:
    source = (
        "from stairgames.server.play.seats import TOKEN_IN_ADDRESS\n"
        "def refuse():\n"
        "    raise ServerError(400, TOKEN_IN_ADDRESS)\n"
    )
    resolve = {"stairgames.server.play.seats": {"TOKEN_IN_ADDRESS": "the text"}}
    assert refusal_sites(source, "fixture", resolve) == [Site("fixture:3", "the text")]


def test_an_error_answer_carries_the_code_apart_from_the_message_id() -> None:
    error = ServerError(409, "it is not your turn")
    answer = error_json(error)
    assert answer["code"] == "not_your_turn" == error.code
    assert answer["id"] == "it is not your turn"


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (IllegalMoveError("no such move"), "illegal_move"),
        (InvalidOptionError("no such option"), "invalid_option"),
        (StairgamesError("some refusal"), REFUSED),
        (ServerError(400, "a sentence nobody catalogued"), REFUSED),
        (RuntimeError("boom"), SERVER_ERROR),
    ],
)
def test_engine_errors_take_their_code_from_their_class(error: BaseException, code: str) -> None:
    assert code_of(error) == code
