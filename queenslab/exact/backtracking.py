"""Textbook backtracking: row by row, columns in increasing order, O(1) lookups.

The reference method of the seed documents, kept plain on purpose: a column array and two
diagonal arrays (index ``r + c`` and ``r - c + n - 1``) make each safety test O(1). It is
the slow, obviously-correct baseline that every faster backend is checked against.
Solutions come out in lexicographic order of ``cols``.
"""

from __future__ import annotations

from collections.abc import Iterator

from queenslab.backend import Backend, Capability, Family, ProgressCallback
from queenslab.deadline import Deadline, LimitReached
from queenslab.placement import Placement
from queenslab.problem import Problem
from queenslab.result import CountResult, SolveResult, Status

_CHECK_EVERY = 4096  # nodes between two looks at the clock


def search(problem: Problem, stats: dict[str, int] | None = None) -> Iterator[tuple[int, ...]]:
    """Yield every solution that keeps the given queens, in lexicographic order.

    Iterative (no recursion limit). Counts placed queens in ``stats["nodes"]``; raises
    LimitReached when the problem's time limit passes.
    """
    n = problem.n
    givens = problem.given_cols
    candidates = [(givens[r],) if r in givens else tuple(range(n)) for r in range(n)]
    col_used = [False] * n
    sum_used = [False] * (2 * n - 1)
    diff_used = [False] * (2 * n - 1)
    placed = [0] * n
    next_index = [0] * (n + 1)
    deadline = Deadline(problem.time_limit)
    nodes = 0
    row = 0
    try:
        while row >= 0:
            if row == n:
                yield tuple(placed)
                row -= 1
                c = placed[row]
                col_used[c] = sum_used[row + c] = diff_used[row - c + n - 1] = False
                continue
            options = candidates[row]
            i = next_index[row]
            while i < len(options):
                c = options[i]
                i += 1
                if not (col_used[c] or sum_used[row + c] or diff_used[row - c + n - 1]):
                    break
            else:
                next_index[row] = 0
                row -= 1
                if row >= 0:
                    c = placed[row]
                    col_used[c] = sum_used[row + c] = diff_used[row - c + n - 1] = False
                continue
            next_index[row] = i
            placed[row] = c
            col_used[c] = sum_used[row + c] = diff_used[row - c + n - 1] = True
            row += 1
            next_index[row] = 0
            nodes += 1
            if nodes % _CHECK_EVERY == 0 and deadline.expired():
                raise LimitReached
    finally:
        if stats is not None:
            stats["nodes"] = nodes


def is_canonical(cols: tuple[int, ...]) -> bool:
    """True when ``cols`` is the lexicographically smallest image in its symmetry class."""
    return Placement(cols).canonical().as_tuple() == cols


class BacktrackingBackend(Backend):
    name = "backtrack"
    family = Family.EXACT
    capabilities = frozenset(
        {
            Capability.SOLVE,
            Capability.ENUMERATE,
            Capability.COUNT,
            Capability.UNIQUE,
            Capability.GIVENS,
        }
    )
    summary = "textbook backtracking with O(1) column/diagonal lookups (reference)"

    def solve(self, problem: Problem) -> SolveResult:
        stats: dict[str, int] = {}
        try:
            first = next(search(problem, stats), None)
        except LimitReached:
            return SolveResult(Status.LIMIT, stats=stats)
        if first is None:
            return SolveResult(Status.INFEASIBLE, stats=stats)
        return SolveResult(Status.SOLVED, Placement(first), stats=stats)

    def enumerate(self, problem: Problem) -> Iterator[Placement]:
        for cols in search(problem):
            yield Placement(cols)

    def count(
        self, problem: Problem, unique: bool = False, progress: ProgressCallback | None = None
    ) -> CountResult:
        stats: dict[str, int] = {}
        total = distinct = 0
        try:
            for cols in search(problem, stats):
                total += 1
                if unique and is_canonical(cols):
                    distinct += 1
        except LimitReached:
            return CountResult(None, status=Status.LIMIT, stats=stats)
        return CountResult(total, distinct if unique else None, stats=stats)
