"""A ``BoolModel`` as weighted MaxSAT, solved by RC2 with Glucose 3 as its oracle, which
takes interrupts.

RC2 runs with core minimisation only: on domination (n = 10, 11, torus 11, 12) it was as
fast as with core exhaustion and at-most-one detection too (``models.maxsat``), and it
answers an interrupt within 0.2 s, where those took up to a second after it: past the
grace a forked child has to report its bound (``runtime.forked``).

Hard clauses: the model's clauses and its cardinality constraints (``cnf.encode``). Soft
clauses: the objective's weighted literals (``cnf.penalties``), each as the unit clause
of its negation, so RC2's cost is the quantity to minimise less its offset. RC2 raises
its lower bound core by core and finds an answer only at the optimum, so a limit leaves
no answer, only that bound.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from queenslab.core.result import Status
from queenslab.core.run import Run
from queenslab.models import sat
from queenslab.models.zero_one import cnf
from queenslab.models.zero_one.outcome import Outcome, found
from queenslab.problems.model import BoolModel
from queenslab.runtime import forked
from queenslab.runtime.stop import run_stoppably


def optimize(model: BoolModel, run: Run, settings: Mapping[str, Any]) -> Outcome:
    """The optimum, proven, or the bound the limit left; built and solved in a forked child."""
    return forked.in_child(lambda: _optimize(model, run, settings), run, Outcome(Status.LIMIT))


def _optimize(model: BoolModel, run: Run, settings: Mapping[str, Any]) -> Outcome:
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF

    with run.phase("build"):
        hard = cnf.encode(model, settings["encoding"])
        goal = cnf.penalties(model)
        wcnf = WCNF()
        wcnf.extend(hard.clauses)
        for weight, lit in goal.weighted:
            wcnf.append([-lit], weight=weight)
    run.stats.add(hard.stats(model), soft_clauses=len(goal.weighted))
    with RC2(wcnf, minz=True) as rc2:
        finished, assignment = run_stoppably(
            lambda: rc2.compute(expect_interrupt=True), rc2.interrupt, run.should_stop
        )
        run.stats.add(sat.solver_stats(rc2.oracle))
        if not finished:
            return Outcome(Status.LIMIT, bound=goal.objective(rc2.cost))
    if assignment is None:
        return Outcome(Status.INFEASIBLE)
    true = {lit for lit in assignment if lit > 0}
    return found(model, [v + 1 in true for v in range(model.size)], proven=True)
