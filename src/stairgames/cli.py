"""The ``stairgames`` command line: list games, play in the terminal, replay records."""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
import time
import typing
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from stairgames.agents import LEVEL_NAMES, make_agent, player_kinds
from stairgames.analysis.parallel import run_tasks
from stairgames.arena import ArenaRun, format_report, run_arena
from stairgames.argparse_i18n import HelpFormatter, argparse_in_current_language
from stairgames.core.errors import StairgamesError
from stairgames.core.options import build_options, option_fields, option_types
from stairgames.core.progress import Meter, terminate_as_interrupt
from stairgames.core.record import GameRecord, replay
from stairgames.core.registry import (
    GameSpec,
    get_spec,
    list_games,
    load_with_text_options,
    solver,
    trained_games,
    trainer,
)
from stairgames.core.solvers import SolveRequest, solved_dir
from stairgames.core.training import TrainRequest
from stairgames.i18n import LANGUAGES, N_, _, set_language, translate, wrap
from stairgames.resume import add_seats_flag, is_resume, play_resumed
from stairgames.terminal import HUMAN, TerminalSession, enable_line_editing, fill


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def _option_help(default: Any) -> str:
    """A game option's flag help with its default as players read it: a switch is on or
    off and an option without a value has none (not Python's ``True``/``False``/``None``)."""
    if isinstance(default, bool):
        return _("game option (default: on)") if default else _("game option (default: off)")
    if default is None:
        return _("game option (default: none)")
    return _("game option (default {default})").format(default=repr(default))


def _add_option_flags(parser: argparse.ArgumentParser, options_class: type[Any]) -> None:
    """One flag per game option, derived from the options dataclass."""
    types_by_name = option_types(options_class)
    for field in option_fields(options_class):
        hint = types_by_name[field.name]
        doc = _option_help(field.default)
        if hint is bool:
            parser.add_argument(
                _flag(field.name),
                dest=f"opt_{field.name}",
                action=argparse.BooleanOptionalAction,
                default=None,
                help=doc,
            )
            continue
        choices = None
        if typing.get_origin(hint) is typing.Literal:
            choices = [str(v) for v in typing.get_args(hint)]
        parser.add_argument(
            _flag(field.name),
            dest=f"opt_{field.name}",
            default=None,
            choices=choices,
            metavar=None if choices else field.name.upper(),
            help=doc,
        )


def _collect_options(args: argparse.Namespace) -> dict[str, str]:
    options: dict[str, str] = {}
    for item in args.option or []:
        if "=" not in item:
            raise StairgamesError(
                message_id=N_("--option expects NAME=VALUE, got {text!r}"), arguments={"text": item}
            )
        key, value = item.split("=", 1)
        options[key.strip()] = value.strip()
    for key, value in vars(args).items():
        if key.startswith("opt_") and value is not None:
            options[key[4:]] = str(value).lower() if isinstance(value, bool) else str(value)
    return options


def _play_parser(
    spec: GameSpec, seat_names: Sequence[str], computer: str
) -> argparse.ArgumentParser:
    """The flags of ``stairgames play GAME``: the game's options, the seats (named after
    ``seat_names``; none while the options are not known yet), seed, record, colour, level."""
    parser = argparse.ArgumentParser(
        prog=f"stairgames play {spec.name}",
        description=_("Play {title} in the terminal.").format(title=_(spec.title)),
        epilog=_(PLAYERS_HELP),
        add_help=bool(seat_names),
        allow_abbrev=False,
        formatter_class=HelpFormatter,
    )
    _add_option_flags(parser, spec.options_class)
    parser.add_argument(
        "--option", action="append", metavar="NAME=VALUE", help=_("game option NAME=VALUE")
    )
    for seat, name in enumerate(seat_names):
        default = HUMAN if seat == 0 else computer
        parser.add_argument(
            f"--{name}",
            default=default,
            metavar="PLAYER",
            help=_("the {name} player (default {default})").format(name=_(name), default=default),
        )
    add_seats_flag(parser)
    parser.add_argument(
        "--seed",
        type=int,
        help=_(
            "seed for dice, draws and computer players; a game repeats exactly only with "
            "players that count their work: random, greedy, easy, mcts:iterations=N. "
            "Players that think for a set time (the levels medium, hard and expert, "
            "time=...) search as far as the machine's speed allows, so they may differ"
        ),
    )
    parser.add_argument(
        "--record", type=Path, metavar="FILE", help=_("where to save the game record (JSON)")
    )
    parser.add_argument("--no-color", action="store_true", help=_("plain text without colours"))
    parser.add_argument(
        "--level",
        choices=LEVEL_NAMES,
        help=_("strength of the computer seats not named explicitly (default: random)"),
    )
    return parser


