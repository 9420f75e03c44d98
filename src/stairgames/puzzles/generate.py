"""The generator: puzzles from game records or from seeded games of the computer players.

Each game's decisions are tried from the last back (:func:`candidates`): the exact
means prove the end of a game first, and a game without chance stops being searched
after :data:`UNPROVEN_IN_A_ROW` positions in a row that they do not prove (the proofs
only get longer further back). Every position that makes a puzzle
(:func:`stairgames.puzzles.prove.make_puzzle`) is written at once, so a run stopped
early keeps what it made; a puzzle already in the output (same id) is not made twice.

``stairgames puzzles generate GAME --self-play N`` plays N games of the game's own
levels (each seat a level drawn from the seed: the weakest two, so that games hold
mistakes to punish), cycling the options of the game's
:class:`~stairgames.core.puzzles.PuzzleKit`; ``--from RECORDS`` reads record files
(:mod:`stairgames.core.record`). ``stairgames puzzles verify`` proves shipped (or
given) puzzles again (:func:`stairgames.puzzles.prove.verify`).
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final, TextIO

from stairgames.agents import LEVEL_NAMES, make_agent
from stairgames.argparse_i18n import HelpFormatter
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.errors import StairgamesError
from stairgames.core.game import State
from stairgames.core.options import options_to_dict
from stairgames.core.record import GameRecord, replay
from stairgames.core.registry import get_spec, load, puzzle_games, puzzle_kit
from stairgames.i18n import N_, _
from stairgames.puzzles import read_puzzles, shipped, shipped_games, write_puzzles
from stairgames.puzzles.model import Puzzle
from stairgames.puzzles.prove import make_puzzle, prover_for, verify

UNPROVEN_IN_A_ROW: Final = 4
"""Positions in a row the exact means do not prove after which a game without chance is
left (going back from its end)."""
SELF_PLAY_LEVELS: Final = LEVEL_NAMES[:2]
"""The levels self-play draws each seat from."""


@dataclasses.dataclass(frozen=True)
class PlayedGame:
    """A game to take puzzles from: its decisions' states in order, and its source."""

    states: tuple[State, ...]
    source: dict[str, Any]
    """The puzzle's ``source`` less its ``ply``."""
    plies: tuple[int, ...]
    """Each state's ply (actions before it, chance included)."""


def self_play(game: str, games: int, *, seed: int) -> Iterator[PlayedGame]:
    """``games`` seeded games of the game's weakest levels, the options of its kit in turn.

    :raises StairgamesError: the game has no puzzles.
    """
    kit = _kit(game)
    for index in range(games):
        game_seed = seed * 100_003 + index
        rng = random.Random(game_seed)
        options = kit.option_sets[index % len(kit.option_sets)]
        loaded = load(game, **options)
        seats = loaded.num_players()
        players = [
            make_agent(rng.choice(SELF_PLAY_LEVELS), seat, rng.randrange(1 << 30))
            for seat in range(seats)
        ]
        state = loaded.new_initial_state()
        states: list[State] = []
        plies: list[int] = []
        ply = 0
        while not state.is_terminal():
            if state.is_chance_node():
                action = sample_chance_outcome(state, rng)
            else:
                states.append(state.clone())
                plies.append(ply)
                action = players[state.current_player()].act(state)
            state.apply_action(action)
            ply += 1
        source = {
            "kind": "self-play",
            "seed": game_seed,
            "options": options_to_dict(loaded.options),
        }
        yield PlayedGame(tuple(states), source, tuple(plies))


def from_records(paths: Sequence[Path], game: str) -> Iterator[PlayedGame]:
    """The games of record files of ``game`` (other games' records are refused).

    :raises StairgamesError: a record does not load or replay, or is of another game.
    """
    name = get_spec(game).name
    for path in paths:
        record = GameRecord.load(path)
        if get_spec(record.game).name != name:
            raise StairgamesError(
                message_id=N_("{path} is a record of {other}, not of {game}"),
                arguments={"path": str(path), "other": record.game, "game": name},
            )
        states: list[State] = []
        plies: list[int] = []
        for ply, (_move, state) in enumerate(replay(record)):
            if not state.is_terminal() and not state.is_chance_node():
                states.append(state)
                plies.append(ply)
        yield PlayedGame(tuple(states), {"kind": "record", "file": path.name}, tuple(plies))


