"""The ``bitmask`` backend: Numba bitmask search with full 8-fold symmetry, in parallel.

Counting splits the search into independent subproblems (subproblems.py) that carry their
symmetry weights, so one search gives both the total and the number of symmetry classes.
They run on local threads, or on a Dask cluster with ``scheduler``, and with
``checkpoint`` every finished one is recorded so an interrupted count resumes. Solving and
enumerating run the same kernel without symmetry, in node-budget slices so time limits
hold and enumeration streams in constant memory. Numba is imported only when a method runs.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from queenslab.backend import (
    Backend,
    Capability,
    Family,
    ProgressCallback,
    default_workers,
    positive_int,
)
from queenslab.deadline import Deadline, LimitReached
from queenslab.errors import UsageError
from queenslab.placement import Placement
from queenslab.problem import Problem
from queenslab.result import CountResult, OptimizeResult, SolveResult, Status

if TYPE_CHECKING:
    from queenslab.exact.subproblems import Subproblems

MAX_N = 63  # the kernels use int64 masks, and bit 63 is the sign
SLICE_NODES = 1 << 21  # nodes between two looks at the clock when solving or enumerating
BUFFER = 1024  # solutions handed over per kernel call when enumerating


class BitmaskBackend(Backend):
    name = "bitmask"
    family = Family.EXACT
    capabilities = frozenset(Capability)
    summary = "Numba bitmask search, 8-fold symmetry, threads or Dask, resumable; exact B&B"
    requires: ClassVar[Mapping[str, str]] = {"numba": "numba"}
    options: ClassVar[Mapping[str, Any]] = {
        "workers": positive_int,
        "scheduler": str,
        "checkpoint": str,
    }
    defaults: ClassVar[Mapping[str, Any]] = {
        "workers": default_workers(),
        "scheduler": None,
        "checkpoint": None,
    }

    def solve(self, problem: Problem) -> SolveResult:
        stats: dict[str, int] = {}
        try:
            first = next(_stream(problem, 1, stats), None)
        except LimitReached:
            return SolveResult(Status.LIMIT, stats=stats)
        if first is None:
            return SolveResult(Status.INFEASIBLE, stats=stats)
        return SolveResult(Status.SOLVED, Placement(tuple(first[0].tolist())), stats=stats)

    def enumerate(self, problem: Problem) -> Iterator[Placement]:
        for found in _stream(problem, BUFFER):
            for cols in found.tolist():
                yield Placement(cols)

    def count(
        self, problem: Problem, unique: bool = False, progress: ProgressCallback | None = None
    ) -> CountResult:
        from queenslab.exact import parallel

        plan = _plan(problem)
        results = np.zeros((len(plan), 3), dtype=np.int64)
        pending = np.ones(len(plan), dtype=bool)
        deadline = Deadline(problem.time_limit)
        with contextlib.ExitStack() as stack:
            checkpoint = None
            if self.settings["checkpoint"]:
                from queenslab.exact.checkpoint import Checkpoint

                path = self.settings["checkpoint"]
                checkpoint = stack.enter_context(Checkpoint(path, plan.n, plan.method, len(plan)))
                ids, rows = checkpoint.finished()
                results[ids], pending[ids] = rows, False
            todo = np.flatnonzero(pending)
            if self.settings["scheduler"]:
                runner = parallel.run_dask(plan, todo, self.settings["scheduler"])
            else:
                runner = parallel.run_threads(plan, todo, self.settings["workers"])
            runner = stack.enter_context(contextlib.closing(runner))
            done = len(plan) - len(todo)
            if progress is not None:
                progress(done, len(plan))
            for ids, rows in runner:
                results[ids] = rows
                done += len(ids)
                if checkpoint is not None:
                    checkpoint.record(ids, rows)
                if progress is not None:
                    progress(done, len(plan))
                if done < len(plan) and deadline.expired():
                    return CountResult(None, status=Status.LIMIT, stats=_stats(plan, results))
        total, classes = (int(x) for x in results[:, :2].sum(axis=0))
        return CountResult(total, classes if unique else None, stats=_stats(plan, results))

    def optimize(self, problem: Problem, weights: np.ndarray) -> OptimizeResult:
        """Exact branch and bound over the same row-by-row bitmask search."""
        from queenslab.exact.branch_bound import maximize_weight

        try:
            best = maximize_weight(
                problem.n, weights, problem.given_cols, Deadline(problem.time_limit)
            )
        except LimitReached:
            return OptimizeResult(Status.LIMIT)
        if best is None:
            return OptimizeResult(Status.INFEASIBLE)
        objective, cols = best
        return OptimizeResult(Status.OPTIMAL, objective, Placement(tuple(cols.tolist())))


def _plan(problem: Problem) -> Subproblems:
    """The subproblems of a count: full symmetry on an empty board, none with givens."""
    from queenslab.exact import subproblems

    _check_size(problem.n)
    if problem.givens:
        base = subproblems.plain(problem.n, problem.given_cols)
    else:
        base = subproblems.symmetric(problem.n)
    return subproblems.split(base, subproblems.split_depth(problem.n))


def _check_size(n: int) -> None:
    if n > MAX_N:
        raise UsageError(f"the bitmask backend handles n <= {MAX_N} (64-bit masks), got {n}")


def _stats(plan: Subproblems, results: np.ndarray) -> dict[str, Any]:
    return {"method": plan.method, "subproblems": len(plan), "nodes": int(results[:, 2].sum())}


def _stream(
    problem: Problem, capacity: int, stats: dict[str, int] | None = None
) -> Iterator[np.ndarray]:
    """Yield arrays of up to ``capacity`` solutions (rows of columns) keeping the givens.

    Raises LimitReached when the time limit passes; ``stats["nodes"]`` counts the search.
    """
    from queenslab.exact import kernels, subproblems

    _check_size(problem.n)
    n = problem.n
    search = subproblems.plain(n, problem.given_cols)
    if not len(search):
        return
    allowed, need_row, need_mask = search.allowed[0], search.need_row[0], search.need_mask[0]
    board = np.zeros(n, dtype=np.int64)
    stack = np.zeros((4, n), dtype=np.int64)
    state = np.zeros(4, dtype=np.int64)
    out = np.zeros((capacity, n), dtype=np.int64)
    deadline = Deadline(problem.time_limit)
    kernels.start(allowed, stack, state)
    while state[kernels.ROW] >= 0:
        budget = state[kernels.NODES] + SLICE_NODES
        found = kernels.search(
            n, allowed, need_row, need_mask, kernels.PLAIN, 0, 1, board, stack, state, out, budget
        )
        if stats is not None:
            stats["nodes"] = int(state[kernels.NODES])
        if found:
            yield out[:found].copy()
        if state[kernels.ROW] >= 0 and deadline.expired():
            raise LimitReached