def _play(argv: Sequence[str]) -> int:
    """``stairgames play GAME [options]``, ``play --resume RECORD [options]`` (a stopped
    game continued: :mod:`stairgames.resume`) and ``play --help``."""
    names = ", ".join(g["name"] for g in list_games())
    if argv and argv[0] in ("-h", "--help"):
        text = _(
            "usage: stairgames play GAME [options]\n"
            "       stairgames play --resume RECORD [options]\n"
            "\n"
            "Play a game in the terminal, or continue a stopped one from the record "
            "the terminal saved (the same seats and levels; chance and any hidden "
            "card the record does not keep come from a new seed).\n"
            "\n"
            "games: {games}\n"
            "\n"
            "stairgames play GAME --help shows a game's options and seats;\n"
            "stairgames play --resume RECORD --help the flags of resuming."
        ).format(games=names)
        print("\n".join(row for line in text.split("\n") for row in wrap(line, 80) or [""]))
        return 0
    if argv and is_resume(argv):
        return play_resumed(argv, epilog=_(PLAYERS_HELP))
    if not argv or argv[0].startswith("-"):
        usage = _(
            "usage: stairgames play GAME [options] or stairgames play --resume RECORD; "
            "games: {games} (stairgames play --help says more)"
        ).format(games=names)
        print("\n".join(wrap(usage, 80, subsequent_indent="  ")), file=sys.stderr)
        return 2
    spec = get_spec(argv[0])
    # The seats depend on the options (``--players 3``): read the options first, then
    # parse everything again with one flag per seat, so --help shows them all.
    first, _unknown = _play_parser(spec, (), "random").parse_known_args(argv[1:])
    game = load_with_text_options(spec.name, _collect_options(first))
    info = game.info()
    computer = first.level or "random"
    seat_names = info.seat_names[: info.num_players]
    if any(word in ("-h", "--help") for word in argv[1:]):
        # --help lists the flag of every seat the game may have (--yellow, --green),
        # not only those of the player count given: the seats of its option sets
        every = list(seat_names)
        for option_set in spec.option_sets:
            other = spec.game_class(
                build_options(spec.options_class, spec.name, option_set, from_text=False)
            ).info()
            every += [n for n in other.seat_names[: other.num_players] if n not in every]
        seat_names = tuple(every)
    args = _play_parser(spec, seat_names, computer).parse_args(argv[1:])
    if args.seats:
        players = [p.strip() for p in args.seats.split(",")]
    else:
        players = [getattr(args, name) for name in seat_names]
    for player in players:
        if player != HUMAN:
            make_agent(player, 0)  # refuses an unknown player or setting with the reason
    colour = not args.no_color and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    session = TerminalSession(game, players, seed=args.seed, colour=colour, record_path=args.record)
    enable_line_editing(session)
    session.run()
    return 0


def _replay(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="stairgames replay", description=_("Replay a record."), formatter_class=HelpFormatter
    )
    parser.add_argument("file", type=Path, metavar="FILE", help=_("a saved game record (JSON)"))
    parser.add_argument("--no-color", action="store_true", help=_("plain text without colours"))
    parser.add_argument(
        "--step",
        action="store_true",
        help=_(
            "one position at a time: Enter for the next, b for the one before, p for its "
            "position text, q to stop"
        ),
    )
    args = parser.parse_args(argv)
    record = GameRecord.load(args.file)
    spec = get_spec(record.game)
    colour = not args.no_color and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    frames: list[tuple[str, Any]] = []
    before: Any = None
    for number, (move, state) in enumerate(replay(record)):
        if move is None or before is None:
            frames.append((_("Start"), state))
        else:
            frames.append((_step_title(number, move, before, record.players), state))
        before = state
    shown = (
        _step_through(frames, spec, colour, record.viewer)
        if args.step
        else _print_all(frames, spec, colour, record.viewer)
    )
    last = frames[-1][1] if frames else None
    if shown == len(frames) and last is not None:
        print(_result_line(last))
    return 0


