"""An opening book of 27's basic game for the first player, built offline with the
exact endgame solver (:mod:`.endgame`).

Against OpenSpiel's ``MCTSBot`` our ``mcts`` lost a sixth of its games of 27 as the
first player, and every one of them was lost in the opening: the endgame solver,
given a few million positions, proves the position lost for white from ply 3 to 5 on,
after white's second move (``docs/agents.md``, issue 34). At 0.1 s a move the solver
reaches some 50,000 positions, and ``mcts``'s random playouts tell the first moves
apart by less than a hundredth of their value, so the book decides them instead:

- at the start, white's first move is given to the builder (``--first``: ``0:1`` in
  the shipped book, the opening after which ``mcts`` lost 1 of 38 games against the
  bot in the measurements, where its favourite ``0:8`` leaves second moves that lose
  by force: ``1:8`` against every reply, ``1:7`` against ``8:8``);
- in every position of the book (white to move, before ply :data:`PLIES`), each move
  is given to the solver with ``prove_nodes`` positions, and each move still open is
  followed by each of black's replies with ``reply_nodes`` positions: a reply proven to
  win for black proves the move lost, all replies proven lost for black prove it won.
  Moves proven to lose are kept as such (a player leaves them out) and a move proven
  to win is the book's move;
- before ply :data:`MOVE_PLIES` the book also takes a move where none is proven to
  win: the one most often chosen by ``search_runs`` compiled ``mcts`` searches of
  ``search_iterations`` iterations (what the player searches in 0.1 s), the moves proven
  lost marked lost in them. The searches cannot tell these moves apart (a search of
  2 million iterations from the start values ``0:8`` and ``0:1`` at 0.508 and 0.507),
  so the book keeps to the player's own habit, and its proofs cover the positions the
  player reaches (in later positions the player's own
  search chooses among the moves not proven lost: a book that chose there by how many
  of black's replies it proved lost walked into refuted lines, 12 of 13 games lost
  after ``0:1 8:8 0:7 7:1 1:1``);
- the book follows every reply of black's to the book's moves.

The book is a JSON file next to this module (:data:`BOOK_FILE`, 1,329 positions, 119 kB),
read on first use. Players reach it through 27's hooks: the ``opening`` hook gives the
book's move (``mcts:book=1`` plays it), and the endgame solver
(:class:`.endgame.EndgameSolver`) answers a book position with the results proven
here without searching (a player's solver, at a few thousand positions a move, proves
nothing the builder's millions did not). Build one with::

    .venv/bin/python -m stairgames.games.twenty_seven.research.opening --first 0:1

(``--help`` lists the budgets.) The shipped file is a chain of builds, each resumed
from the one before (``--resume``; its ``built_with`` says every command, the newest
first, under ``resumed_from``): a first build (d054bb3, 2.2 × 10^9 solver positions)
made before :func:`back_up` existed, which kept playing ``0:1 8:8 0:7``, a line its own
deeper positions proved lost; a resumed build that backed its results up and chose
``0:6`` there (2.2 × 10^9 more); then two builds that deepened the lines where the
player, left to choose among three open moves at ply 4, lost to ``MCTSBot``
(``--deepen '0:1 8:8 0:6 7:1'`` ..., 150 and 100 million positions an open move):
they proved ``0:6`` and then ``0:5`` lost after ``0:1 8:8`` as well, and the book
plays ``0:1`` there (``docs/agents.md``, "27's book, deepened where games were lost").
A build with ``--resume opening_book.json`` goes on from the shipped file.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import random
import shlex
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np

from stairgames.core import uct
from stairgames.core.game import State
from stairgames.games.twenty_seven import rules
from stairgames.games.twenty_seven.game import TwentySevenGame, TwentySevenOptions, TwentySevenState
from stairgames.games.twenty_seven.notation import MAX_COUNT, MAX_FIELDS, PASS
from stairgames.games.twenty_seven.research import endgame_kernel as kernel

FORMAT: Final = 1
"""The version of the book's layout (its ``format``)."""
BOOK_FILE: Final = Path(__file__).with_name("opening_book.json")
PLIES: Final = 5
"""The book covers white's positions at plies 0, 2 and 4 (those before ply 5)."""
MOVE_PLIES: Final = 3
"""It gives a move at plies 0 and 2 (before ply 3); later only where it proved one
winning or where the moves not proven lost are few (:data:`NARROW`)."""
NARROW: Final = 2
"""From ply :data:`MOVE_PLIES` on, a position where at most 2 moves are not proven lost
gets the book's move, and the book follows it deeper: there a player must find the one
or two moves that do not lose, which its own solver, at some 50,000 positions a move,
often cannot tell from the losing ones."""
DEEP_PLIES: Final = 9
"""How far the book follows such moves (and moves proven to win): positions before
ply 9."""
PROVE_NODES: Final = 1_500_000
REPLY_NODES: Final = 200_000
SEARCH_ITERATIONS: Final = 12_000
SEARCH_RUNS: Final = 16
"""The book's move is the one most often chosen by 16 searches of 12,000 iterations,
what ``mcts`` runs in 0.1 s: its own habit, so that the positions the book proves
next are those the player reaches."""
DEEPEN_NODES: Final = 150_000_000
"""Solver positions for each open move of a position the build is asked to deepen
(``--deepen``): two minutes of a core at most, against 1.5 million a move elsewhere."""
TABLE_BITS: Final = 24
"""The builder's solver table: 2 ** 24 slots (about 160 MB), kept for the whole build."""


