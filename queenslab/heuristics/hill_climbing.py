"""Random-restart hill climbing on permutations, kept as the textbook reference.

Start from a random permutation (no two queens share a row or a column), swap two random
rows whenever that does not increase the number of attacking diagonal pairs, and restart
from a new permutation after n*n steps, up to n*n restarts. Instead of recounting
all pairs after every swap (O(n^2)), per-diagonal counters make each swap O(1); the moves
and the acceptance rule are the textbook ones. ``moves`` counts the swaps kept, ``steps``
every swap tried. Plain Python: meant for n up to a few hundred.
"""

from __future__ import annotations

import random
from types import MappingProxyType

from queenslab.core.backend import Backend, Family, Task
from queenslab.core.kind import Question
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import SolveResult, Status
from queenslab.core.run import Run

_CHECK_EVERY = 1024  # steps between two looks at the clock


class _Board:
    """A permutation with queens-per-diagonal counters and the number of attacking pairs."""

    def __init__(self, cols: list[int]) -> None:
        n = self.n = len(cols)
        self.cols = cols
        self.up = [0] * (2 * n)
        self.down = [0] * (2 * n)
        self.pairs = 0
        for r, c in enumerate(cols):
            self._add(r, c)

    def _add(self, r: int, c: int) -> None:
        self.pairs += self.up[r + c] + self.down[r - c + self.n]
        self.up[r + c] += 1
        self.down[r - c + self.n] += 1

    def _remove(self, r: int, c: int) -> None:
        self.up[r + c] -= 1
        self.down[r - c + self.n] -= 1
        self.pairs -= self.up[r + c] + self.down[r - c + self.n]

    def swap(self, a: int, b: int) -> None:
        ca, cb = self.cols[a], self.cols[b]
        self._remove(a, ca)
        self._remove(b, cb)
        self._add(a, cb)
        self._add(b, ca)
        self.cols[a], self.cols[b] = cb, ca


class HillClimbingBackend(Backend):
    name = "hill-climbing"
    family = Family.HEURISTIC
    tasks = MappingProxyType({"placement": frozenset({Task.SOLVE})})
    summary = "random-restart hill climbing with swaps (textbook reference, n <= ~200)"
    uses_seed = True

    def solve(self, problem: Problem, run: Run, question: Question) -> SolveResult:
        n = problem.n
        rng = random.Random(run.seed or 0)
        budget = n * n
        steps = moves = 0
        for restart in range(budget):
            cols = list(range(n))
            rng.shuffle(cols)
            board = _Board(cols)
            for _ in range(budget):
                if board.pairs == 0:
                    break
                a, b = rng.sample(range(n), 2) if n > 1 else (0, 0)
                before = board.pairs
                board.swap(a, b)
                if board.pairs > before:
                    board.swap(a, b)
                else:
                    moves += 1
                steps += 1
                if steps % _CHECK_EVERY == 0 and run.should_stop():
                    run.stats.add(restarts=restart, moves=moves, steps=steps)
                    return SolveResult(Status.LIMIT)
            if board.pairs == 0:
                run.stats.add(restarts=restart, moves=moves, steps=steps)
                return SolveResult(Status.SOLVED, Placement(board.cols))
        run.stats.add(restarts=budget, moves=moves, steps=steps)
        return SolveResult(Status.UNKNOWN)
