"""``stairgames analyze GAME``: a balance study, its tables, JSON and figures.

A game offers a study through its registration
(:attr:`~stairgames.core.registry.GameSpec.study`, a :class:`~stairgames.core.studies.Study`);
this command hands it the players (:func:`~stairgames.agents.make_agent`), the statistics
and the plots, and runs its games (City of Stairs has one today). The run ends by saying
how long it took, so that every figure in ``docs/analysis.md`` comes with its cost.
"""

from __future__ import annotations

import functools
import json
import time
from pathlib import Path
from typing import Any

from stairgames.agents import make_agent
from stairgames.analysis import plots as study_plots
from stairgames.analysis import statistics as study_statistics
from stairgames.analysis.parallel import Progress, TasksInterrupted, run_tasks
from stairgames.analysis.plots import pyplot
from stairgames.core.errors import InvalidOptionError
from stairgames.core.registry import get_spec, studied_games, study
from stairgames.core.studies import Study
from stairgames.i18n import N_, _


def parse_seats(text: str) -> list[int]:
    """``"2,3,4"`` as ``[2, 3, 4]``.

    :raises InvalidOptionError: not a comma-separated list of whole numbers.
    """
    try:
        seats = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        seats = []
    if not seats:
        raise InvalidOptionError(
            message_id=N_("--seats expects player counts such as 2,3,4, got {text!r}"),
            arguments={"text": text},
        )
    return seats


def analyze(
    game: str,
    *,
    cards: str | None = None,
    seats: str = "2,3,4",
    games: int = 100,
    player: str | None = None,
    jobs: int = 1,
    ray_address: str | None = None,
    seed: int = 0,
    out: Path | None = None,
    plots: Path | None = None,
    progress: Progress | None = None,
) -> int:
    """Run the study of ``game`` and print its tables; the exit status (130 when
    Ctrl-C or SIGTERM stopped it early: the tables and ``out`` then hold the games
    that ended before).

    :raises InvalidOptionError: a game without a study, or bad arguments (checked, and
        the card file read, before any game is played).
    """
    name = get_spec(game).name
    chosen_study = study(name)
    if chosen_study is None:
        raise InvalidOptionError(
            message_id=N_("no balance study for {game}; studies exist for: {studies}"),
            arguments={"game": name, "studies": ", ".join(studied_games())},
        )
    if plots is not None:
        pyplot()  # refuse at once, not after the games, when matplotlib is missing
    started = time.perf_counter()
    chosen = player or chosen_study.default_player
    tasks = chosen_study.tasks(
        parse_seats(seats), games, players=make_agent, player=chosen, cards=cards, seed=seed
    )
    play = functools.partial(chosen_study.play, players=make_agent)  # picklable for workers
    stopped = False
    try:
        records = run_tasks(play, tasks, jobs=jobs, ray_address=ray_address, progress=progress)
    except TasksInterrupted as stop:  # Ctrl-C or SIGTERM: report the games that ended
        records, stopped = list(stop.finished.values()), True
    document = {
        "game": name,
        "player": chosen,
        "cards": cards,
        "games": games,
        "seed": seed,
        "summary": chosen_study.summarise(records, study_statistics),
        "records": records,
        **({"stopped": True} if stopped else {}),
    }
    if stopped:
        print(
            _("Stopped early: the tables count the {games} games that ended.").format(
                games=len(records)
            )
        )
    _report(chosen_study, document, plots)
    if out is not None:
        out.write_text(json.dumps(document, indent=1), encoding="utf-8")
        print(_("Results saved to {path}").format(path=out))
    print(
        _("Took {seconds} s ({games} games).").format(
            seconds=f"{time.perf_counter() - started:.0f}", games=len(records)
        )
    )
    return 130 if stopped else 0


def _report(chosen_study: Study, document: dict[str, Any], plots: Path | None) -> None:
    """Print a study's tables and draw its figures into ``plots`` (if given)."""
    summary = document["summary"]
    print(chosen_study.format_summary(summary, player=document["player"], cards=document["cards"]))
    if plots is not None:
        for path in chosen_study.plot_summary(summary, plots, study_plots):
            print(_("Figure saved to {path}").format(path=path))


def show_saved(path: Path, *, plots: Path | None = None) -> int:
    """Print (and draw) a study saved with ``--out``, summarised again from its games.

    :raises InvalidOptionError: the file cannot be read or holds no saved study.
    """
    if plots is not None:
        pyplot()
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
        if document["game"] not in studied_games() or not isinstance(document["records"], list):
            raise KeyError("game")
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise InvalidOptionError(
            message_id=N_("{path} is not a saved study ({reason})"),
            arguments={"path": str(path), "reason": str(error)},
        ) from error
    saved_study = study(document["game"])
    assert saved_study is not None  # a studied game
    document["summary"] = saved_study.summarise(document["records"], study_statistics)
    _report(saved_study, document, plots)
    return 0


__all__ = ["analyze", "parse_seats", "show_saved"]