def _review(argv: Sequence[str]) -> int:
    """``stairgames review RECORD``: each move's share before and after it, marked where it
    lost much (:mod:`stairgames.analysis.review`)."""
    from stairgames.analysis.review import (  # the solvers load when a review runs
        DEFAULT_BUDGET,
        Budget,
        ReviewInterrupted,
        format_table,
        review,
        review_json,
    )

    parser = argparse.ArgumentParser(
        prog="stairgames review",
        description=_(
            "The computer's review of a game: each move's winning chance for its player "
            "before and after it (exact where the game is solved, else the search's "
            "estimate), the moves that lose much marked, with a better move."
        ),
        formatter_class=HelpFormatter,
    )
    parser.add_argument("file", type=Path, metavar="RECORD", help=_("a saved game record (JSON)"))
    parser.add_argument(
        "--json", action="store_true", help=_("print the review as JSON, one object a move")
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=DEFAULT_BUDGET.seconds,
        metavar="S",
        help=_("seconds of thinking a position (default {seconds})").format(
            seconds=DEFAULT_BUDGET.seconds
        ),
    )
    parser.add_argument(
        "--iterations",
        type=int,
        metavar="N",
        help=_(
            "search iterations a position instead of seconds: the same review on any "
            "machine, with --seed"
        ),
    )
    parser.add_argument("--seed", type=int, default=0, help=_("seed of the search"))
    args = parser.parse_args(argv)
    if args.iterations is not None and args.iterations < 1:
        parser.error(_("--iterations must be at least 1"))
    if args.iterations is None and args.seconds <= 0:
        parser.error(_("--seconds must be more than 0"))
    budget = (
        Budget(seconds=None, iterations=args.iterations)
        if args.iterations is not None
        else Budget(seconds=args.seconds)
    )
    record = GameRecord.load(args.file)
    stopped = None
    try:
        with terminate_as_interrupt():  # kill stops it as Ctrl-C does, keeping the moves done
            reviews = review(
                record, budget=budget, seed=args.seed, progress=_move_progress(sys.stderr)
            )
    except ReviewInterrupted as stop:
        reviews, stopped = stop.reviews, stop
    if args.json:
        print(json.dumps(review_json(reviews), ensure_ascii=False, indent=1))
    else:
        print(format_table(reviews, record.game))
    if stopped is None:
        return 0
    print(
        _(
            "Stopped early: {done} of {total} moves reviewed, the last ones (the review "
            "works from the end of the game)."
        ).format(done=len(stopped.reviews), total=stopped.total),
        file=sys.stderr,
    )
    return 130


def _move_progress(stream: TextIO) -> Callable[[int, int], None]:
    """The progress of a review on ``stream``: a bar, the moves done, their rate, the
    time so far and the time left (:class:`stairgames.core.progress.Meter`)."""
    return _counting(Meter(stream, _("moves")))


def _counting(meter: Meter) -> Callable[[int, int], None]:
    """``progress(done, total)`` drawn by ``meter`` (ending its line at the last)."""

    def show(done: int, total: int) -> None:
        meter.update(done, total=total, last=done == total)

    return show


def _step_title(number: int, move: str, before: Any, players: Sequence[str]) -> str:
    """``3. dark (random): c3-d4``: the move's number, who made it, and the move."""
    if before.is_chance_node():
        who = _("chance")
    else:
        seat = before.current_player()
        name = _(before.seat_name(seat))
        player = players[seat] if 0 <= seat < len(players) else ""
        if player:
            name += f" ({_('human') if player == HUMAN else player})"
        who = name
    return _("{number}. {player}: {move}").format(number=number, player=who, move=move)


def _print_all(
    frames: Sequence[tuple[str, Any]], spec: GameSpec, colour: bool, viewer: int | None
) -> int:
    for title, state in frames:
        print(title)
        print(spec.render(state, colour=colour, viewer=viewer))
        print()
    return len(frames)


