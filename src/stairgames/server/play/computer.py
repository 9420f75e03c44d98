"""Computer players, run outside the server's event loop in worker processes of their
own, so that a computer thinking for seconds never delays another game, and one that
thinks too long is stopped.

A worker receives everything it needs as plain data (game, options, player, seat, the
moves so far in full notation, a seed), rebuilds the true state and asks the player
through :meth:`Agent.act`, which hands the player its seat's view only, and answers
offers to end by agreement itself. Players are kept per worker process, so a level's
compiled code is got ready once per process; where it is not compiled yet (the first
games after an install), it is compiled in the background while the player plays a
plain-Python fallback (:func:`choose_move`), so no move waits for it.

Every move has a deadline that the pool enforces, not the player: a worker first says
when its player is prepared (the first time in a process that may compile code for
seconds, so preparing has its own, generous allowance), and from then on it has
``move_seconds`` to answer; a worker that overruns is killed and replaced, and the
match is told (:class:`ComputerTimeoutError`). Workers die with the server, even when it
is killed (``kill -9``): on Linux the kernel kills them when it dies
(``PR_SET_PDEATHSIG``), and everywhere a watchdog thread in each worker notices within a
second that its parent has gone.

Moves take turns by match (``queue``): a worker that comes free goes to the match that
was served least recently among those waiting, so each match with a move waiting gets
one before any gets a second (:class:`FairTurns`), whatever order they asked in. The
matches with no person in them think in a lane of their own (:data:`COMPUTER_ONLY_LANE`,
one process unless ``lanes`` says more), so that they never take a worker from a match a
person plays.

The same workers run the computer's analysis (:meth:`ComputerPool.run_task`): a task
named in :data:`stairgames.analysis.explore.TASKS` (a finished game's review, one
position's value) with plain-data arguments, its progress reported as it goes, under a
deadline of its own. Tasks take turns in lanes of their own (``lanes``: how many of each
kind run at once), so an analysis never holds up a computer's move. Each lane keeps its
own idle workers: none takes the prepared worker of another.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import importlib
import multiprocessing
import os
import signal
import threading
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from stairgames.agents.base import Agent, make_agent
from stairgames.core.registry import load
from stairgames.server.base.lifetime import die_with_parent

_AGENTS: dict[tuple[str, str, str, int], Agent] = {}

WARMING = "warming"
"""The note of a move that the player's fallback chose, its compiled code being compiled
in the background (:meth:`Agent.compiling`): the match view's ``computer_note``."""

COMPUTER_ONLY_LANE = "computer_only"
"""The lane (:attr:`ComputerPool.lanes`) the moves of matches with no person in them
take turns in, apart from the moves of matches a person plays."""

QUEUES_REMEMBERED = 10_000
"""Queues (matches) whose last turn :class:`FairTurns` remembers; the longest served is
forgotten first, which only makes it the first served again, as it already was."""


def choose_move(
    game_name: str,
    options: dict[str, Any],
    player: str,
    seat: int,
    moves: list[str],
    seed: int,
    start_position: str | None = None,
    *,
    on_prepared: Callable[[], None] | None = None,
    background: bool = False,
    on_note: Callable[[str | None], None] | None = None,
) -> str:
    """The move (full notation) that ``player`` at ``seat`` chooses after ``moves``
    (from ``start_position``, a match started from a position; ``None``: the start);
    ``on_prepared()`` is called once the player is ready to play the game (before its
    search starts).

    The player's generator is reseeded from ``seed`` at every call, so a move does not
    depend on which worker thought of it. With ``background`` (the workers), a player
    whose compiled code is not on disk yet (the first games after an install) has it
    compiled in a process of its own and plays its plain-Python fallback until then
    (:mod:`stairgames.agents.warming`), so that no move waits for compiling; those
    few moves depend on when the compiling ends. ``on_note(note)`` is told, after the
    move, :data:`WARMING` if the fallback chose it, else ``None``.
    """
    game = load(game_name, **options)
    state = (
        game.new_initial_state()
        if start_position is None
        else game.state_from_position(start_position)
    )
    for move in moves:
        state.apply_move(move)
    key = (game_name, repr(game.options), player, seat)
    agent = _AGENTS.get(key)
    if agent is None:
        agent = _AGENTS[key] = make_agent(player, seat, seed)
    agent.ensure_prepared(game, background=background)
    if on_prepared is not None:
        on_prepared()
    agent.rng.seed(seed)
    action = agent.act(state)
    if on_note is not None:
        on_note(WARMING if agent.last_fallback else None)
    return state.action_to_string(action)


