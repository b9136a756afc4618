"""A ``BoolModel`` as weighted MaxSAT, solved by RC2 with core minimisation.

Hard clauses: the model's clauses and its cardinality constraints (``cnf.encode``). Soft
clauses: the objective's weighted literals (``cnf.penalties``), each as the unit clause
of its negation, so RC2's cost is the quantity to minimise less its offset. RC2 raises
its lower bound core by core and finds an answer only at the optimum.

RC2's SAT oracle is CaDiCaL 1.9.5: ten times faster than Glucose 3 here (domination on
the 11 x 11 torus: 1.6 s against 16.6 s; the 12 x 12 torus: 44 s, where Glucose had not
finished in 15 minutes). CaDiCaL takes no interrupt, so a limit ends the forked child
that runs it (``runtime.forked``), and reports neither an answer (there is none before
the optimum) nor the bound reached.
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

#: RC2's oracle, by its pysat name: CaDiCaL 1.9.5.
ORACLE = "cd19"


def optimize(model: BoolModel, run: Run, settings: Mapping[str, Any]) -> Outcome:
    """The optimum, proven; built and solved in a forked child that a limit ends."""
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
    with RC2(wcnf, solver=ORACLE, minz=True) as rc2:
        assignment = rc2.compute()
        run.stats.add(sat.solver_stats(rc2.oracle))
    if assignment is None:
        return Outcome(Status.INFEASIBLE)
    true = {lit for lit in assignment if lit > 0}
    return found(model, [v + 1 in true for v in range(model.size)], proven=True)
