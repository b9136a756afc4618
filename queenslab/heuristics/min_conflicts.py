"""Min-conflicts (Minton et al. 1992): one search per variant, picked from ``SEARCHES``.

- standard: QS4 (Sosic & Gu 1994), ``qs4.solve_min_conflicts``: 10^8 queens in C's time;
- toroidal: Pólya's linear placements repaired by breakout min-conflicts
  (``torus.solve_torus``), because plain swaps stall on a torus from n = 29 on.

This module only adapts a ``Problem`` and a ``Run`` to them. Blocked cells and given
queens are handled on both. Super-queens are not: a move would re-count up to eight
knight cells. A run that does not finish within its work budget restarts; after
``restarts`` runs the backend gives up (UNKNOWN), which is all it can say for n = 2, 3,
a torus with gcd(n, 6) > 1, or givens without a completion.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from queenslab.core.backend import Backend, Family, Feature, Option, Task, positive_int
from queenslab.core.kind import Question
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import SolveResult, Status
from queenslab.core.run import Run

if TYPE_CHECKING:
    from queenslab.heuristics.qs4 import Watch  # imported at the first solve: it loads Numba

#: Runs from a new random start before giving up (the backend's ``restarts`` option).
RESTARTS = 1000


class Search(NamedTuple):
    """A variant's search: ``function`` of ``queenslab.heuristics.<module>`` (imported at the
    first solve, as it loads Numba), and two small boards whose solves load its kernels: a
    plain one, and one with a given queen and a blocked cell, whose kernels are others."""

    module: str
    function: str
    plain: Problem
    constrained: Problem

    def warm_up(self, problem: Problem) -> Problem:
        """The small board whose solve loads the kernels a solve of ``problem`` runs."""
        return self.constrained if problem.givens or problem.blocked else self.plain


#: The search for each variant the backend handles, all with one signature. The
#: constrained boards make every kernel run: the givens' own, and the repair.
SEARCHES = {
    "standard": Search(
        "qs4", "solve_min_conflicts", Problem(16), Problem(16, ((0, 1),), blocked=((1, 3),))
    ),
    "toroidal": Search(
        "torus",
        "solve_torus",
        Problem(7, variant="toroidal"),
        Problem(7, ((0, 0),), variant="toroidal", blocked=((1, 3),)),
    ),
}


class MinConflictsBackend(Backend):
    name = "min-conflicts"
    family = Family.HEURISTIC
    tasks = MappingProxyType({"placement": frozenset({Task.SOLVE})})
    features = frozenset({Feature.GIVENS, Feature.BLOCKED})
    variants = frozenset(SEARCHES)
    summary = "min-conflicts in Numba: QS4 (10^7 queens in about a second); torus by breakout"
    requires: ClassVar[Mapping[str, str]] = {"numba": "numba"}
    options = (
        Option("restarts", "runs from a new random start before giving up", RESTARTS,
               convert=positive_int),
    )  # fmt: skip
    uses_seed = True

    def load(self) -> None:
        """Solve the small boards of every search: Numba loads (or compiles) a kernel at
        its first call, which no time limit can interrupt, so it happens before the search."""
        for chosen in SEARCHES.values():
            for board in (chosen.plain, chosen.constrained):
                search(board, Run(0, None), self.settings["restarts"])

    def load_for(self, task: Task, problem: Problem, question: Question) -> None:
        """Load only the kernels this board's search runs (plain or constrained)."""
        search(SEARCHES[problem.variant].warm_up(problem), Run(0, None), self.settings["restarts"])

    def solve(self, problem: Problem, run: Run, question: Question) -> SolveResult:
        return search(problem, run, self.settings["restarts"])


def search(problem: Problem, run: Run, restarts: int, watch: Watch | None = None) -> SolveResult:
    """The variant's search on ``problem``; ``watch`` hears it (the trace replays it)."""
    chosen = SEARCHES[problem.variant]
    module = importlib.import_module(f"queenslab.heuristics.{chosen.module}")
    outcome = getattr(module, chosen.function)(
        problem.n,
        run.seed,
        problem.givens,
        blocked=problem.blocked,
        should_stop=run.should_stop,
        restarts=restarts,
        watch=watch,
    )
    run.stats.add(outcome.stats)
    if outcome.cols is not None:
        return SolveResult(Status.SOLVED, Placement(outcome.cols))
    return SolveResult(Status.LIMIT if outcome.stopped else Status.UNKNOWN)
