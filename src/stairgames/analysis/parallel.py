"""Running many independent tasks: in this process, over local processes, or on Ray.

:func:`run_tasks` is what the arena and the balance studies use to play their games.
Each task carries its own seed, so a task's result does not depend on where it ran:
the same tasks give the same results in this process, over ``jobs`` local processes
(a ``spawn`` pool, so every worker starts clean) or on a running Ray cluster named
by ``ray_address`` (``"HOST:6379"`` as ``ray start --head`` prints it, ``"auto"``, or
a Ray Client address ``"ray://HOST:10001"``). Ray is optional (``pip install 'stairgames[ray]'``)
and imported only when asked for.

>>> run_tasks(abs, [-2, 3, -5], jobs=1)
[2, 3, 5]
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from stairgames.core.errors import InvalidOptionError
from stairgames.core.progress import terminate_as_interrupt
from stairgames.i18n import N_

T = TypeVar("T")
R = TypeVar("R")

Progress = Callable[[int, int], None]
"""``progress(done, total)``: called with 0 before the first task, then after every one."""

OnResult = Callable[[int, Any], None]
"""``on_result(index, result)``: called as each task's result arrives (in the order they
end), e.g. to keep it where an interrupted run can go on from."""


def run_tasks(
    function: Callable[[T], R],
    tasks: Sequence[T],
    *,
    jobs: int = 1,
    ray_address: str | None = None,
    progress: Progress | None = None,
    on_result: OnResult | None = None,
) -> list[R]:
    """``[function(task) for task in tasks]``, in task order, computed in parallel.

    With ``ray_address`` the tasks run as Ray remote tasks on that cluster (one CPU
    each; ``jobs`` is ignored: the cluster's CPUs decide); otherwise over ``jobs``
    local processes, or in this process when ``jobs`` is 1. ``function`` and the tasks
    must be picklable (a function defined at the top level of a module), and the
    cluster's workers must be able to import ``function``'s module (the same
    stairgames, installed on every node). ``on_result`` hears of each result as it
    arrives. SIGTERM stops the tasks as Ctrl-C does, with a :exc:`KeyboardInterrupt`
    (:func:`stairgames.core.progress.terminate_as_interrupt`): a :exc:`TasksInterrupted`
    that keeps the results that ended before it.

    :raises InvalidOptionError: ``jobs`` below 1, or Ray asked for but not installed.
    """
    if jobs < 1:
        raise InvalidOptionError(
            message_id=N_("--jobs must be at least 1, got {jobs}"), arguments={"jobs": jobs}
        )
    if ray_address is not None:
        unordered = _on_ray(function, tasks, ray_address)
    elif jobs == 1 or len(tasks) <= 1:
        unordered = ((index, function(task)) for index, task in enumerate(tasks))
    else:
        unordered = _on_processes(function, tasks, jobs)
    with terminate_as_interrupt():  # the workers stop with the caller
        return _collect(unordered, len(tasks), progress, on_result)


def _collect(
    unordered: Iterator[tuple[int, R]],
    total: int,
    progress: Progress | None,
    on_result: OnResult | None,
) -> list[R]:
    """The results put back in task order, telling ``progress`` and ``on_result`` as
    they come."""
    results: dict[int, R] = {}
    try:
        if progress is not None:
            progress(0, total)
        for index, result in unordered:
            results[index] = result
            if on_result is not None:
                on_result(index, result)
            if progress is not None:
                progress(len(results), total)
    except KeyboardInterrupt as stop:
        if isinstance(stop, TasksInterrupted):
            raise
        raise TasksInterrupted(results, total) from None
    finally:
        close = getattr(unordered, "close", None)
        if close is not None:
            close()  # the workers stop now, not when the generator is collected
    return [results[index] for index in range(total)]


class TasksInterrupted(KeyboardInterrupt):
    """Ctrl-C or SIGTERM stopped :func:`run_tasks`: a :exc:`KeyboardInterrupt` that
    keeps the results of the tasks that ended before it, so that the caller can report
    and save them."""

    def __init__(self, finished: dict[int, Any], total: int) -> None:
        super().__init__(f"stopped after {len(finished)} of {total} tasks")
        self.finished = dict(sorted(finished.items()))
        """The results that ended, by task index (in task order)."""
        self.total = total
        """How many tasks there were."""


class _Indexed:
    """``function`` applied to ``(index, task)``, keeping the index (picklable)."""

    def __init__(self, function: Callable[[Any], Any]) -> None:
        self.function = function

    def __call__(self, item: tuple[int, Any]) -> tuple[int, Any]:
        index, task = item
        return index, self.function(task)


def _on_processes(
    function: Callable[[T], R], tasks: Sequence[T], jobs: int
) -> Iterator[tuple[int, R]]:
    with multiprocessing.get_context("spawn").Pool(min(jobs, len(tasks))) as pool:
        yield from pool.imap_unordered(_Indexed(function), enumerate(tasks), chunksize=1)


def import_ray() -> Any:
    """The ``ray`` module.

    :raises InvalidOptionError: Ray is not installed; the message says how to get it.
    """
    try:
        import ray  # optional: only runs with --ray-address import it
    except ImportError as error:
        raise InvalidOptionError(
            message_id=N_(
                "--ray-address needs Ray, which is not installed: "
                "pip install 'stairgames[ray]' (or pip install 'ray>=2.9')"
            )
        ) from error
    return ray


def _on_ray(
    function: Callable[[T], R], tasks: Sequence[T], address: str
) -> Iterator[tuple[int, R]]:
    """Submit every task to the cluster at ``address`` and yield results as they end."""
    ray = import_ray()
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(
            address=address,
            include_dashboard=False,
            log_to_driver=False,
            logging_level="warning",
        )
    try:
        remote = ray.remote(num_cpus=1)(_call)
        pending = {remote.remote(function, task): index for index, task in enumerate(tasks)}
        while pending:
            done, _waiting = ray.wait(list(pending), num_returns=1)
            for reference in done:
                yield pending.pop(reference), ray.get(reference)
    finally:
        if started_here:
            ray.shutdown()


def _call(function: Callable[[T], R], task: T) -> R:
    """What a Ray worker runs: one task."""
    return function(task)


__all__ = ["OnResult", "Progress", "TasksInterrupted", "import_ray", "run_tasks"]