def _step_through(
    frames: Sequence[tuple[str, Any]],
    spec: GameSpec,
    colour: bool,
    viewer: int | None,
    input_fn: Callable[[str], str] | None = None,
) -> int:
    """Show one position at a time, drawn for ``viewer`` (the record's: what it holds);
    returns how far it got (``len(frames)`` at the end)."""
    ask = input if input_fn is None else input_fn
    index = 0
    while index < len(frames):
        title, state = frames[index]
        print(f"{title}  ({index + 1}/{len(frames)})")
        print(spec.render(state, colour=colour, viewer=viewer))
        while True:
            try:
                answer = ask(_("[Enter] next, b back, p position, q quit> ")).strip().lower()
            except (EOFError, KeyboardInterrupt):
                print()
                return index
            if answer in ("q", "quit"):
                return index
            if answer in ("", "b", "back"):
                break
            if answer in ("p", "position"):
                if state.get_game().info().hidden_information:
                    print(_("The position text is not shown in games with hidden cards."))
                else:
                    print(_("Position: {text}").format(text=state.position()))
                continue
            refusal = _(
                "Unknown key {key!r}: Enter for the next position, b for the one before, "
                "p for its position text, q to stop."
            ).format(key=answer[:24])
            print("\n".join(wrap(refusal, 80, subsequent_indent="  ")))
        index = index + 1 if answer == "" else max(0, index - 1)
    return index


def _result_line(last: Any) -> str:
    if last.is_terminal():
        outcome = last.outcome()
        return _("Result: {outcome}").format(outcome=outcome.localized())
    return _("The record ends before the game does.")


PLAYERS_HELP = N_(
    "players: human, random, greedy, mcts, alphabeta, perfect (solved games only), or a level: "
    "easy, medium, hard, expert; settings after a colon, e.g. mcts:time=0.5 or "
    "alphabeta:time=1,depth=8"
)


def _arena(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="stairgames arena",
        description=_("Computer players against each other, with ratings."),
        epilog=_(PLAYERS_HELP),
        formatter_class=HelpFormatter,
    )
    parser.add_argument(
        "game", nargs="?", metavar="GAME", help=_("the game (not needed with --show)")
    )
    parser.add_argument(
        "--players",
        metavar="PLAYERS",
        help=_("comma-separated players, e.g. random,greedy,mcts:time=0.5"),
    )
    parser.add_argument(
        "--games", type=int, default=100, metavar="N", help=_("games per pairing (or table)")
    )
    parser.add_argument(
        "--opening-plies",
        type=int,
        default=0,
        metavar="K",
        help=_(
            "open every game with K random moves, each opening played with the seats "
            "rotated (default 0)"
        ),
    )
    _add_scale_flags(parser)
    parser.add_argument("--seed", type=int, default=0, help=_("seed of the whole run"))
    parser.add_argument(
        "--option", action="append", metavar="NAME=VALUE", help=_("game option NAME=VALUE")
    )
    parser.add_argument("--out", type=Path, metavar="FILE", help=_("save the results as JSON"))
    parser.add_argument(
        "--show", type=Path, metavar="FILE", help=_("print the tables of a saved run")
    )
    args = parser.parse_args(argv)
    if args.show is not None:
        print(format_report(ArenaRun.load(args.show)))
        return 0
    if args.game is None or not args.players:
        parser.error(_("give a game and --players (or --show FILE)"))
    players = _split_players(args.players)
    for player in players:
        make_agent(player, 0)
    run = run_arena(
        args.game,
        players,
        games=args.games,
        seed=args.seed,
        jobs=args.jobs,
        options=_collect_options(args),
        progress=_progress_bar(sys.stderr),
        ray_address=args.ray_address,
        opening_plies=args.opening_plies,
    )
    print(format_report(run))
    if args.out is not None:
        run.save(args.out)
        print("\n" + _("Results saved to {path}").format(path=args.out))
    return 130 if run.stopped else 0


def _add_scale_flags(parser: argparse.ArgumentParser) -> None:
    """``--jobs`` and ``--ray-address``: where the games of a large run are played."""
    parser.add_argument("--jobs", type=int, default=1, metavar="N", help=_("processes to play in"))
    parser.add_argument(
        "--ray-address",
        metavar="ADDRESS",
        help=_(
            "play on this running Ray cluster instead of local processes (HOST:6379, auto "
            "or ray://HOST:10001; needs the ray extra)"
        ),
    )


