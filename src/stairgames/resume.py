"""Continuing a stopped game from its record: ``stairgames play --resume RECORD``.

The terminal saves the record of a game stopped midway (quit, Ctrl-C, Ctrl-D). Such a
record leaves the seed out (it would foretell every die and card), so a resumed game
draws its chance from a new seed. A game with hidden information is recorded *for a
viewer* (:mod:`stairgames.core.record`): what that viewer could not see (``deal ? to
red``) is not in the record, and is dealt anew, at random from the new seed among the
outcomes that agree with the record, so that no computer player can foresee it. The
viewer's own cards are in the record and stay as they were.

A record made for one seat's view names that seat's hidden cards, so it is resumed only
with every other seat played by a computer (:func:`check_seats`): no other person at
the keyboard may learn them from the screen. A public record (several people at one
keyboard) or the record of a game without hidden information may be resumed with any
seats.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from stairgames.agents import LEVEL_NAMES, make_agent
from stairgames.argparse_i18n import HelpFormatter
from stairgames.core.errors import InvalidRecordError, StairgamesError
from stairgames.core.game import Game, State
from stairgames.core.record import GameRecord, final_state
from stairgames.i18n import N_, _
from stairgames.terminal import HUMAN, TerminalSession, enable_line_editing


@dataclasses.dataclass(frozen=True)
class Resumed:
    """A stopped game set up again from its record, ready to play on."""

    record: GameRecord
    state: State
    """The position the record ends in, with what it hides dealt anew."""
    dealt_anew: tuple[str, ...]
    """The record's moves (``deal ? to red``) whose outcome was dealt anew."""

    @property
    def game(self) -> Game:
        return self.state.get_game()


def is_resume(argv: Sequence[str]) -> bool:
    """Whether ``stairgames play`` arguments ask to resume a record (``--resume``)."""
    return any(word == "--resume" or word.startswith("--resume=") for word in argv)


def stand_in_rng(seed: int) -> random.Random:
    """The generator that deals anew what a record hides, from the resumed game's seed:
    apart from the game's own generator, so its draws and the computer players' seeds
    do not follow from the cards."""
    return random.Random(f"stairgames resume {seed}")


def resume(path: Path, rng: random.Random) -> Resumed:
    """The game stopped in the record at ``path``, set up to play on; what the record
    hides is dealt anew with ``rng`` (:func:`stairgames.core.record.replay`).

    :raises InvalidRecordError: the file cannot be read or is no record, its game or
        options are unknown, a move does not replay, it starts from a position, or the
        game in it is over.
    """
    record = GameRecord.load(path)
    if record.start_position is not None:
        raise InvalidRecordError(
            message_id=N_(
                "{path} starts from a position of its own; only a game played from the "
                "start can be resumed in the terminal"
            ),
            arguments={"path": str(path)},
        )
    if record.result is not None:
        raise _over(path)
    state = final_state(record, rng=rng)
    if state.is_terminal():
        raise _over(path)
    return Resumed(record, state, _dealt_anew(record, state))


def _over(path: Path) -> InvalidRecordError:
    return InvalidRecordError(
        message_id=N_("the game in {path} is over: see it with 'stairgames replay {path}'"),
        arguments={"path": str(path)},
    )


def _dealt_anew(record: GameRecord, state: State) -> tuple[str, ...]:
    """The record's moves that ``state`` plays with a stand-in: those whose text differs
    from what the state's full history says."""
    return tuple(
        move
        for move, played in zip(record.moves, state.history_strings(), strict=True)
        if move != played
    )


def recorded_players(record: GameRecord, seats: int) -> list[str]:
    """Who played each seat, from the record; a record that does not say (or not for
    every seat) gets ``stairgames play``'s defaults: a person at the seat whose view it
    holds (the first seat for a public or full record), the random player elsewhere."""
    if len(record.players) == seats:
        return list(record.players)
    person = record.viewer if record.viewer is not None else 0
    return [HUMAN if seat == person else "random" for seat in range(seats)]