@dataclasses.dataclass(frozen=True)
class BookEntry:
    """What the book knows of one position: its move (``None``: none chosen, as in a
    position proven lost) and the moves it proved, each with its result for the
    colour to move (1 win, 0 draw, -1 loss)."""

    move: str | None
    proven: Mapping[str, int]


def read_book(path: Path) -> dict[str, BookEntry]:
    """The book in ``path`` by position text (empty where there is no file)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    if data.get("format") != FORMAT or data.get("variant") != "basic":
        raise ValueError(f"{path} is not an opening book of 27 (format {FORMAT})")
    return {
        position: BookEntry(entry.get("move"), dict(entry.get("proven", {})))
        for position, entry in data["positions"].items()
    }


@functools.cache
def shipped_book() -> dict[str, BookEntry]:
    """The book shipped with the package (:data:`BOOK_FILE`), read once."""
    return read_book(BOOK_FILE)


def entry_of(state: State, book: Mapping[str, BookEntry] | None = None) -> BookEntry | None:
    """The book's entry of ``state`` (a basic game's state), or ``None``."""
    assert isinstance(state, TwentySevenState)
    if state.variant != "basic" or state.is_terminal():
        return None
    return (shipped_book() if book is None else book).get(state.position())


def book_move(state: State) -> int | None:
    """The ``opening`` hook of 27: the book's move in ``state`` (an action), or ``None``
    outside the book."""
    entry = entry_of(state)
    if entry is None or entry.move is None:
        return None
    return state.string_to_action(entry.move)


def proven_results(state: State) -> dict[int, int] | None:
    """The results the book proved for the actions of ``state`` (for the colour to
    move: 1, 0 or -1), or ``None`` outside the book."""
    entry = entry_of(state)
    if entry is None:
        return None
    return {state.string_to_action(move): result for move, result in entry.proven.items()}


# ----- building the book ---------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Budgets:
    """How hard the builder looks: solver positions for each move of a book position
    and for each reply of black's to a move still open, and the searches that choose the
    book's move (``search_runs`` of ``search_iterations`` iterations each)."""

    prove_nodes: int = PROVE_NODES
    reply_nodes: int = REPLY_NODES
    search_iterations: int = SEARCH_ITERATIONS
    search_runs: int = SEARCH_RUNS


class _Prover:
    """The exact results of lines within a node budget, one table for the whole build."""

    def __init__(self) -> None:
        from stairgames.games.twenty_seven.research.endgame import Solver

        self.solver = Solver(table_bits=TABLE_BITS)
        self.nodes = 0

    def result(self, line: rules.Line, nodes: int) -> int | None:
        """``line``'s result for its colour to move, or ``None`` if not proven."""
        from stairgames.games.twenty_seven.research.endgame import UnsolvedError

        try:
            return self.solver.result(line, "basic", nodes=nodes)
        except UnsolvedError:
            return None
        finally:
            self.nodes += self.solver.nodes


