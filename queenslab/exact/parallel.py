"""Run the subproblems of a plan: on a local thread pool, or as tasks on a Dask cluster.

A plan (constellations.Constellations, subproblems.Subproblems) splits one count into
independent subproblems with ids 0..len-1. Both runners yield ``(ids, rows)`` in completion
order, rows being (total, unique, nodes) of finished subproblems, and yield an empty pair
at least every ``POLL_SECONDS`` so the caller can look at the clock. Chunks interleave the
ids (j, j+k, j+2k, ...) because neighbouring subproblems have similar sizes, so every chunk
gets a fair share. Local kernels poll the run's stop flag and hand back what they finished.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator
from concurrent.futures import CancelledError
from typing import TYPE_CHECKING, Protocol

import numpy as np

from queenslab.core.errors import QueensError, UsageError

if TYPE_CHECKING:
    from distributed import Client

Finished = tuple[np.ndarray, np.ndarray]
#: Chunks per worker thread (progress granularity vs per-task overhead), and Dask tasks.
CHUNKS_PER_THREAD = 128
DASK_TASKS = 128
CONNECT_TIMEOUT = 10.0  # seconds to reach a Dask scheduler
POLL_SECONDS = 0.05  # longest wait for a result before the caller gets control back
NOTHING: Finished = (np.zeros(0, dtype=np.int64), np.zeros((0, 3), dtype=np.int64))


class Plan(Protocol):
    """What the runners and the checkpoint need of a split count."""

    n: int

    @property
    def method(self) -> str: ...

    def __len__(self) -> int: ...

    def take(self, ids: np.ndarray) -> Plan: ...

    def fingerprint(self) -> str: ...

    def count(self, stop: np.ndarray) -> np.ndarray:
        """Rows of (total, unique, nodes), nodes -1 where ``stop[0]`` came first."""
        ...


def count_part(part: Plan, stop: np.ndarray | None = None) -> np.ndarray:
    """Count every subproblem of ``part``: a pure function, so Dask may rerun it anywhere.

    The classic board's constellations run the specialised kernels (inner.py), any other
    board's split the general search (board_search.py, ``part.rules``). Rows of (total,
    unique, nodes); nodes -1 for the subproblems a set ``stop[0]`` kept from finishing.
    """
    return part.count(np.zeros(1, dtype=np.uint8) if stop is None else stop)


def _finished(ids: np.ndarray, rows: np.ndarray) -> Finished:
    done = rows[:, 2] >= 0
    return ids[done], rows[done]


def chunks(ids: np.ndarray, count: int) -> list[np.ndarray]:
    """At most ``count`` interleaved parts of ``ids``."""
    count = max(1, min(count, len(ids)))
    return [ids[start::count] for start in range(count)] if len(ids) else []


def run_threads(plan: Plan, ids: np.ndarray, workers: int, stop: np.ndarray) -> Iterator[Finished]:
    """Count on ``workers`` threads (the kernels release the GIL) until done or ``stop[0]``.

    Once ``stop[0]`` is set, chunks not started are dropped and the running ones return
    within milliseconds with the subproblems they finished. Closing the generator, or an
    exception in the caller (Ctrl-C), sets ``stop[0]`` and waits for the running chunks.
    """
    from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bitmask")
    parts = {
        pool.submit(count_part, plan.take(part), stop): part
        for part in chunks(ids, CHUNKS_PER_THREAD * workers)
    }
    pending = set(parts)
    try:
        while pending:
            done, pending = wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
            for future in done:
                if not future.cancelled():
                    yield _finished(parts[future], future.result())
            if stop[0]:
                for future in pending:
                    future.cancel()
            if not done:
                yield NOTHING
    finally:
        if pending:
            stop[0] = 1
        pool.shutdown(wait=True, cancel_futures=True)


def connect(address: str) -> Client:
    """A client of the Dask scheduler at ``address``; a UsageError when it cannot be reached."""
    from distributed import Client

    try:
        return Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:  # ValueError: a malformed address
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def run_dask(client: Client, plan: Plan, ids: np.ndarray, stop: np.ndarray) -> Iterator[Finished]:
    """Count as tasks on the cluster of ``client`` until done or ``stop[0]``.

    The tasks are pure, so when a worker dies Dask reruns its tasks elsewhere and nothing is
    lost. Workers must be able to import queenslab; they cannot see ``stop``, so stopping
    cancels the tasks and drops the running ones. A lost scheduler is a one-line QueensError.
    """
    from distributed import as_completed

    futures = {
        client.submit(count_part, plan.take(part), pure=False): part
        for part in chunks(ids, DASK_TASKS)
    }
    results = as_completed(futures)
    with _quiet_dask_log():
        try:
            while not results.is_empty() and not stop[0]:
                if client.status not in ("running", "connecting"):
                    raise QueensError(f"lost the Dask scheduler ({client.status})")
                if not results.has_ready():
                    time.sleep(POLL_SECONDS)
                    yield NOTHING
                    continue
                for future in results.next_batch(block=False):
                    yield futures[future], future.result()
        except (OSError, TimeoutError, CancelledError) as exc:  # the scheduler went away
            with contextlib.suppress(Exception):  # closed here, where its log is quiet
                client.close(timeout=CONNECT_TIMEOUT)
            raise QueensError(f"lost the Dask scheduler ({type(exc).__name__})") from None
        finally:
            with contextlib.suppress(Exception):  # cancelling after a lost scheduler fails
                client.cancel(list(futures))


@contextlib.contextmanager
def _quiet_dask_log() -> Iterator[None]:
    """A lost scheduler is one line, not pages of Dask's log: its loggers have handlers of
    their own and do not propagate, so each one is quietened while tasks run."""
    loggers = [
        logging.getLogger(name)
        for name in list(logging.root.manager.loggerDict)
        if name.split(".")[0] == "distributed"
    ]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)
