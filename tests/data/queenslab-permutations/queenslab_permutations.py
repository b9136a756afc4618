"""A queenslab backend from another package: permutations built row by row, pruned.

Installed, it is found through the ``queenslab.backends`` entry point its pyproject.toml
declares; in a notebook, ``ql.register_backend(PermutationsBackend)``.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import MappingProxyType

from queenslab import (
    VARIANTS,
    Backend,
    CountResult,
    Family,
    Feature,
    LimitReached,
    Placement,
    SolveResult,
    Status,
    Task,
)


class PermutationsBackend(Backend):
    """Extends a permutation one row at a time, with queens no earlier queen attacks."""

    name = "permutations"
    family = Family.EXACT
    #: The tasks its own search does, per problem kind.
    tasks = MappingProxyType({"placement": frozenset({Task.SOLVE, Task.ENUMERATE, Task.COUNT})})
    features = frozenset({Feature.GIVENS, Feature.BLOCKED})
    variants = frozenset(VARIANTS)  # the board layer knows every variant's rules
    summary = "permutations extended row by row (a plug-in example)"

    def enumerate(self, problem, run, question) -> Iterator[Placement]:
        board, n, given = problem.board, problem.n, problem.given_cols
        taken = [False] * board.line_id_count()  # columns and diagonals holding a queen
        cols: list[int] = []

        def extend() -> Iterator[Placement]:
            r = len(cols)
            if r == n:
                yield Placement(tuple(cols))
                return
            if run.should_stop():  # the time limit, or Ctrl-C
                raise LimitReached
            for c in [given[r]] if r in given else range(n):
                lines = board.line_ids(r, c)
                if (
                    not board.is_open(r, c)
                    or any(taken[i] for i in lines)
                    or any(cols[row] == col for row, col in board.leap_sources(r, c))
                ):
                    continue
                for i in lines:
                    taken[i] = True
                cols.append(c)
                yield from extend()
                cols.pop()
                for i in lines:
                    taken[i] = False

        yield from extend()

    def solve(self, problem, run, question) -> SolveResult:
        try:
            first = next(self.enumerate(problem, run, question), None)
        except LimitReached:
            return SolveResult(Status.LIMIT)
        return SolveResult(Status.INFEASIBLE if first is None else Status.SOLVED, first)

    def count(self, problem, run, question) -> CountResult:
        try:
            return CountResult(sum(1 for _ in self.enumerate(problem, run, question)))
        except LimitReached:
            return CountResult(None, status=Status.LIMIT)
