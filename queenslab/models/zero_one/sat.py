"""A ``BoolModel`` in CNF for a SAT solver, optimised by an incremental bound.

The clauses and cardinality constraints come from ``cnf.encode``. The objective must be a
count of literals (coefficients +-1, ``cnf.unit_penalties``): each answer found with cost
c adds "at most c - 1" through an incremental totalizer (pysat ``ITotalizer``, built up
to the first cost found; each sum beneath the objective, ``BoolModel.beneath_objective``,
is bounded alike by one of its own), until the solver proves the next bound
unsatisfiable, which proves the last answer optimal, or the answer meets the bound the
model states (``BoolModel.stated_bound``, a kind's proven bound), which no answer can
beat: no call is spent refuting the bound's counter against the totalizer's. A limit leaves the best
answer found, and that stated bound, or none below the optimum (the cost can be 0).

Enumerating blocks each answer on ``model.answer`` only, so auxiliary variables never
count one answer twice. Solves run in conflict slices (``models.sat.solve_until``), so
the clock and Ctrl-C are looked at between them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Literal

from queenslab.core.errors import LimitReached
from queenslab.core.model import BoolModel
from queenslab.core.result import Status
from queenslab.core.run import Run
from queenslab.models import sat
from queenslab.models.zero_one import cnf
from queenslab.models.zero_one.outcome import Outcome, Start, Tell, found, tell_nothing


def optimize(
    model: BoolModel,
    run: Run,
    settings: Mapping[str, Any],
    tell: Tell = tell_nothing,
    start: Start | None = None,
) -> Outcome:
    """The optimum, proven, or the best answer the limit left (conflict slices look at the
    run between them); ``tell`` hears each better answer. A ``start`` is the first upper
    bound: the descent begins below its value (``Start.cutoff``)."""
    from pysat.card import ITotalizer
    from pysat.solvers import Solver

    if start is not None:
        model = start.cutoff(model)

    with run.phase("build"):
        goal = cnf.unit_penalties(model)
        hard = cnf.encode(model, settings["encoding"])
        solver = Solver(name=settings["solver"], bootstrap_with=hard.clauses)
    run.stats.add(hard.stats(model))
    lits = [lit for _, lit in goal.weighted]
    lowest = goal.objective(0)  # the trivial bound: no literal true
    stated = model.stated_bound()
    if stated is not None:  # the tighter of the two, in the objective's direction
        lowest = max(lowest, stated) if goal.sign > 0 else min(lowest, stated)
    best: list[bool] | None = None
    counted = [lits, *beneath_literals(model, goal)]
    totalizers: list[Any] = []
    with solver:
        while True:
            answer = decide_step(solver, model, run)
            if answer is None:
                run.stats.add(sat.solver_stats(solver))
                if best is None:
                    return Outcome(Status.LIMIT, bound=lowest)
                return found(model, best, proven=False, bound=lowest)
            if answer is False:
                break
            best = answer
            tell(best, lowest)
            cost = sum(1 for lit in lits if best[abs(lit) - 1] == (lit > 0))
            if cost == 0 or goal.objective(cost) == lowest:
                break
            if not totalizers:  # built once, up to the first cost: bounds only fall
                top = hard.top
                for counting in counted:
                    totalizers.append(ITotalizer(counting, ubound=cost, top_id=top))
                    solver.append_formula(totalizers[-1].cnf.clauses)
                    top = totalizers[-1].top_id
                run.stats.add(variables=top - hard.top, auxiliary_variables=top - hard.top)
            for totalizer in totalizers:  # each at most cost - 1
                if len(totalizer.rhs) >= cost:
                    solver.add_clause([-totalizer.rhs[cost - 1]])
        run.stats.add(sat.solver_stats(solver))
    for totalizer in totalizers:
        totalizer.delete()
    if best is None:
        return Outcome(Status.INFEASIBLE)
    return found(model, best, proven=True)


def beneath_literals(model: BoolModel, goal: cnf.Penalties) -> list[list[int]]:
    """The literals of each sum beneath the objective (``BoolModel.beneath_objective``),
    where a bound on the cost bounds it alike: a count of positive literals beneath an
    objective that is one (offset 0); none otherwise, since they are implied."""
    if goal.offset or any(lit < 0 for _, lit in goal.weighted):
        return []
    return [
        [v + 1 for _, v in terms]
        for terms in model.beneath_objective
        if terms and all(a == 1 for a, _ in terms)
    ]


def decide_step(solver: Any, model: BoolModel, run: Run) -> list[bool] | Literal[False] | None:
    """One SAT call on what ``solver`` holds: the values of an answer, False when proven
    that there is none, None when the run stopped first. A decide is one such step on the
    model bounded at its value (``BoolModel.with_objective_bound``, nothing to optimise);
    the descent above repeats it, each bound below the last answer's cost."""
    satisfiable = sat.solve_until(solver, run.should_stop)
    if not satisfiable:
        return satisfiable
    true = {lit for lit in solver.get_model() if lit > 0}
    return [v + 1 in true for v in range(model.size)]


def solutions(model: BoolModel, run: Run, settings: Mapping[str, Any]) -> Iterator[list[bool]]:
    """Every answer of ``model`` (its objective ignored), once each on ``model.answer``;
    LimitReached when the run stops first."""
    from pysat.solvers import Solver

    with run.phase("build"):
        hard = cnf.encode(model, settings["encoding"], run.should_stop)
    run.stats.add(hard.stats(model))
    with Solver(name=settings["solver"], bootstrap_with=hard.clauses) as solver:
        try:
            while satisfiable := sat.solve_until(solver, run.should_stop):
                true = {lit for lit in solver.get_model() if lit > 0}
                values = [v + 1 in true for v in range(model.size)]
                yield values
                solver.add_clause([-(v + 1) if values[v] else v + 1 for v in model.answer])
        finally:
            run.stats.add(sat.solver_stats(solver))
    if satisfiable is None:
        raise LimitReached
