"""Local searches for tracing: QS4-style min-conflicts and random-restart hill climbing.

Small Python reference versions of the ``min-conflicts`` and ``hill-climbing`` backends
(the fast ones stay untouched). Both move on permutations (one queen per row and column)
by swapping the columns of two rows, and count attacking pairs through the board layer's
``line_ids``, so the rules are the board's own; a queen on a blocked cell counts as one
more attacking pair, as the backend counts it as a collision. The min-conflicts trace starts from a
random permutation rather than QS4's greedy start, so that the repair is there to watch.
"""

from __future__ import annotations

import random

from queenslab.core.problem import Problem
from queenslab.trace.tracer import Tracer


class Collisions:
    """A permutation with queens-per-line counters and its number of attacking pairs."""

    def __init__(self, problem: Problem, cols: list[int]) -> None:
        board = problem.board
        self.ids = [[board.line_ids(r, c) for c in range(problem.n)] for r in range(problem.n)]
        self.count = [0] * board.line_id_count()
        self.blocked = set(problem.blocked)
        self.cols = cols
        self.pairs = 0
        for r, c in enumerate(cols):
            self._add(r, c)

    def _add(self, r: int, c: int) -> None:
        self.pairs += (r, c) in self.blocked
        for i in self.ids[r][c]:
            self.pairs += self.count[i]
            self.count[i] += 1

    def _remove(self, r: int, c: int) -> None:
        self.pairs -= (r, c) in self.blocked
        for i in self.ids[r][c]:
            self.count[i] -= 1
            self.pairs -= self.count[i]

    def attacked(self, r: int) -> bool:
        c = self.cols[r]
        return (r, c) in self.blocked or any(self.count[i] > 1 for i in self.ids[r][c])

    def swap(self, a: int, b: int) -> None:
        ca, cb = self.cols[a], self.cols[b]
        self._remove(a, ca)
        self._remove(b, cb)
        self._add(a, cb)
        self._add(b, ca)
        self.cols[a], self.cols[b] = cb, ca


def _fresh(problem: Problem, rng: random.Random, tracer: Tracer) -> Collisions:
    cols = list(range(problem.n))
    rng.shuffle(cols)
    board = Collisions(problem, cols)
    tracer.emit("restart", cols=list(cols), conflicts=board.pairs)
    return board


def _moved(board: Collisions, a: int, b: int, tracer: Tracer) -> None:
    tracer.emit("move", rows=[a, b], cols=[board.cols[a], board.cols[b]], conflicts=board.pairs)


def min_conflicts(
    problem: Problem, tracer: Tracer, *, seed: int | None = None, restarts: int = 100, **_: object
) -> str:
    """Swap an attacked queen's row with a random row whenever that lowers the collisions."""
    n = problem.n
    rng = random.Random(seed)
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
    problem: Problem, tracer: Tracer, *, seed: int | None = None, restarts: int = 100, **_: object
) -> str:
    """Swap two random rows unless that adds attacking pairs; restart after n*n steps."""
    n = problem.n
    rng = random.Random(seed)
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
