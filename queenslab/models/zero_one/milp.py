"""A ``BoolModel`` as a 0-1 integer program in Pyomo, solved by HiGHS or any MILP solver
``models.pyomo_solvers`` finds (its solver choice, gap settings and limits).

Binary x[v] per variable; a clause is ``sum(x of its positive literals) + sum(1 - x of
its negative ones) >= 1``; each linear constraint is one row with its bounds. A constraint
without terms is decided here (an empty clause: infeasible, proven without a solver), and
so is a model without variables (a board with no open cell), which HiGHS cannot take:
its one answer is the empty one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from queenslab.core.errors import LimitReached, Undecided
from queenslab.core.model import BoolModel, Sense
from queenslab.core.result import Status
from queenslab.core.run import Run
from queenslab.models.pyomo_solvers import Outcome as Solved
from queenslab.models.pyomo_solvers import open_solver
from queenslab.models.zero_one.outcome import (
    Improvements,
    Outcome,
    Start,
    Tell,
    found,
    integral_bound,
    tell_nothing,
)
from queenslab.runtime.stop import run_stoppably


def translate(model: BoolModel) -> Any | None:
    """The ConcreteModel of ``model``, or None when a constraint without terms fails."""
    import pyomo.environ as pe

    if any(not clause for clause in model.clauses) or any(
        not c.terms and not c.holds(()) for c in model.linear
    ):
        return None
    pm = pe.ConcreteModel(name=model.name)
    pm.x = pe.Var(range(model.size), domain=pe.Binary)
    x = pm.x
    pm.rows = pe.ConstraintList()
    for clause in model.clauses:
        pm.rows.add(pe.quicksum(x[i - 1] if i > 0 else 1 - x[-i - 1] for i in clause) >= 1)
    for constraint in model.rows_with_links():
        if constraint.terms:
            total = pe.quicksum(a * x[v] for a, v in constraint.terms)
            if constraint.lower is not None and constraint.lower == constraint.upper:
                pm.rows.add(total == constraint.lower)
            else:
                pm.rows.add((constraint.lower, total, constraint.upper))
    sense = pe.minimize if model.sense is Sense.MIN else pe.maximize
    goal = pe.quicksum(a * x[v] for a, v in model.objective) if model.objective else 0
    pm.objective = pe.Objective(expr=goal, sense=sense)
    return pm


def optimize(
    model: BoolModel,
    run: Run,
    settings: Mapping[str, Any],
    tell: Tell = tell_nothing,
    start: Start | None = None,
) -> Outcome:
    """The optimum, proven, or what the limit left (HiGHS's time limit is what remains of
    the run after building; its callbacks end it at a CPU limit or a stop). ``tell`` hears
    each improving answer and dual bound HiGHS reports (``PyomoSolver.listen``; other
    solvers tell nothing before they end). A ``start`` is an objective cutoff row
    (``Start.cutoff``), for any solver: the interface ``highs`` resolves to first,
    ``pyomo.contrib.solver``, takes no MIP start (its ``warm_start_capable()`` is False)."""
    if start is not None:
        model = start.cutoff(model)
    solver, pm = _loaded(model, run, settings)
    if pm is None:
        why = model.impossible or "a linear constraint without terms cannot hold"
        return Outcome(Status.INFEASIBLE, message=why)
    if not model.size:
        return found(model, (), proven=True)
    if run.should_stop():
        return Outcome(Status.LIMIT)
    news = Improvements(model, tell)

    def hear(values: list[float] | None, dual_bound: float) -> None:
        answer = None if values is None else [value > 0.5 for value in values]
        news(answer, integral_bound(model, dual_bound) if model.objective else None)

    solver.listen(list(pm.x.values()), hear, run.should_stop)
    solved = _solved(solver, run)
    bound = integral_bound(model, solver.bound) if model.objective else 0
    news(None, bound)  # the last bound, which HiGHS proves after its last callback
    if solved in (Solved.OPTIMAL, Solved.FEASIBLE):
        return found(model, _values(pm), solved is Solved.OPTIMAL, bound)
    if solved is Solved.INFEASIBLE:
        return Outcome(Status.INFEASIBLE)
    if solved is Solved.LIMIT:
        return Outcome(Status.LIMIT, bound=bound)
    return Outcome(Status.UNKNOWN, message=f"{settings['solver']}: {solver.condition}")


def solutions(model: BoolModel, run: Run, settings: Mapping[str, Any]) -> Iterator[list[bool]]:
    """Every answer of ``model`` (no objective), once each on ``model.answer``: a MILP
    solver enumerates nothing itself, so each answer found is cut off by a no-good row over
    the answer variables only (an answer would come again with its auxiliary variables set
    otherwise), added to the model the solver holds, and the model solved again.
    LimitReached when the run stops first; Undecided when the solver fails."""
    import pyomo.environ as pe

    solver, pm = _loaded(model, run, settings)
    if pm is None:  # a constraint without terms fails: no answer
        return
    if model.size:
        solver.listen(list(pm.x.values()), _deaf, run.should_stop)
    while True:
        if run.should_stop():
            raise LimitReached
        solved = _solved(solver, run) if model.size else Solved.OPTIMAL
        if solved is Solved.INFEASIBLE:
            return
        if solved is Solved.LIMIT:
            raise LimitReached
        if solved not in (Solved.OPTIMAL, Solved.FEASIBLE):
            raise Undecided(f"{settings['solver']}: {solver.condition}")
        values = _values(pm)
        yield values
        if not model.answer:  # every answer reads the same: one
            return
        x = pm.x
        cut = pe.quicksum(1 - x[v] if values[v] else x[v] for v in model.answer) >= 1
        solver.add_constraint(pm.rows.add(cut))


def _loaded(model: BoolModel, run: Run, settings: Mapping[str, Any]) -> tuple[Any, Any | None]:
    """The solver chosen in ``settings`` holding ``model`` (None for the Pyomo model when a
    constraint without terms fails), the model's size recorded."""
    with run.phase("build"):
        solver = open_solver(settings["solver"])
        pm = translate(model)
        if pm is not None:
            solver.prepare(pm)
    if pm is not None and model.size:
        run.stats.add(variables=model.size, constraints=len(pm.rows), solver=settings["solver"])
    return solver, pm


def _solved(solver: Any, run: Run) -> Solved | None:
    """One solve within what remains of the run, its effort recorded (None: no word)."""
    remaining = run.remaining()
    # The main thread waits in Python and takes Ctrl-C (see models.milp._Session.solve).
    _, solved = run_stoppably(lambda: solver.solve(remaining), lambda: None, lambda: False)
    run.stats.add(solver.effort)
    return solved


def _values(pm: Any) -> list[bool]:
    return [bool(var.value is not None and var.value > 0.5) for var in pm.x.values()]


def _deaf(_values: list[float] | None, _bound: float) -> None:
    """What ``listen`` tells while answers are enumerated: nothing is wanted but its stop."""