TASKS_MODULE = "stairgames.analysis.explore"
"""The module whose ``TASKS`` name the tasks a worker runs (imported on the first task)."""


def run_task(
    name: str, arguments: dict[str, Any], progress: Callable[[int, int], None] | None = None
) -> Any:
    """Run the task ``name`` of :data:`TASKS_MODULE`'s ``TASKS`` with ``arguments``
    (and ``progress``, for a task that takes it): its result, plain data.

    :raises KeyError: no such task.
    """
    tasks: dict[str, Callable[..., Any]] = importlib.import_module(TASKS_MODULE).TASKS
    function = tasks[name]
    if progress is not None:
        return function(**arguments, progress=progress)
    return function(**arguments)


class ComputerError(Exception):
    """A computer player gave no move: its player failed (``details``: the worker's
    traceback), or its worker died."""

    def __init__(self, message: str, details: str = "") -> None:
        super().__init__(message)
        self.details = details


class ComputerTimeoutError(ComputerError):
    """A computer player overran its deadline (``seconds``) and was stopped."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"no move within {seconds:g} s", "")
        self.seconds = seconds


# ----- the worker process ---------------------------------------------------------------


def _work(connection: Connection, parent: int) -> None:
    """A worker's life: answer each job ``(game, options, player, seat, moves, seed)``
    with ``("prepared",)`` once its player is ready and then ``("move", move, note)``
    (``note``: :data:`WARMING` or ``None``, :func:`choose_move`), or ``("error",
    summary, traceback)``; ends when the server closes the connection."""
    die_with_parent(parent)  # even when the server is killed outright
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which kills us
    while True:
        try:
            job = connection.recv()
        except (EOFError, OSError):
            return
        if isinstance(job, dict):  # a task: {"task", "arguments", "progress"}
            _work_on_task(connection, job)
            continue
        notes: list[str | None] = [None]
        try:
            move = choose_move(
                *job,
                on_prepared=lambda: connection.send(("prepared",)),
                background=True,
                on_note=notes.append,
            )
        except Exception as exc:
            summary = f"{type(exc).__name__}: {exc}"[:1000]
            connection.send(("error", summary, traceback.format_exc()[-8000:]))
        else:
            connection.send(("move", move, notes[-1]))


def _work_on_task(connection: Connection, job: dict[str, Any]) -> None:
    """Answer a task with ``("progress", done, total)`` as it goes (when it reports
    progress), then ``("done", result)`` or ``("error", summary, traceback)``."""

    def progress(done: int, total: int) -> None:
        connection.send(("progress", done, total))

    try:
        result = run_task(job["task"], job["arguments"], progress if job.get("progress") else None)
    except Exception as exc:
        summary = f"{type(exc).__name__}: {exc}"[:1000]
        connection.send(("error", summary, traceback.format_exc()[-8000:]))
    else:
        connection.send(("done", result))


def _note_key(game_name: str, options: Mapping[str, Any], player: str) -> tuple[str, str, str]:
    return game_name, repr(sorted(options.items())), player


@dataclasses.dataclass(eq=False)
class _Worker:
    process: BaseProcess
    connection: Connection
    """The server's end of the worker's pipe."""


# ----- turns -----------------------------------------------------------------------------


class FairTurns:
    """``slots`` turns at once, handed out in rotation among queues (a match each): when
    a turn comes free, the queue served least recently among those waiting gets it (one
    never served first, then in the order they asked), so a queue that asks for many
    turns at once gets them one by one between the others' rather than all first.
    Cancelled while waiting, a request gives up its place (or the turn just handed to
    it, to the next)."""

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)
        self._busy = 0
        self._waiting: dict[str, collections.deque[asyncio.Future[None]]] = {}
        """Each queue's requests waiting, oldest first; queues in the order they asked."""
        self._served: collections.OrderedDict[str, int] = collections.OrderedDict()
        """The turn each queue last got, the longest ago first."""
        self._turns = 0

    def waiting(self) -> int:
        """Requests waiting for a turn."""
        return sum(len(requests) for requests in self._waiting.values())

    @contextlib.asynccontextmanager
    async def turn(self, queue: str) -> AsyncIterator[None]:
        """Hold a turn of ``queue`` (waiting for it) while the block runs."""
        await self._take(queue)
        try:
            yield
        finally:
            self._give_back()

    async def _take(self, queue: str) -> None:
        if self._busy < self.slots and not self._waiting:
            self._granted(queue)
            return
        request: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(queue, collections.deque()).append(request)
        try:
            await request
        except asyncio.CancelledError:
            if request.done() and not request.cancelled():  # handed a turn meanwhile
                self._give_back()
            else:
                self._withdraw(queue, request)
            raise

    def _withdraw(self, queue: str, request: asyncio.Future[None]) -> None:
        requests = self._waiting.get(queue)
        if requests is None:
            return
        with contextlib.suppress(ValueError):
            requests.remove(request)
        if not requests:
            del self._waiting[queue]

    def _granted(self, queue: str) -> None:
        self._busy += 1
        self._turns += 1
        self._served.pop(queue, None)
        self._served[queue] = self._turns
        while len(self._served) > QUEUES_REMEMBERED:
            self._served.popitem(last=False)

    def _give_back(self) -> None:
        self._busy -= 1
        while self._busy < self.slots and self._waiting:
            queue = min(self._waiting, key=lambda q: self._served.get(q, 0))
            requests = self._waiting[queue]
            request = requests.popleft()
            if not requests:
                del self._waiting[queue]
            if request.done():  # cancelled, not yet withdrawn
                continue
            self._granted(queue)
            request.set_result(None)


