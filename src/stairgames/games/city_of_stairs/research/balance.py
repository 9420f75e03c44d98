"""Seat, departure-card and character balance of a card set, from games of one player.

A balance study plays ``games`` games for each player count, every seat the same
computer player, and records for every seat of every finished game its place in
the turn order (the start player is first, C9), its character, its departure card
and its score. :func:`summarise` turns those records into each turn position's
winning share (ties split) with Wilson's 95% interval, each departure card's and
each character's mean score with a t interval, and the distribution of scores.

Each game has its own seed, drawn from the study's, which draws the characters (a
random choice of the set's colours, in random seats), feeds the chance events and
seeds every player, so a study repeats exactly wherever its games are played
(:func:`stairgames.analysis.parallel.run_tasks`). The departure cards are read only
from finished games, where every card has been revealed (C8); the players see
what they always see.

``stairgames analyze city_of_stairs`` runs a study (``docs/analysis.md``) through
:data:`STUDY`. The study imports no players, statistics or plots: the caller hands
them over (:mod:`stairgames.core.studies`), a player factory to :func:`balance_tasks`
and :func:`play_balance_game`, the intervals to :func:`summarise` and the figures to
:func:`plot_summary`.
"""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import math
import os
import random
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import stairgames
from stairgames.core.chance import sample_chance_outcome
from stairgames.core.errors import InvalidOptionError
from stairgames.core.studies import PlayerFactory, Plots, Statistics, Study
from stairgames.games.city_of_stairs.cards import load_card_set
from stairgames.games.city_of_stairs.game import CityOfStairsGame, CityOfStairsState
from stairgames.i18n import N_, _

DEFAULT_PLAYER = "hard"
"""The player of every seat unless another is asked for: ``hard`` (``greedy`` with
the City of Stairs evaluation) beats ``random`` in 96% of games at 0.035 s a move;
``expert`` is stronger but thinks some 50 times longer (``docs/analysis.md``)."""


@dataclasses.dataclass(frozen=True)
class BalanceTask:
    """One game of a study."""

    index: int
    players: int
    player: str
    cards: str | None
    """The card-set file's text (``None``: the default set): carried with the task, so
    that a worker on another machine of a Ray cluster needs no copy of the file."""
    seed: int


def balance_tasks(
    seats: Sequence[int],
    games: int,
    *,
    players: PlayerFactory,
    player: str = DEFAULT_PLAYER,
    cards: str | None = None,
    seed: int = 0,
) -> list[BalanceTask]:
    """``games`` games for each player count in ``seats``, each with its own seed;
    ``players`` makes the computer players (here only to check that ``player`` is one).

    :raises InvalidOptionError: a player count outside 2-4, fewer than one game, an
        unknown player, or a card file that is refused (every problem listed).
    """
    if games < 1:
        raise InvalidOptionError(
            message_id=N_("--games must be at least 1, got {games}"), arguments={"games": games}
        )
    for count in seats:
        stairgames.load("city_of_stairs", players=count, cards=cards)
    players(player, 0)
    text = None if cards is None else Path(cards).expanduser().read_text(encoding="utf-8")
    generator = random.Random(seed)
    counts = [count for count in seats for _number in range(games)]
    return [
        BalanceTask(index, count, player, text, generator.randrange(2**63))
        for index, count in enumerate(counts)
    ]


def play_balance_game(task: BalanceTask, *, players: PlayerFactory) -> dict[str, Any]:
    """Play one game of a study, every seat a player that ``players`` makes; each seat's
    turn position, character, departure card, score and winning share (1 shared by the
    winners) as JSON-ready data."""
    generator = random.Random(task.seed)
    cards = None if task.cards is None else card_file(task.cards)
    colours = generator.sample(load_card_set(cards).colours(), task.players)
    game = stairgames.load(
        "city_of_stairs", players=task.players, cards=cards, characters=",".join(colours)
    )
    assert isinstance(game, CityOfStairsGame)
    agents = [
        players(task.player, seat, generator.randrange(2**63)) for seat in range(task.players)
    ]
    for agent in agents:
        agent.prepare(game)
    chance = random.Random(generator.randrange(2**63))
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance_outcome(state, chance))
        else:
            state.apply_action(agents[state.current_player()].act(state))
    return finished_game_record(state, task)


