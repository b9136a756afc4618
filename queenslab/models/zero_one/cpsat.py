"""A ``BoolModel`` in OR-Tools CP-SAT, built directly: a Boolean per variable (numbered as
in the model, so a solution's values need no map), ``add_bool_or`` per clause, each linear
constraint and the objective as linear expressions.

Optimising runs on ``workers`` threads until the run says stop (``models.cpsat.search``);
each better answer and bound is told as it comes (CP-SAT's solution and bound callbacks).
Enumerating runs one worker (``models.cpsat.enumerating_solver``);
CP-SAT cannot project its solutions on some variables, so an answer whose auxiliary
variables could take several values would come several times: each answer is kept once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from queenslab.core.errors import LimitReached
from queenslab.core.model import BoolModel, Sense
from queenslab.core.result import Status
from queenslab.core.run import Run, never
from queenslab.core.stats import Stats
from queenslab.models import cpsat as cp
from queenslab.models.zero_one.outcome import (
    Outcome,
    Start,
    Tell,
    found,
    integral_bound,
    tell_nothing,
)

#: Constraints posted between two looks at ``should_stop``.
_CHECK_EVERY = 1024


def translate(model: BoolModel, should_stop: Callable[[], bool] = never) -> Any:
    """The CpModel of ``model``; LimitReached when ``should_stop`` says stop first."""
    from ortools.sat.python import cp_model

    cpm = cp_model.CpModel()
    x = [cpm.new_bool_var(name) for name in model.names]

    def literal(lit: int) -> Any:
        return x[lit - 1] if lit > 0 else x[-lit - 1].Not()

    def expression(terms: tuple[tuple[int, int], ...]) -> Any:
        return cp_model.LinearExpr.weighted_sum([x[v] for _, v in terms], [a for a, _ in terms])

    for i, clause in enumerate(model.clauses):
        if i % _CHECK_EVERY == 0 and should_stop():
            raise LimitReached
        cpm.add_bool_or([literal(lit) for lit in clause])
    for i, constraint in enumerate(model.rows_with_links()):
        if i % _CHECK_EVERY == 0 and should_stop():
            raise LimitReached
        lower = cp_model.INT_MIN if constraint.lower is None else constraint.lower
        upper = cp_model.INT_MAX if constraint.upper is None else constraint.upper
        row = cpm.add_linear_constraint(expression(constraint.terms), lower, upper)
        if constraint.name:  # the kind's name for it: the exported proto reads as the question
            row.with_name(constraint.name)
    if model.objective:
        goal = cpm.minimize if model.sense is Sense.MIN else cpm.maximize
        goal(expression(model.objective))
    return cpm


def optimize(
    model: BoolModel,
    run: Run,
    settings: Mapping[str, Any],
    tell: Tell = tell_nothing,
    start: Start | None = None,
) -> Outcome:
    """The optimum, proven, or what the limit left; ``tell`` hears each better answer and
    bound as CP-SAT finds them. A ``start`` is CP-SAT's solution hint. The model is loaded
    looking at the run (a split's cubes load in threads, which no stop can kill)."""
    from ortools.sat.python import cp_model

    with run.phase("build"):
        try:
            cpm = translate(model, run.should_stop)
        except LimitReached:
            return Outcome(Status.LIMIT)
        for v, value in ({} if start is None else start.values).items():
            cpm.add_hint(cpm.get_bool_var_from_proto_index(v), value)
    run.stats.add(cp.model_stats(cpm))
    solver = cp.parallel_solver(settings["workers"], run)

    class Incumbents(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            bound = integral_bound(model, self.best_objective_bound) if model.objective else 0
            tell(self.response_proto.solution, bound)  # values numbered as in the model

    if model.objective:
        solver.best_bound_callback = lambda bound: tell(None, integral_bound(model, bound))
    status = cp.search(solver, cpm, run.should_stop, Incumbents())
    run.stats.add(cp.solver_stats(solver))
    bound = _proven_bound(model, solver.response_proto, status) if model.objective else 0
    if status == cp_model.MODEL_INVALID:
        return Outcome(Status.UNKNOWN, message=f"CP-SAT: invalid model: {cpm.validate()}")
    if status == cp_model.INFEASIBLE:
        return Outcome(Status.INFEASIBLE)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        values = solver.response_proto.solution
        return found(model, values, status == cp_model.OPTIMAL, bound)
    return Outcome(Status.LIMIT, bound=bound if status == cp_model.UNKNOWN else None)


def _proven_bound(model: BoolModel, response: Any, status: Any) -> int | None:
    """CP-SAT's bound on the objective; None where it has proven none.

    A solve stopped before its presolve ended leaves the response's objective fields
    unset, and they read 0: "limit, bound 0" for peaceable armies, as if no army of one
    queen existed. Once the presolve is over, a search without an answer reports the
    objective's range, its two ends apart; equal ends without an answer are the unset ones.
    """
    from ortools.sat.python import cp_model

    if status == cp_model.UNKNOWN and response.objective_value == response.best_objective_bound:
        return None
    return integral_bound(model, response.best_objective_bound)


def solutions(model: BoolModel, run: Run, settings: Mapping[str, Any]) -> Iterator[list[bool]]:
    """Every answer of ``model`` (its objective ignored), once each on ``model.answer``;
    LimitReached when the run stops first."""
    with run.phase("build"):
        cpm = translate(model, run.should_stop)
    run.stats.add(cp.model_stats(cpm))
    seen: set[tuple[bool, ...]] = set()
    stats = Stats()
    stream = cp.solutions(cpm, cp.enumerating_solver(), run.should_stop, _values, stats)
    try:
        for values in stream:
            key = tuple(values[v] for v in model.answer)
            if key not in seen:
                seen.add(key)
                yield values
    finally:
        stream.close()
        run.stats.add(stats)


def _values(solution: Any) -> list[bool]:
    return [bool(value) for value in solution]
