"""Summaries of an arena run: pairings with 95% intervals, ratings, seat advantage; JSON.

A run is saved as JSON holding its settings and every game's result; the
summary is recomputed from the games, so ``stairgames arena --show FILE``
prints the same tables again.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from stairgames.arena.ratings import elo_ratings, openskill_ratings, pairwise_score, wilson_interval
from stairgames.core.errors import StairgamesError
from stairgames.i18n import N_, _, display_width, pad

FORMAT_VERSION = 1


@dataclasses.dataclass
class ArenaRun:
    """The settings and the game results of one arena run."""

    game: str
    options: dict[str, str]
    players: list[str]
    games_per_table: int
    seed: int
    seats: int
    results: list[dict[str, Any]]
    stopped: bool = False
    """Whether Ctrl-C or SIGTERM stopped the run early: :attr:`results` holds the games
    that ended before it, fewer than :attr:`games_per_table` a pairing."""
    opening_plies: int = 0
    """Uniformly random moves opening every game, each opening played by every rotation
    of its line-up (:func:`stairgames.arena.runner.schedule`); 0: none."""

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "stairgames-arena",
            "version": FORMAT_VERSION,
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "games_per_table": self.games_per_table,
            "seed": self.seed,
            "seats": self.seats,
            "summary": summarise(self),
            "results": self.results,
            **({"stopped": True} if self.stopped else {}),
            **({"opening_plies": self.opening_plies} if self.opening_plies else {}),
        }

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> ArenaRun:
        """Read a saved run.

        :raises StairgamesError: the file is not a saved arena run.
        """
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise StairgamesError(
                message_id=N_("cannot read arena results {path}: {exc}"),
                arguments={"path": path, "exc": exc},
            ) from None
        if not isinstance(data, dict) or data.get("format") != "stairgames-arena":
            raise StairgamesError(
                message_id=N_("{path} is not a saved arena run"), arguments={"path": path}
            )
        try:
            return cls(
                game=str(data["game"]),
                options=dict(data["options"]),
                players=list(data["players"]),
                games_per_table=int(data["games_per_table"]),
                seed=int(data["seed"]),
                seats=int(data["seats"]),
                results=list(data["results"]),
                stopped=bool(data.get("stopped", False)),
                opening_plies=int(data.get("opening_plies", 0)),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise StairgamesError(
                message_id=N_("{path} is missing a field of an arena run: {exc}"),
                arguments={"path": path, "exc": exc},
            ) from None


def labels(players: Sequence[str]) -> list[str]:
    """Unique names for the players: a repeated text form gets ``#2``, ``#3``..."""
    seen: dict[str, int] = {}
    names = []
    for player in players:
        seen[player] = seen.get(player, 0) + 1
        names.append(player if seen[player] == 1 else f"{player}#{seen[player]}")
    return names