def _analyze(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="stairgames analyze",
        description=_(
            "Balance of a game from many games of one computer player: each turn "
            "position's winning share and each departure card's mean score, with 95% "
            "intervals (City of Stairs)."
        ),
        formatter_class=HelpFormatter,
    )
    parser.add_argument(
        "game", nargs="?", metavar="GAME", help=_("the game (city_of_stairs; not with --show)")
    )
    parser.add_argument(
        "--cards", metavar="FILE", help=_("card-set TOML file (default: the default set)")
    )
    parser.add_argument(
        "--seats", default="2,3,4", metavar="N,N", help=_("player counts to study (default 2,3,4)")
    )
    parser.add_argument(
        "--games", type=int, default=100, metavar="N", help=_("games per player count")
    )
    parser.add_argument(
        "--player",
        default=None,
        metavar="PLAYER",
        help=_("the computer player of every seat (default: hard)"),
    )
    _add_scale_flags(parser)
    parser.add_argument("--seed", type=int, default=0, help=_("seed of the whole run"))
    parser.add_argument("--out", type=Path, metavar="FILE", help=_("save the results as JSON"))
    parser.add_argument(
        "--plots", type=Path, metavar="DIR", help=_("draw the figures as PNG files into DIR")
    )
    parser.add_argument(
        "--show",
        type=Path,
        metavar="FILE",
        help=_("print the tables (and with --plots draw the figures) of a saved study"),
    )
    args = parser.parse_args(argv)
    from stairgames.analysis.command import analyze, show_saved  # studies load when used

    if args.show is not None:
        return show_saved(args.show, plots=args.plots)
    if args.game is None:
        parser.error(_("give a game (or --show FILE)"))
    return analyze(
        args.game,
        cards=args.cards,
        seats=args.seats,
        games=args.games,
        player=args.player,
        jobs=args.jobs,
        ray_address=args.ray_address,
        seed=args.seed,
        out=args.out,
        plots=args.plots,
        progress=_progress_bar(sys.stderr),
    )


def _split_players(text: str) -> list[str]:
    """Split ``random,greedy,mcts:time=0.5,c=1`` into players; a ``NAME=VALUE`` part
    belongs to the player before it."""
    players: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if "=" in part and ":" not in part and players:
            players[-1] += "," + part
        else:
            players.append(part)
    return players


def _progress_bar(stream: TextIO) -> Callable[[int, int], None]:
    """The progress of a run of games on ``stream``: a bar, the games done, their rate,
    the time so far and the time left (in a log, every tenth of the games)."""
    return _counting(Meter(stream, _("games")))


def _list(argv: Sequence[str]) -> int:
    del argv
    for game in list_games():
        print(f"{game['name']:<16} {_(game['title'])}: {_(game['summary'])}")
        print(f"{'':<16} " + _("options: {options}").format(options=game["options"]))
    print(_("players: human, {players}").format(players=", ".join(player_kinds())))
    return 0


def _show(argv: Sequence[str]) -> int:
    """``stairgames show GAME POSITION``: the game's own option flags (``--pie-rule``,
    ``--size 4``) come from its options, as with ``play``."""
    spec = None
    if argv and not argv[0].startswith("-"):
        spec = get_spec(argv[0])
    parser = argparse.ArgumentParser(
        prog="stairgames show", description=_("Draw a position."), formatter_class=HelpFormatter
    )
    parser.add_argument("game", metavar="GAME", help=_("the game"))
    parser.add_argument("position", metavar="POSITION", help=_("the position, in its notation"))
    if spec is not None:
        _add_option_flags(parser, spec.options_class)
    parser.add_argument(
        "--option", action="append", metavar="NAME=VALUE", help=_("game option NAME=VALUE")
    )
    parser.add_argument("--no-color", action="store_true", help=_("plain text without colours"))
    args = parser.parse_args(argv)
    implied = get_spec(args.game).position_options
    options = {} if implied is None else implied(args.position)
    options.update(_collect_options(args))  # the command line names the options it wants
    game = load_with_text_options(args.game, options)
    state = game.state_from_position(args.position)
    colour = not args.no_color and sys.stdout.isatty() and "NO_COLOR" not in os.environ
    print(get_spec(args.game).render(state, colour=colour, viewer=None))
    moves = [state.action_to_string(a) for a in state.legal_actions()]
    if not moves:
        print(_("Legal moves: {moves}").format(moves=_("(none)")))
        return 0
    print(_("Legal moves ({count}):").format(count=len(moves)))
    for line in fill(moves, gap=" "):
        print(line)
    return 0


