"""The ``bitmask`` backend: Numba bitmask searches, in parallel, on every board variant.

Counting splits the search into independent subproblems (subproblems.py). The classic
board (standard rules, no blocked cell, no givens) is counted by the specialised kernels
(kernels.py) whose subproblems carry symmetry weights, so one search gives both the total
and the number of symmetry classes. Every other board (toroidal, super-queens, blocked
cells, givens) goes to the general search (board_search.py), which takes the variant's
rule and counts classes at the leaves under the board's own symmetries, halving the work
with the left-right mirror when the board keeps it. Subproblems run on local threads, or
on a Dask cluster with ``scheduler``, and with ``checkpoint`` every finished one is
recorded so an interrupted count resumes. Solving and enumerating run the general search
in node-budget slices so time limits hold and enumeration streams in constant memory.
Numba is imported only when a method runs.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from queenslab.backend import Backend, Capability, Family, Option, workers_option
from queenslab.boards import VARIANTS
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
    variants = frozenset(VARIANTS)
    summary = "Numba bitmask search, symmetry, threads or Dask, resumable; exact B&B"
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
        warm.count(tiny, Run(None, None))  # the classic kernels
        warm.count(Problem(4, blocked=((0, 0),)), Run(None, None), unique=True)  # general
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

        plan = _plan(problem, unique)
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
                stop = stack.enter_context(run.watch())
                runner = parallel.run_threads(plan, todo, self.settings["workers"], stop)
            runner = stack.enter_context(contextlib.closing(runner))
            done = len(plan) - len(todo)
            run.report(done, len(plan))
            for chunk, rows in runner:
                finished = rows[:, 2] >= 0  # a stop leaves the rest of a chunk unfinished
                ids, rows = chunk[finished], rows[finished]
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


def _plan(problem: Problem, unique: bool = False) -> Subproblems:
    """The subproblems of a count, and the search each is run with.

    The classic board goes to the specialised kernels with full symmetry; any other board
    to the general search, on the half board when the left-right mirror keeps it.
    """
    from queenslab.exact import subproblems
    from queenslab.exact.board_search import Rules

    _check_size(problem.n)
    board = problem.board
    if problem.is_classic and not problem.givens:
        base = subproblems.symmetric(problem.n)
    else:
        mirrored = not problem.givens and any(s.name == "flip-h" for s in board.symmetries())
        base = subproblems.mirror(board) if mirrored else subproblems.plain(problem)
        base = base.searched_by(Rules.of(board), canonical=unique)
    return subproblems.split(base, board, subproblems.split_depth(problem.n))


def _check_size(n: int) -> None:
    if n > MAX_N:
        raise UsageError(f"the bitmask backend handles n <= {MAX_N} (64-bit masks), got {n}")


def _stats(plan: Subproblems, results: np.ndarray) -> dict[str, Any]:
    return {"method": plan.method, "subproblems": len(plan), "nodes": int(results[:, 2].sum())}


def _stream(problem: Problem, run: Run, capacity: int) -> Iterator[np.ndarray]:
    """Yield arrays of up to ``capacity`` solutions (rows of columns) of ``problem``.

    Raises LimitReached when the run must stop; ``run.stats["nodes"]`` counts the search.
    """
    import numpy as np

    from queenslab.exact import board_search as bs
    from queenslab.exact import subproblems

    _check_size(problem.n)
    n = problem.n
    plan = subproblems.plain(problem)
    if not len(plan):
        return
    rules = bs.Rules.of(problem.board)
    allowed = plan.allowed[0]
    board = np.zeros(n, dtype=np.int64)
    stack = np.zeros((6, n), dtype=np.int64)
    state = np.zeros(4, dtype=np.int64)
    out = np.zeros((capacity, n), dtype=np.int64)
    bs.start(allowed, stack, state)
    while state[bs.ROW] >= 0:
        budget = state[bs.NODES] + SLICE_NODES
        found = bs.search(
            n, allowed, 1, rules.wraps, rules.near, rules.far, rules.symmetries, False,
            board, stack, state, out, budget, run.stop_flag,
        )  # fmt: skip
        run.stats["nodes"] = int(state[bs.NODES]) + 1  # the empty board is a node too
        if found:
            yield out[:found].copy()
        if state[bs.ROW] >= 0 and run.should_stop():
            raise LimitReached
