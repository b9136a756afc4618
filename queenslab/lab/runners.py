"""Where the hardness study's solves run: worker threads here, or tasks on a Dask cluster.

Each runner yields (job, outcome) as solves finish and stops what still runs when it is
closed (a problem found, or Ctrl-C). Ctrl-C reaches only the main thread: the thread
runner hands it on to every busy worker (CPython's ``PyThreadState_SetAsyncExc``), so each
running solve winds down through the same path as an interrupted call in the main thread.
"""

from __future__ import annotations

import collections
import ctypes
import queue
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from queenslab import api
from queenslab.core.errors import UsageError
from queenslab.io.instance import Instance

CONNECT_TIMEOUT = 10.0  # seconds to reach a Dask scheduler
_POLL_SECONDS = 0.05  # how often the waiting main thread looks for Ctrl-C


@dataclass(frozen=True)
class Job:
    """One solve: an instance (sample ``sample`` of ``density``) and a backend."""

    density: float
    sample: int
    backend: str
    instance: Instance


def solve_one(instance: dict[str, Any], backend: str, time_limit: float | None) -> dict[str, Any]:
    """Solve one instance (its JSON form): a pure function, so Dask may run it anywhere."""
    problem = Instance.from_json(instance).problem
    try:
        result = api.solve(problem, backend, time_limit=time_limit)
    except api.BackendBug as exc:
        return {"status": "error", "note": f"wrong answer: {exc}"}
    except Exception as exc:  # reported as a failure of this backend, not a crash
        return {"status": "error", "note": f"error: {exc}"}
    cols = None if result.placement is None else result.placement.to_list()
    return {
        "status": str(result.status),
        "seconds": result.seconds,
        "stats": result.stats,
        "cols": cols,
    }


Finished = tuple[Job, dict[str, Any]]


def on_threads(jobs: Sequence[Job], time_limit: float | None, workers: int) -> Iterator[Finished]:
    """Outcomes as they finish, from ``workers`` threads; closing stops the busy ones."""
    pending = collections.deque(jobs)
    finished: queue.Queue[Finished | None] = queue.Queue()
    lock = threading.Lock()
    busy: set[int] = set()
    stopping = False

    def work() -> None:
        try:
            while True:
                with lock:
                    if stopping or not pending:
                        return
                    job = pending.popleft()
                    busy.add(threading.get_ident())
                outcome = solve_one(job.instance.to_json(), job.backend, time_limit)
                with lock:
                    busy.discard(threading.get_ident())
                finished.put((job, outcome))
        except KeyboardInterrupt:
            pass  # handed on from the main thread: this worker's solve has stopped
        finally:
            finished.put(None)

    threads = [
        threading.Thread(target=work, name=f"hardness-{i}", daemon=True)
        for i in range(max(1, min(workers, len(jobs))))
    ]
    for thread in threads:
        thread.start()
    try:
        running = len(threads)
        while running:
            try:
                item = finished.get(timeout=_POLL_SECONDS)
            except queue.Empty:
                continue
            if item is None:
                running -= 1
            else:
                yield item
    finally:
        with lock:
            stopping = True
            for ident in busy:
                ctypes.pythonapi.PyThreadState_SetAsyncExc(
                    ctypes.c_ulong(ident), ctypes.py_object(KeyboardInterrupt)
                )
        for thread in threads:
            thread.join()


def on_dask(jobs: Sequence[Job], time_limit: float | None, address: str) -> Iterator[Finished]:
    """Outcomes as they finish, from tasks on the Dask scheduler at ``address``.

    Closing cancels the tasks not yet finished; a task already running on a worker ends
    at its own time limit. Workers must be able to import queenslab.
    """
    from distributed import Client, as_completed

    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:  # ValueError: a malformed address
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    futures = {}
    try:
        for job in jobs:
            task = client.submit(solve_one, job.instance.to_json(), job.backend, time_limit,
                                 pure=False)  # fmt: skip
            futures[task] = job
        for task in as_completed(futures):
            yield futures[task], task.result()
    finally:
        client.cancel(list(futures))
        client.close()
