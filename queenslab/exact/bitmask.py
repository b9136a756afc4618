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

from queenslab.backend import Backend, Capability, Family, Option, workers_option
from queenslab.errors import LimitReached, UsageError
from queenslab.placement import Placement
from queenslab.problem import Problem
from queenslab.result import CountResult, OptimizeResult, SolveResult, Status
from queenslab.run import Run

if TYPE_CHECKING:
    import numpy as np

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
    options = (
        workers_option(help="counting threads"),
        Option("scheduler", "Dask scheduler address, e.g. tcp://127.0.0.1:8786", metavar="ADDR"),
        Option("checkpoint", "SQLite file recording finished subproblems (resumable)",
               metavar="FILE"),
    )  # fmt: skip

    def load(self) -> None:
        """Run every compiled kernel once on a tiny board, with a fresh default backend.

        Numba loads a kernel's cached machine code at its first call: that is start-up,
        so it happens here (timed as ``startup_seconds``), not inside the first search.
        """
        import numpy as np

        warm, tiny = BitmaskBackend(workers=1), Problem(4)
        warm.solve(tiny, Run(None, None))
        warm.count(tiny, Run(None, None))
        warm.optimize(tiny, Run(None, None), np.zeros((4, 4), dtype=np.int64))

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
        import numpy as np

        from queenslab.exact import parallel

        if unique and problem.blocked:
            raise UsageError("bitmask counts symmetry classes only without blocked cells")
        plan = _plan(problem)
        results = np.zeros((len(plan), 3), dtype=np.int64)
        pending = np.ones(len(plan), dtype=bool)
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
            run.report(done, len(plan))
            for ids, rows in runner:
                results[ids] = rows
                done += len(ids)
                if checkpoint is not None:
                    checkpoint.record(ids, rows)
                run.report(done, len(plan))
                if done < len(plan) and run.should_stop():
                    run.stats.add(_stats(plan, results))
                    return CountResult(None, status=Status.LIMIT)
        run.stats.add(_stats(plan, results))
        total, classes = (int(x) for x in results[:, :2].sum(axis=0))
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


def _plan(problem: Problem) -> Subproblems:
    """The subproblems of a count: full symmetry on an empty board, none with givens."""
    from queenslab.exact import subproblems

    _check_size(problem.n)
    if problem.is_classic and not problem.givens:
        base = subproblems.symmetric(problem.n)
    else:
        base = subproblems.plain(problem)
    return subproblems.split(base, problem.board, subproblems.split_depth(problem.n))


def _check_size(n: int) -> None:
    if n > MAX_N:
        raise UsageError(f"the bitmask backend handles n <= {MAX_N} (64-bit masks), got {n}")


def _stats(plan: Subproblems, results: np.ndarray) -> dict[str, Any]:
    return {"method": plan.method, "subproblems": len(plan), "nodes": int(results[:, 2].sum())}


def _stream(problem: Problem, run: Run, capacity: int) -> Iterator[np.ndarray]:
    """Yield arrays of up to ``capacity`` solutions (rows of columns) keeping the givens.

    Raises LimitReached when the run must stop; ``run.stats["nodes"]`` counts the search.
    """
    import numpy as np

    from queenslab.exact import kernels, subproblems

    _check_size(problem.n)
    n = problem.n
    search = subproblems.plain(problem)
    if not len(search):
        return
    allowed, need_row, need_mask = search.allowed[0], search.need_row[0], search.need_mask[0]
    board = np.zeros(n, dtype=np.int64)
    stack = np.zeros((4, n), dtype=np.int64)
    state = np.zeros(4, dtype=np.int64)
    out = np.zeros((capacity, n), dtype=np.int64)
    kernels.start(allowed, stack, state)
    while state[kernels.ROW] >= 0:
        budget = state[kernels.NODES] + SLICE_NODES
        found = kernels.search(
            n, allowed, need_row, need_mask, kernels.PLAIN, 0, 1, board, stack, state, out, budget
        )
        run.stats["nodes"] = int(state[kernels.NODES]) + 1  # the empty board is a node too
        if found:
            yield out[:found].copy()
        if state[kernels.ROW] >= 0 and run.should_stop():
            raise LimitReached