def _child(state: State, action: int) -> TwentySevenState:
    child = state.clone()
    child.apply_action(action)
    assert isinstance(child, TwentySevenState)
    return child


def _result_after(prover: _Prover, state: State, action: int, nodes: int) -> int | None:
    """The result of ``action`` for the colour playing it, or ``None`` if not proven."""
    child = _child(state, action)
    if child.is_terminal():
        returns = child.returns()
        seat = state.current_player()
        return (returns[seat] > returns[1 - seat]) - (returns[seat] < returns[1 - seat])
    found = prover.result(child.line, nodes)
    return None if found is None else -found


def _kernel_actions() -> dict[int, int]:
    """The action of each move of the compiled search (``field * 64 + discs``)."""
    actions = {uct.PASS: PASS}
    for field in range(MAX_FIELDS):
        for discs in range(1, MAX_COUNT + 1):
            actions[field * 64 + discs] = field * MAX_COUNT + discs - 1
    return actions


def search_visits(
    state: TwentySevenState, iterations: int, seed: int, lost: set[int] | None = None
) -> dict[int, float]:
    """The visits of each action of ``state`` in a compiled ``mcts`` search (c = 0.7),
    the actions of ``lost`` marked as proven losses first (as ``mcts`` marks those its
    endgame solver proved)."""
    search = uct.TreeSearch(
        kernel.tree_search,
        kernel.line_array(state.line),
        np.array([kernel.VARIANT_CODES["basic"]], dtype=np.int64),
        _kernel_actions(),
        (0, 1),
        max_moves=kernel.MAX_MOVES,
    )
    rng = random.Random(seed)
    if lost:
        search.expand_root(rng.getrandbits(62))
        search.mark_lost(lost)
    while search.iterations < iterations:
        if search.run(min(50_000, iterations - search.iterations), 0.7, rng.getrandbits(62)) == 0:
            break
    return {search.action(child): float(search.visits[child]) for child in search.root_children()}


def choose(
    state: TwentySevenState,
    prover: _Prover,
    budgets: Budgets,
    *,
    first: str | None = None,
    pick: bool = True,
    narrow: int = 0,
    known: Mapping[int, int] | None = None,
) -> BookEntry:
    """The book's entry for ``state`` (module docstring): the moves proven, and the
    book's move where one is proven to win, where ``pick``, or where at least one and at
    most ``narrow`` moves are not proven lost (where every move is, the player's own
    search chooses how to lose); ``first`` is the move to take whatever the search says
    (the root's); ``known``: results already proven (by :func:`back_up`), not searched
    again."""
    legal = state.legal_actions()
    proven: dict[int, int] = dict(known or {})
    for action in legal:
        if action in proven:
            if proven[action] == 1:
                break
            continue
        found = _result_after(prover, state, action, budgets.prove_nodes)
        if found is not None:
            proven[action] = found
        if found == 1:
            break
    if 1 not in proven.values():
        for action in legal:
            if action in proven:
                continue
            child = _child(state, action)
            replies = child.legal_actions()
            lost_for_them = 0
            for reply in replies:
                found = _result_after(prover, child, reply, budgets.reply_nodes)
                if found == 1:  # the reply wins for black: the move loses
                    proven[action] = -1
                    break
                lost_for_them += found == -1
            if lost_for_them == len(replies):  # every reply loses for black: the move wins
                proven[action] = 1
                break
    move: int | None = None
    winning = [action for action, found in proven.items() if found == 1]
    if first is not None:
        move = state.string_to_action(first)
    elif winning:
        move = winning[0]
    elif pick or 0 < len(legal) - list(proven.values()).count(-1) <= narrow:
        lost = {action for action, found in proven.items() if found == -1}
        open_ = [action for action in legal if action not in lost] or legal
        chosen = {action: 0 for action in open_}
        total = {action: 0.0 for action in open_}
        for run in range(budgets.search_runs):
            visits = search_visits(
                state, budgets.search_iterations, seed=1000 * len(state.history()) + run, lost=lost
            )
            chosen[max(open_, key=lambda action: visits.get(action, 0.0))] += 1
            for action in open_:
                total[action] += visits.get(action, 0.0)
        move = max(open_, key=lambda action: (chosen[action], total[action]))
    return BookEntry(
        None if move is None else state.action_to_string(move),
        {state.action_to_string(action): found for action, found in sorted(proven.items())},
    )