def candidates(played: PlayedGame, *, chance: bool) -> Iterator[tuple[State, int]]:
    """The positions of a game to try, from its end back, each with its ply."""
    yield from zip(reversed(played.states), reversed(played.plies), strict=True)


@dataclasses.dataclass
class Tally:
    """What a run made, for its report and the benchmark."""

    games: int = 0
    tried: int = 0
    """Positions tried."""
    proven: int = 0
    """Positions tried whose every legal move the exact means valued, puzzles or not."""
    made: int = 0
    seconds: float = 0.0

    def per_hour(self) -> float:
        return 3600.0 * self.made / self.seconds if self.seconds > 0 else 0.0


def generate(
    game: str,
    played_games: Iterable[PlayedGame],
    *,
    rng: random.Random,
    limit: int | None = None,
    known: set[str] | None = None,
    on_puzzle: Callable[[Puzzle], None] | None = None,
    on_game: Callable[[Tally], None] | None = None,
) -> Tally:
    """Puzzles from ``played_games`` (see the module), each given to ``on_puzzle`` as it
    is made; ``known``: ids not to make again (the made ones are added); ``limit``:
    stop after so many."""
    started = time.perf_counter()
    tally = Tally()
    known = set() if known is None else known
    chance = load(game).info().chance
    for played in played_games:
        tally.games += 1
        unproven = 0
        for state, ply in candidates(played, chance=chance):
            if limit is not None and tally.made >= limit:
                break
            tally.tried += 1
            source = {**played.source, "ply": ply}
            puzzle = make_puzzle(
                game, options_to_dict(state.get_game().options), state, source, rng=rng
            )
            proven = puzzle is not None or not _unproven(state)  # mostly a cached answer
            tally.proven += int(proven)
            if puzzle is None:
                unproven += 1
                if not chance and unproven >= UNPROVEN_IN_A_ROW and not proven:
                    break
                continue
            unproven = 0
            if puzzle.id in known:
                continue
            known.add(puzzle.id)
            tally.made += 1
            if on_puzzle is not None:
                on_puzzle(puzzle)
        tally.seconds = time.perf_counter() - started
        if on_game is not None:
            on_game(tally)
        if limit is not None and tally.made >= limit:
            break
    tally.seconds = time.perf_counter() - started
    return tally


def _unproven(state: State) -> bool:
    """Whether the exact means leave ``state`` unproven (not merely no puzzle)."""

    return (
        prover_for(state.without_agreement().get_game()).values(state.without_agreement()) is None
    )


def _kit(game: str) -> Any:
    kit = puzzle_kit(game)
    if kit is None:
        raise StairgamesError(
            message_id=N_("{game} has no puzzles; games with puzzles: {games}"),
            arguments={"game": get_spec(game).name, "games": ", ".join(puzzle_games())},
        )
    return kit


# ----- the command line ------------------------------------------------------------------


