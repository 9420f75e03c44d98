"""The computer's analysis in the web app: a finished game's, and the analysis board's.

**A finished game.** ``POST /api/matches/{id}/analysis`` starts the analysis of a match
whose game is over (any game; City of Stairs only once over by its rules, since a game
ended by a resignation would need the cards still hidden): every decision of its full
record reviewed (:func:`stairgames.analysis.explore.analyse_record`) in a worker process
of the computer pool (:meth:`ComputerPool.run_task`, lane ``analysis``), never on the
event loop, with a fixed budget a position (``Settings.analysis_iterations`` search
iterations and a fixed seed, so that it repeats). It is computed once and shared: a
request while it runs joins it, one after it gets the stored analysis (the ``analyses``
table). Its progress reaches the match's watchers over their WebSockets, ``{"type":
"analysis", "match", "status": "running", "done", "total"}``, then the result, ``{"type":
"analysis", "match", "status": "done", "done", "total", "analysis"}`` (or ``"status":
"failed"`` with ``"error"``); ``GET /api/matches/{id}/analysis`` answers the same shapes
(``"status": "none"`` before anyone asked). The record download carries it as
``"analysis"`` once made. The watchers on every server process of the database hear it:
each message goes out on the fan-out's ``analysis`` topic (the result itself too large
for it: ``"done"`` says only that it is stored, and each process reads it there), and
each process sends it to its own watchers of the match (:meth:`Analyses.share_through`).

Nothing hidden can leak: it is made only once the game is over, from the record every
viewer may download then (full: every move as it was).

**The analysis board.** ``POST /api/analysis/position`` ``{"game", "options", "position",
"moves"}``: the position a position text (or the start) and moves lead to, checked by the
engine, with its legal moves (the chance outcomes at chance), its board for the game's
``board.js``, and its value (:func:`stairgames.analysis.explore.assess_position`,
``Settings.analysis_position_iterations`` a position, in the pool's ``position`` lane).

Each client (address) may start ``analyses_per_minute`` analyses and ask
``positions_per_minute`` positions (``server/base/limits.py``, through the app's request
limits), and so may each player, whatever their addresses (:attr:`Analyses.rates`; a
browser that is no player is limited by its address only): beyond, 429 with
``Retry-After``.

**Off the event loop.** Every database read and write here (the ``analyses`` table, the
match, the request's player) waits in :func:`~stairgames.server.base.store.off_loop`'s
threads, and so do the analysis board's work (a card file read, a game loaded, up to
:data:`MAX_MOVES` moves played, its board drawn) and the JSON of every answer that
carries an analysis (a long game's is large): the event loop only passes them on.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime
import json
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy import delete, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from stairgames.core.errors import StairgamesError
from stairgames.core.game import State
from stairgames.core.options import options_to_dict
from stairgames.core.record import FULL_VIEW, GameRecord
from stairgames.core.registry import get_spec, load, load_with_text_options
from stairgames.i18n import N_, Text
from stairgames.server.analysis.contract import AnalysisStatus, PositionAnswer, PositionBody
from stairgames.server.base.contract import NoFields, answers
from stairgames.server.base.errors import ServerError, error_json
from stairgames.server.base.limits import ClientRates, shared_allowances
from stairgames.server.base.outages import log_failure
from stairgames.server.base.settings import DATA_DIR
from stairgames.server.base.state import Kept
from stairgames.server.base.store import AnalysisRow, Repository, allowances_off_loop, off_loop
from stairgames.server.people.players import RetryLaterError, current_player_async
from stairgames.server.play.card_files import resolve_cards_option
from stairgames.server.play.computer import ComputerError, ComputerTimeoutError
from stairgames.server.play.fanout import FANOUT, FanOut
from stairgames.server.play.hub import Hub
from stairgames.server.play.match import Match, outcome_json, public_options
from stairgames.server.play.matches import MAX_POSITION_LENGTH

if TYPE_CHECKING:
    from stairgames.server.base.settings import Settings

log = logging.getLogger(__name__)

RUNNING: Final = "running"
DONE: Final = "done"
FAILED: Final = "failed"
NONE: Final = "none"
"""No analysis was asked for yet (``GET`` answers it; nothing is stored)."""
PROGRESS_SECONDS: Final = 0.25
"""The watchers hear of an analysis's progress at most this often (and at its start)."""
POSITION_ROUTE: Final = "/api/analysis/position"
POSITION_BODY_BYTES: Final = 32_768
"""The largest body of ``POST /api/analysis/position`` (a long game's moves)."""
MAX_MOVES: Final = 1000
"""The most moves an analysis board's request may play from its position."""
ANALYSIS_SUFFIX: Final = "/analysis"
ANALYSIS_TOPIC: Final = "analysis"
"""The fan-out's topic of analyses: ``{"match", "status": "running", "done", "total"}``,
``{"match", "status": "done"}`` (read it from the database) or ``{"match", "status":
"failed", "error"}``."""
PLAYER_ANALYSES: Final = "analyses-player"
"""The allowance of analyses each player has (:attr:`Analyses.rates`)."""
PLAYER_POSITIONS: Final = "positions-player"
"""The allowance of the analysis board's positions each player has."""


