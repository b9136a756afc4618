"""Textbook backtracking: row by row, columns in increasing order, O(1) lookups.

The reference method, kept plain on purpose: one lookup array marks the columns and
diagonals already taken (the board says which line each cell lies on, for every variant),
so each safety test is a few array reads, in O(n) memory (boards up to ``MAX_N``); leaps
(a super-queen's knight moves) are looked up on the queens of the rows above. It is the
slow, obviously correct baseline every faster backend is checked against. Solutions come
out in lexicographic order of ``cols``.
"""

from __future__ import annotations

from array import array
from collections.abc import Generator, Iterator
from contextlib import closing
from types import MappingProxyType

from queenslab.boards import VARIANTS
from queenslab.core.backend import Backend, Family, Feature, Task, first_solution
from queenslab.core.errors import LimitReached, UsageError
from queenslab.core.kind import Question
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import CountResult, SolveResult, Status
from queenslab.core.run import Run

#: Largest board searched: the lookup array and the placed columns take about 13 bytes a
#: row (13 MB here); a bigger board is beyond any plain backtracking anyway.
MAX_N = 10**6
_CHECK_EVERY = 4096  # column tests between two looks at the clock


def search(problem: Problem, run: Run | None = None) -> Generator[tuple[int, ...], None, None]:
    """Yield every solution of ``problem``, in lexicographic order.

    Iterative (no recursion limit), in O(n) memory: the line of a cell is worked out when
    the cell is tested, never tabled for the n² cells. Counts the nodes of the search tree
    (every consistent partial placement visited, the empty board included) in
    ``run.stats["nodes"]``, and with ``run.profile`` the nodes of each depth in
    ``run.stats["profile"]``; raises LimitReached when the run must stop (looked at every
    few thousand column tests, so a long scan of a huge row stops too).
    """
    n = problem.n
    if n > MAX_N:
        raise UsageError(f"the backtrack backend handles n <= {MAX_N}, got {n}")
    board = problem.board
    givens = problem.given_cols
    # One byte per line of the column and the two diagonal families (a row holds one queen
    # by construction). Cell (r, c) lies on line ``base + (rw*r + shift + cw*c) % size`` of
    # a family: ``LineFamily.key``, whose modulo wraps a torus and leaves a flat board's
    # keys (already below size) as they are.
    lines, base = [], 0
    for family in board.families[1:]:
        size = family.size(n)
        lines.append((base, family.row_weight, family.shift * (n - 1), family.col_weight, size))
        base += size
    (b0, r0, s0, w0, m0), (b1, r1, s1, w1, m1), (b2, r2, s2, w2, m2) = lines
    used = bytearray(base)
    placed = array("q", bytes(8 * n))
    profile = run is not None and run.profile
    depth_nodes = array("q", bytes(8 * (n + 1))) if profile else array("q")
    blocked, leaps = bool(board.blocked), bool(board.variant.leaps)
    nodes, tests, due = 1, 0, _CHECK_EVERY  # the empty board is a node

    def mark(r: int, c: int, value: int) -> None:
        used[b0 + (r0 * r + s0 + w0 * c) % m0] = used[b1 + (r1 * r + s1 + w1 * c) % m1] = value
        used[b2 + (r2 * r + s2 + w2 * c) % m2] = value

    row, c = 0, 0  # the row searched, and the next column to try there
    try:
        while row >= 0:
            if row == n:
                yield tuple(placed)
                row -= 1
                mark(row, placed[row], 0)
                c = placed[row] + 1
                continue
            end = n
            if row in givens:  # a given row tries its own column, once
                c, end = (givens[row], givens[row] + 1) if c <= givens[row] else (n, n)
            k0, k1, k2 = r0 * row + s0, r1 * row + s1, r2 * row + s2
            while True:
                first, stop = c, min(end, c + _CHECK_EVERY)
                while c < stop and (
                    used[b0 + (k0 + w0 * c) % m0]
                    or used[b1 + (k1 + w1 * c) % m1]
                    or used[b2 + (k2 + w2 * c) % m2]
                    or (blocked and not board.is_open(row, c))
                    or (leaps and any(placed[r] == q for r, q in board.leap_sources(row, c)))
                ):
                    c += 1
                tests += c - first + 1
                if tests >= due:
                    due = tests + _CHECK_EVERY
                    if run is not None and run.should_stop():
                        raise LimitReached
                if c < stop or stop == end:
                    break
            if c >= end:  # no column left in this row: back to the previous one
                row -= 1
                if row >= 0:
                    mark(row, placed[row], 0)
                    c = placed[row] + 1
                continue
            placed[row] = c
            mark(row, c, 1)
            row, c = row + 1, 0
            nodes += 1
            if profile:
                depth_nodes[row] += 1
    finally:
        if run is not None:
            run.stats.add(nodes=nodes)
            if profile:
                depth_nodes[0] = 1
                run.stats.add(profile=depth_nodes.tolist())


def canonical(problem: Problem, cols: tuple[int, ...]) -> bool:
    """True when ``cols`` is the smallest image of its class under the board's symmetries."""
    return all(s.placement(cols) >= cols for s in problem.board.symmetries())


class BacktrackingBackend(Backend):
    name = "backtrack"
    family = Family.EXACT
    tasks = MappingProxyType({"placement": frozenset({Task.SOLVE, Task.ENUMERATE, Task.COUNT})})
    features = frozenset({Feature.UNIQUE, Feature.GIVENS, Feature.PROFILE, Feature.BLOCKED})
    variants = frozenset(VARIANTS)
    summary = "textbook backtracking with O(1) line lookups (reference, every variant)"

    def solve(self, problem: Problem, run: Run, question: Question) -> SolveResult:
        return first_solution(self.enumerate(problem, run, question))

    def enumerate(self, problem: Problem, run: Run, question: Question) -> Iterator[Placement]:
        with closing(search(problem, run)) as found:  # closing records the statistics
            for cols in found:
                yield Placement(cols)

    def count(self, problem: Problem, run: Run, question: Question) -> CountResult:
        unique = question.unique
        total = distinct = 0
        try:
            for cols in search(problem, run):
                total += 1
                run.tally(1)
                if unique and canonical(problem, cols):
                    distinct += 1
        except LimitReached:
            return CountResult(None, status=Status.LIMIT)
        return CountResult(total, distinct if unique else None)