def command(argv: Sequence[str], *, out: TextIO | None = None) -> int:
    """``stairgames puzzles generate|verify ...``; returns the exit status."""
    stream = sys.stdout if out is None else out
    parser = argparse.ArgumentParser(
        prog="stairgames puzzles",
        description=_("Make puzzles with proven answers, or prove made ones again."),
        formatter_class=HelpFormatter,
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="generate|verify")
    making = actions.add_parser(
        "generate",
        help=_("puzzles from records or self-play"),
        description=_("Find positions with a proven answer and write them as puzzles."),
        formatter_class=HelpFormatter,
    )
    making.add_argument("game", metavar="GAME", help=_("the game"))
    sources = making.add_mutually_exclusive_group(required=True)
    sources.add_argument(
        "--from", dest="records", nargs="+", type=Path, metavar="RECORD", help=_("record files")
    )
    sources.add_argument(
        "--self-play", type=int, metavar="N", help=_("play N games of the computer levels")
    )
    making.add_argument("--seed", type=int, default=0, help=_("the seed (default 0)"))
    making.add_argument(
        "--out",
        type=Path,
        metavar="FILE",
        help=_("add the puzzles to FILE (.jsonl, or .jsonl.gz); default: print them"),
    )
    making.add_argument("--limit", type=int, metavar="K", help=_("stop after K puzzles"))
    proving = actions.add_parser(
        "verify",
        help=_("prove puzzles again"),
        description=_("Prove the shipped puzzles (or a file's) again with the exact solvers."),
        formatter_class=HelpFormatter,
    )
    proving.add_argument("game", metavar="GAME", nargs="?", help=_("the game (default: all)"))
    proving.add_argument("--file", type=Path, metavar="FILE", help=_("a file of puzzles"))
    proving.add_argument("--sample", type=int, metavar="N", help=_("prove N drawn at random"))
    proving.add_argument("--seed", type=int, default=0, help=_("the seed (default 0)"))
    args = parser.parse_args(argv)
    if args.action == "generate":
        return _generate(args, stream)
    return _verify(args, stream)


def _generate(args: argparse.Namespace, stream: TextIO) -> int:
    game = get_spec(args.game).name
    _kit(game)
    if args.self_play is not None and args.self_play < 1:
        raise StairgamesError(message_id=N_("--self-play needs at least one game"))
    played = (
        from_records(args.records, game)
        if args.records
        else self_play(game, args.self_play, seed=args.seed)
    )
    known: set[str] = set()
    if args.out is not None and args.out.exists():
        known = {puzzle.id for puzzle in read_puzzles(args.out)}

    def keep(puzzle: Puzzle) -> None:
        if args.out is None:
            import json

            print(json.dumps(puzzle.to_json(), ensure_ascii=False, sort_keys=True), file=stream)
            stream.flush()
        else:
            write_puzzles(args.out, [puzzle], append=True)

    def report(tally: Tally) -> None:
        print(
            _("{games} games, {tried} positions tried, {made} puzzles ({rate} an hour)").format(
                games=tally.games,
                tried=tally.tried,
                made=tally.made,
                rate=f"{tally.per_hour():.0f}",
            ),
            file=sys.stderr,
            flush=True,
        )

    tally = generate(
        game,
        played,
        rng=random.Random(args.seed),
        limit=args.limit,
        known=known,
        on_puzzle=keep,
        on_game=report,
    )
    if args.out is not None and tally.made:
        write_puzzles(args.out, read_puzzles(args.out))  # one compressed stream again
    return 0


def _verify(args: argparse.Namespace, stream: TextIO) -> int:
    if args.file is not None:
        chosen = read_puzzles(args.file)
        if args.game is not None:
            chosen = [p for p in chosen if p.game == get_spec(args.game).name]
    else:
        games = [get_spec(args.game).name] if args.game else shipped_games()
        chosen = [puzzle for game in games for puzzle in shipped(game)]
    if args.sample is not None and args.sample < len(chosen):
        chosen = random.Random(args.seed).sample(chosen, args.sample)
    problems: list[str] = []
    for puzzle in chosen:
        problems.extend(verify(puzzle))
    for problem in problems:
        print(problem, file=stream)
    print(
        _("{count} puzzles proven again, {problems} problems").format(
            count=len(chosen), problems=len(problems)
        ),
        file=stream,
    )
    return 1 if problems else 0


__all__ = [
    "UNPROVEN_IN_A_ROW",
    "PlayedGame",
    "Tally",
    "candidates",
    "command",
    "from_records",
    "generate",
    "self_play",
]
