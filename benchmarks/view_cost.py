"""What a match's view costs the server's event loop, with and without the screen-reader
mode's texts, as a table: ``python -m benchmarks.view_cost [--games 4] [--repeats 5]``.

The hub makes each view on its event loop (one view a seat, and one more for a seat whose
page asked for the texts), so this is what a move costs the loop a watching seat. For
each registered game (with its default options, every seat a person), ``--games`` random
games (seeded) are played to the end; at every ply a match is rebuilt from the events so
far, and the view of the seat to act (a spectator at a chance node) is made ``--repeats``
times each way in alternation: ``texts=False`` (the board made anew, as the first view of
an event is) and ``texts=True``; and the view of the next seat, waiting (with the moves it
may queue: ``Match.premoves``, in the games that offer them), made anew each time. A
ply's figure is the median of its repeats; the table gives, over all plies of a game, the
median and the largest of those figures in milliseconds of the process's CPU time, and
the texts' share (their view over the plain one, the median of the plies' ratios). CPU
time counts less of other programs' load than the wall clock does; the ratio is what
holds on a noisy shared machine.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from dataclasses import dataclass

import stairgames
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.registry import game_names
from stairgames.server.base.store import EventRecord, MatchRecord, SeatRecord
from stairgames.server.play.match import Match


def played_events(game: str, seed: int) -> list[EventRecord]:
    """A random game of ``game`` to its end, seeded, as a match's events."""
    rng = random.Random(seed)
    state = stairgames.load(game).new_initial_state()
    events: list[EventRecord] = []
    while not state.is_terminal():
        if state.is_chance_node():
            seat, action = None, sample_chance_outcome(state, rng)
        else:
            seat, action = state.current_player(), rng.choice(state.legal_actions())
        move = {"move": state.action_to_string(action)}
        events.append(EventRecord(len(events) + 1, "move", seat, move))
        state.apply_action(action)
    return events


def match_after(game: str, seats: int, events: list[EventRecord]) -> Match:
    """The match of ``game`` once ``events`` have happened, every seat a person."""
    held = tuple(SeatRecord(seat, "human", None, None) for seat in range(seats))
    return Match(MatchRecord("m", game, {}, 1, None, held, tuple(events)))


def view_seconds(match: Match, viewer: int | None, *, texts: bool) -> float:
    """The CPU seconds of one view of ``match`` for ``viewer``, its board and the moves
    it may queue made anew."""
    match._shared_board = None  # the first view of an event makes the board
    match._premoves = {}
    start = time.process_time()
    match.view(viewer, connected=set(), thinking=False, texts=texts)
    return time.process_time() - start


@dataclass
class Row:
    game: str
    plies: int
    plain_ms: list[float]
    texts_ms: list[float]
    ratios: list[float]
    waiting_ms: list[float]


def measure(game: str, games: int, repeats: int) -> Row:
    """Every ply of ``games`` random games of ``game``, each way ``repeats`` times."""
    seats = stairgames.load(game).num_players()
    row = Row(game, 0, [], [], [], [])
    for seed in range(games):
        events = played_events(game, seed)
        for ply in range(len(events) + 1):
            match = match_after(game, seats, events[:ply])
            to_act = match.to_act()
            waiting = (0 if to_act is None else to_act + 1) % seats
            plain, texts, other = [], [], []
            for _ in range(repeats):
                plain.append(view_seconds(match, to_act, texts=False))
                texts.append(view_seconds(match, to_act, texts=True))
                other.append(view_seconds(match, waiting, texts=False))
            row.waiting_ms.append(statistics.median(other) * 1000)
            row.plies += 1
            row.plain_ms.append(statistics.median(plain) * 1000)
            row.texts_ms.append(statistics.median(texts) * 1000)
            row.ratios.append(statistics.median(texts) / max(1e-9, statistics.median(plain)))
    return row


def table(rows: list[Row]) -> list[str]:
    lines = [
        "| game | plies | view, median ms | largest | with texts, median ms | largest |"
        " texts' view / plain (median) | waiting seat's view, median ms | largest |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row.game} | {row.plies} | {statistics.median(row.plain_ms):.2f}"
            f" | {max(row.plain_ms):.2f} | {statistics.median(row.texts_ms):.2f}"
            f" | {max(row.texts_ms):.2f} | {statistics.median(row.ratios):.2f}×"
            f" | {statistics.median(row.waiting_ms):.2f} | {max(row.waiting_ms):.2f} |"
        )
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="random games a game")
    parser.add_argument("--repeats", type=int, default=5, help="views a ply, each way")
    parser.add_argument("--game", action="append", help="only these games (default: all)")
    args = parser.parse_args(argv)
    rows = [measure(game, args.games, args.repeats) for game in args.game or game_names()]
    print("\n".join(table(rows)))
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"\nCPU time of this process; load average {load}; {os.cpu_count()} cores.")


if __name__ == "__main__":
    main()
