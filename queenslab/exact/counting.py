"""One count of a split plan, resumable: the loop the ``bitmask`` and ``gpu`` backends share.

The plan's subproblems run on local threads, or as tasks on a Dask cluster with a
scheduler address; with a checkpoint file every finished one is recorded, and those
already recorded are not run again. The run's pool reports progress as parts finish and
stops on the run's deadline or Ctrl-C, after what the stopped kernels finished (status
``limit``, with the partial figures in the statistics); the solutions of every finished
subproblem are told to ``Run.tally`` as they come, so Ctrl-C keeps them too.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from contextlib import closing

import numpy as np

from queenslab.core.errors import LimitReached
from queenslab.core.result import CountResult, Status
from queenslab.core.run import Run
from queenslab.exact import parallel
from queenslab.exact.parallel import Plan
from queenslab.runtime.pool import Cluster, Pool, Threads, connect
from queenslab.runtime.stop import watch


def count(
    build: Callable[[], Plan],
    run: Run,
    unique: bool,
    workers: int,
    scheduler: str | None = None,
    checkpoint: str | None = None,
    board: str = "",
) -> CountResult:
    """Build the plan (``build`` may raise LimitReached) and count it on ``workers`` local
    threads, or on the cluster of ``scheduler``, to the end or the limit. ``board``
    describes the problem in the checkpoint (a refused file names both boards)."""
    with contextlib.ExitStack() as stack:
        stack.enter_context(watch(run))
        try:
            plan = build()
        except LimitReached:  # building the plan of a huge board took the time
            return CountResult(None, status=Status.LIMIT)
        results = np.zeros((len(plan), 3), dtype=np.int64)
        pending = np.ones(len(plan), dtype=bool)
        pool: Pool[parallel.Chunk, parallel.Finished] = Threads(workers)
        if scheduler:  # before the checkpoint: no file from a failure
            pool = Cluster(stack.enter_context(closing(connect(scheduler))))
        if checkpoint:
            from queenslab.exact.checkpoint import Checkpoint

            method = f"{plan.method} with classes" if unique else plan.method
            record = stack.enter_context(
                Checkpoint(checkpoint, plan.n, method, len(plan), plan.fingerprint(), board)
            )
            ids, rows = record.finished()
            results[ids], pending[ids] = rows, False
            run.tally(int(results[:, 0].sum()))
        todo = np.flatnonzero(pending)
        run.report(len(plan) - len(todo), len(plan))
        finished = parallel.run_plan(plan, todo, pool, workers, run)
        with contextlib.suppress(LimitReached), closing(finished):
            for ids, rows in finished:
                results[ids], pending[ids] = rows, False
                run.tally(int(rows[:, 0].sum()))
                if checkpoint:
                    record.record(ids, rows)
                run.report(len(plan) - int(pending.sum()), len(plan))
    total, classes, nodes = (int(x) for x in results.sum(axis=0))
    stats = {"method": plan.method, "subproblems": len(plan), "nodes": nodes}
    if pending.any():
        run.stats.add(
            stats,
            subproblems_finished=len(plan) - int(pending.sum()),
            partial_total=total,
            **({"partial_unique": classes} if unique else {}),
        )
        return CountResult(None, status=Status.LIMIT)
    run.stats.add(stats)
    return CountResult(total, classes if unique else None)