def seated_players(
    recorded: Sequence[str],
    *,
    seats: str | None = None,
    named: Mapping[int, str] | None = None,
    level: str | None = None,
) -> list[str]:
    """The players of a resumed game: those recorded, where ``seats`` (comma-separated,
    every seat in order) or ``named`` (seat → player, ``--red medium``) do not say
    otherwise, and ``level`` for every computer seat neither of them names.

    :raises StairgamesError: ``seats`` does not name every seat.
    """
    players = list(recorded)
    chosen: dict[int, str] = {}
    if seats is not None:
        listed = [part.strip() for part in seats.split(",")]
        if len(listed) != len(players):
            raise StairgamesError(
                message_id=N_("--seats names {count} players; this game has {seats} seats"),
                arguments={"count": len(listed), "seats": len(players)},
            )
        chosen.update(enumerate(listed))
    chosen.update(named or {})
    for seat, kind in enumerate(players):
        if seat in chosen:
            players[seat] = chosen[seat]
        elif level is not None and kind != HUMAN:
            players[seat] = level
    return players


def check_players(players: Sequence[str], seat_names: Sequence[str]) -> None:
    """Refuse a seat whose player is neither a person nor a known computer player (a web
    match's ``online`` seat, say), saying which flag names another.

    :raises StairgamesError: with the seat, the player, why, and the seat's flag.
    """
    for seat, kind in enumerate(players):
        if kind == HUMAN:
            continue
        try:
            make_agent(kind, seat)
        except StairgamesError as exc:
            raise StairgamesError(
                message_id=N_(
                    "the {seat} seat cannot be played by {kind!r} ({reason}); name its "
                    "player with --{flag} PLAYER"
                ),
                arguments={
                    "seat": _(seat_names[seat]),
                    "kind": kind,
                    "reason": exc,
                    "flag": seat_names[seat],
                },
            ) from None


def check_seats(resumed: Resumed, players: Sequence[str]) -> None:
    """Refuse seats that would show a person what the record's view hides from them: a
    record made for one seat's view (with that seat's hidden cards) is resumed only
    with every other seat played by a computer.

    :raises StairgamesError: a person would sit at another seat.
    """
    viewer = resumed.record.viewer
    if viewer is None:
        return
    others = [seat for seat, kind in enumerate(players) if kind == HUMAN and seat != viewer]
    if others:
        state = resumed.state
        raise StairgamesError(
            message_id=N_(
                "this record holds {viewer}'s hidden cards, so it is resumed only with a "
                "computer at every other seat; {others} cannot be played by a person"
            ),
            arguments={
                "viewer": _(state.seat_name(viewer)),
                "others": _(", ").join(_(state.seat_name(seat)) for seat in others),
            },
        )


def opening_notes(path: Path, resumed: Resumed, seed: int, saved_to: Path) -> list[str]:
    """What a resumed game says first: the record, its moves and whether the record is
    saved to it again; what was dealt anew; the new seed of a game with chance."""
    count = len(resumed.record.moves)
    resumed_from = (
        _("Resumed from {path} ({count} moves); the record is saved there again.")
        if saved_to == path
        else _("Resumed from {path} ({count} moves).")
    )
    notes = [resumed_from.format(path=path, count=count)]
    if resumed.dealt_anew:
        notes.append(
            _("Hidden cards or dice the record does not keep were dealt anew: {moves}.").format(
                moves=", ".join(resumed.dealt_anew)
            )
        )
    if resumed.game.info().chance:
        notes.append(
            _(
                "Chance from here on comes from a new seed ({seed}): a stopped game's "
                "record does not keep the old one."
            ).format(seed=seed)
        )
    return notes


def add_seats_flag(parser: argparse.ArgumentParser) -> None:
    """``--seats PLAYERS``, every seat's player in one flag: ``play GAME`` and ``play
    --resume RECORD`` take it alike (read by :func:`seated_players` here, and by the
    command line for a new game)."""
    parser.add_argument(
        "--seats",
        metavar="PLAYERS",
        help=_("comma-separated players for every seat, in seat order"),
    )