# ----- the pool ------------------------------------------------------------------------


class ComputerPool:
    """At most ``workers`` processes computer players think in, each thinking about one
    move at a time, started when a move finds none idle; a job waits for a free one, its
    match's turn (:class:`FairTurns`: a worker that comes free goes to the match served
    least recently among those waiting). The moves of a lane (:data:`COMPUTER_ONLY_LANE`)
    take turns among themselves, in as many processes as ``lanes`` says (one if not).

    A move gets ``prepare_seconds`` until the worker says its player is prepared (a new
    worker starts Python first), then ``move_seconds``; a worker that overruns, dies or
    is cancelled (the server stopping) is killed, and the next job starts another.
    ``expire(seconds)`` is awaited for each deadline (tests give a clock of their own).
    Workers are started from the event loop's thread, which must outlive them
    (``PR_SET_PDEATHSIG`` fires when the thread that started a process ends).

    ``workers=0`` thinks in a thread instead (tests, tiny machines), one move at a time
    (and one of each lane), with one deadline of ``prepare_seconds + move_seconds``: a
    thread cannot be killed, so on its deadline it is only abandoned, and it goes on
    thinking until it finishes.
    """

    def __init__(
        self,
        workers: int,
        *,
        move_seconds: float = 30.0,
        prepare_seconds: float = 180.0,
        expire: Callable[[float], Awaitable[None]] = asyncio.sleep,
        lanes: Mapping[str, int] | None = None,
    ) -> None:
        self.workers = workers
        self.move_seconds = move_seconds
        self.prepare_seconds = prepare_seconds
        self._expire = expire
        self.lanes = dict(lanes or {})
        """How many tasks of each lane (``analysis``, ``position``) run at once (1 for
        a lane not named)."""
        self._lane_turns: dict[str, asyncio.Semaphore] = {}
        self._closed = False
        self._live: set[_Worker] = set()
        self._idle: dict[str | None, list[_Worker]] = {}
        """Each lane's idle workers (``None``: of the matches a person plays): a lane takes
        only its own, so that a match a person plays finds its player prepared in a
        worker of its own rather than waiting for a new one to start."""
        self._turns: dict[str | None, FairTurns] = {}
        """The moves' turns (``None``: matches a person plays; one per worker, one thread
        in thread mode) and each lane's, made on first use."""
        self._notes: dict[tuple[str, str, str], str] = {}
        """What the last move of each game (options) and player was noted with
        (:meth:`note`)."""

    def note(self, game_name: str, options: Mapping[str, Any], player: str) -> str | None:
        """How ``player``'s last move in ``game_name`` with ``options`` was chosen, if not
        as configured: :data:`WARMING`, by its fallback while its compiled code is
        compiled in the background (``None``: as configured, or no move yet)."""
        return self._notes.get(_note_key(game_name, options, player))

    def _noted(
        self, game_name: str, options: Mapping[str, Any], player: str, reply: tuple[Any, ...]
    ) -> None:
        key = _note_key(game_name, options, player)
        note = reply[2] if len(reply) > 2 else None
        if isinstance(note, str):
            self._notes[key] = note
        else:
            self._notes.pop(key, None)

    def pids(self) -> list[int]:
        """The process ids of the live workers (none in thread mode)."""
        return [w.process.pid for w in self._live if w.process.pid is not None]

    async def choose(
        self,
        game_name: str,
        options: dict[str, Any],
        player: str,
        seat: int,
        moves: list[str],
        seed: int,
        start_position: str | None = None,
        *,
        queue: str = "",
        lane: str | None = None,
    ) -> str:
        """The move ``player`` chooses (see :func:`choose_move`), once ``queue`` (its
        match) has its turn among the moves of ``lane`` (``None``: of the matches a
        person plays).

        :raises ComputerTimeoutError: it overran its deadline.
        :raises ComputerError: the player failed (the message says how), or its worker
            died, or the pool is shut down.
        """
        job: tuple[Any, ...] = (game_name, options, player, seat, moves, seed)
        if start_position is not None:
            job = (*job, start_position)
        async with self.move_turns(lane).turn(queue):
            if self._closed:
                raise ComputerError("the computer players are shut down")
            if self.workers <= 0:
                return await self._choose_in_thread(job)
            worker = self._idle_worker(lane) or self._spawn()
            try:
                reply = await self._ask(worker, job)
            except BaseException:  # a deadline, a dead worker, cancelled: it cannot go on
                self._kill(worker)
                raise
            self._idle.setdefault(lane, []).append(worker)
        if reply[0] == "error":
            raise ComputerError(reply[1], reply[2])
        self._noted(game_name, options, player, reply)
        move: str = reply[1]
        return move

    def move_turns(self, lane: str | None = None) -> FairTurns:
        """The turns the moves of ``lane`` take (``None``: of the matches a person plays)."""
        turns = self._turns.get(lane)
        if turns is None:
            slots = max(1, self.workers) if lane is None else self.lanes.get(lane, 1)
            turns = self._turns[lane] = FairTurns(slots)
        return turns

    async def run_task(
        self,
        task: str,
        arguments: dict[str, Any],
        *,
        lane: str,
        seconds: float,
        progress: Callable[[int, int], None] | None = None,
    ) -> Any:
        """The result of the task ``task`` (:func:`run_task`) run in a worker, once a turn
        of ``lane`` is free; ``progress(done, total)`` is called on the event loop as the
        task reports it. The task gets ``prepare_seconds`` (to start a worker and load
        the game's code) and ``seconds`` in all; past that its worker is killed.

        :raises ComputerTimeoutError: it overran.
        :raises ComputerError: the task failed (the message says how), or its worker
            died, or the pool is shut down.
        """
        turns = self._lane_turns.get(lane)
        if turns is None:
            turns = self._lane_turns[lane] = asyncio.Semaphore(max(1, self.lanes.get(lane, 1)))
        job = {"task": task, "arguments": arguments, "progress": progress is not None}
        async with turns:
            if self._closed:
                raise ComputerError("the computer players are shut down")
            if self.workers <= 0:
                return await self._task_in_thread(job, seconds, progress)
            worker = self._idle_worker(lane) or self._spawn()
            try:
                reply = await self._ask_task(worker, job, seconds, progress)
            except BaseException:  # a deadline, a dead worker, cancelled: it cannot go on
                self._kill(worker)
                raise
            self._idle.setdefault(lane, []).append(worker)
        if reply[0] == "error":
            raise ComputerError(reply[1], reply[2])
        return reply[1]

    async def _ask_task(
        self,
        worker: _Worker,
        job: dict[str, Any],
        seconds: float,
        progress: Callable[[int, int], None] | None,
    ) -> tuple[Any, ...]:
        try:
            worker.connection.send(job)
        except OSError as exc:
            raise ComputerError(f"the worker died (exit code {worker.process.exitcode})") from exc
        loop = asyncio.get_running_loop()
        limit = self.prepare_seconds + seconds
        deadline = loop.time() + limit
        while True:
            left = deadline - loop.time()
            if left <= 0:
                raise ComputerTimeoutError(limit)
            try:
                reply = await self._reply(worker, left)
            except ComputerTimeoutError:
                raise ComputerTimeoutError(limit) from None
            if reply[0] != "progress":
                return reply
            if progress is not None:
                progress(int(reply[1]), int(reply[2]))

    async def _task_in_thread(
        self,
        job: dict[str, Any],
        seconds: float,
        progress: Callable[[int, int], None] | None,
    ) -> Any:
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Any] = loop.create_future()

        def settle(result: Any, error: Exception | None) -> None:
            if answer.done():  # abandoned meanwhile
                return
            if error is not None:
                answer.set_exception(error)
            else:
                answer.set_result(result)

        def told(done: int, total: int) -> None:
            if progress is not None and not answer.done():
                progress(done, total)

        def report(done: int, total: int) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(told, done, total)

        def work() -> None:
            result, error = None, None
            try:
                result = run_task(job["task"], job["arguments"], report if progress else None)
            except Exception as exc:
                error = ComputerError(f"{type(exc).__name__}: {exc}"[:1000], "")
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(settle, result, error)

        threading.Thread(target=work, name="stairgames-task", daemon=True).start()
        limit = self.prepare_seconds + seconds
        try:
            in_time = await self._in_time(answer, limit)
        finally:
            if not answer.done():
                answer.cancel()
        if not in_time:
            raise ComputerTimeoutError(limit)
        return answer.result()

    async def _ask(self, worker: _Worker, job: tuple[Any, ...]) -> tuple[Any, ...]:
        try:
            worker.connection.send(job)
        except OSError as exc:
            raise ComputerError(f"the worker died (exit code {worker.process.exitcode})") from exc
        reply = await self._reply(worker, self.prepare_seconds)
        if reply[0] == "prepared":
            reply = await self._reply(worker, self.move_seconds)
        return reply

    def _idle_worker(self, lane: str | None) -> _Worker | None:
        """An idle worker of ``lane`` still alive (one killed meanwhile, by the system
        say, is let go)."""
        idle = self._idle.get(lane, [])
        while idle:
            worker = idle.pop()
            if worker.process.is_alive():
                return worker
            self._kill(worker)
        return None

    def _spawn(self) -> _Worker:
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        process = context.Process(
            target=_work, args=(theirs, os.getpid()), name="stairgames-computer", daemon=True
        )
        process.start()
        theirs.close()
        worker = _Worker(process, ours)
        self._live.add(worker)
        return worker

    def _kill(self, worker: _Worker) -> None:
        """Kill ``worker`` now; a thread waits for its end (so that no zombie is left)
        without holding up the event loop."""
        self._live.discard(worker)
        worker.process.kill()
        worker.connection.close()
        threading.Thread(target=worker.process.join, name="stairgames-reap", daemon=True).start()

    async def _reply(self, worker: _Worker, seconds: float) -> tuple[Any, ...]:
        """The worker's next message, awaited on the event loop.

        :raises ComputerTimeoutError: none came before ``expire(seconds)``.
        :raises ComputerError: the worker died.
        """
        loop = asyncio.get_running_loop()
        readable: asyncio.Future[None] = loop.create_future()
        fd = worker.connection.fileno()

        def ready() -> None:
            if not readable.done():
                readable.set_result(None)

        loop.add_reader(fd, ready)
        try:
            in_time = await self._in_time(readable, seconds)
        finally:
            loop.remove_reader(fd)
        if not in_time:
            raise ComputerTimeoutError(seconds)
        try:
            reply: tuple[Any, ...] = worker.connection.recv()
        except (EOFError, OSError) as exc:
            raise ComputerError(f"the worker died (exit code {worker.process.exitcode})") from exc
        return reply

    async def _choose_in_thread(self, job: tuple[Any, ...]) -> str:
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[str] = loop.create_future()

        def settle(move: str | None, error: Exception | None) -> None:
            if answer.done():  # abandoned meanwhile
                return
            if error is not None:
                answer.set_exception(error)
            else:
                answer.set_result(str(move))

        def think() -> None:
            move, error = None, None
            try:
                move = choose_move(*job)  # looked up now: tests replace it
            except Exception as exc:
                error = exc
            except BaseException as exc:  # whatever ends the thread answers the match (one
                # that died unanswered left it thinking for ever), not as the loop's own
                error = ComputerError(f"the computer player stopped: {exc!r}")
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(settle, move, error)

        threading.Thread(target=think, name="stairgames-computer", daemon=True).start()
        seconds = self.prepare_seconds + self.move_seconds
        try:
            in_time = await self._in_time(answer, seconds)
        finally:
            if not answer.done():
                answer.cancel()  # the thread's answer, if it comes, is dropped
        if not in_time:
            raise ComputerTimeoutError(seconds)
        return answer.result()

    async def _in_time(self, waited: asyncio.Future[Any], seconds: float) -> bool:
        """Whether ``waited`` is done before ``expire(seconds)`` is."""
        deadline = asyncio.ensure_future(self._expire(seconds))
        try:
            await asyncio.wait({waited, deadline}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            deadline.cancel()
        return waited.done()

    def shutdown(self) -> None:
        """Kill every worker at once, thinking or not (a move being thought is lost: its
        match thinks again after the next start), and wait for their ends. Thread mode
        abandons its thread."""
        self._closed = True
        killed = list(self._live)
        self._live.clear()
        self._idle.clear()
        for worker in killed:
            worker.process.kill()
            worker.connection.close()
        for worker in killed:
            worker.process.join(5.0)
