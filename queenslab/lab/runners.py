"""Where the hardness study's solves run: the run's pool, in forked processes here or as
tasks on a Dask cluster (``runtime.pool``).

Each solve is a job; ``solves`` yields (job, outcome) as solves finish and stops what still
runs when it is closed (a problem found, or Ctrl-C). Processes rather than threads: a stop
ends a running solve at once whatever solver holds it, and solvers that hold the GIL
(pysat) still run side by side.
"""

from __future__ import annotations

import functools
from collections.abc import Generator, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass
from typing import Any

from queenslab import api
from queenslab.core.errors import BackendBug
from queenslab.core.run import Run
from queenslab.io.instance import Instance


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
        result = api.solve(problem, backend=backend, time_limit=time_limit)
    except BackendBug as exc:
        return {"status": "error", "note": f"wrong answer: {exc}"}
    except Exception as exc:  # reported as a failure of this backend, not a crash
        return {"status": "error", "note": f"error: {exc}"}
    cols = None if result.placement is None else result.placement.to_list()
    return {
        "status": str(result.status),
        "seconds": result.seconds,
        "stats": dict(result.stats),
        "cols": cols,
    }


Finished = tuple[Job, dict[str, Any]]


def solve_jobs(
    time_limit: float | None, claimed: Iterator[Job], should_stop: object
) -> Iterator[Finished]:
    """A worker of the pool: its jobs solved one by one, each with its own time limit."""
    for job in claimed:
        yield job, solve_one(job.instance.to_json(), job.backend, time_limit)


def solves(
    jobs: Sequence[Job], time_limit: float | None, workers: int, scheduler: str | None = None
) -> Generator[Finished, None, None]:
    """Outcomes as they finish, from ``workers`` processes or the Dask scheduler at
    ``scheduler``; closing the stream ends the solves still running."""
    from queenslab.runtime.pool import Cluster, Processes, connect

    work = functools.partial(solve_jobs, time_limit)
    run = Run()  # no deadline of its own: every solve has its time limit
    if scheduler is None:
        yield from Processes[Job, Finished](max(1, min(workers, len(jobs)))).stream(work, jobs, run)
        return
    with closing(connect(scheduler)) as client:
        yield from Cluster[Job, Finished](client).stream(work, jobs, run)
