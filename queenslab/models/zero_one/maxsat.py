"""A ``BoolModel`` as weighted MaxSAT, solved by RC2 with core minimisation.

Hard clauses: the model's clauses and its cardinality constraints (``cnf.encode``). Soft
clauses: the objective's weighted literals (``cnf.penalties``), each as the unit clause
of its negation, so RC2's cost is the quantity to minimise less its offset. RC2 raises
its lower bound core by core and finds an answer only at the optimum.

RC2's SAT oracle is CaDiCaL 1.9.5: ten times faster than Glucose 3 here (domination on
the 11 x 11 torus: 1.6 s against 16.6 s; the 12 x 12 torus: 44 s, where Glucose had not
finished in 15 minutes). CaDiCaL takes no interrupt, so RC2's oracle calls run in
conflict slices that look at the run between them (``models.sat.solve_until``): a limit
then reports the lower bound RC2 has proven, the weight of the cores it relaxed, and no
answer (RC2 finds one only at the optimum). The forked child that runs it
(``runtime.forked``) is ended if a slice overruns the grace.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from queenslab.core.errors import LimitReached
from queenslab.core.model import BoolModel
from queenslab.core.result import Status
from queenslab.core.run import Run
from queenslab.models import sat
from queenslab.models.zero_one import cnf
from queenslab.models.zero_one.outcome import Outcome, Tell, found, tell_nothing

#: RC2's oracle, by its pysat name: CaDiCaL 1.9.5.
ORACLE = "cd19"


def optimize(
    model: BoolModel, run: Run, settings: Mapping[str, Any], tell: Tell = tell_nothing
) -> Outcome:
    """The optimum, proven; at a limit, RC2's lower bound (the cost of its cores).
    ``tell`` is not called: RC2's first answer is an optimal one."""
    del tell
    from pysat.formula import WCNF

    with run.phase("build"):
        hard = cnf.encode(model, settings["encoding"])
        goal = cnf.penalties(model)
        wcnf = WCNF()
        wcnf.extend(hard.clauses)
        for weight, lit in goal.weighted:
            wcnf.append([-lit], weight=weight)
    run.stats.add(hard.stats(model), soft_clauses=len(goal.weighted))
    with _stoppable_rc2(wcnf, run) as rc2:
        try:
            assignment = rc2.compute()
        except LimitReached:
            return Outcome(Status.LIMIT, bound=goal.objective(rc2.cost))
        finally:
            run.stats.add(sat.solver_stats(rc2.oracle))
    if assignment is None:
        return Outcome(Status.INFEASIBLE)
    true = {lit for lit in assignment if lit > 0}
    return found(model, [v + 1 in true for v in range(model.size)], proven=True)


def _stoppable_rc2(wcnf: Any, run: Run) -> Any:
    """RC2 (with core minimisation) whose oracle calls stop with LimitReached when the
    run says stop: the core-guided calls in conflict slices, core minimisation's calls
    (a thousand conflicts each, RC2's own budget) after a look at the run."""
    from pysat.examples.rc2 import RC2

    class StoppableRC2(RC2):
        minimising = False

        def minimize_core(self) -> None:
            self.minimising = True
            try:
                super().minimize_core()
            finally:
                self.minimising = False

        def _call_oracle(self, assumptions: Any = (), expect_interrupt: bool = False) -> Any:
            if self.minimising:
                if run.should_stop():
                    raise LimitReached
                return super()._call_oracle(assumptions, expect_interrupt)
            satisfiable = sat.solve_until(self.oracle, run.should_stop, assumptions)
            if satisfiable is None:
                raise LimitReached
            return satisfiable

    return StoppableRC2(wcnf, solver=ORACLE, minz=True)
