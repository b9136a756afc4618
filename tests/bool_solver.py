"""A test-only solver for ``BoolModel``s: straight to CP-SAT, no queenslab translator.

Why: the problem kinds' models are checked here against brute force on small boards, by a
few lines of solver glue that share nothing with the package's own translators.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from queenslab.problems.model import BoolModel, Sense


def _cp(model: BoolModel) -> tuple[cp_model.CpModel, list[cp_model.IntVar]]:
    cp = cp_model.CpModel()
    xs = [cp.new_bool_var(name) for name in model.names]

    def lit(literal: int):
        x = xs[abs(literal) - 1]
        return x if literal > 0 else x.Not()

    for clause in model.clauses:
        cp.add_bool_or([lit(literal) for literal in clause])
    for row in model.linear:
        total = sum(a * xs[v] for a, v in row.terms)
        if row.lower is not None:
            cp.add(total >= row.lower)
        if row.upper is not None:
            cp.add(total <= row.upper)
    return cp, xs


def _solver(workers: int = 1) -> cp_model.CpSolver:
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solver.parameters.max_time_in_seconds = 120
    return solver


def optimum(model: BoolModel) -> tuple[int, list[bool]]:
    """The optimal objective and one optimal assignment (AssertionError when unproven)."""
    cp, xs = _cp(model)
    objective = sum(a * xs[v] for a, v in model.objective)
    (cp.minimize if model.sense is Sense.MIN else cp.maximize)(objective)
    solver = _solver(2)
    status = solver.solve(cp)
    assert status == cp_model.OPTIMAL, solver.status_name(status)
    values = [bool(solver.value(x)) for x in xs]
    assert model.satisfied_by(values)
    return model.value(values), values


def answers(model: BoolModel, value: int) -> set[tuple[bool, ...]]:
    """Every distinct answer (projection on ``model.answer``) whose objective is ``value``."""
    cp, xs = _cp(model)
    cp.add(sum(a * xs[v] for a, v in model.objective) == value)
    found: set[tuple[bool, ...]] = set()

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.add(tuple(bool(self.value(xs[v])) for v in model.answer))

    solver = _solver()
    solver.parameters.enumerate_all_solutions = True
    status = solver.solve(cp, Collect())
    assert status in (cp_model.OPTIMAL, cp_model.INFEASIBLE), solver.status_name(status)
    return found
