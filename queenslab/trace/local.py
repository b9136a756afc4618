"""Local searches for tracing: QS4-style min-conflicts and random-restart hill climbing.

Small Python reference versions of the ``min-conflicts`` and ``hill-climbing`` backends
(the fast ones stay untouched). Both move on permutations (one queen per row and column)
by swapping the columns of two rows, and count attacking pairs with ``Collisions`` (the
board layer's lines). The min-conflicts trace starts from a random permutation rather
than QS4's greedy start, so that the repair is there to watch. Minton's min-conflicts,
which moves one queen within its row, is traced from the ``minton`` backend's own search.
"""

from __future__ import annotations

import random

from queenslab.core.problem import Problem
from queenslab.core.run import Run
from queenslab.heuristics.collisions import Collisions
from queenslab.heuristics.minton import MinConflicts
from queenslab.trace.tracer import Tracer


def _fresh(problem: Problem, rng: random.Random, tracer: Tracer) -> Collisions:
    cols = list(range(problem.n))
    rng.shuffle(cols)
    board = Collisions(problem, cols)
    tracer.emit("restart", cols=list(cols), conflicts=board.pairs)
    return board


def _moved(board: Collisions, a: int, b: int, tracer: Tracer) -> None:
    tracer.emit("swap", rows=[a, b], cols=[board.cols[a], board.cols[b]], conflicts=board.pairs)


def min_conflicts(
    problem: Problem, tracer: Tracer, run: Run, *, restarts: int = 100, **_: object
) -> str:
    """Swap an attacked queen's row with a random row whenever that lowers the collisions."""
    n = problem.n
    rng = random.Random(run.seed)
    for _restart in range(restarts):
        board = _fresh(problem, rng, tracer)
        for _attempt in range(64 * n + 1024):
            if board.pairs == 0:
                tracer.emit("solution", cols=list(board.cols))
                return "solved"
            attacked = [r for r in range(n) if board.attacked(r)]
            a, b = rng.choice(attacked), rng.randrange(n)
            before = board.pairs
            board.swap(a, b)
            if board.pairs < before:
                _moved(board, a, b, tracer)
            else:
                board.swap(a, b)
    return "gave up"


def hill_climbing(
    problem: Problem, tracer: Tracer, run: Run, *, restarts: int = 100, **_: object
) -> str:
    """Swap two random rows unless that adds attacking pairs; restart after n*n steps."""
    n = problem.n
    rng = random.Random(run.seed)
    for _restart in range(restarts):
        board = _fresh(problem, rng, tracer)
        for _step in range(n * n):
            if board.pairs == 0:
                tracer.emit("solution", cols=list(board.cols))
                return "solved"
            a, b = rng.sample(range(n), 2)
            before = board.pairs
            board.swap(a, b)
            if board.pairs > before:
                board.swap(a, b)
            else:
                _moved(board, a, b, tracer)
    return "gave up"


def minton(problem: Problem, tracer: Tracer, run: Run, *, restarts: int = 100, **_: object) -> str:
    """Minton's min-conflicts, the ``minton`` backend's search: one queen moved per step."""
    found = MinConflicts(problem, run, tracer.emit).solve(restarts)
    return "gave up" if found is None else "solved"