def is_analysis_route(path: str) -> bool:
    """Whether ``path`` is ``/api/matches/{id}/analysis`` (its ``POST`` spends the
    client's allowance of analyses)."""
    return path.startswith("/api/matches/") and path.endswith(ANALYSIS_SUFFIX)


@dataclasses.dataclass(frozen=True)
class StoredAnalysis:
    match_id: str
    status: str
    budget: dict[str, Any]
    data: dict[str, Any] | None
    started_at: float


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def _epoch(moment: datetime.datetime) -> float:
    if moment.tzinfo is None:  # SQLite gives it back without its zone: it was UTC
        moment = moment.replace(tzinfo=datetime.UTC)
    return moment.timestamp()


class AnalysisStore(Repository):
    """The ``analyses`` table (:mod:`.store`)."""

    def get(self, match_id: str) -> StoredAnalysis | None:
        with self._session() as session:
            row = session.get(AnalysisRow, match_id)
            if row is None:
                return None
            return StoredAnalysis(
                match_id=row.match_id,
                status=row.status,
                budget=json.loads(row.budget),
                data=None if row.data is None else json.loads(row.data),
                started_at=_epoch(row.started_at),
            )

    def claim(self, match_id: str, budget: dict[str, Any], stale_before: float) -> bool:
        """Note that this process analyses the match now: ``True`` when it may (no row, or a
        ``running`` one started before ``stale_before``, a process that died at it),
        ``False`` when another has it or it is done."""
        try:
            with self._session() as session:
                session.add(
                    AnalysisRow(
                        match_id=match_id,
                        status=RUNNING,
                        budget=json.dumps(budget),
                        data=None,
                        started_at=_now(),
                    )
                )
            return True
        except IntegrityError:
            pass
        stale = datetime.datetime.fromtimestamp(stale_before, datetime.UTC)
        with self.engine.begin() as connection:
            taken = connection.execute(
                update(AnalysisRow)
                .where(
                    AnalysisRow.match_id == match_id,
                    AnalysisRow.status == RUNNING,
                    AnalysisRow.started_at < stale,
                )
                .values(started_at=_now(), budget=json.dumps(budget))
            )
            return bool(taken.rowcount == 1)

    def finish(self, match_id: str, data: dict[str, Any]) -> None:
        with self.engine.begin() as connection:
            connection.execute(
                update(AnalysisRow)
                .where(AnalysisRow.match_id == match_id)
                .values(status=DONE, data=json.dumps(data), finished_at=_now())
            )

    def drop(self, match_id: str) -> None:
        """Forget a failed analysis (it may be asked for again)."""
        with self.engine.begin() as connection:
            connection.execute(
                delete(AnalysisRow).where(
                    AnalysisRow.match_id == match_id, AnalysisRow.status == RUNNING
                )
            )

    def done_ids(self, match_ids: list[str]) -> set[str]:
        """Those of ``match_ids`` whose analysis is done."""
        if not match_ids:
            return set()
        with self._session() as session:
            return set(
                session.scalars(
                    select(AnalysisRow.match_id).where(
                        AnalysisRow.match_id.in_(match_ids), AnalysisRow.status == DONE
                    )
                )
            )


@dataclasses.dataclass(eq=False)
class _Run:
    """An analysis this process is making: its progress, and who waits for it."""

    match_id: str
    done: int = 0
    total: int = 0
    told_at: float = 0.0
    task: asyncio.Task[None] | None = None


