"""Weighted N-queens as MaxSAT: RC2 over the hard N-queens CNF and weighted soft clauses.

RC2 minimises the total weight of falsified soft clauses, and weights must be positive.
A cell of weight w > 0 becomes the soft clause (x) of weight w: it costs w when empty. A
cell of weight w < 0 becomes (¬x) of weight -w: it costs -w when occupied. So the
objective (total weight of occupied cells) is the sum of the positive weights minus the
cost; it is recomputed from the board, the cost only guides the search. RC2's oracle
(Glucose 3) supports interrupts, which enforce the time limit and Ctrl-C.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar

from queenslab.backend import Backend, Capability, Family
from queenslab.boards import VARIANTS
from queenslab.models import cnf, forked
from queenslab.placement import Placement
from queenslab.problem import Problem
from queenslab.result import OptimizeResult, Status
from queenslab.run import Run
from queenslab.stoppable import run_stoppably

if TYPE_CHECKING:
    import numpy as np


class MaxSatBackend(Backend):
    name = "maxsat"
    family = Family.MODEL
    capabilities = frozenset({Capability.OPTIMIZE, Capability.GIVENS, Capability.BLOCKED})
    variants = frozenset(VARIANTS)
    summary = "pysat RC2 MaxSAT: hard N-queens CNF, one weighted soft clause per cell"
    requires: ClassVar[Mapping[str, str]] = {"pysat": "python-sat"}
    options = (cnf.ENCODING_OPTION,)

    def load(self) -> None:
        import pysat.examples.rc2  # noqa: F401

    def optimize(self, problem: Problem, run: Run, weights: np.ndarray) -> OptimizeResult:
        stopped = OptimizeResult(Status.LIMIT)
        return forked.in_child(lambda: self._optimize(problem, run, weights), run, stopped)

    def _optimize(self, problem: Problem, run: Run, weights: np.ndarray) -> OptimizeResult:
        from pysat.examples.rc2 import RC2
        from pysat.formula import WCNF

        n = problem.n
        with run.phase("build"):
            formula = WCNF()
            hard, top = cnf.clauses(problem, self.settings["encoding"])
            formula.extend(hard)
            for r in range(n):
                for c in range(n):
                    w = int(weights[r, c])
                    if w:
                        lit = cnf.cell(n, r, c)
                        formula.append([lit if w > 0 else -lit], weight=abs(w))
        run.stats.add(variables=top, constraints=len(hard), soft_clauses=len(formula.soft))
        with RC2(formula) as rc2:
            finished, model = run_stoppably(
                lambda: rc2.compute(expect_interrupt=True), rc2.interrupt, run.should_stop
            )
            run.stats.add(oracle_calls=int(getattr(rc2, "oracle_calls", 0) or 0))
        if not finished:
            return OptimizeResult(Status.LIMIT)
        if model is None:
            return OptimizeResult(Status.INFEASIBLE)
        cols = cnf.decode(n, model)
        objective = sum(int(weights[r, c]) for r, c in enumerate(cols))
        return OptimizeResult(Status.OPTIMAL, objective, Placement(cols))