def _white_value(position: str, positions: Mapping[str, Mapping[str, Any]]) -> int | None:
    """The result for white of a book position, where its proven moves settle it: 1 if
    a move is proven to win, -1 if every legal move is proven lost, else ``None``."""
    entry = positions.get(position)
    if entry is None:
        return None
    proven = entry["proven"]
    if 1 in proven.values():
        return 1
    state = TwentySevenGame(TwentySevenOptions()).state_from_position(position)
    legal = [state.action_to_string(action) for action in state.legal_actions()]
    return -1 if all(proven.get(move) == -1 for move in legal) else None


def _move_result(
    state: State, action: int, positions: Mapping[str, Mapping[str, Any]]
) -> int | None:
    """White's result of ``action`` in ``state`` from the book's deeper positions: -1
    if a reply of black's leads to a lost position (or wins), 1 if every reply leads to
    a won one (or loses), else ``None``."""
    after = _child(state, action)
    if after.is_terminal():
        return None  # proven when the book was built
    values: list[int | None] = []
    for reply in after.legal_actions():
        child = _child(after, reply)
        if child.is_terminal():
            returns = child.returns()
            values.append((returns[0] > returns[1]) - (returns[0] < returns[1]))
        elif child.current_player() == 0:
            values.append(_white_value(child.position(), positions))
        else:
            values.append(None)
        if values[-1] == -1:
            return -1
    return 1 if all(value == 1 for value in values) else None


