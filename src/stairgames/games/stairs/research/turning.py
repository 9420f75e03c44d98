"""Where a Stairs game turned: its positions solved backwards from the end.

A benchmark's game records (``stairgames.bench.strength``'s checkpoint lines with
``moves``) are replayed, and every position is solved with the exact endgame solver
(:class:`.endgame.EndgameSolver`, one table for the whole game, so each earlier
position reuses what the later ones proved), from the last ply backwards until the
solver stops reaching (``misses`` positions in a row unsolved within ``nodes``
positions each). The value of each ply is written for the player the record calls
``ours``: ``W`` (won under perfect play), ``L`` (lost) or ``?`` (out of reach).

The **turning ply** of a game that ``ours`` lost is the last ply at which ``ours``
moved from a position not proven lost (won, or out of reach) into one proven lost:
there the game was thrown away, for good. For a won position the moves that keep the
win are listed with the positions the solver needed to prove each, which says how
far from the player's reach the right move was.

    python -m stairgames.games.stairs.research.turning GAMES.jsonl[.gz] ... \\
        [--nodes 3000000] [--misses 2] [--all]
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from stairgames.games.stairs.game import StairsGame, StairsOptions, StairsState
from stairgames.games.stairs.research.endgame import EndgameSolver

WON: Final = "W"
LOST: Final = "L"
OPEN: Final = "?"


@dataclasses.dataclass(frozen=True)
class WinningMove:
    """A move that keeps a won position won, and the positions that proved it."""

    move: str
    nodes: int


@dataclasses.dataclass(frozen=True)
class Turn:
    """What the backward solving of one game found."""

    seed: int
    ours_first: bool
    score: float
    values: str
    """One letter a ply from ply 0 (``?`` where out of reach), for ``ours``."""
    turning_ply: int | None
    """The last ply where ``ours`` moved from a position not proven lost into a lost
    one; ``None`` where there is none (a game won, or lost before the solver reaches)."""
    move: str | None
    """The move ``ours`` played at the turning ply."""
    winning: tuple[WinningMove, ...]
    """At a turning ply whose position was won: the moves that kept the win."""


def replay(moves: list[str]) -> list[StairsState]:
    """The positions of a game, before each move and after the last (moves of play
    only: agreement is off, as in the benchmarks)."""
    state = StairsGame(StairsOptions(agreement=False)).new_initial_state()
    states = [state.clone()]
    for move in moves:
        state.apply_action(state.string_to_action(move))
        states.append(state.clone())
    return states


def value_for(solver: EndgameSolver, state: StairsState, seat: int, nodes: int) -> str:
    """``state``'s exact value for ``seat`` (``W``/``L``), ``?`` out of reach."""
    solved = solver.solve(state, nodes=nodes)
    if solved is None:
        return OPEN
    returns, _ = solved
    return WON if returns[seat] > returns[1 - seat] else LOST


def values_backwards(
    states: list[StairsState], seat: int, *, nodes: int, misses: int, solver: EndgameSolver
) -> str:
    """The value of each position for ``seat``, solved from the last backwards; the
    positions before ``misses`` unsolved ones in a row are left ``?`` unsearched."""
    values = [OPEN] * len(states)
    unsolved = 0
    for ply in range(len(states) - 1, -1, -1):
        values[ply] = value_for(solver, states[ply], seat, nodes)
        unsolved = unsolved + 1 if values[ply] == OPEN else 0
        if unsolved >= misses:
            break
    return "".join(values)


def turning_ply(values: str, movers: list[int], seat: int) -> int | None:
    """The last ply at which ``seat`` moved from a position not proven lost into one
    proven lost, or ``None``."""
    for ply in range(len(values) - 2, -1, -1):
        if movers[ply] == seat and values[ply] != LOST and values[ply + 1] == LOST:
            return ply
    return None


def move_values(state: StairsState, seat: int, nodes: int) -> dict[str, tuple[str, int]]:
    """Each move of ``state`` (its notation) with the value for ``seat`` of the position
    it leads to and the positions that took, each proven by a fresh solver within
    ``nodes`` (its positions are what one move's proof costs alone)."""
    values = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        solver = EndgameSolver()
        value = value_for(solver, child, seat, nodes)
        values[state.action_to_string(action)] = value, solver.nodes
    return values


def winning_moves(state: StairsState, seat: int, nodes: int) -> tuple[WinningMove, ...]:
    """The moves of ``state`` (``seat`` to move) proven to keep the win, each with the
    positions its proof took alone (:func:`move_values`)."""
    return tuple(
        WinningMove(move, searched)
        for move, (value, searched) in move_values(state, seat, nodes).items()
        if value == WON
    )


def movers_of(states: list[StairsState]) -> list[int]:
    """The seat to move in each position (-1 once the game is over)."""
    return [-1 if state.is_terminal() else state.current_player() for state in states]


def turn_of(record: dict[str, Any], *, nodes: int, misses: int) -> Turn:
    """Solves the game of one checkpoint line backwards and finds where it turned."""
    moves: list[str] = record["moves"]
    seat = 0 if record["ours_first"] else 1
    states = replay(moves)
    values = values_backwards(states, seat, nodes=nodes, misses=misses, solver=EndgameSolver())
    ply = turning_ply(values, movers_of(states), seat)
    winning: tuple[WinningMove, ...] = ()
    if ply is not None and values[ply] == WON:
        winning = winning_moves(states[ply], seat, nodes)
    return Turn(
        seed=int(record["seed"]),
        ours_first=bool(record["ours_first"]),
        score=float(record["score"]),
        values=values,
        turning_ply=ply,
        move=None if ply is None else moves[ply],
        winning=winning,
    )


def game_records(paths: list[Path], *, all_games: bool = False) -> Iterator[dict[str, Any]]:
    """The Stairs game lines with moves of checkpoint files (``.gz`` read as such),
    those ``ours`` did not win unless ``all_games``."""
    for path in paths:
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt") as lines:
            for line in lines:
                record = json.loads(line)
                if record.get("kind") != "game" or record.get("game") != "stairs":
                    continue
                if "moves" in record and (all_games or record["score"] < 1):
                    yield record


def describe(turn: Turn) -> str:
    """One game's line (and its winning moves), for reading."""
    seat = "first" if turn.ours_first else "second"
    where = "no turning ply reached"
    if turn.turning_ply is not None:
        before = turn.values[turn.turning_ply]
        where = f"turned at ply {turn.turning_ply} ({turn.move}, from {before})"
    text = f"seed {turn.seed} ours {seat} score {turn.score}: {turn.values} {where}"
    for found in turn.winning:
        text += f"\n    winning: {found.move} ({found.nodes:,} positions)"
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path, help="checkpoint lines with moves")
    parser.add_argument("--nodes", type=int, default=3_000_000, help="positions a position")
    parser.add_argument("--misses", type=int, default=2, help="unsolved in a row to stop")
    parser.add_argument("--all", action="store_true", help="every game, not only those lost")
    args = parser.parse_args(argv)
    for record in game_records(args.files, all_games=args.all):
        print(describe(turn_of(record, nodes=args.nodes, misses=args.misses)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