class Analyses:
    """Finished games' analyses, each made once (see the module), and the analysis
    board's positions."""

    def __init__(self, store: AnalysisStore, hub: Hub, settings: Settings) -> None:
        self.store = store
        self.hub = hub
        self.settings = settings
        self.rates = ClientRates(
            {
                PLAYER_ANALYSES: settings.analyses_per_minute,
                PLAYER_POSITIONS: settings.positions_per_minute,
            },
            clock=settings.clock,
        )
        """Each player's allowance of analyses and positions (the app's request limits
        keep each address's); shared with the other server processes where they can."""
        self._runs: dict[str, _Run] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        """The messages of progress being sent."""
        self._fanout: FanOut | None = None
        self._heard: dict[str, tuple[int, int]] = {}
        """The progress other processes told of the analyses they make (done, total)."""

    def budget(self) -> dict[str, Any]:
        from stairgames.analysis.explore import budget_json  # (light: no search code)

        return budget_json(self.settings.analysis_iterations, self.settings.analysis_seed)

    async def refused(self, request: Request, kind: str) -> Response | None:
        """Spend one ``kind`` request (:data:`PLAYER_ANALYSES`, :data:`PLAYER_POSITIONS`)
        of the request's player: ``None`` when allowed (or the browser is no player),
        else the 429 to answer, with ``Retry-After``."""
        player = await current_player_async(request)
        if player is None:
            return None
        if self.rates.shared is None:
            wait = self.rates.take(kind, player.id)
        else:  # a round trip to the database
            wait = await allowances_off_loop(self.rates.take, kind, player.id)
        return None if wait == 0.0 else RetryLaterError(wait).response()

    # ----- a finished game ----------------------------------------------------------

    async def status(self, match_id: str) -> dict[str, Any] | None:
        """``GET .../analysis``: the analysis, its progress, or ``None`` (none asked)."""
        run = self._runs.get(match_id)
        if run is not None:
            return self._progress(run)
        return self._known(match_id, await off_loop(self.store.get, match_id))

    def _known(self, match_id: str, stored: StoredAnalysis | None) -> dict[str, Any] | None:
        """:meth:`status`, from the row ``stored`` read of the match's analysis."""
        run = self._runs.get(match_id)  # (one may have started while the row was read)
        if run is not None:
            return self._progress(run)
        if stored is None:
            return None
        if stored.status == DONE and stored.data is not None:
            return {
                "match": match_id,
                "status": DONE,
                **self._counts(stored.data),
                "analysis": stored.data,
            }
        done, total = self._heard.get(match_id, (None, None))
        return {"match": match_id, "status": RUNNING, "done": done, "total": total}

    def stored(self, match_id: str) -> dict[str, Any] | None:
        """The match's analysis if it is done (for its record), else ``None``: a database
        read (call it off the event loop)."""
        stored = self.store.get(match_id)
        return stored.data if stored is not None and stored.status == DONE else None

    @staticmethod
    def _counts(data: dict[str, Any]) -> dict[str, Any]:
        decisions = int(data.get("decisions", 0))
        return {"done": decisions, "total": decisions}

    @staticmethod
    def _progress(run: _Run) -> dict[str, Any]:
        return {"match": run.match_id, "status": RUNNING, "done": run.done, "total": run.total}

    async def start(self, match: Match) -> dict[str, Any]:
        """``POST .../analysis``: start the analysis of ``match`` (or join the one running,
        or give the stored one).

        :raises ServerError: 409, the game is not over, or it is City of Stairs ended
            by a resignation (its hidden cards are needed).
        """
        if not match.over:
            raise ServerError(409, N_("a game can be analysed only once it is over"))
        info = match.game.info()
        if info.hidden_information and not match.state.is_terminal():
            raise ServerError(
                409,
                N_(
                    "a game of {title} can be analysed only once its rules end it: before "
                    "that the analysis would need cards hidden from the players"
                ),
                title=Text(info.title),
            )
        async with self.hub.lock(match.id):  # (two requests here at once: one claims it)
            known = await self.status(match.id)
            if known is not None and (known["status"] == DONE or match.id in self._runs):
                return known
            if not await off_loop(self._claim, match.id):
                again = await self.status(match.id)  # another process has it (or finished it)
                if again is not None:
                    return again
                if not await off_loop(self._claim, match.id):
                    raise ServerError(409, N_("the match changed meanwhile; try again"))
            run = self._runs[match.id] = _Run(match.id)
        run.task = asyncio.get_running_loop().create_task(self._make(match, run))
        await self._tell(run)
        return self._progress(run)

    def _claim(self, match_id: str) -> bool:
        """:meth:`AnalysisStore.claim` for this process (in a database thread), taking
        over a run older than an analysis may last."""
        settings = self.settings
        stale_before = time.time() - settings.analysis_seconds - settings.computer_prepare_seconds
        return self.store.claim(match_id, self.budget(), stale_before)

    def _record(self, match: Match) -> GameRecord:
        """The match's full record, with the options it is played with (an uploaded
        card set by its file on this server, which the worker reads)."""
        return GameRecord(
            game=match.game_name,
            options=dict(match.options),
            moves=tuple(match.state.history_strings()),
            start_position=match.start_position,
            view=FULL_VIEW,
        )

    def _record_json(self, match: Match) -> str:
        return self._record(match).to_json()

    async def _make(self, match: Match, run: _Run) -> None:
        settings = self.settings

        def progress(done: int, total: int) -> None:
            run.done, run.total = done, total
            if time.monotonic() - run.told_at >= PROGRESS_SECONDS or done >= total:
                run.told_at = time.monotonic()
                task = asyncio.get_running_loop().create_task(self._tell(run))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

        try:
            record = await off_loop(self._record_json, match)  # (the match is over: still)
            data = await self.hub.computers.run_task(
                "analyse_record",
                {
                    "record": record,
                    "iterations": settings.analysis_iterations,
                    "seed": settings.analysis_seed,
                },
                lane="analysis",
                seconds=settings.analysis_seconds,
                progress=progress,
            )
            data = {"match": match.id, **data}
            await off_loop(self.store.finish, match.id, data)
        except (ComputerError, ComputerTimeoutError, StairgamesError, OSError) as exc:
            log.error("the analysis of match %s failed: %s", match.id, exc)
            await self._failed(run, exc)
            return
        except asyncio.CancelledError:
            self._runs.pop(match.id, None)
            await off_loop(self.store.drop, match.id)
            raise
        except Exception as exc:
            log_failure(log, "the analysis of match %s failed", match.id)
            await self._failed(run, exc)
            return
        self._runs.pop(match.id, None)
        await self._announce({"match": match.id, "status": DONE})

    async def _failed(self, run: _Run, exc: BaseException) -> None:
        self._runs.pop(run.match_id, None)
        await off_loop(self.store.drop, run.match_id)
        if isinstance(exc, ComputerTimeoutError):
            error = ServerError(
                503,
                N_("the analysis took longer than {seconds} seconds and was stopped"),
                seconds=round(exc.seconds),
            )
        else:
            error = ServerError(500, N_("the analysis failed; try again later"))
        await self._announce({"match": run.match_id, "status": FAILED, "error": error_json(error)})

    async def _tell(self, run: _Run) -> None:
        run.told_at = time.monotonic()
        await self._announce(self._progress(run))

    # ----- the watchers on every server process -------------------------------------

    def share_through(self, fanout: FanOut) -> None:
        """Tell every server process's watchers of the analyses made here, and this
        process's watchers of those made elsewhere (through ``fanout``)."""
        self._fanout = fanout
        fanout.subscribe(ANALYSIS_TOPIC, self._heard_of)

    async def _announce(self, told: dict[str, Any]) -> None:
        """Tell the match's watchers, on every process, what ``told`` says (the
        progress, the end, the failure: no analysis, which is read where needed)."""
        if self._fanout is None:
            await self._tell_watchers(told)
        else:
            self._fanout.broadcast(ANALYSIS_TOPIC, told)

    async def _heard_of(self, told: dict[str, Any]) -> None:
        match_id, status = told.get("match"), told.get("status")
        if not isinstance(match_id, str) or status not in (RUNNING, DONE, FAILED):
            return
        self._note_progress(match_id, told)
        if self.hub.watches(match_id):
            await self._tell_watchers(told)

    def _note_progress(self, match_id: str, told: dict[str, Any]) -> None:
        """Keep what another process told of its analysis (for ``GET .../analysis``)."""
        done, total = told.get("done"), told.get("total")
        if told["status"] == RUNNING and type(done) is int and type(total) is int:
            if len(self._heard) > 10_000:
                self._heard.clear()
            self._heard[match_id] = (done, total)
        else:
            self._heard.pop(match_id, None)

    async def _tell_watchers(self, told: dict[str, Any]) -> None:
        """Send this process's watchers of the match ``{"type": "analysis", ...}``; the
        end with the analysis, read from the database (its JSON made there too)."""
        match_id = str(told["match"])
        text = json.dumps({"type": "analysis", **told})
        if told["status"] == DONE:
            found = await self.status(match_id)
            if found is None or found["status"] != DONE:
                return
            text = await off_loop(json.dumps, {"type": "analysis", **found})
        await self.hub.tell(match_id, text, lambda _seat: True)

    async def close(self) -> None:
        tasks = [run.task for run in self._runs.values() if run.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ----- the analysis board -------------------------------------------------------

    async def position(self, body: dict[str, Any], data_dir: Any) -> dict[str, Any]:
        """``POST /api/analysis/position``: see the module (the position made and drawn
        in a database thread, valued in the computer pool).

        :raises ServerError / StairgamesError: 400, a bad game, option, position or move.
        """
        answer, options = await off_loop(_position_answer, body, data_dir)
        if not answer["over"]:
            answer["evaluation"] = await self._assess(
                answer["game"], options, answer["position"], answer["moves"]
            )
        return answer

    async def _assess(
        self, game: str, options: dict[str, Any], position: str | None, moves: list[str]
    ) -> dict[str, Any] | None:
        settings = self.settings
        try:
            found: dict[str, Any] = await self.hub.computers.run_task(
                "assess_position",
                {
                    "game": game,
                    "options": options,
                    "position": position,
                    "moves": moves,
                    "iterations": settings.analysis_position_iterations,
                    "seed": settings.analysis_seed,
                },
                lane="position",
                seconds=settings.analysis_position_seconds,
            )
        except (ComputerError, ComputerTimeoutError) as exc:
            log.warning("assessing a position of %s failed: %s", game, exc)
            return None
        return found


def _position_answer(body: dict[str, Any], data_dir: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The analysis board's answer for ``body``, its ``"evaluation"`` still ``None``, and
    the game's options (for the value's worker): blocking work (a card file read, every
    move played), for a database thread."""
    game_name, options, position, moves = _read_position_request(body)
    spec = get_spec(game_name)
    if not options and position is not None and spec.position_options is not None:
        game = load_with_text_options(spec.name, spec.position_options(position))
    else:
        game = load(spec.name, **resolve_cards_option(options, data_dir))
    state = _state_of(game.new_initial_state, game.state_from_position, position, moves)
    info = game.info()
    over = state.is_terminal()
    chance = state.is_chance_node() and not over
    to_act = None if over or chance else state.current_player()
    viewer = (to_act if to_act is not None else 0) if info.hidden_information else None
    answer: dict[str, Any] = {
        "game": spec.name,
        "title": info.title,
        "options": public_options(options_to_dict(game.options)),
        "position": position,
        "moves": moves,
        "current": _position_text(state),
        "seats": [state.seat_name(seat) for seat in range(game.num_players())],
        "to_act": to_act,
        "chance": chance,
        "over": over,
        "result": outcome_json(state),
        "legal": []
        if over or chance
        else [state.action_to_string(a) for a in state.legal_actions()],
        "outcomes": [
            {"move": state.action_to_string(a), "probability": round(p, 4)}
            for a, p in state.chance_outcomes()
        ]
        if chance
        else [],
        "board": None if spec.web_view is None else spec.web_view(state, viewer),
        "hidden_information": info.hidden_information,
        "evaluation": None,
    }
    return answer, options_to_dict(game.options)


def _read_position_request(
    body: dict[str, Any],
) -> tuple[str, dict[str, Any], str | None, list[str]]:
    game, options = body.get("game"), body.get("options", {})
    position, moves = body.get("position"), body.get("moves", [])
    options = {} if options is None else options
    moves = [] if moves is None else moves
    if not isinstance(game, str) or not isinstance(options, dict):
        raise ServerError(400, N_("a position needs a game name and an object of options"))
    if position is not None and (
        not isinstance(position, str) or not position.strip() or len(position) > MAX_POSITION_LENGTH
    ):
        raise ServerError(
            400,
            N_("a position must be a text of at most {limit} characters"),
            limit=MAX_POSITION_LENGTH,
        )
    if (
        not isinstance(moves, list)
        or len(moves) > MAX_MOVES
        or not all(isinstance(m, str) and 0 < len(m) <= 200 for m in moves)
    ):
        raise ServerError(
            400,
            N_("'moves' must be a list of at most {limit} moves in the game's notation"),
            limit=MAX_MOVES,
        )
    return game, options, position, list(moves)


def _state_of(
    start: Callable[[], State],
    from_position: Callable[[str], State],
    position: str | None,
    moves: list[str],
) -> State:
    state = start() if position is None else from_position(position)
    for number, move in enumerate(moves, start=1):
        if state.is_terminal():
            raise ServerError(
                400, N_("move {number} ({move!r}): the game is over"), number=number, move=move
            )
        try:
            action = state.string_to_action(move)
        except StairgamesError as exc:
            raise ServerError(
                400,
                N_("move {number} ({move!r}) cannot be played: {reason}"),
                number=number,
                move=move,
                reason=exc,
            ) from exc
        state.apply_action(action)
    return state


def _position_text(state: State) -> str | None:
    try:
        return state.position()
    except (StairgamesError, ValueError, NotImplementedError):
        return None


# ----- set-up and routes ------------------------------------------------------------------


def analyses_of(request: Request) -> Analyses:
    return ANALYSES.of(request)


def start_analysis(app: FastAPI, engine: Engine, hub: Hub, settings: Settings) -> None:
    """Give ``app`` its analyses (:data:`ANALYSES`), when it starts (told to every
    server process through its fan-out, when it has one)."""
    analyses = ANALYSES.keep(app, Analyses(AnalysisStore(engine), hub, settings))
    analyses.rates.shared = shared_allowances(engine, settings.shared())
    fanout = FANOUT.find(app)
    if fanout is not None:
        analyses.share_through(fanout)


def add_analysis_routes(app: FastAPI) -> None:
    """``POST``/``GET /api/matches/{id}/analysis`` and ``POST /api/analysis/position``
    (``docs/web.md``, "The computer's analysis"; their models: ``analysis/contract.py``)."""

    @app.post("/api/matches/{match_id}/analysis", **answers(AnalysisStatus))
    async def analysis_start(match_id: str, _body: NoFields, request: Request) -> Response:
        analyses = analyses_of(request)
        refused = await analyses.refused(request, PLAYER_ANALYSES)
        if refused is not None:
            return refused
        hub = analyses.hub
        async with hub.lock(match_id):
            match = await hub.service.in_thread(hub.service.refresh, await hub.load_async(match_id))
        return await _answer(await analyses.start(match))

    @app.get("/api/matches/{match_id}/analysis", **answers(AnalysisStatus))
    async def analysis_status(match_id: str, request: Request) -> Response:
        analyses = analyses_of(request)
        await analyses.hub.load_async(match_id)  # 404 for no such match
        found = await analyses.status(match_id)
        if found is None:  # (not an error: a finished game's page asks on opening)
            return JSONResponse({"match": match_id, "status": NONE})
        return await _answer(found)

    @app.post(POSITION_ROUTE, **answers(PositionAnswer))
    async def analysis_position(body: PositionBody, request: Request) -> Response:
        analyses = analyses_of(request)
        refused = await analyses.refused(request, PLAYER_POSITIONS)
        if refused is not None:
            return refused
        asked = body.model_dump(exclude_unset=True)  # (checked: _read_position_request)
        return await _answer(await analyses.position(asked, DATA_DIR.of(request)))


async def _answer(body: dict[str, Any]) -> Response:
    """``body`` as the JSON answer; made in a database thread when it carries an analysis
    or a board (a long game's are large), at once when it is a few fields."""
    if "analysis" in body or "board" in body:
        return await off_loop(JSONResponse, body)
    return JSONResponse(body)


ANALYSES: Kept[Analyses] = Kept("analyses")
"""The app's analyses (``app.state.analyses``), made as it starts (:func:`start_analysis`)."""


__all__ = [
    "ANALYSES",
    "PLAYER_ANALYSES",
    "PLAYER_POSITIONS",
    "POSITION_BODY_BYTES",
    "POSITION_ROUTE",
    "Analyses",
    "AnalysisStore",
    "StoredAnalysis",
    "add_analysis_routes",
    "analyses_of",
    "is_analysis_route",
    "start_analysis",
]
