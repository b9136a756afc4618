"""The ``bitmask`` backend: Numba bitmask search, border constellations, in parallel.

Counting the plain board splits the search by its border queens (constellations.py), one
constellation per symmetry class with its weight, so one search gives both the total and
the number of symmetry classes; with givens or blocked cells it splits by the first rows
(subproblems.py). The parts run on local threads, or on a Dask cluster with ``scheduler``,
and with ``checkpoint`` every finished one is recorded so an interrupted count resumes. The
kernels poll the run's stop flag, so a time limit or Ctrl-C ends a count at any n within
milliseconds. Solving and enumerating run the plain kernel in node-budget slices so time
limits hold and enumeration streams in constant memory. Numba is imported only when a
method runs.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from queenslab.backend import Backend, Capability, Family, Option, workers_option
from queenslab.errors import LimitReached, UsageError
from queenslab.placement import Placement
from queenslab.problem import Problem
from queenslab.result import CountResult, OptimizeResult, SolveResult, Status
from queenslab.run import Run

if TYPE_CHECKING:
    from queenslab.exact.parallel import Plan

MAX_N = 63  # the kernels use int64 masks, and bit 63 is the sign
SLICE_NODES = 1 << 21  # nodes between two looks at the clock when solving or enumerating
BUFFER = 1024  # solutions handed over per kernel call when enumerating


class BitmaskBackend(Backend):
    name = "bitmask"
    family = Family.EXACT
    capabilities = frozenset(Capability)
    summary = "Numba bitmask search, 8-fold symmetry, threads or Dask, resumable; exact B&B"
    requires: ClassVar[Mapping[str, str]] = {"numba": "numba"}
    options = (
        workers_option(help="counting threads"),
        Option("scheduler", "Dask scheduler address, e.g. tcp://127.0.0.1:8786", metavar="ADDR"),
        Option("checkpoint", "SQLite file recording finished subproblems (resumable)",
               metavar="FILE"),
    )  # fmt: skip

    def load(self) -> None:
        from queenslab.exact import kernels  # noqa: F401  (compiled kernels from the cache)

    def solve(self, problem: Problem, run: Run) -> SolveResult:
        try:
            first = next(_stream(problem, run, 1), None)
        except LimitReached:
            return SolveResult(Status.LIMIT)
        if first is None:
            return SolveResult(Status.INFEASIBLE)
        return SolveResult(Status.SOLVED, Placement(tuple(first[0].tolist())))

    def enumerate(self, problem: Problem, run: Run) -> Iterator[Placement]:
        for found in _stream(problem, run, BUFFER):
            for cols in found.tolist():
                yield Placement(cols)

    def count(self, problem: Problem, run: Run, unique: bool = False) -> CountResult:
        from queenslab.exact import parallel

        if unique and problem.blocked:
            raise UsageError("bitmask counts symmetry classes only without blocked cells")
        plan = _plan(problem)
        results = np.zeros((len(plan), 3), dtype=np.int64)
        pending = np.ones(len(plan), dtype=bool)
        with contextlib.ExitStack() as stack:
            client = None
            if self.settings["scheduler"]:  # before the checkpoint: no file from a failure
                client = stack.enter_context(
                    contextlib.closing(parallel.connect(self.settings["scheduler"]))
                )
            if self.settings["checkpoint"]:
                from queenslab.exact.checkpoint import Checkpoint

                checkpoint = stack.enter_context(
                    Checkpoint(
                        self.settings["checkpoint"],
                        plan.n,
                        plan.method,
                        len(plan),
                        plan.fingerprint(),
                    )
                )
                ids, rows = checkpoint.finished()
                results[ids], pending[ids] = rows, False
            stack.enter_context(run.watch())
            todo = np.flatnonzero(pending)
            if client is not None:
                runner = parallel.run_dask(client, plan, todo, run.stop_flag)
            else:
                runner = parallel.run_threads(plan, todo, self.settings["workers"], run.stop_flag)
            runner = stack.enter_context(contextlib.closing(runner))
            run.report(len(plan) - len(todo), len(plan))
            for ids, rows in runner:
                if len(ids):
                    results[ids], pending[ids] = rows, False
                    if self.settings["checkpoint"]:
                        checkpoint.record(ids, rows)
                    run.report(len(plan) - int(pending.sum()), len(plan))
                if pending.any() and run.should_stop():
                    break
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

    def optimize(self, problem: Problem, run: Run, weights: np.ndarray) -> OptimizeResult:
        """Exact branch and bound over the same row-by-row bitmask search."""
        from queenslab.exact.branch_bound import maximize_weight

        try:
            best = maximize_weight(problem, weights, run)
        except LimitReached:
            return OptimizeResult(Status.LIMIT)
        if best is None:
            return OptimizeResult(Status.INFEASIBLE)
        objective, cols = best
        return OptimizeResult(Status.OPTIMAL, objective, Placement(tuple(cols.tolist())))


def _plan(problem: Problem) -> Plan:
    """The split of a count: constellations of the plain board, else the first rows."""
    from queenslab.exact import constellations, subproblems

    _check_size(problem.n)
    if problem.is_classic and not problem.givens:
        return constellations.plan(problem.n)
    base = subproblems.plain(problem)
    return subproblems.split(base, problem.board, subproblems.split_depth(problem.n))


def _check_size(n: int) -> None:
    if n > MAX_N:
        raise UsageError(f"the bitmask backend handles n <= {MAX_N} (64-bit masks), got {n}")


def _stream(problem: Problem, run: Run, capacity: int) -> Iterator[np.ndarray]:
    """Yield arrays of up to ``capacity`` solutions (rows of columns) keeping the givens.

    Raises LimitReached when the run must stop; ``run.stats["nodes"]`` counts the search.
    """
    from queenslab.exact import kernels, subproblems

    _check_size(problem.n)
    n = problem.n
    search = subproblems.plain(problem)
    if not len(search):
        return
    allowed = search.allowed[0]
    board = np.zeros(n, dtype=np.int64)
    stack = np.zeros((4, n), dtype=np.int64)
    state = np.zeros(3, dtype=np.int64)
    out = np.zeros((capacity, n), dtype=np.int64)
    kernels.start(allowed, stack, state)
    while state[kernels.ROW] >= 0:
        budget = state[kernels.NODES] + SLICE_NODES
        found = kernels.search(n, allowed, board, stack, state, out, budget)
        run.stats["nodes"] = int(state[kernels.NODES]) + 1  # the empty board is a node too
        if found:
            yield out[:found].copy()
        if state[kernels.ROW] >= 0 and run.should_stop():
            raise LimitReached