def summarise(run: ArenaRun) -> dict[str, Any]:
    """Pairings, ratings, seat advantage and timings, as JSON-ready data."""
    count = len(run.players)
    pair_points: dict[tuple[int, int], list[float]] = {}
    totals = [[0.0, 0] for _ in range(count)]
    seat_points = [[0.0, 0] for _ in range(run.seats)]
    thinking = [[0.0, 0] for _ in range(count)]
    for result in run.results:
        seats, returns = result["seats"], result["returns"]
        for seat, player in enumerate(seats):
            thinking[player][0] += result["thinking"][seat]
            thinking[player][1] += result["moves"][seat]
        for a in range(len(seats)):
            for b in range(a + 1, len(seats)):
                _count_pair(pair_points, totals, seats, returns, a, b)
            won = pairwise_mean(returns, a)
            seat_points[a][0] += won
            seat_points[a][1] += 1
    pairings = []
    for (i, j), (score, games) in sorted(pair_points.items()):
        low, high = wilson_interval(score, int(games))
        pairings.append(
            {
                "player": i,
                "opponent": j,
                "games": int(games),
                "score": score,
                "rate": score / games,
                "ci95": [low, high],
            }
        )
    elo_input = {
        (i, j): (score, int(games)) for (i, j), (score, games) in pair_points.items() if i != j
    }
    elo = elo_ratings(run.players, elo_input)
    tables = [(r["seats"], r["returns"]) for r in run.results]
    skill = openskill_ratings(count, tables) if run.seats > 2 else None
    players = []
    for index, name in enumerate(labels(run.players)):
        score, games = totals[index]
        entry: dict[str, Any] = {
            "name": name,
            "elo": round(elo[index], 1),
            "score": score,
            "games": games,
            "rate": score / games if games else 0.0,
            "ci95": list(wilson_interval(score, int(games))),
            "seconds_per_move": thinking[index][0] / thinking[index][1]
            if thinking[index][1]
            else 0.0,
        }
        if skill is not None:
            mu, sigma = skill[index]
            entry["openskill"] = {"mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma}
        players.append(entry)
    seats = []
    for seat, (score, games) in enumerate(seat_points):
        seats.append(
            {
                "seat": seat,
                "rate": score / games if games else 0.0,
                "ci95": list(wilson_interval(score, int(games))),
            }
        )
    return {"pairings": pairings, "players": players, "seats": seats, "games": len(run.results)}


def pairwise_mean(returns: Sequence[float], seat: int) -> float:
    """The seat's average pairwise score against every other seat of the game."""
    others = [pairwise_score(returns[seat], returns[o]) for o in range(len(returns)) if o != seat]
    return sum(others) / len(others) if others else 0.0


def _count_pair(
    pair_points: dict[tuple[int, int], list[float]],
    totals: list[list[float]],
    seats: Sequence[int],
    returns: Sequence[float],
    a: int,
    b: int,
) -> None:
    """Add one pairwise comparison of seats ``a`` and ``b`` to the head-to-head tallies."""
    i, j = seats[a], seats[b]
    if i == j:
        return
    score = pairwise_score(returns[a], returns[b])
    if i > j:
        i, j, score = j, i, 1.0 - score
    tally = pair_points.setdefault((i, j), [0.0, 0])
    tally[0] += score
    tally[1] += 1
    totals[i][0] += score
    totals[i][1] += 1
    totals[j][0] += 1.0 - score
    totals[j][1] += 1


def _right(text: str, width: int) -> str:
    return " " * max(0, width - display_width(text)) + text


def format_report(run: ArenaRun) -> str:
    """The tables for people, in the current language: pairings, ratings, seats."""
    summary = summarise(run)
    names = labels(run.players)
    option_text = ", ".join(f"{k}={v}" for k, v in run.options.items()) or _("default options")
    if run.seats == 2:
        heading = _("Arena: {game} ({options}), {games} games, {per} per pairing, seed {seed}")
    else:
        heading = _("Arena: {game} ({options}), {games} games, {per} per table, seed {seed}")
    player, opponent = pad(_("player"), 28), pad(_("opponent"), 28)
    games, score = _right(_("games"), 6), _right(_("score"), 7)
    lines = [
        heading.format(
            game=run.game,
            options=option_text,
            games=summary["games"],
            per=run.games_per_table,
            seed=run.seed,
        ),
        *(
            [
                _("Stopped early: the tables count the {games} games that ended.").format(
                    games=summary["games"]
                )
            ]
            if run.stopped
            else []
        ),
        *(
            [
                _(
                    "Every game opened with {plies} random moves, each opening played "
                    "with the seats rotated."
                ).format(plies=run.opening_plies)
            ]
            if run.opening_plies
            else []
        ),
        "",
        _("Head to head (score of the first player; draws count half; 95% Wilson interval)"),
        f"  {player} {opponent} {games} {score}  95% CI",
    ]
    for pairing in summary["pairings"]:
        low, high = pairing["ci95"]
        lines.append(
            f"  {names[pairing['player']]:<28} {names[pairing['opponent']]:<28} "
            f"{pairing['games']:>6} {pairing['rate']:>7.1%}  [{low:.1%}, {high:.1%}]"
        )
    lines.append("")
    skill_header = "  OpenSkill mu±sigma" if run.seats > 2 else ""
    lines.append(_("Ratings (Elo, Bradley-Terry fit)") if run.seats == 2 else _("Ratings"))
    per_move = _right(_("s/move"), 7)
    lines.append(f"  {player} {'Elo':>7} {score}  {per_move}{skill_header}")
    ordered = sorted(summary["players"], key=lambda p: -p["elo"])
    for entry in ordered:
        extra = ""
        if "openskill" in entry:
            skill = entry["openskill"]
            extra = f"  {skill['mu']:6.2f}±{skill['sigma']:.2f}"
        lines.append(
            f"  {entry['name']:<28} {entry['elo']:>7.0f} {entry['rate']:>7.1%}  "
            f"{entry['seconds_per_move']:>7.3f}{extra}"
        )
    lines.append("")
    lines.append(_("Seat advantage (average pairwise score of whoever sat there; 95% CI)"))
    for seat in summary["seats"]:
        low, high = seat["ci95"]
        lines.append(
            "  "
            + _("seat {seat}: {rate}  [{low}, {high}]").format(
                seat=seat["seat"], rate=f"{seat['rate']:.1%}", low=f"{low:.1%}", high=f"{high:.1%}"
            )
        )
    return "\n".join(lines)