def _solve(argv: Sequence[str]) -> int:
    """``stairgames solve GAME``: the game's options, ``--out`` and ``--resume``, and the
    game's own flags (:mod:`stairgames.core.solvers`)."""
    if not argv or argv[0].startswith("-"):
        overview = _solve_overview()
        if argv and argv[0] in ("-h", "--help"):
            overview.print_help()
            return 0
        overview.print_help(sys.stderr)  # a flag before the game: the game is missing
        return 2
    spec = get_spec(argv[0])
    command = solver(spec.name)
    if command is None:
        raise StairgamesError(message_id=N_("{game} has no solver"), arguments={"game": spec.name})
    parser = argparse.ArgumentParser(
        prog=f"stairgames solve {spec.name}",
        description=_("Solve {title} (or part of it) and keep the table.").format(
            title=_(spec.title)
        ),
        allow_abbrev=False,
        formatter_class=HelpFormatter,
    )
    _add_option_flags(parser, spec.options_class)
    parser.add_argument(
        "--option", action="append", metavar="NAME=VALUE", help=_("game option NAME=VALUE")
    )
    default_out = solved_dir() / spec.name
    parser.add_argument(
        "--out",
        type=Path,
        default=default_out,
        metavar="DIR",
        help=_("where the tables go (default {folder})").format(folder=default_out),
    )
    parser.add_argument(
        "--resume", action="store_true", help=_("go on from the table already in the folder")
    )
    _add_scale_flags(parser)
    command.add_arguments(parser)
    args = parser.parse_args(argv[1:])
    game = load_with_text_options(spec.name, _collect_options(args))
    map_tasks = functools.partial(run_tasks, jobs=args.jobs, ray_address=args.ray_address)
    request = SolveRequest(game, args, args.out, args.resume, sys.stderr, map_tasks)
    return command.run(request)


def _solve_overview() -> argparse.ArgumentParser:
    """``stairgames solve --help`` before a game is named: what the command does, the
    games with a solver, and where each game's own flags are listed."""
    solvable = [g["name"] for g in list_games() if get_spec(g["name"]).solver is not None]
    parser = argparse.ArgumentParser(
        prog="stairgames solve",
        usage=_("stairgames solve GAME [options]"),
        description=_(
            "Solve a game (or part of it) and keep the table for the perfect player. "
            "Long solves show their progress and stop on Ctrl-C or kill, keeping what "
            "is done: the same command with --resume goes on."
        ),
        epilog=_(
            "games with a solver: {games}. stairgames solve GAME --help lists the game's "
            "own flags (its options, --out DIR, --resume, --jobs N)."
        ).format(games=", ".join(solvable)),
        formatter_class=HelpFormatter,
    )
    parser.add_argument(
        "game", metavar="GAME", help=_("the game: {games}").format(games=", ".join(solvable))
    )
    return parser


def _train(argv: Sequence[str]) -> int:
    """``stairgames train GAME``: self-play games, then a network trained on them
    (:mod:`stairgames.core.training`); ``--games``, ``--epochs``, ``--seed``, ``--out`` and
    the game's own flags."""
    games = trained_games()
    if not argv or argv[0].startswith("-"):
        overview = argparse.ArgumentParser(
            prog="stairgames train",
            usage=_("stairgames train GAME [options]"),
            description=_(
                "Train a game's learned evaluation by self-play (needs JAX: pip install "
                "'stairgames[train]'). Games with a trainer: {games}."
            ).format(games=", ".join(games)),
            formatter_class=HelpFormatter,
        )
        if argv and argv[0] in ("-h", "--help"):
            overview.print_help()
            return 0
        overview.print_help(sys.stderr)
        return 2
    spec = get_spec(argv[0])
    command = trainer(spec.name)
    if command is None:
        raise StairgamesError(
            message_id=N_("{game} has no trainer; games with one: {games}"),
            arguments={"game": spec.name, "games": ", ".join(games)},
        )
    parser = argparse.ArgumentParser(
        prog=f"stairgames train {spec.name}",
        description=_("Train the learned evaluation of {title} by self-play.").format(
            title=_(spec.title)
        ),
        allow_abbrev=False,
        formatter_class=HelpFormatter,
    )
    parser.add_argument(
        "--games", type=int, default=2000, metavar="N", help=_("self-play games (default 2000)")
    )
    parser.add_argument(
        "--epochs",
        type=int,
        default=10,
        metavar="E",
        help=_("passes over the positions (default 10)"),
    )
    parser.add_argument("--seed", type=int, default=0, metavar="S", help=_("seed (default 0)"))
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(command.default_out),
        metavar="PATH",
        help=_("where the weights go (default {path})").format(path=command.default_out),
    )
    command.add_arguments(parser)
    args = parser.parse_args(argv[1:])
    for flag, value in (("--games", args.games), ("--epochs", args.epochs)):
        if value < 1:
            raise StairgamesError(
                message_id=N_("{flag} must be 1 or more, not {value}"),
                arguments={"flag": flag, "value": value},
            )
    if not args.out.parent.is_dir():
        raise StairgamesError(
            message_id=N_("cannot write {path}: no folder {folder}"),
            arguments={"path": str(args.out), "folder": str(args.out.parent)},
        )
    request = TrainRequest(
        game=load_with_text_options(spec.name, {}),
        arguments=args,
        games=args.games,
        epochs=args.epochs,
        seed=args.seed,
        out=args.out,
        command=" ".join(["stairgames", "train", *argv]),
        stderr=sys.stderr,
    )
    return command.run(request)


