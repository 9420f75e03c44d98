"""The import contract: which layer of stairgames may import which (docs/architecture.md).

Every module under ``src/stairgames`` is parsed with :mod:`ast` and each of its imports,
those inside functions included, is checked against the rules below; a broken rule fails
with the importing module, the imported one, the rule and why it holds. The same check
runs on a small package in ``tests/contract_fixture`` whose every module breaks one rule,
to show that each rule can fail.

Shared code is everything outside ``core`` and ``games``: agents, arena, analysis,
server, web, cli, terminal, interop, i18n, argparse_i18n and the package's
``__init__``. Inside a game, the engine is the modules at the top of its package
(``rules``, ``game``, ``notation``, ``position``...), its registration the package's
``__init__``, and ``view/``, ``play/`` and ``research/`` its layers.

Inside the server, each module belongs to a domain (its folder: ``server/play/hub.py`` is
``play``; ``app.py`` is ``app``, ``serve.py`` and ``workers.py`` the ``runners``,
``migrations/`` is ``base``), and :data:`DOMAIN_MAY_IMPORT` says which domains each may
import; the server's modules also import one another without a cycle.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

import stairgames
from stairgames.core import registry
from stairgames.core.hooks import PlayerHooks
from stairgames.core.solvers import SolveCommand
from stairgames.core.tensors import ObservationTensor

SOURCE = Path(stairgames.__file__).parent
FIXTURE = Path(__file__).parent / "contract_fixture"

FRONT_ENDS_AND_TOOLS = frozenset(
    {
        "agents",
        "arena",
        "analysis",
        "bench",
        "server",
        "web",
        "cli",
        "terminal",
        "interop",
        "puzzles",
        "tournaments",
    }
)
"""The shared code a game never imports."""
CORE_MAY_IMPORT = frozenset({"core", "i18n"})
GAME_LAYERS = ("view", "play", "research")
LAYER_MAY_IMPORT = {
    "registration": frozenset({"engine", "view", "registration"}),
    "engine": frozenset({"engine"}),
    "view": frozenset({"engine", "view", "research"}),
    "play": frozenset({"engine", "play", "research"}),
    "research": frozenset({"engine", "research"}),
}
"""What each part of a game may import of the same game (``registration``: the game's
``__init__``, which names ``play`` and ``research`` only by lazy references)."""

_BELOW_FEATURES = frozenset({"base", "people", "play"})
_DOMAINS = (
    frozenset(
        {"lobby", "chat", "mail", "analysis", "puzzles", "bots", "tournaments", "push", "ops"}
    )
    | _BELOW_FEATURES
)
DOMAIN_MAY_IMPORT = {
    "base": frozenset({"base"}),
    "people": frozenset({"base", "people"}),
    "play": frozenset({"base", "people", "play"}),
    "lobby": _BELOW_FEATURES | {"lobby"},
    "chat": _BELOW_FEATURES | {"lobby", "chat"},
    "mail": _BELOW_FEATURES | {"lobby", "mail"},
    "analysis": _BELOW_FEATURES | {"analysis"},
    "puzzles": _BELOW_FEATURES | {"puzzles"},
    "bots": _BELOW_FEATURES | {"lobby", "bots"},
    "tournaments": _BELOW_FEATURES | {"lobby", "tournaments"},
    "push": _BELOW_FEATURES | {"lobby", "push"},
    "ops": _DOMAINS,
    "app": _DOMAINS | {"app"},
    "runners": _DOMAINS | {"app", "runners"},
}
"""Which domains of the server each may import (docs/architecture.md, "The server's
layers"): ``base`` (errors, the database, limits, logs, settings, migrations) at the
bottom; ``people`` (players, ratings) above it, then ``play`` (matches, seats, clocks,
the referee, computers, the hub and its fan-out, card files); the features above them
(``lobby``; ``chat`` and ``mail``, which also name the lobby; ``analysis``; ``puzzles``); ``ops``
(health, metrics, the middlewares) above every feature; ``app``, which wires them all,
at the top, imported only by its ``runners`` (``serve``, ``workers``)."""
SERVER_TOP_MODULES = {"app": "app", "serve": "runners", "workers": "runners"}
"""The server's modules outside a domain's folder, and their domain (``migrations/``
and the package's ``__init__`` are ``base``)."""

RULES = {
    "a": (
        "shared code never imports a game",
        "shared code finds games through the registry (core/registry.py), so that adding or "
        "changing a game changes no shared code",
    ),
    "b": (
        "a game never imports players, tools, front ends or another game",
        "a game is a self-contained plugin: what it needs of players, statistics or plots "
        "it receives from the caller (core/studies.py), and front ends look it up in the "
        "registry",
    ),
    "c": (
        "core imports only core (and i18n)",
        "core is the bottom layer that every game and all shared code build on",
    ),
    "d": (
        "inside a game, each layer imports only the layers below it",
        "the engine (top-level modules) imports only core, i18n and the engine; view/ the "
        "engine and research/ (to show what it knows: winning chances, analysis); play/ "
        "the engine and research/; research/ the engine; the registration "
        "names play/ and research/ by lazy 'module:attribute' references",
    ),
    "e": (
        "inside the server, each domain imports only those below it (DOMAIN_MAY_IMPORT)",
        "the server is layered as the games are: base at the bottom, people and play "
        "above it, the features (lobby, chat, mail, analysis) above them, ops above "
        "every feature and the app, which wires them, at the top; so that a feature "
        "can change without touching those below, and none imports the app back",
    ),
}

_G = "stairgames.games."
ALLOWED: frozenset[tuple[str, str]] = frozenset()
"""``(importer, imported)`` pairs that break a rule and are kept on purpose, each with a
comment naming its issue: none today."""


@dataclasses.dataclass(frozen=True)
class Place:
    """Where a module sits: ``shared``, ``core``, ``games`` (the namespace) or a game's
    part (``game`` set, ``layer`` one of :data:`LAYER_MAY_IMPORT`)."""

    kind: str
    game: str = ""
    layer: str = ""
    top: str = ""
    domain: str = ""
    """The server's domain (:data:`DOMAIN_MAY_IMPORT`) of a module under ``server``."""


def place_of(parts: tuple[str, ...]) -> Place:
    """The place of a module by its name's parts below the package (``("games",
    "stairs", "view", "board")``)."""
    top = parts[0] if parts else "__init__"
    if top == "core":
        return Place("core", top=top)
    if top == "server":
        return Place("shared", top=top, domain=server_domain(parts[1:]))
    if top != "games":
        return Place("shared", top=top)
    if len(parts) == 1:
        return Place("games", top=top)
    game, rest = parts[1], parts[2:]
    if not rest:
        return Place("game", game, "registration", top)
    layer = rest[0] if rest[0] in GAME_LAYERS else "engine"
    return Place("game", game, layer, top)


def server_domain(parts: tuple[str, ...]) -> str:
    """The domain of a server module by its name's parts below ``server``."""
    if not parts or parts[0] == "migrations":
        return "base"
    return SERVER_TOP_MODULES.get(parts[0], parts[0])


def modules(root: Path, package: str) -> dict[str, Path]:
    """Every module of the package at ``root``, by its dotted name."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join((package, *parts))] = path
    return found


def imported_names(path: Path, name: str, known: set[str]) -> Iterator[str]:
    """The modules that the module ``name`` at ``path`` imports, anywhere in it
    (``from x import y`` counts as ``x.y`` where that is a module)."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, name, is_package)
            for alias in node.names:
                child = f"{base}.{alias.name}"
                yield child if child in known else base


def _absolute(node: ast.ImportFrom, name: str, is_package: bool) -> str:
    """The module a ``from ... import`` names, relative imports made absolute."""
    if not node.level:
        return node.module or ""
    parts = name.split(".")
    anchor = parts if is_package else parts[:-1]
    anchor = anchor[: len(anchor) - (node.level - 1)]
    return ".".join([*anchor, node.module] if node.module else anchor)


def broken_rule(importer: Place, imported: Place) -> str | None:
    """The rule (``"a"`` to ``"e"``) that an import from ``importer`` of ``imported``
    breaks, if any."""
    if importer.kind == "shared":
        if imported.kind == "game":
            return "a"
        if importer.domain and imported.domain:
            allowed = DOMAIN_MAY_IMPORT.get(importer.domain, frozenset())
            return None if imported.domain in allowed else "e"
        return None
    if imported.kind == "games":
        return None  # the namespace, imported to discover the games
    if importer.kind == "core":
        return None if imported.top in CORE_MAY_IMPORT else "c"
    if importer.kind != "game":
        return None
    if imported.kind == "game":
        if imported.game != importer.game:
            return "b"
        return None if imported.layer in LAYER_MAY_IMPORT[importer.layer] else "d"
    if imported.kind == "shared" and imported.top in FRONT_ENDS_AND_TOOLS:
        return "b"
    if importer.layer == "engine" and imported.kind != "core" and imported.top != "i18n":
        return "d"
    return None


def contract_violations(
    root: Path, package: str, allowed: frozenset[tuple[str, str]] = frozenset()
) -> list[str]:
    """Every import in the package at ``root`` that breaks a rule, as a sentence naming
    the importing module, the imported one, the rule and why it holds."""
    known = modules(root, package)
    prefix = package + "."
    violations = []
    for name, path in known.items():
        importer = place_of(tuple(name[len(prefix) :].split(".")) if name != package else ())
        for target in sorted(set(imported_names(path, name, set(known)))):
            if not target.startswith(prefix) or (name, target) in allowed:
                continue
            rule = broken_rule(importer, place_of(tuple(target[len(prefix) :].split("."))))
            if rule is not None:
                title, why = RULES[rule]
                violations.append(f"{name} imports {target}: rule ({rule}) {title}: {why}")
    return violations


def import_graph(root: Path, package: str, under: str) -> dict[str, set[str]]:
    """The modules of ``package`` under ``under`` (a dotted name) and, for each, those of
    them it imports, anywhere in it (a type checker's imports too)."""
    known = modules(root, package)
    inside = {name for name in known if name == under or name.startswith(under + ".")}
    return {
        name: {t for t in imported_names(known[name], name, set(known)) if t in inside} - {name}
        for name in sorted(inside)
    }


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The modules that import one another in a cycle (Tarjan's strongly connected
    components of more than one module), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in sorted(graph[module]):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component: list[str] = []
            while not component or component[-1] != module:
                component.append(stack.pop())
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in graph:
        if module not in index:
            visit(module)
    return sorted(cycles)


@pytest.mark.slow
def test_stairgames_keeps_the_import_contract():
    violations = contract_violations(SOURCE, "stairgames", ALLOWED)
    assert not violations, "\n".join(violations)


@pytest.mark.slow
def test_every_allowed_import_still_breaks_a_rule():
    """An entry of :data:`ALLOWED` goes once its import is gone (or keeps the rules)."""
    broken = {
        tuple(v.split(":")[0].split(" imports ")) for v in contract_violations(SOURCE, "stairgames")
    }
    assert not ALLOWED - broken, sorted(ALLOWED - broken)


def test_the_contract_sees_every_module_and_the_imports_inside_functions():
    known = modules(SOURCE, "stairgames")
    assert "stairgames.games.stairs.rules" in known and "stairgames.core.registry" in known
    command = known["stairgames.analysis.command"]
    imports = set(imported_names(command, "stairgames.analysis.command", set(known)))
    assert "stairgames.core.registry" in imports
    cli = known["stairgames.cli"]
    assert "stairgames.analysis.command" in set(imported_names(cli, "stairgames.cli", set(known)))


def test_every_rule_can_fail_on_a_package_with_wrong_imports():
    package = "tests.contract_fixture"
    violations = contract_violations(FIXTURE, package)
    expected = {
        f"{package}.server.app imports {package}.games.demo.rules: rule (a)",
        f"{package}.games.demo.rules imports {package}.agents: rule (b)",
        f"{package}.games.demo.view.board imports {package}.games.other.rules: rule (b)",
        f"{package}.core.registry imports {package}.server.app: rule (c)",
        f"{package}.games.demo.game imports {package}.games.demo.play.evaluate: rule (d)",
        f"{package}.games.demo.research.solver imports {package}.games.demo.view.board: rule (d)",
        f"{package}.server.base.store imports {package}.server.play.match: rule (e)",
        f"{package}.server.play.match imports {package}.server.lobby.lobby: rule (e)",
        f"{package}.server.lobby.lobby imports {package}.server.app: rule (e)",
    }
    assert {violation[: violation.index(")") + 1] for violation in violations} == expected
    by_rule = {violation.split("rule (")[1][0]: violation for violation in violations}
    for rule, (title, why) in RULES.items():
        assert by_rule[rule].endswith(f") {title}: {why}")


def test_no_import_cycle_inside_the_server():
    cycles = import_cycles(import_graph(SOURCE, "stairgames", "stairgames.server"))
    assert not cycles, "\n".join(" <-> ".join(cycle) for cycle in cycles)


def test_a_cycle_inside_the_server_is_found():
    package = "tests.contract_fixture"
    graph = import_graph(FIXTURE, package, f"{package}.server")
    assert import_cycles(graph) == [[f"{package}.server.play.fanout", f"{package}.server.play.hub"]]


def test_every_server_module_is_in_a_domain_of_the_table():
    domains = {
        server_domain(tuple(name.split(".")[2:]))
        for name in modules(SOURCE, "stairgames")
        if name.startswith("stairgames.server")
    }
    assert domains == set(DOMAIN_MAY_IMPORT)


def test_a_module_of_no_known_domain_breaks_the_server_rule():
    importer = place_of(("server", "newfeature", "routes"))
    assert broken_rule(importer, place_of(("server", "base", "errors"))) == "e"


# ----- the lazy references that stand in for imports ------------------------------


def test_every_lazy_reference_of_every_registration_resolves():
    """The registrations name players' code, tensors, solvers, studies, file readers and
    browser messages by ``"module:attribute"`` instead of importing them: each resolves."""
    for name in stairgames.game_names():
        assert isinstance(registry.player_hooks(name), PlayerHooks)
        assert isinstance(registry.observation_tensor(name), ObservationTensor)
        solver = registry.solver(name)
        assert solver is None or isinstance(solver, SolveCommand)
        assert registry.browser_messages(name), name
        study = registry.study(name)
        assert study is None or callable(study.play)
    assert registry.studied_games() == ["city_of_stairs"]
    assert callable(registry.option_files()["cards"])
    assert registry.uploaded_options() == ["cards"]
    assert registry.listing_order()[:4] == [
        "stairs",
        "twenty_seven",
        "ishigaki_race",
        "city_of_stairs",
    ]


def test_a_reference_names_a_module_and_an_attribute_of_the_expected_kind():
    assert registry.resolve("stairgames.core.hooks:NO_HOOKS") == PlayerHooks()
    with pytest.raises(ValueError, match="not a 'module:attribute' reference"):
        registry.resolve("stairgames.core.hooks")
    with pytest.raises(TypeError, match="names a PlayerHooks, not a SolveCommand"):
        registry._resolve_as("stairgames.core.hooks:NO_HOOKS", SolveCommand)
