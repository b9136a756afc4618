"""A ``BoolModel`` as weighted MaxSAT, solved by RC2 with core minimisation.

Hard clauses: the model's clauses and its cardinality constraints (``cnf.encode``). Soft
clauses: the objective's weighted literals (``cnf.penalties``, each exactly-one
constraint's least cost moved into the offset), each as the unit clause of its negation,
so RC2's cost is the quantity to minimise less its offset. RC2 raises
its lower bound core by core and finds an answer only at the optimum.

RC2 runs through ``models.rc2``; at a limit it reports the lower bound RC2 has proven,
the weight of the cores it relaxed, and the best answer its oracle's models gave on the
way (core minimisation's satisfiable calls), each told as it comes with each rise of the
bound.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from queenslab.core.model import BoolModel, Linear
from queenslab.core.result import Status
from queenslab.core.run import Run
from queenslab.models import rc2
from queenslab.models.zero_one import cnf
from queenslab.models.zero_one.outcome import (
    Improvements,
    Outcome,
    Start,
    Tell,
    found,
    tell_nothing,
)
from queenslab.models.zero_one.translator import by_blocking


def optimize(
    model: BoolModel,
    run: Run,
    settings: Mapping[str, Any],
    tell: Tell = tell_nothing,
    start: Start | None = None,
) -> Outcome:
    """The optimum, proven; at a limit, RC2's lower bound (the cost of its cores) and the
    best answer its oracle found, both told to ``tell`` as they improve. A ``start`` is a
    hard upper bound (``Start.cutoff``) when the objective counts literals (a weighted one
    has no cardinality encoding: the start is then only the incumbent)."""
    from pysat.formula import WCNF

    if start is not None and Linear(model.objective).is_cardinality:
        model = start.cutoff(model)

    with run.phase("build"):
        hard = cnf.encode(model, settings["encoding"])
        goal = cnf.penalties(model, reduced=True)
        wcnf = WCNF()
        wcnf.extend(hard.clauses)
        for weight, lit in goal.weighted:
            wcnf.append([-lit], weight=weight)
    run.stats.add(hard.stats(model), soft_clauses=len(goal.weighted))
    news = Improvements(model, tell)

    def values(literals: list[int]) -> list[bool]:
        true = {lit for lit in literals if lit > 0}
        return [v + 1 in true for v in range(model.size)]

    def hear(literals: list[int] | None, cost: int) -> None:
        news(None if literals is None else values(literals), goal.objective(cost))

    minimum = rc2.minimise(wcnf, run, hear=hear)
    bound = goal.objective(minimum.cost)
    if minimum.status is Status.LIMIT:
        if news.value is None:
            return Outcome(Status.LIMIT, bound=bound)
        return found(model, news.best, proven=False, bound=bound)
    if minimum.model is None:
        return Outcome(Status.INFEASIBLE)
    news(values(minimum.model), bound)
    return found(model, news.best, proven=True)  # the answer told: RC2's, or one as good


def solutions(model: BoolModel, run: Run, settings: Mapping[str, Any]) -> Iterator[list[bool]]:
    """Every answer of ``model`` (no objective), once each on ``model.answer``: RC2's own
    enumeration blocks every variable, auxiliary ones included (an answer would come once
    per setting of them), so each answer found is cut off by a no-good over the answer
    variables and the model solved again (``translator.by_blocking``); LimitReached when
    the run stops first."""
    return by_blocking(optimize, model, run, settings)
