"""Run subproblems to the end: on a local thread pool, or as tasks on a Dask cluster.

Both runners yield ``(ids, results)`` as chunks finish, in completion order; results are
rows of (total, unique, nodes). Chunks interleave the subproblems (ids j, j+k, j+2k, ...)
because neighbouring subproblems have similar sizes, so every chunk gets a fair share.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator
from concurrent.futures import CancelledError

import numpy as np

from queenslab.errors import QueensError, UsageError
from queenslab.exact.subproblems import Subproblems

Finished = tuple[np.ndarray, np.ndarray]
#: Chunks per worker thread (progress granularity vs per-task overhead), and Dask tasks.
CHUNKS_PER_THREAD = 128
DASK_TASKS = 128
CONNECT_TIMEOUT = 10.0  # seconds to reach a Dask scheduler
DASK_POLL = 0.1  # seconds between two looks at the run while Dask tasks run


def count_part(part: Subproblems, stop: np.ndarray | None = None) -> np.ndarray:
    """Count every subproblem of ``part``: a pure function, so Dask may rerun it anywhere.

    Rows of (total, unique, nodes); the general board search leaves nodes at -1 for the
    subproblems a set ``stop[0]`` kept it from finishing.
    """
    if part.rules is not None:
        from queenslab.exact import board_search

        rules = part.rules
        return board_search.count_batch(
            part.n, part.allowed, part.weight, rules.wraps, rules.near, rules.far,
            rules.symmetries, part.canonical, np.zeros(1, np.uint8) if stop is None else stop,
        )  # fmt: skip
    from queenslab.exact import kernels

    return kernels.count_batch(
        part.n, part.allowed, part.need_row, part.need_mask, part.kind, part.b1, part.weight
    )


def chunks(ids: np.ndarray, count: int) -> list[np.ndarray]:
    """At most ``count`` interleaved parts of ``ids``."""
    count = max(1, min(count, len(ids)))
    return [ids[start::count] for start in range(count)] if len(ids) else []


def run_threads(
    subproblems: Subproblems, ids: np.ndarray, workers: int, stop: np.ndarray | None = None
) -> Iterator[Finished]:
    """Count on ``workers`` threads (the kernels release the GIL).

    Closing the generator, or an exception in the caller (Ctrl-C), cancels what has not
    started and waits for the running chunks, which are small.
    """
    from concurrent.futures import ThreadPoolExecutor, as_completed

    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bitmask")
    try:
        futures = {
            pool.submit(count_part, subproblems.take(part), stop): part
            for part in chunks(ids, CHUNKS_PER_THREAD * workers)
        }
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def run_dask(subproblems: Subproblems, ids: np.ndarray, address: str) -> Iterator[Finished]:
    """Count as tasks on the Dask scheduler at ``address``.

    The tasks are pure, so when a worker dies Dask reruns its tasks elsewhere and nothing is
    lost. Workers must be able to import queenslab. While it waits, an empty chunk comes
    every ``DASK_POLL`` seconds, so the caller can look at its run (a time limit, Ctrl-C)
    even when no worker answers; a lost scheduler is a one-line QueensError.
    """
    import distributed  # noqa: F401  (configures its loggers)

    # A lost scheduler is the one line raised below, not pages of Dask's log (its loggers
    # have handlers of their own and do not propagate: each one is quietened).
    loggers = [
        logging.getLogger(name)
        for name in list(logging.root.manager.loggerDict)
        if name.split(".")[0] == "distributed"
    ]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield from _dask_chunks(subproblems, ids, address)
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def _dask_chunks(subproblems: Subproblems, ids: np.ndarray, address: str) -> Iterator[Finished]:
    from distributed import Client, as_completed

    try:
        client = Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:  # ValueError: a malformed address
        raise UsageError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    futures = {}
    nothing = (ids[:0], np.empty((0, 3), dtype=np.int64))
    try:
        for part in chunks(ids, DASK_TASKS):
            futures[client.submit(count_part, subproblems.take(part), pure=False)] = part
        finished = as_completed(futures)
        while not finished.is_empty():
            for future in finished.next_batch(block=False):
                yield futures[future], future.result()
            if client.status not in ("running", "connecting"):
                raise QueensError(f"lost the Dask scheduler at {address} ({client.status})")
            yield nothing
            time.sleep(DASK_POLL)
    except (OSError, TimeoutError, CancelledError) as exc:  # the scheduler went away
        raise QueensError(f"lost the Dask scheduler at {address} ({type(exc).__name__})") from None
    finally:
        with contextlib.suppress(Exception):  # closing after a lost scheduler may fail too
            client.cancel(list(futures))
            client.close(timeout=CONNECT_TIMEOUT)