def resume_parser(
    seat_names: Sequence[str], *, epilog: str = "", add_help: bool = False
) -> argparse.ArgumentParser:
    """The flags of ``stairgames play --resume RECORD``: one per seat, named after
    ``seat_names`` (none before the record is read), and those ``play GAME`` has besides
    the game's options (the game and its options come from the record)."""
    parser = argparse.ArgumentParser(
        prog="stairgames play",
        description=_(
            "Continue a stopped game from its record: the same game, seats and levels. "
            "Chance from here on, and any hidden card the record does not keep, comes "
            "from a new seed. Change who plays a seat with --SEAT PLAYER (its colour, as "
            "in --red medium) or --seats."
        ),
        epilog=epilog,
        add_help=add_help,
        allow_abbrev=False,
        formatter_class=HelpFormatter,
    )
    parser.add_argument(
        "--resume",
        type=Path,
        required=True,
        metavar="RECORD",
        help=_("the record of a stopped game (JSON), as the terminal saved it"),
    )
    for seat, name in enumerate(seat_names):
        parser.add_argument(
            f"--{name}",
            dest=f"seat_{seat}",
            metavar="PLAYER",
            help=_("the {name} player (default: as recorded)").format(name=_(name)),
        )
    add_seats_flag(parser)
    parser.add_argument(
        "--seed",
        type=int,
        help=_(
            "seed for the hidden cards the record does not keep, and for dice, draws and "
            "computer players from here on (default: a new one)"
        ),
    )
    parser.add_argument(
        "--record",
        type=Path,
        metavar="FILE",
        help=_("where to save the game record (default: the resumed record itself)"),
    )
    parser.add_argument("--no-color", action="store_true", help=_("plain text without colours"))
    parser.add_argument(
        "--level",
        choices=LEVEL_NAMES,
        help=_("strength of the computer seats not named explicitly (default: as recorded)"),
    )
    return parser


def play_resumed(argv: Sequence[str], *, epilog: str = "") -> int:
    """``stairgames play --resume RECORD [options]``: continue the game stopped in RECORD
    at the terminal; ``epilog`` ends the help (the players one may name).

    :raises StairgamesError: a game named besides the record, a record that cannot be
        resumed (:func:`resume`), or seats it cannot be resumed with.
    """
    if argv and not argv[0].startswith("-"):
        raise StairgamesError(
            message_id=N_(
                "with --resume the game comes from the record: leave out {game!r} "
                "(stairgames play --resume RECORD [options])"
            ),
            arguments={"game": argv[0]},
        )
    if any(word in ("-h", "--help") for word in argv):
        resume_parser((), epilog=epilog, add_help=True).print_help()
        return 0
    first, _unknown = resume_parser(()).parse_known_args(argv)
    seed = first.seed if first.seed is not None else random.SystemRandom().randrange(2**32)
    resumed = resume(first.resume, stand_in_rng(seed))
    colours = [resumed.state.seat_name(seat) for seat in range(resumed.game.num_players())]
    args = resume_parser(colours, epilog=epilog).parse_args(argv)
    named = {
        seat: getattr(args, f"seat_{seat}")
        for seat in range(len(colours))
        if getattr(args, f"seat_{seat}") is not None
    }
    recorded = recorded_players(resumed.record, len(colours))
    players = seated_players(recorded, seats=args.seats, named=named, level=args.level)
    check_players(players, colours)
    check_seats(resumed, players)
    saved_to: Path = args.record or args.resume
    colour = not args.no_color and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    session = TerminalSession(
        resumed.game,
        players,
        seed=seed,
        colour=colour,
        record_path=saved_to,
        start=resumed.state,
        notes=opening_notes(args.resume, resumed, seed, saved_to),
    )
    enable_line_editing(session)
    session.run()
    return 0


__all__ = [
    "Resumed",
    "add_seats_flag",
    "check_players",
    "check_seats",
    "is_resume",
    "opening_notes",
    "play_resumed",
    "recorded_players",
    "resume",
    "resume_parser",
    "seated_players",
    "stand_in_rng",
]