def card_file(text: str) -> str:
    """A file holding the card-set ``text``, in this machine's temporary folder (named
    by the text's digest, written once)."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    path = Path(tempfile.gettempdir()) / f"stairgames-cards-{digest}.toml"
    if not path.exists():
        partial = path.with_suffix(f".{os.getpid()}.part")
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
    return str(path)


def finished_game_record(state: CityOfStairsState, task: BalanceTask) -> dict[str, Any]:
    """What a study keeps of a finished game (every departure card is public then, C8)."""
    if not state.is_terminal():
        raise ValueError("a balance record reads departure cards: the game must be over")
    table = state.table
    scores = state.scores()
    best = max(scores)
    winners = [seat for seat, score in enumerate(scores) if score == best]
    order = table.turn_order()
    return {
        "index": task.index,
        "players": task.players,
        "seed": task.seed,
        "seats": [
            {
                "position": order.index(seat),
                "character": table.colours[seat],
                "departure": table.departures[seat],
                "score": scores[seat],
                "share": 1.0 / len(winners) if seat in winners else 0.0,
            }
            for seat in range(task.players)
        ],
    }


def summarise(records: Sequence[dict[str, Any]], statistics: Statistics) -> dict[str, Any]:
    """Each player count's figures, JSON-ready: ``{"2": {...}, "3": {...}}``, with the
    intervals of ``statistics``.

    Per player count: ``games``; ``positions`` (the turn order, first = the start
    player): winning share with Wilson's interval and mean score; ``departures`` and ``characters``:
    mean score with a t interval; ``scores``: how many seats ended on each score;
    ``ties``: the share of games with more than one winner.
    """
    by_count: dict[int, list[dict[str, Any]]] = collections.defaultdict(list)
    for record in records:
        by_count[int(record["players"])].append(record)
    return {
        str(count): _summarise_count(games, statistics) for count, games in sorted(by_count.items())
    }


def _summarise_count(games: Sequence[dict[str, Any]], statistics: Statistics) -> dict[str, Any]:
    seats = [seat for game in games for seat in game["seats"]]
    shares: dict[int, float] = collections.defaultdict(float)
    for seat in seats:
        shares[int(seat["position"])] += float(seat["share"])
    scores_by_position = {
        row["position"]: row for row in _mean_scores(seats, "position", statistics)
    }
    positions = []
    for position in sorted(shares):
        rate, low, high = statistics.share_interval(shares[position], len(games))
        score = scores_by_position[position]
        positions.append(
            {
                "position": position + 1,
                "share": rate,
                "low": low,
                "high": high,
                "score": {key: score[key] for key in ("mean", "low", "high")},
            }
        )
    all_scores = [float(seat["score"]) for seat in seats]
    mean, low, high = statistics.mean_interval(all_scores)
    return {
        "games": len(games),
        "positions": positions,
        "departures": _mean_scores(seats, "departure", statistics),
        "characters": _mean_scores(seats, "character", statistics),
        "scores": {
            str(score): count
            for score, count in sorted(collections.Counter(int(s) for s in all_scores).items())
        },
        "mean_score": {"mean": mean, **_bounds(low, high)},
        "ties": sum(sum(s["share"] > 0 for s in game["seats"]) > 1 for game in games) / len(games),
    }


def _mean_scores(
    seats: Sequence[dict[str, Any]], key: str, statistics: Statistics
) -> list[dict[str, Any]]:
    """The mean score of the seats grouped by ``key``, with t intervals."""
    groups: dict[Any, list[float]] = collections.defaultdict(list)
    for seat in seats:
        groups[seat[key]].append(float(seat["score"]))
    rows = []
    for value, scores in sorted(groups.items()):
        mean, low, high = statistics.mean_interval(scores)
        rows.append({key: value, "seats": len(scores), "mean": mean, **_bounds(low, high)})
    return rows


def _bounds(low: float, high: float) -> dict[str, float | None]:
    """An interval's ends, ``None`` where one value leaves it unbounded (JSON has no
    infinity)."""
    return {
        "low": low if math.isfinite(low) else None,
        "high": high if math.isfinite(high) else None,
    }


def format_summary(summary: dict[str, Any], *, player: str, cards: str | None) -> str:
    """The summary as text tables, one block per player count."""
    lines = [
        _("City of Stairs balance: every seat {player}; cards: {cards}").format(
            player=player, cards=cards or _("the default set")
        )
    ]
    for count, figures in summary.items():
        lines.append("")
        lines.append(
            _("{players} players, {games} games (ties {ties}; mean score {mean})").format(
                players=count,
                games=figures["games"],
                ties=f"{figures['ties']:.1%}",
                mean=f"{figures['mean_score']['mean']:.2f}",
            )
        )
        lines.append(
            "  " + _("turn position: winning share [95% interval], mean score [95% interval]")
        )
        lines.extend(
            f"    {row['position']}: {row['share']:6.1%}  [{row['low']:.1%}, {row['high']:.1%}]"
            f"  {row['score']['mean']:5.2f}  {_interval_text(row['score'])}"
            for row in figures["positions"]
        )
        for key, title in (
            ("departure", _("departure card: mean score [95% interval] (seats)")),
            ("character", _("character: mean score [95% interval] (seats)")),
        ):
            lines.append("  " + title)
            lines.extend(
                f"    {row[key]!s:<7} {row['mean']:5.2f}  {_interval_text(row)}  ({row['seats']})"
                for row in figures[key + "s"]
            )
        distribution = ", ".join(f"{score}: {n}" for score, n in figures["scores"].items())
        lines.append("  " + _("scores (seats): {distribution}").format(distribution=distribution))
    return "\n".join(lines)


def _interval_text(row: dict[str, Any]) -> str:
    if row["low"] is None:
        return "[-, -]"
    return f"[{row['low']:.2f}, {row['high']:.2f}]"


def plot_summary(
    summary: dict[str, Any], directory: Path, plots: Plots, *, prefix: str = "city"
) -> list[Path]:
    """Three figures under ``directory``, drawn with ``plots``: winning share by turn
    position, mean score by departure card, and the score distribution, each per player
    count.
    """
    counts = list(summary)
    return [
        plots.interval_panels(
            directory / f"{prefix}_seats.png",
            title="City of Stairs: winning share by turn position (95% Wilson intervals)",
            panels=[
                (
                    f"{count} players ({summary[count]['games']} games)",
                    [str(row["position"]) for row in summary[count]["positions"]],
                    [
                        (row["share"], row["low"], row["high"])
                        for row in summary[count]["positions"]
                    ],
                    1.0 / int(count),
                )
                for count in counts
            ],
            xlabel="turn position (1 = start player)",
            ylabel="winning share",
        ),
        plots.interval_series(
            directory / f"{prefix}_departures.png",
            title="City of Stairs: mean final score by departure card (95% t intervals)",
            series={
                f"{count} players": {
                    str(row["departure"]): (
                        row["mean"],
                        row["mean"] if row["low"] is None else row["low"],
                        row["mean"] if row["high"] is None else row["high"],
                    )
                    for row in summary[count]["departures"]
                }
                for count in counts
            },
            xlabel="departure card (seaside card it starts from)",
            ylabel="mean final score",
        ),
        plots.distributions(
            directory / f"{prefix}_scores.png",
            title="City of Stairs: final scores (share of seats)",
            series={
                f"{count} players": {int(score): n for score, n in summary[count]["scores"].items()}
                for count in counts
            },
            xlabel="final score",
            ylabel="share of seats",
        ),
    ]


class BalanceStudy:
    """The study as :class:`stairgames.core.studies.Study` names its parts (the
    registration's ``study``: :data:`STUDY`)."""

    default_player = DEFAULT_PLAYER
    tasks = staticmethod(balance_tasks)
    play = staticmethod(play_balance_game)
    summarise = staticmethod(summarise)
    format_summary = staticmethod(format_summary)
    plot_summary = staticmethod(plot_summary)


STUDY: Final[Study] = BalanceStudy()
"""City of Stairs' balance study."""


__all__ = [
    "DEFAULT_PLAYER",
    "STUDY",
    "BalanceStudy",
    "BalanceTask",
    "balance_tasks",
    "finished_game_record",
    "format_summary",
    "play_balance_game",
    "plot_summary",
    "summarise",
]
