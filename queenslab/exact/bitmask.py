"""The ``bitmask`` backend: Numba bitmask searches, in parallel, on every board variant.

Counting splits the search into independent subproblems. The classic board (standard
rules, no blocked cell, no givens) is split by its border queens (constellations.py), one
constellation per symmetry class with its weight, and each inner board is counted by the
specialised kernels (inner.py), so one search gives both the total and the number of
symmetry classes. Every other board (toroidal, super-queens, blocked cells, givens) is
split by its first rows (subproblems.py) and goes to the general search (board_search.py),
which takes the variant's rule and counts classes at the leaves under the board's own
symmetries. The parts run on local threads, or on a Dask cluster with ``scheduler``, and
with ``checkpoint`` every finished one is recorded so an interrupted count resumes. The
kernels poll the run's stop flag, so a time limit or Ctrl-C ends a count at any n within
milliseconds. Solving and enumerating run the general search in node-budget slices so
time limits hold and enumeration streams in constant memory. NumPy and Numba are
imported only when a method runs.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar

from queenslab.boards import VARIANTS
from queenslab.core.backend import (
    Backend,
    Family,
    Feature,
    Option,
    Task,
    first_solution,
    scheduler_option,
    workers_option,
)
from queenslab.core.errors import LimitReached, UsageError
from queenslab.core.kind import Question
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import CountResult, OptimizeResult, SolveResult, Status
from queenslab.core.run import Run

if TYPE_CHECKING:
    import numpy as np

    from queenslab.exact.parallel import Plan

MAX_N = 63  # the kernels use int64 masks, and bit 63 is the sign
SLICE_NODES = 1 << 21  # nodes between two looks at the clock when solving or enumerating
BUFFER = 1024  # solutions handed over per kernel call when enumerating


class BitmaskBackend(Backend):
    name = "bitmask"
    family = Family.EXACT
    tasks = MappingProxyType(
        {"placement": frozenset({Task.COUNT, Task.ENUMERATE, Task.OPTIMIZE, Task.SOLVE})}
    )
    features = frozenset({Feature.BLOCKED, Feature.GIVENS, Feature.PROFILE, Feature.UNIQUE})
    variants = frozenset(VARIANTS)
    summary = "Numba bitmask search, border constellations, threads or Dask, resumable; exact B&B"
    requires: ClassVar[Mapping[str, str]] = {"numba": "numba"}
    options = (
        workers_option(help="counting threads"),
        scheduler_option(),
        Option("checkpoint", "SQLite file recording finished subproblems (resumable)",
               metavar="FILE"),
    )  # fmt: skip
    #: The options only a count uses: the command line offers them to ``count`` alone.
    count_options: ClassVar[frozenset[str]] = frozenset({"scheduler", "checkpoint"})

    def load(self) -> None:
        """Run every compiled kernel once on a tiny board, with a fresh default backend.

        Numba loads a kernel's cached machine code at its first call: that is start-up,
        so it happens here (timed as ``startup_seconds``), not inside the first search.
        """
        import numpy as np

        from queenslab.exact.branch_bound import maximize_weight

        warm, tiny = BitmaskBackend(workers=1), Problem(4)
        _first(tiny, Run(None, None))
        warm.count_placements(Problem(6), Run(None, None), True)  # the constellation kernels
        warm.count_placements(Problem(4, blocked=((0, 0),)), Run(None, None), True)  # general
        maximize_weight(tiny, np.zeros((4, 4), dtype=np.int64), Run(None, None))

    def load_for(self, task: Task, problem: Problem, question: Question) -> None:
        """A count of the classic board loads only the constellation kernels it will run:
        from n = 8 on, a count of solutions runs their machine code without Numba
        (native.py); a count of classes or of a smaller board loads Numba's kernels. A
        profiled count loads its own at its first call; any other run loads every kernel."""
        from queenslab.exact.constellations import SPECIALISED_FROM

        if task is Task.COUNT and _by_constellations(problem):
            with_numba = question.unique or problem.n < SPECIALISED_FROM
            size = 6 if with_numba else SPECIALISED_FROM  # classes of 6 run both Numba kernels
            BitmaskBackend(workers=1).count_placements(Problem(size), Run(None, None), with_numba)
        else:
            self.load()

    def solve(self, problem: Problem, run: Run, question: Question) -> SolveResult:
        return _first(problem, run)

    def enumerate(self, problem: Problem, run: Run, question: Question) -> Iterator[Placement]:
        for found in _Walk(problem, BUFFER).slices(run):
            for cols in found.tolist():
                yield Placement(cols)

    def count(self, problem: Problem, run: Run, question: Question) -> CountResult:
        return self.count_placements(problem, run, question.unique)

    def count_placements(self, problem: Problem, run: Run, unique: bool) -> CountResult:
        """The count, and with ``unique`` the classes; ``load`` warms its kernels with it."""
        from queenslab.exact import counting

        if run.profile:
            return _profiled(problem, run, unique)
        return counting.count(
            lambda: _plan(problem, unique, run.stop_flag),
            run,
            unique,
            self.settings["workers"],
            self.settings["scheduler"],
            self.settings["checkpoint"],
            problem.describe(),
        )

    def optimize(self, problem: Problem, run: Run, question: Question) -> OptimizeResult:
        """Exact branch and bound over the same row-by-row bitmask search."""
        weights = question.kind.weights
        from queenslab.exact.branch_bound import maximize_weight

        try:
            best = maximize_weight(problem, weights, run)
        except LimitReached:
            return OptimizeResult(Status.LIMIT)
        if best is None:
            return OptimizeResult(Status.INFEASIBLE)
        objective, cols = best
        return OptimizeResult(Status.OPTIMAL, objective, Placement(tuple(cols.tolist())))


def _first(problem: Problem, run: Run) -> SolveResult:
    return first_solution(
        Placement(tuple(cols.tolist())) for found in _Walk(problem, 1).slices(run) for cols in found
    )


def _plan(problem: Problem, unique: bool, stop: np.ndarray) -> Plan:
    """The split of a count, and the search each part is run with.

    The classic board goes to its constellations and the specialised kernels; any other
    board to the general search, on the half board when the left-right mirror keeps it.
    """
    from queenslab.exact import constellations

    _check_size(problem.n)
    if _by_constellations(problem):
        return constellations.plan(problem.n, stop, unique)
    from queenslab.exact import subproblems  # these import Numba: the other boards only
    from queenslab.exact.board_search import Rules

    board = problem.board
    mirrored = not problem.givens and any(s.name == "flip-h" for s in board.symmetries())
    base = subproblems.mirror(board) if mirrored else subproblems.plain(problem)
    base = base.searched_by(Rules.of(board), canonical=unique)
    return subproblems.split(base, board, subproblems.split_depth(problem.n))


def _by_constellations(problem: Problem) -> bool:
    """Whether a count of ``problem`` splits by border constellations (the classic board)."""
    return problem.is_classic and not problem.givens


def _profiled(problem: Problem, run: Run, unique: bool) -> CountResult:
    """A count that records the tree profile: the whole tree on one thread (no split, no
    symmetry), so each depth holds every node this search visits there."""
    walk = _Walk(problem, 0, canonical=unique, profile=True)
    try:
        total, classes = walk.count(run)
    except LimitReached:
        return CountResult(None, status=Status.LIMIT)
    run.stats.add(method="plain/profile", profile=walk.profile.tolist())
    return CountResult(total, classes if unique else None)


def _check_size(n: int) -> None:
    if n > MAX_N:
        raise UsageError(f"the bitmask backend handles n <= {MAX_N} (64-bit masks), got {n}")


class _Walk:
    """One general search over a whole board (no split), resumable, run in node-budget slices.

    Solving and enumerating take its solutions ``capacity`` at a time; a profiled count
    walks the whole tree on one thread, recording the nodes of each depth.
    """

    def __init__(
        self, problem: Problem, capacity: int, canonical: bool = False, profile: bool = False
    ) -> None:
        import numpy as np

        from queenslab.exact import board_search as bs
        from queenslab.exact import subproblems

        _check_size(problem.n)
        n = problem.n
        plan = subproblems.plain(problem)
        self.rules = bs.Rules.of(problem.board)
        self.canonical = canonical
        self.allowed = plan.allowed[0] if len(plan) else np.zeros(n, dtype=np.int64)
        self.board = np.zeros(n, dtype=np.int64)
        self.stack = np.zeros((6, n), dtype=np.int64)
        self.state = np.zeros(4, dtype=np.int64)
        self.out = np.zeros((capacity, n), dtype=np.int64)
        self.profile = np.zeros(n + 1 if profile else 0, dtype=np.int64)
        self.profile[:1] = 1  # the empty board
        bs.start(self.allowed, self.stack, self.state)
        if not len(plan):
            self.state[bs.ROW] = -1  # a given queen on a closed cell: nothing to search

    def slices(self, run: Run) -> Iterator[np.ndarray]:
        """Yield arrays of the solutions found (rows of columns), until the tree is done.

        Raises LimitReached when the run must stop; ``run.stats["nodes"]`` counts the search.
        """
        from queenslab.exact import board_search as bs

        rules, state = self.rules, self.state
        while state[bs.ROW] >= 0:
            budget = state[bs.NODES] + SLICE_NODES
            found = bs.search(
                len(self.board), self.allowed, 1, rules.wraps, rules.near, rules.far,
                rules.symmetries, self.canonical, self.board, self.stack, state, self.out,
                budget, run.stop_flag, self.profile,
            )  # fmt: skip
            run.stats["nodes"] = int(state[bs.NODES]) + 1  # the empty board is a node too
            if found:
                yield self.out[:found].copy()
            if state[bs.ROW] >= 0 and run.should_stop():
                raise LimitReached

    def count(self, run: Run) -> tuple[int, int]:
        """Walk the whole tree: (total, classes); raises LimitReached on a stop."""
        from queenslab.exact import board_search as bs

        for _ in self.slices(run):
            pass
        return int(self.state[bs.TOTAL]), int(self.state[bs.CLASSES])