def _prepare(argv: Sequence[str]) -> int:
    """``stairgames prepare [GAME ...]``: compile every level's fast code now (``make
    test`` does it when it installs), so that no first game plays its fallback while it
    is compiled in the background (:mod:`stairgames.agents.warming`); every compiling
    warm-up takes the lock of :func:`stairgames.agents.warming.lock`."""
    names = [game["name"] for game in list_games()]
    parser = argparse.ArgumentParser(
        prog="stairgames prepare",
        description=_(
            "Compile the computer players' fast code now, once per installation, so that "
            "the first game against the computer starts at once."
        ),
        formatter_class=HelpFormatter,
    )
    # no argparse choices: with nargs="*" Python 3.11 refuses an empty list against them
    parser.add_argument("games", nargs="*", metavar="GAME", help=_("games"))
    args = parser.parse_args(argv)
    games = [load_with_text_options(name, {}) for name in args.games or names]  # refuses
    steps = [*LEVEL_NAMES, None]  # every level, then the game's own warm-up
    meter = Meter(sys.stderr, _("steps"), total=len(games) * len(steps))
    with meter.ticking():
        for number, game in enumerate(games):
            started = time.perf_counter()
            for step, level in enumerate(steps):
                done = number * len(steps) + step
                meter.update(done, detail=_prepare_step(game, level))
                if level is None:
                    _warm_game(game.name)  # what its options' levels leave out (3-ninja Ishigaki)
                else:
                    make_agent(level, 0, game=game)
            meter.update((number + 1) * len(steps), last=number == len(games) - 1)
            meter.note(
                _("{game}: the computer players are ready ({seconds} s)").format(
                    game=_(game.info().title), seconds=f"{time.perf_counter() - started:.1f}"
                ),
                sys.stdout,
            )
    return 0


def _prepare_step(game: Any, level: str | None) -> str:
    """What ``stairgames prepare`` is compiling: the game and the level (or the game's
    own warm-up)."""
    if level is None:
        return _("{game}: the game's own code").format(game=_(game.info().title))
    return _("{game}: level {level}").format(game=_(game.info().title), level=level)


def _warm_game(name: str) -> None:
    """The game's own warm-up (``PlayerHooks.warm_up``), under the lock of compiling."""
    from stairgames.agents.warming import game_warm_up, run_locked

    warm_up = game_warm_up(name)
    if warm_up is not None:
        run_locked(warm_up)


def _serve(argv: Sequence[str]) -> int:
    from stairgames.server.serve import serve  # the web stack loads only when serving

    return serve(argv)


def _ratings(argv: Sequence[str]) -> int:
    from stairgames.server.serve import ratings

    return ratings(argv)


def _db(argv: Sequence[str]) -> int:
    from stairgames.server.serve import db

    return db(argv)


def _puzzle(argv: Sequence[str]) -> int:
    from stairgames.puzzle_terminal import puzzle_command

    return puzzle_command(argv)


def _puzzles(argv: Sequence[str]) -> int:
    from stairgames.puzzles.generate import command  # the solvers load only when asked

    return command(argv)


def _bot(argv: Sequence[str]) -> int:
    from stairgames.bot_client import bot_command  # httpx and the players load only when asked

    return bot_command(argv)


