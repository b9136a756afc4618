"""Row-by-row searches for tracing: backtracking, the bitmask search, Las Vegas.

Small Python reference versions of the ``backtrack``, ``bitmask`` and ``las-vegas``
backends (the fast ones stay untouched). All three keep, per row, the bitmask of columns
still free (the board layer's ``allowed_masks`` and ``attack_masks``, so every variant and
blocked cell is honoured), and explore children in increasing column order, so they visit
the same tree as the backends. Backtracking tests each column in turn and logs the tests
that fail (``reject``); the bitmask search (Somers) jumps straight to the free columns.
"""

from __future__ import annotations

import random

from queenslab.core.errors import UsageError
from queenslab.core.problem import Problem
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
    """Depth-first search over rows, each step told to a tracer."""

    def __init__(self, problem: Problem, tracer: Tracer, log_rejects: bool) -> None:
        super().__init__(problem)
        self.tracer = tracer
        self.log_rejects = log_rejects

    def place(self, masks: list[int], row: int, col: int) -> list[int]:
        """The masks after a queen on (row, col)."""
        self.tracer.emit("place", row=row, col=col, free=self.free(masks, row))
        return self.after(masks, row, col)

    def descend(self, masks: list[int], row: int, cols: list[int], every: bool) -> bool:
        """Search below ``row``; True when a solution ends the search (``every`` False)."""
        if row == self.n:
            self.tracer.emit("solution", cols=list(cols))
            return not every
        for col in self.candidates[row]:
            if not masks[row] >> col & 1:
                if self.log_rejects:
                    self.tracer.emit("reject", row=row, col=col)
                continue
            cols.append(col)
            if self.descend(self.place(masks, row, col), row + 1, cols, every):
                return True
            cols.pop()
            self.tracer.emit("remove", row=row, col=col)
        return False


def backtrack(problem: Problem, tracer: Tracer, *, every: bool = False, **_: object) -> str:
    """Textbook backtracking; ``every`` walks the whole tree (all solutions)."""
    search = RowSearch(problem, tracer, log_rejects=True)
    return _outcome(search.descend(search.start, 0, [], every), every)


def bitmask(problem: Problem, tracer: Tracer, *, every: bool = False, **_: object) -> str:
    """The bitmask search: the same tree, no failed tests."""
    search = RowSearch(problem, tracer, log_rejects=False)
    return _outcome(search.descend(search.start, 0, [], every), every)


def _outcome(found: bool, every: bool) -> str:
    if every:
        return "exhausted"
    return "solved" if found else "no solution"


def las_vegas(
    problem: Problem, tracer: Tracer, *, seed: int | None = None, step: int | None = None,
    trials: int = 1000, **_: object,
) -> str:  # fmt: skip
    """Random free columns in the first ``step`` rows, then backtracking; restart on failure."""
    from queenslab.heuristics.las_vegas import default_step

    n = problem.n
    if step is None:
        step = default_step(n)
    elif step > n:
        raise UsageError(f"--step must be between 0 and N={n}, got {step}")
    rng = random.Random(seed)
    search = RowSearch(problem, tracer, log_rejects=False)
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
