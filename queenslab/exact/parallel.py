"""Run the subproblems of a plan on the run's pool: threads here, or a Dask cluster.

A plan (constellations.Constellations, subproblems.Subproblems) splits one count into
independent subproblems with ids 0..len-1. The jobs of the pool are chunks of ids with
their part of the plan; ``run_plan`` yields ``(ids, rows)`` as chunks finish, rows being
(total, unique, nodes) of finished subproblems. Chunks interleave the ids (j, j+k, j+2k,
...) because neighbouring subproblems have similar sizes, so every chunk gets a fair share.
Local kernels poll the run's stop flag and hand back what they finished: the pool drains
it, so a checkpoint keeps it.
"""

from __future__ import annotations

import functools
from collections.abc import Generator, Iterator
from typing import Protocol

import numpy as np

from queenslab.core.run import Run
from queenslab.runtime.pool import Pool

Finished = tuple[np.ndarray, np.ndarray]
#: A job of the pool: a chunk of ids and its part of the plan.
Chunk = tuple[np.ndarray, "Plan"]
#: Chunks per worker (progress granularity vs per-job overhead).
CHUNKS_PER_WORKER = 128


class Plan(Protocol):
    """What the runners and the checkpoint need of a split count."""

    @property
    def n(self) -> int: ...

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

    The classic board's constellations run the specialised kernels (constellation_kernel), any other
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


def count_chunks(
    stop: np.ndarray, claimed: Iterator[Chunk], should_stop: object
) -> Iterator[Finished]:
    """A worker of the pool: each claimed chunk counted, its finished subproblems handed on.

    The kernels poll ``stop``, the run's flag (a task on a cluster gets a copy that is
    never set: a stop cancels the tasks instead).
    """
    for ids, part in claimed:
        yield _finished(ids, count_part(part, stop))


def run_plan(
    plan: Plan, ids: np.ndarray, pool: Pool[Chunk, Finished], workers: int, run: Run
) -> Generator[Finished, None, None]:
    """The finished subproblems of ``ids`` as the pool's ``workers`` count them.

    LimitReached once the run stops, after what the stopped kernels finished.
    """
    jobs = ((part, plan.take(part)) for part in chunks(ids, CHUNKS_PER_WORKER * workers))
    work = functools.partial(count_chunks, run.stop_flag)
    return pool.stream(work, jobs, run, drain=True)