def _moderate(argv: Sequence[str]) -> int:
    from stairgames.moderate import moderate

    return moderate(argv)


COMMANDS = {
    "play": _play,
    "replay": _replay,
    "review": _review,
    "list": _list,
    "show": _show,
    "arena": _arena,
    "solve": _solve,
    "analyze": _analyze,
    "serve": _serve,
    "ratings": _ratings,
    "db": _db,
    "moderate": _moderate,
    "puzzle": _puzzle,
    "puzzles": _puzzles,
    "prepare": _prepare,
    "train": _train,
    "bot": _bot,
}

USAGE = N_("""usage: stairgames COMMAND [args]

commands:
  list                      the games, their options, and the computer players
  play GAME [options]       play in the terminal (stairgames play stairs --help)
  play --resume FILE        continue a stopped game from its saved record
  replay FILE [--step]      replay a saved record, showing every position
                            (--step: one at a time)
  review FILE [--json]      the computer's review of a recorded game: each move's
                            winning chance before and after it, mistakes marked
  show GAME POSITION        draw a position and list its legal moves
  puzzle [GAME] [--id ID]   solve puzzles with proven answers in the terminal
  puzzles generate GAME     make puzzles with proven answers (--self-play N, or
                            --from RECORDS); puzzles verify [GAME]: prove them again
  arena GAME --players A,B  computer players against each other, with ratings
                            (stairgames arena stairs --players random,greedy --games 100)
  solve GAME [options]      solve a game (or part of it) and keep the table for the
                            perfect player (stairgames solve twenty_seven --help)
  analyze GAME [--cards F]  balance from many games: seats, departure cards
                            (stairgames analyze city_of_stairs --games 200 --plots figs)
  serve [--port 8000]       play in the browser: the web app at http://127.0.0.1:8000
  ratings rebuild           recompute the web app's ratings from its rated games
  db current|upgrade|downgrade [REVISION]
                            the web app's database schema: upgrade, or roll back
                            one revision (docs/deploy.md)
  moderate                  the web app's reports; --rename OLD NEW, --disable NAME
  bot --server URL --token T --player LEVEL
                            play on a server as a bot, over its Bot API (docs/bots.md)
  prepare [GAME]            compile the computer players now (once per installation;
                            else the first game compiles them in the background)
  train GAME [options]      train a game's learned evaluation by self-play
                            (stairgames train stairs --games 2000; needs JAX:
                            pip install 'stairgames[train]')

--lang en|ja (anywhere) chooses the language; without it, the locale (LANG) does.""")


def _take_language(args: list[str]) -> list[str]:
    """Remove ``--lang X`` (or ``--lang=X``) from ``args``, wherever it is, and choose that
    language; without it the locale chooses.

    :raises StairgamesError: an unknown language, or ``--lang`` without one.
    """
    rest: list[str] = []
    language: str | None = None
    words = iter(args)
    for word in words:
        if word == "--lang":
            language = next(words, "")
        elif word.startswith("--lang="):
            language = word.split("=", 1)[1]
        else:
            rest.append(word)
    if language is not None and language.lower() not in LANGUAGES:
        raise StairgamesError(
            message_id=N_("unknown language {language!r}; choose from {choices}"),
            arguments={"language": language, "choices": ", ".join(LANGUAGES)},
        )
    set_language(language)
    return rest


def main(argv: Sequence[str] | None = None) -> int:
    """The ``stairgames`` command; returns its exit status. argparse's own words are in
    the chosen language too (:mod:`stairgames.argparse_i18n`)."""
    with argparse_in_current_language():
        return _run(argv)


def _run(argv: Sequence[str] | None) -> int:
    try:
        args = _take_language(list(sys.argv[1:] if argv is None else argv))
    except StairgamesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not args or args[0] in ("-h", "--help", "help"):
        print(_(USAGE))
        return 0 if args else 2
    command = COMMANDS.get(args[0])
    if command is None:
        print(
            _("unknown command {command!r}").format(command=args[0]) + "\n" + _(USAGE),
            file=sys.stderr,
        )
        return 2
    try:
        return command(args[1:])
    except StairgamesError as exc:
        print(_("error: {reason}").format(reason=translate(exc)), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\n" + _("interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (``stairgames replay FILE | head``): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


__all__ = ["main"]
