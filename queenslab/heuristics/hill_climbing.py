"""Random-restart hill climbing on permutations, kept as the textbook reference.

Start from a random permutation (no two queens share a row or a column), swap two random
rows whenever that does not increase the number of attacking pairs, and restart from a
new permutation after n*n steps, up to n*n restarts. The pairs are ``Collisions``'
queens-per-line counters (the board layer's lines), so each swap is O(1) instead of a
recount; the moves and the acceptance rule are the textbook ones. ``moves`` counts the
swaps kept, ``steps`` every swap tried. Plain Python, meant for n up to a few hundred, so
that the trace replays this very search through its ``emit`` hook.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from types import MappingProxyType

from queenslab.core.backend import Backend, Family, Task
from queenslab.core.errors import LimitReached
from queenslab.core.kind import Question
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import SolveResult, Status
from queenslab.core.run import Run
from queenslab.heuristics.collisions import Collisions

_CHECK_EVERY = 1024  # steps between two looks at the clock


def climb(problem: Problem, run: Run, emit: Callable[..., None] | None = None) -> list[int] | None:
    """A solution, or None after n*n restarts; LimitReached when the run stops.

    ``emit(kind, **fields)`` hears every restart, every swap kept and the solution; it is
    looked at only then, so a search no one watches pays nothing for it.
    """
    n = problem.n
    rng = random.Random(run.seed or 0)
    budget = n * n
    steps = moves = 0
    board = Collisions(problem, [])
    try:
        for restart in range(budget):
            run.stats["restarts"] = restart
            cols = list(range(n))
            rng.shuffle(cols)
            board.reset(cols)
            if emit:
                emit("restart", cols=list(cols), conflicts=board.pairs)
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
                    if emit:
                        emit("swap", rows=[a, b], cols=[cols[a], cols[b]], conflicts=board.pairs)
                steps += 1
                if steps % _CHECK_EVERY == 0 and run.should_stop():
                    raise LimitReached
            if board.pairs == 0:
                if emit:
                    emit("solution", cols=list(cols))
                return cols
        run.stats["restarts"] = budget
        return None
    finally:
        run.stats.add(moves=moves, steps=steps)


class HillClimbingBackend(Backend):
    name = "hill-climbing"
    family = Family.HEURISTIC
    tasks = MappingProxyType({"placement": frozenset({Task.SOLVE})})
    summary = "random-restart hill climbing with swaps (textbook reference, n <= ~200)"
    uses_seed = True

    def solve(self, problem: Problem, run: Run, question: Question) -> SolveResult:
        try:
            cols = climb(problem, run)
        except LimitReached:
            return SolveResult(Status.LIMIT)
        if cols is None:
            return SolveResult(Status.UNKNOWN)
        return SolveResult(Status.SOLVED, Placement(cols))
