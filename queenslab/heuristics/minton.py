"""Minton's min-conflicts: repair a full placement by moving one queen within its row.

Minton, Johnston, Philips & Laird ("Minimizing conflicts: a heuristic repair method for
constraint satisfaction and scheduling problems", Artificial Intelligence 58, 1992) start
from a greedy placement (each row in turn takes a column with the fewest conflicts with
the rows above, ties at random), then repeat: pick a queen under attack at random and move
it to a column of its row with the fewest conflicts, ties at random. A move that leaves
the number of attacking pairs unchanged is a plateau (sideways) move; a run that has not
solved the board after ``50 + 10 n`` repairs restarts from a new greedy placement.

Unlike QS4 (the ``min-conflicts`` backend, which swaps two rows' columns and keeps a
permutation), queens may share a column here: that is the textbook algorithm, kept plain
(Python, for boards up to a few thousand queens) so that the trace replays this very
search through its ``emit`` hook and the moves it shows are the backend's statistics.
Given queens never move; blocked cells are never chosen.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from types import MappingProxyType

from queenslab.core.backend import Backend, Family, Feature, Option, Task, positive_int
from queenslab.core.errors import LimitReached
from queenslab.core.kind import Question
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import SolveResult, Status
from queenslab.core.run import Run
from queenslab.heuristics.collisions import Collisions

_CHECK_EVERY = 256  # repairs between two looks at the clock


def repairs_per_run(n: int) -> int:
    """Repairs before a restart: a solvable board needs about n / 2 on average."""
    return 50 + 10 * n


class MinConflicts:
    """One seeded search; ``emit(kind, **fields)`` hears every restart and move."""

    def __init__(self, problem: Problem, run: Run, emit: Callable[..., None] | None = None):
        self.problem = problem
        self.run = run
        self.emit = emit
        self.rng = random.Random(run.seed)
        board, givens = problem.board, problem.given_cols
        self.options = [
            [givens[r]] if r in givens else [c for c in range(problem.n) if board.is_open(r, c)]
            for r in range(problem.n)
        ]
        self.movable = [r for r in range(problem.n) if r not in givens]
        self.moves = self.plateau = 0

    def _best(self, state: Collisions, row: int) -> int:
        """A column of ``row`` with the fewest conflicts, ties broken at random."""
        scores = [(state.conflicts_at(row, c), c) for c in self.options[row]]
        low = min(score for score, _ in scores)
        return self.rng.choice([c for score, c in scores if score == low])

    def _greedy(self, restart: int) -> Collisions:
        state = Collisions(self.problem, [-1] * self.problem.n)
        for row in range(self.problem.n):
            state.move(row, self._best(state, row))
        if self.emit:
            self.emit("restart", cols=list(state.cols), conflicts=state.pairs, restart=restart)
        return state

    def solve(self, restarts: int) -> list[int] | None:
        """A solution, or None after ``restarts`` runs; LimitReached when the run stops."""
        run, done = self.run, 0
        try:
            if not all(self.options):
                return None  # a row with every cell blocked
            for restart in range(restarts):
                run.stats["restarts"] = restart
                state = self._greedy(restart)
                for _ in range(repairs_per_run(self.problem.n)):
                    if not state.pairs:
                        if self.emit:
                            self.emit("solution", cols=list(state.cols))
                        return state.cols
                    done += 1
                    if done % _CHECK_EVERY == 0 and run.should_stop():
                        raise LimitReached
                    self._repair(state)
            return None
        finally:
            run.stats.add(moves=self.moves, plateau_moves=self.plateau)

    def _repair(self, state: Collisions) -> None:
        """Move a random attacked queen to one of its row's least attacked columns."""
        row = self.rng.choice([r for r in self.movable if state.attacked(r)])
        col = self._best(state, row)
        if col == state.cols[row]:
            return  # already on a best column
        before = state.pairs
        state.move(row, col)
        plateau = state.pairs == before
        self.moves += 1
        self.plateau += plateau
        if self.emit:
            self.emit("move", row=row, col=col, conflicts=state.pairs, plateau=plateau)


class MintonBackend(Backend):
    name = "minton"
    family = Family.HEURISTIC
    tasks = MappingProxyType({"placement": frozenset({Task.SOLVE})})
    features = frozenset({Feature.GIVENS, Feature.BLOCKED})
    variants = frozenset({"standard", "toroidal"})
    summary = "Minton et al.'s min-conflicts: one queen moved within its row (Python, teaching)"
    options = (
        Option("restarts", "runs from a new greedy start before giving up", 100,
               convert=positive_int),
    )  # fmt: skip
    uses_seed = True

    def solve(self, problem: Problem, run: Run, question: Question) -> SolveResult:
        try:
            cols = MinConflicts(problem, run).solve(self.settings["restarts"])
        except LimitReached:
            return SolveResult(Status.LIMIT)
        if cols is None:
            return SolveResult(Status.UNKNOWN)
        return SolveResult(Status.SOLVED, Placement(cols))
