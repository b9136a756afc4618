"""Textbook backtracking: row by row, columns in increasing order, O(1) lookups.

The reference method, kept plain on purpose: one lookup array marks the columns and
diagonals already taken (the board says which line each cell lies on, for every variant),
so each safety test is a few array reads; leaps (a super-queen's knight moves) are looked
up on the queens of the rows above. It is the slow, obviously correct baseline every faster
backend is checked against. Solutions come out in lexicographic order of ``cols``.
"""

from __future__ import annotations

from collections.abc import Iterator

from queenslab.boards import VARIANTS
from queenslab.core.backend import Backend, Family, Feature, Task
from queenslab.core.errors import LimitReached
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import CountResult, SolveResult, Status
from queenslab.core.run import Run

_CHECK_EVERY = 4096  # nodes between two looks at the clock


def search(problem: Problem, run: Run | None = None) -> Iterator[tuple[int, ...]]:
    """Yield every solution of ``problem``, in lexicographic order.

    Iterative (no recursion limit). Counts the nodes of the search tree (every consistent
    partial placement visited, the empty board included) in ``run.stats["nodes"]``, and
    with ``run.profile`` the nodes of each depth in ``run.stats["profile"]``; raises
    LimitReached when the run must stop.
    """
    n = problem.n
    board = problem.board
    givens = problem.given_cols
    candidates = [
        [c for c in ((givens[r],) if r in givens else range(n)) if board.is_open(r, c)]
        for r in range(n)
    ]
    lines = [[board.line_ids(r, c) for c in range(n)] for r in range(n)]
    sources = [[board.leap_sources(r, c) for c in range(n)] for r in range(n)]
    used = [False] * board.line_id_count()
    placed = [0] * n
    next_index = [0] * (n + 1)
    nodes = 1  # the empty board
    depth_nodes = [1] + [0] * n
    row = 0

    def free(r: int, c: int) -> bool:
        return not any(used[i] for i in lines[r][c]) and all(
            placed[r2] != c2 for r2, c2 in sources[r][c]
        )

    def mark(r: int, c: int, value: bool) -> None:
        for i in lines[r][c]:
            used[i] = value

    try:
        while row >= 0:
            if row == n:
                yield tuple(placed)
                row -= 1
                mark(row, placed[row], False)
                continue
            options = candidates[row]
            i = next_index[row]
            while i < len(options) and not free(row, options[i]):
                i += 1
            if i == len(options):
                next_index[row] = 0
                row -= 1
                if row >= 0:
                    mark(row, placed[row], False)
                continue
            next_index[row] = i + 1
            placed[row] = options[i]
            mark(row, options[i], True)
            row += 1
            next_index[row] = 0
            nodes += 1
            depth_nodes[row] += 1
            if nodes % _CHECK_EVERY == 0 and run is not None and run.should_stop():
                raise LimitReached
    finally:
        if run is not None:
            run.stats.add(nodes=nodes)
            if run.profile:
                run.stats.add(profile=depth_nodes)


def canonical(problem: Problem, cols: tuple[int, ...]) -> bool:
    """True when ``cols`` is the smallest image of its class under the board's symmetries."""
    return all(s.placement(cols) >= cols for s in problem.board.symmetries())


class BacktrackingBackend(Backend):
    name = "backtrack"
    family = Family.EXACT
    tasks = frozenset({Task.SOLVE, Task.ENUMERATE, Task.COUNT})
    features = frozenset({Feature.UNIQUE, Feature.GIVENS, Feature.PROFILE, Feature.BLOCKED})
    variants = frozenset(VARIANTS)
    summary = "textbook backtracking with O(1) line lookups (reference, every variant)"

    def solve(self, problem: Problem, run: Run) -> SolveResult:
        solutions = search(problem, run)
        try:
            first = next(solutions, None)
        except LimitReached:
            return SolveResult(Status.LIMIT)
        finally:
            solutions.close()  # records the nodes now
        if first is None:
            return SolveResult(Status.INFEASIBLE)
        return SolveResult(Status.SOLVED, Placement(first))

    def enumerate(self, problem: Problem, run: Run) -> Iterator[Placement]:
        for cols in search(problem, run):
            yield Placement(cols)

    def count(self, problem: Problem, run: Run, unique: bool = False) -> CountResult:
        total = distinct = 0
        try:
            for cols in search(problem, run):
                total += 1
                if unique and canonical(problem, cols):
                    distinct += 1
        except LimitReached:
            return CountResult(None, status=Status.LIMIT)
        return CountResult(total, distinct if unique else None)