def back_up(positions: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """The results the book's positions learn from its deeper ones (minimax over the
    book, to a fixed point): a move is lost if one of black's replies reaches a book
    position where every move is proven lost, won if every reply reaches one with a move
    proven to win. By position, the moves newly proven and their results."""
    table = {position: dict(entry["proven"]) for position, entry in positions.items()}
    current = {position: {"proven": proven} for position, proven in table.items()}
    learned: dict[str, dict[str, int]] = {}
    game = TwentySevenGame(TwentySevenOptions())
    changed = True
    while changed:
        changed = False
        for position, proven in table.items():
            state = game.state_from_position(position)
            for action in state.legal_actions():
                move = state.action_to_string(action)
                if move in proven:
                    continue
                found = _move_result(state, action, current)
                if found is not None:
                    proven[move] = found
                    learned.setdefault(position, {})[move] = found
                    changed = True
    return learned


def deepened(
    line: str,
    made: Mapping[str, tuple[frozenset[tuple[str, int]], BookEntry]],
    prover: _Prover,
    budgets: Budgets,
    *,
    pick: bool = False,
    narrow: int,
    nodes: int,
) -> tuple[TwentySevenState, BookEntry]:
    """The position after ``line`` (white to move, after white's book moves) and its
    entry chosen again with ``nodes`` positions for each move not proven yet (what the
    book knew of it kept): where the player's own search chose among three or more
    open moves and lost, a deeper proof may leave one or two, or find a win. ``pick``:
    the book takes a move there whatever is open (before ``move_plies``)."""
    state = TwentySevenGame(TwentySevenOptions()).new_initial_state()
    assert isinstance(state, TwentySevenState)
    for move in line.split():
        state.apply_move(move)
    if state.is_terminal() or state.current_player() != 0:
        raise ValueError(f"{line!r} does not lead to a position of white's")
    known = made[state.position()][1].proven if state.position() in made else {}
    entry = choose(
        state,
        prover,
        dataclasses.replace(budgets, prove_nodes=nodes),
        pick=pick,
        narrow=narrow,
        known={state.string_to_action(move): found for move, found in known.items()},
    )
    return state, entry


def build(
    *,
    first: str | None,
    plies: int = PLIES,
    move_plies: int = MOVE_PLIES,
    narrow: int = NARROW,
    deep_plies: int = DEEP_PLIES,
    budgets: Budgets = Budgets(),
    report: Callable[[str], None] | None = None,
    command: str = "",
    start: Mapping[str, BookEntry] | None = None,
    deepen: Sequence[str] = (),
    deepen_nodes: int = DEEPEN_NODES,
) -> dict[str, Any]:
    """The book from the start of the basic game (its JSON form): white's positions
    before ``plies`` along the book's moves and every reply of black's, with a book
    move before ``move_plies``; from there on, before ``deep_plies``, it goes on only
    where it has a move: one proven to win, or the search's where at most ``narrow``
    moves are not proven lost. Then the results of the book's deeper positions are
    backed up (:func:`back_up`) and the positions that learned one are chosen again,
    until nothing changes. ``command`` is kept in it (the command line that built it);
    ``start``: the entries of an earlier build with the same budgets (a book file), not
    computed again. ``deepen``: lines (moves separated by spaces) to positions of white's
    where the book leaves the move to the player (more than ``narrow`` moves open):
    their open moves are proven again with ``deepen_nodes`` positions each, first (the
    lines where measured games were lost; see :func:`deepened`)."""
    prover = _Prover()
    started = time.perf_counter()
    made: dict[str, tuple[frozenset[tuple[str, int]], BookEntry]] = {
        position: (frozenset(), entry) for position, entry in (start or {}).items()
    }
    for line in deepen:
        pick = len(line.split()) < move_plies
        state, entry = deepened(
            line, made, prover, budgets, pick=pick, narrow=narrow, nodes=deepen_nodes
        )
        made[state.position()] = (frozenset(), entry)
        if report is not None:
            report(
                f"deepened {line}: {entry.move}, proven {dict(entry.proven)} "
                f"({prover.nodes:,} positions, {time.perf_counter() - started:.0f} s)"
            )
    known: dict[str, dict[str, int]] = {}
    passes = 0
    while True:
        passes += 1
        positions: dict[str, dict[str, Any]] = {}
        frontier: list[TwentySevenState] = []
        initial = TwentySevenGame(TwentySevenOptions()).new_initial_state()
        assert isinstance(initial, TwentySevenState)
        frontier.append(initial)
        while frontier:
            state = frontier.pop(0)
            position = state.position()
            if position in positions:
                continue
            ply = len(state.history())
            given = frozenset(known.get(position, {}).items())
            if position in made and made[position][0] == given:
                entry = made[position][1]
            else:
                entry = choose(
                    state,
                    prover,
                    budgets,
                    first=first if not ply else None,
                    pick=ply < move_plies,
                    narrow=narrow,
                    known={state.string_to_action(move): found for move, found in given},
                )
                made[position] = (given, entry)
                if report is not None:
                    report(
                        f"pass {passes} ply {ply} {position}: {entry.move}, proven "
                        f"{dict(entry.proven)} ({prover.nodes:,} positions, "
                        f"{time.perf_counter() - started:.0f} s)"
                    )
            positions[position] = {"move": entry.move, "proven": dict(entry.proven)}
            if entry.move is None:
                continue
            after = _child(state, state.string_to_action(entry.move))
            for reply in [] if after.is_terminal() else after.legal_actions():
                child = _child(after, reply)
                deeper = len(child.history()) < (plies if ply < move_plies else deep_plies)
                if not child.is_terminal() and child.current_player() == 0 and deeper:
                    frontier.append(child)
        learned = back_up(positions)
        if not learned:
            break
        for position, results in learned.items():
            known.setdefault(position, dict(positions[position]["proven"])).update(results)
        if report is not None:
            report(f"pass {passes}: {len(learned)} positions learned results from deeper ones")
    return {
        "format": FORMAT,
        "game": "twenty_seven",
        "variant": "basic",
        "built_with": {
            "first": first,
            "plies": plies,
            "move_plies": move_plies,
            "narrow": narrow,
            "deep_plies": deep_plies,
            **dataclasses.asdict(budgets),
            **({"deepen": list(deepen), "deepen_nodes": deepen_nodes} if deepen else {}),
            "positions_searched": prover.nodes,
            "passes": passes,
            "seconds": round(time.perf_counter() - started, 1),
            "command": command,
        },
        "positions": positions,
    }


def built_with(path: Path) -> Any:
    """How the book in ``path`` was built (its ``built_with``: budgets, command, and the
    same of the book it was resumed from, if any), so that a chain of resumed builds
    says every command that made it."""
    return json.loads(path.read_text(encoding="utf-8"))["built_with"]


def dump_book(book: Mapping[str, Any]) -> str:
    """The book's JSON text: its fields, then one position a line (readable, and a
    rebuild's changes show line by line)."""
    head = {key: value for key, value in book.items() if key != "positions"}
    lines = [json.dumps(head, separators=(",", ":"))[:-1] + ',"positions":{']
    entries = [
        json.dumps(position) + ":" + json.dumps(entry, separators=(",", ":"))
        for position, entry in book["positions"].items()
    ]
    lines.append(",\n".join(entries))
    lines.append("}}")
    return "\n".join(lines) + "\n"


def command_line(args: argparse.Namespace) -> str:
    """The command that builds the book of ``args`` (the budgets that differ from the
    defaults spelled out; where it was written left out)."""
    words = ["python", "-m", "stairgames.games.twenty_seven.research.opening"]
    if args.first is not None:
        words += ["--first", args.first]
    for flag, value, default in (
        ("--plies", args.plies, PLIES),
        ("--move-plies", args.move_plies, MOVE_PLIES),
        ("--narrow", args.narrow, NARROW),
        ("--deep-plies", args.deep_plies, DEEP_PLIES),
        ("--prove-nodes", args.prove_nodes, PROVE_NODES),
        ("--reply-nodes", args.reply_nodes, REPLY_NODES),
        ("--search-iterations", args.search_iterations, SEARCH_ITERATIONS),
        ("--search-runs", args.search_runs, SEARCH_RUNS),
    ):
        if value != default:
            words += [flag, str(value)]
    for line in args.deepen:
        words += ["--deepen", shlex.quote(line)]
    if args.deepen and args.deepen_nodes != DEEPEN_NODES:
        words += ["--deepen-nodes", str(args.deepen_nodes)]
    return " ".join(words)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--first", help="white's first move, whatever the search says (0:1)")
    parser.add_argument(
        "--plies", type=int, default=PLIES, help="white's positions before this ply"
    )
    parser.add_argument(
        "--move-plies", type=int, default=MOVE_PLIES, help="a book move before this ply"
    )
    parser.add_argument(
        "--narrow", type=int, default=NARROW, help="later, a move where this few are open"
    )
    parser.add_argument(
        "--deep-plies", type=int, default=DEEP_PLIES, help="such lines followed before this ply"
    )
    parser.add_argument("--prove-nodes", type=int, default=PROVE_NODES)
    parser.add_argument("--reply-nodes", type=int, default=REPLY_NODES)
    parser.add_argument("--search-iterations", type=int, default=SEARCH_ITERATIONS)
    parser.add_argument("--search-runs", type=int, default=SEARCH_RUNS)
    parser.add_argument(
        "--deepen",
        action="append",
        default=[],
        metavar="LINE",
        help="a line ('0:1 8:8 0:6 7:1') to a position whose open moves are proven again",
    )
    parser.add_argument("--deepen-nodes", type=int, default=DEEPEN_NODES)
    parser.add_argument("--out", type=Path, default=BOOK_FILE, help="the book's file")
    parser.add_argument(
        "--resume",
        type=Path,
        help="an earlier book built with the same options: its positions are not searched again",
    )
    args = parser.parse_args(argv)
    book = build(
        first=args.first,
        plies=args.plies,
        move_plies=args.move_plies,
        narrow=args.narrow,
        deep_plies=args.deep_plies,
        budgets=Budgets(
            args.prove_nodes, args.reply_nodes, args.search_iterations, args.search_runs
        ),
        report=lambda line: print(line, flush=True),
        command=command_line(args),
        start=None if args.resume is None else read_book(args.resume),
        deepen=args.deepen,
        deepen_nodes=args.deepen_nodes,
    )
    if args.resume is not None:
        book["built_with"]["resumed_from"] = built_with(args.resume)
    args.out.write_text(dump_book(book), encoding="utf-8")
    print(f"{len(book['positions'])} positions in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = [
    "BOOK_FILE",
    "BookEntry",
    "Budgets",
    "book_move",
    "build",
    "built_with",
    "entry_of",
    "proven_results",
    "read_book",
    "shipped_book",
]
