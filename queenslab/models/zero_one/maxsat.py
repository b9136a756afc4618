"""A ``BoolModel`` as weighted MaxSAT, solved by RC2 with core minimisation.

Hard clauses: the model's clauses and its cardinality constraints (``cnf.encode``). Soft
clauses: the objective's weighted literals (``cnf.penalties``), each as the unit clause
of its negation, so RC2's cost is the quantity to minimise less its offset. RC2 raises
its lower bound core by core and finds an answer only at the optimum.

RC2 runs through ``models.rc2``; at a limit it reports the lower bound RC2 has proven,
the weight of the cores it relaxed, and no answer (RC2 finds one only at the optimum).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from queenslab.core.model import BoolModel, Linear
from queenslab.core.result import Status
from queenslab.core.run import Run
from queenslab.models import rc2
from queenslab.models.zero_one import cnf
from queenslab.models.zero_one.outcome import Outcome, Start, Tell, found, tell_nothing


def optimize(
    model: BoolModel,
    run: Run,
    settings: Mapping[str, Any],
    tell: Tell = tell_nothing,
    start: Start | None = None,
) -> Outcome:
    """The optimum, proven; at a limit, RC2's lower bound (the cost of its cores).
    ``tell`` is not called: RC2's first answer is an optimal one. A ``start`` is a hard
    upper bound (``Start.cutoff``) when the objective counts literals (a weighted one has
    no cardinality encoding: the start is then only the incumbent)."""
    del tell
    from pysat.formula import WCNF

    if start is not None and Linear(model.objective).is_cardinality:
        model = start.cutoff(model)

    with run.phase("build"):
        hard = cnf.encode(model, settings["encoding"])
        goal = cnf.penalties(model)
        wcnf = WCNF()
        wcnf.extend(hard.clauses)
        for weight, lit in goal.weighted:
            wcnf.append([-lit], weight=weight)
    run.stats.add(hard.stats(model), soft_clauses=len(goal.weighted))
    minimum = rc2.minimise(wcnf, run)
    if minimum.status is Status.LIMIT:
        return Outcome(Status.LIMIT, bound=goal.objective(minimum.cost))
    if minimum.model is None:
        return Outcome(Status.INFEASIBLE)
    true = {lit for lit in minimum.model if lit > 0}
    return found(model, [v + 1 in true for v in range(model.size)], proven=True)
