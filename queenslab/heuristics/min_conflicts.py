"""Min-conflicts (Minton et al. 1992) as QS4 (Sosic & Gu 1994): 10^8 queens in C's time.

The search itself is ``qs4.solve_min_conflicts`` (Numba kernels in ``qs4_kernels``);
this module only adapts a ``Problem`` and a ``Run`` to it. Blocked cells and given
queens are handled. Other variants are not: on a torus, swaps of a permutation stall in
local minima from n = 29 on (toroidal solutions are rare), and super-queens would need
up to eight knight cells re-counted per move. A run that does not finish within
its work budget restarts; after ``restarts`` runs the backend gives up (UNKNOWN), which
is all it can say for n = 2, 3 or for givens without a completion.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from queenslab.backend import Backend, Capability, Family, Option, positive_int
from queenslab.placement import Placement
from queenslab.problem import Problem
from queenslab.result import SolveResult, Status
from queenslab.run import Run


class MinConflictsBackend(Backend):
    name = "min-conflicts"
    family = Family.HEURISTIC
    capabilities = frozenset({Capability.SOLVE, Capability.GIVENS, Capability.BLOCKED})
    summary = "QS4 min-conflicts local search in Numba (10^7 queens in about a second)"
    requires: ClassVar[Mapping[str, str]] = {"numba": "numba"}
    options = (
        Option("restarts", "runs from a new random start before giving up", 1000,
               convert=positive_int),
    )  # fmt: skip
    uses_seed = True

    def load(self) -> None:
        """Solve a tiny board once: Numba loads cached kernels at their first call."""
        MinConflictsBackend().solve(Problem(16), Run(0, None))

    def solve(self, problem: Problem, run: Run) -> SolveResult:
        from queenslab.heuristics.qs4 import solve_min_conflicts

        outcome = solve_min_conflicts(
            problem.n,
            run.seed,
            problem.givens,
            blocked=problem.blocked,
            should_stop=run.should_stop,
            restarts=self.settings["restarts"],
        )
        run.stats.add(outcome.stats)
        if outcome.cols is not None:
            return SolveResult(Status.SOLVED, Placement(outcome.cols))
        return SolveResult(Status.LIMIT if outcome.stopped else Status.UNKNOWN)
