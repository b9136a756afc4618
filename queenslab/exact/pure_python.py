"""The ``small`` backend: bit-parallel backtracking in pure Python, for small boards.

Why it exists: a command that wants one board of 8 queens, or the count of 12, should not
pay for NumPy and Numba, whose imports and cached kernels cost several times the search
itself. This backend imports only the standard library and the board layer, so it starts
in no time; each extra row multiplies its search about five-fold, so past about n = 12 the
compiled ``bitmask`` backend wins (``benchmarks/startup.py`` measures both).

The search goes row by row. A row's free columns are ``allowed[row] & ~(cols | up | down)``:
the columns taken above, and the two diagonal directions of the queens above shifted one
column per row, which is the standard board's rule (no wrap, no leaps: the only variant it
declares). Blocked cells and given queens come from the board layer as row masks
(``Board.allowed_masks``, ``Board.attack_masks``). Columns are tried lowest first, so
solutions come out in lexicographic order of ``cols``.

Counting uses the board's symmetries: solutions are split by the column of the first-row
queen. A symmetry of the board (blocked cells and givens included) that maps the first row
onto itself maps the solutions with one first-row cell one-to-one onto those with its
image, so one cell per orbit is searched and counted once per member of its orbit: on an
empty board the mirror halves the tree (the classic half-board count). Pinning the last
row as well was tried: the pin prunes little, and the pairs of end cells repeat the top
of the tree, so it searched as many nodes as the mirror alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import MappingProxyType

from queenslab.boards import symmetry
from queenslab.core.backend import Backend, Family, Feature, Task, first_solution
from queenslab.core.errors import LimitReached, UsageError
from queenslab.core.kind import Question
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import CountResult, SolveResult, Status
from queenslab.core.run import Run

#: Largest n taken: beyond it the search takes minutes where the compiled one takes seconds.
MAX_N = 24
#: Rows searched below the deepest row that looks at the clock (a few ms of work at most).
UNCHECKED_ROWS = 8


def solutions(allowed: list[int], run: Run) -> Iterator[tuple[int, ...]]:
    """Every placement within the row masks, in lexicographic order; counts nodes."""
    n = len(allowed)
    cols = [0] * n
    stack: list[tuple[int, int, int, int]] = []  # (free, taken, up, down) per open row
    row, taken, up, down = 0, 0, 0, 0
    free = allowed[0]
    nodes = 1  # the empty board
    try:
        while True:
            if not free:
                if not stack:
                    return
                row -= 1
                free, taken, up, down = stack.pop()
                continue
            bit = free & -free
            free ^= bit
            cols[row] = bit.bit_length() - 1
            nodes += 1
            if row == n - 1:
                yield tuple(cols)
                continue
            if not nodes & 0xFFF and run.should_stop():
                raise LimitReached
            stack.append((free, taken, up, down))
            taken, up, down = taken | bit, (up | bit) << 1, (down | bit) >> 1
            row += 1
            free = allowed[row] & ~(taken | up | down)
    finally:
        run.stats["nodes"] = nodes


def counter(
    allowed: list[int], run: Run, visited: list[int]
) -> Callable[[int, int, int, int], int]:
    """``count(row, taken, up, down)``: the completions of rows ``row``.. within the masks.

    Recursive with the last row counted by popcount: the fastest form in CPython. Rows
    above ``n - UNCHECKED_ROWS`` look at the clock, so a time limit stops it promptly. Each
    call is a node of the tree and each leaf too: ``visited[0]`` adds them up.
    """
    n = len(allowed)
    last = n - 1
    checked = n - UNCHECKED_ROWS

    def count(row: int, taken: int, up: int, down: int) -> int:
        free = allowed[row] & ~(taken | up | down)
        if row == last:
            leaves = free.bit_count()
            visited[0] += 1 + leaves
            return leaves
        visited[0] += 1
        if row <= checked and run.should_stop():
            raise LimitReached
        total = 0
        row += 1
        while free:
            bit = free & -free
            free ^= bit
            total += count(row, taken | bit, (up | bit) << 1, (down | bit) >> 1)
        return total

    return count


def first_row_classes(problem: Problem, allowed: list[int]) -> list[tuple[int, int]]:
    """(first-row column, orbit size): one first-row cell per symmetry orbit.

    The symmetries are the board's (blocked cells) that also fix the given queens and send
    the first row onto itself; each first-row cell goes to its orbit's leftmost cell.
    """
    group = [
        s
        for s in symmetry.stabilizer(problem.n, problem.givens, problem.board.symmetries())
        if s.cell(problem.n, 0, 0)[0] == 0 and s.keeps_rows  # row 0 onto row 0
    ]
    classes = []
    for a in _columns(allowed[0]):
        orbit = {s.cell(problem.n, 0, a) for s in group}
        if min(orbit) == (0, a):
            classes.append((a, len(orbit)))
    return classes


def _columns(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


class SmallBackend(Backend):
    name = "small"
    family = Family.EXACT
    tasks = MappingProxyType({"placement": frozenset({Task.SOLVE, Task.ENUMERATE, Task.COUNT})})
    features = frozenset({Feature.GIVENS, Feature.BLOCKED})
    summary = f"pure-Python bitmask search for small boards (n <= {MAX_N}): no start-up cost"

    def _masks(self, problem: Problem) -> list[int] | None:
        if problem.n > MAX_N:
            raise UsageError(
                f"the small backend handles n <= {MAX_N}, got {problem.n}; use bitmask"
            )
        return problem.row_masks()

    def solve(self, problem: Problem, run: Run, question: Question) -> SolveResult:
        return first_solution(self.enumerate(problem, run, question))

    def enumerate(self, problem: Problem, run: Run, question: Question) -> Iterator[Placement]:
        allowed = self._masks(problem)
        if allowed is not None:
            for cols in solutions(allowed, run):
                yield Placement(cols)

    def count(self, problem: Problem, run: Run, question: Question) -> CountResult:
        unique = question.unique
        if unique:
            raise UsageError("the small backend does not count symmetry classes; use bitmask")
        allowed = self._masks(problem)
        if allowed is None:
            return CountResult(0)
        visited = [1]  # the empty board; each call is a node, each leaf too
        count = counter(allowed, run, visited)
        classes = first_row_classes(problem, allowed)
        total = 0
        try:
            for done, (a, weight) in enumerate(classes):
                found = weight
                if problem.n == 1:  # the lone queen is a leaf: no row below to search
                    visited[0] += 1
                else:
                    bit = 1 << a
                    found *= count(1, bit, bit << 1, bit >> 1)
                total += found
                run.tally(found)
                run.report(done + 1, len(classes))
        except LimitReached:
            return CountResult(None, status=Status.LIMIT)
        finally:
            run.stats.add(nodes=visited[0])
        run.stats.add(method="first row", subproblems=len(classes))
        return CountResult(total)
