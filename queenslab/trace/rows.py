"""Row-by-row searches for tracing: the CSP searches, the bitmask search, Las Vegas.

The CSP searches (plain backtracking, forward checking, MAC, with their orders) are the
``csp`` backend's own search told to emit its steps. The ``bitmask`` and ``las-vegas``
traces are small Python reference versions of those backends (the fast ones stay
untouched): they keep, per row, the bitmask of columns still free (the board layer's
``allowed_masks`` and ``attack_masks``, so every variant and blocked cell is honoured) and
explore children in increasing column order, so they visit the same tree as the backends;
the bitmask search (Somers) jumps straight to the free columns, with no failed test.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from queenslab.core.errors import UsageError
from queenslab.core.problem import Problem
from queenslab.core.run import Run
from queenslab.exact.csp import CspSearch, Strategy
from queenslab.trace.tracer import Tracer


class RowMasks:
    """Per row, the bitmask of columns still free; the state of every row-by-row search.

    Given queens are placed in their own row's turn (only their column is a candidate
    there), as the backtrack backend does, so the tree is the backend's tree.
    """

    def __init__(self, problem: Problem) -> None:
        self.n = problem.n
        board = problem.board
        self.attacks = board.attack_masks  # the board caches them per cell
        givens = problem.given_cols
        self.start = board.allowed_masks()
        self.candidates = [
            [c for c in range(self.n) if board.is_open(r, c) and givens.get(r, c) == c]
            for r in range(self.n)
        ]

    def free(self, masks: list[int], row: int) -> list[int]:
        """The candidate columns of ``row`` that no queen above attacks."""
        return [c for c in self.candidates[row] if masks[row] >> c & 1]

    def after(self, masks: list[int], row: int, col: int) -> list[int]:
        """The masks once a queen stands on (row, col)."""
        return [m & ~a for m, a in zip(masks, self.attacks(row, col), strict=True)]


class RowSearch(RowMasks):
    """Depth-first search over rows jumping to the free columns, each step told to a tracer."""

    def __init__(self, problem: Problem, tracer: Tracer) -> None:
        super().__init__(problem)
        self.tracer = tracer
        self.givens = problem.given_cols

    def place(self, masks: list[int], row: int, col: int) -> list[int]:
        """The masks after a queen on (row, col)."""
        given = {"given": True} if row in self.givens else {}
        self.tracer.emit("place", row=row, col=col, free=self.free(masks, row), **given)
        return self.after(masks, row, col)

    def descend(self, masks: list[int], row: int, cols: list[int], every: bool) -> bool:
        """Search below ``row``; True when a solution ends the search (``every`` False)."""
        if row == self.n:
            self.tracer.emit("solution", cols=list(cols))
            return not every
        for col in self.free(masks, row):
            cols.append(col)
            if self.descend(self.place(masks, row, col), row + 1, cols, every):
                return True
            cols.pop()
            self.tracer.emit("remove", row=row, col=col)
        return False


def csp(inference: str) -> Callable[..., str]:
    """The traced CSP search with ``inference`` (``none`` is textbook backtracking)."""

    def search(
        problem: Problem, tracer: Tracer, run: Run, *, every: bool = False,
        variables: str = "static", values: str = "static", **_: object,
    ) -> str:  # fmt: skip
        strategy = Strategy(inference, variables, values)
        found = False
        for _solution in CspSearch(problem, strategy, run, tracer.emit).solutions():
            found = True
            if not every:
                break
        return _outcome(found, every)

    return search


def bitmask(problem: Problem, tracer: Tracer, run: Run, *, every: bool = False, **_: object) -> str:
    """The bitmask search: the backtracking tree, no failed tests."""
    search = RowSearch(problem, tracer)
    return _outcome(search.descend(search.start, 0, [], every), every)


def _outcome(found: bool, every: bool) -> str:
    if every:
        return "exhausted"
    return "solved" if found else "no solution"


def las_vegas(
    problem: Problem, tracer: Tracer, run: Run, *, step: int | None = None, trials: int = 1000,
    **_: object,
) -> str:  # fmt: skip
    """Random free columns in the first ``step`` rows, then backtracking; restart on failure."""
    from queenslab.heuristics.las_vegas import default_step

    n = problem.n
    if step is None:
        step = default_step(n)
    elif step > n:
        raise UsageError(f"--step must be between 0 and N={n}, got {step}")
    rng = random.Random(run.seed)
    search = RowSearch(problem, tracer)
    for _trial in range(trials):
        tracer.emit("restart", cols=[-1] * n)
        masks, cols = search.start, []
        for row in range(step):
            free = search.free(masks, row)
            if not free:
                break
            col = rng.choice(free)
            masks = search.place(masks, row, col)
            cols.append(col)
        else:
            if search.descend(masks, step, cols, every=False):
                return "solved"
    return "gave up"
