"""N-queens as a 0-1 integer program in Pyomo, solved by HiGHS or any MILP solver Pyomo finds.

Binary x[r, c] is 1 when a queen stands on (r, c): every row and column sums to 1, every
diagonal to at most 1. The model is built once per call and handed to a persistent solver;
enumeration and counting then re-solve it after each no-good cut (``sum of the cells of the
last solution <= n - 1``), which is only sensible for small n: each solution costs a solve.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar

import numpy as np

from queenslab.backend import Backend, Capability, Family, ProgressCallback
from queenslab.deadline import Deadline, LimitReached
from queenslab.models import cubes
from queenslab.models.pyomo_solvers import Outcome, PyomoSolver, known_name, open_solver
from queenslab.placement import Placement
from queenslab.problem import Problem
from queenslab.result import CountResult, OptimizeResult, SolveResult, Status


def build_model(n: int, givens: dict[int, int], weights: np.ndarray | None = None) -> Any:
    """The ConcreteModel: x[r, c] binary, given queens fixed, objective sum w*x (or 0)."""
    import pyomo.environ as pe

    model = pe.ConcreteModel(name=f"queens{n}")
    model.x = pe.Var(range(n), range(n), domain=pe.Binary)
    x = model.x
    model.rows = pe.Constraint(
        range(n), rule=lambda m, r: pe.quicksum(x[r, c] for c in range(n)) == 1
    )
    model.cols = pe.Constraint(
        range(n), rule=lambda m, c: pe.quicksum(x[r, c] for r in range(n)) == 1
    )
    # Diagonals with at least two cells: r + c = s and r - c = d.
    model.sums = pe.Constraint(
        range(1, 2 * n - 2),
        rule=lambda m, s: (
            pe.quicksum(x[r, s - r] for r in range(max(0, s - n + 1), min(n, s + 1))) <= 1
        ),
    )
    model.diffs = pe.Constraint(
        range(2 - n, n - 1),
        rule=lambda m, d: pe.quicksum(x[r, r - d] for r in range(max(0, d), min(n, n + d))) <= 1,
    )
    for r, c in givens.items():
        x[r, c].fix(1)
    if weights is None:
        model.objective = pe.Objective(expr=0)
    else:
        model.objective = pe.Objective(
            expr=pe.quicksum(
                int(weights[r, c]) * x[r, c] for r in range(n) for c in range(n) if weights[r, c]
            ),
            sense=pe.maximize,
        )
    model.cuts = pe.ConstraintList()
    return model


def read_placement(model: Any, n: int) -> Placement:
    """The columns of the cells whose x is (numerically) 1."""
    cols = np.full(n, -1, dtype=np.int64)
    for (r, c), var in model.x.items():
        if var.value is not None and var.value > 0.5:
            cols[r] = c
    return Placement(cols if n > 64 else tuple(cols.tolist()))


#: Enumeration leaves this many free rows to the solver and splits on the rows above them.
_SOLVER_ROWS = 6


def subproblems(n: int, givens: dict[int, int], depth: int) -> list[list[tuple[int, int]]]:
    """Every non-attacking placement of the first ``depth`` rows without a given queen.

    No-good cuts make each MILP harder than the last (n = 8 took 5.8 s in one model); the
    same cuts inside small subproblems keep every solve a few milliseconds (0.4 s).
    """
    rows = [r for r in range(n) if r not in givens][:depth]
    return [list(zip(rows, cols, strict=True)) for cols in cubes.prefixes(n, rows, givens)]


class _Session:
    """One built model on one prepared solver, with the time left for solving it."""

    def __init__(self, solver_name: str, problem: Problem, weights: np.ndarray | None = None):
        self.deadline = Deadline(problem.time_limit)
        self.problem = problem
        self.solver: PyomoSolver = open_solver(solver_name)
        self.model = build_model(problem.n, problem.given_cols, weights)
        self.solver.prepare(self.model)

    def solve(self, presolve: bool = True) -> Outcome:
        remaining = self.deadline.remaining()
        if remaining == 0.0:
            return Outcome.LIMIT
        return self.solver.solve(remaining, presolve)

    def solutions(self) -> Iterator[Placement]:
        """Every solution once, subproblem by subproblem; LimitReached when time runs out."""
        n, givens = self.problem.n, self.problem.given_cols
        depth = max(0, n - len(givens) - _SOLVER_ROWS)
        for cube in subproblems(n, givens, depth):
            yield from self._solutions_with(cube)

    def _solutions_with(self, queens: list[tuple[int, int]]) -> Iterator[Placement]:
        """Solve, cut off the board found (``sum of its cells <= n - 1``), repeat."""
        n, x = self.problem.n, self.model.x
        fixed = [x[r, c] for r, c in queens]
        self._set_lower_bounds(fixed, 1)
        cuts: list[Any] = []
        try:
            while (outcome := self.solve()) is not Outcome.INFEASIBLE:
                if outcome not in (Outcome.OPTIMAL, Outcome.FEASIBLE):
                    raise LimitReached
                placement = read_placement(self.model, n)
                yield placement
                cuts.append(
                    self.model.cuts.add(sum(x[r, c] for r, c in enumerate(placement)) <= n - 1)
                )
                self.solver.add_constraint(cuts[-1])
        finally:
            # Cuts of this subproblem are redundant in the others: drop them.
            self.solver.remove_constraints(cuts)
            self._set_lower_bounds(fixed, 0)

    def _set_lower_bounds(self, variables: list[Any], bound: int) -> None:
        for var in variables:
            var.setlb(bound)
        if variables:
            self.solver.update_variables(variables)


_STATUS = {
    Outcome.INFEASIBLE: Status.INFEASIBLE,
    Outcome.LIMIT: Status.LIMIT,
    Outcome.ERROR: Status.UNKNOWN,
}


class MilpBackend(Backend):
    name = "milp"
    family = Family.MODEL
    capabilities = frozenset(
        {
            Capability.SOLVE,
            Capability.ENUMERATE,
            Capability.COUNT,
            Capability.GIVENS,
            Capability.OPTIMIZE,
        }
    )
    summary = "0-1 integer program in Pyomo; HiGHS by default (--solver: cbc, glpk, scip, ...)"
    requires: ClassVar[Mapping[str, str]] = {"pyomo": "pyomo", "highspy": "highspy"}
    options: ClassVar[Mapping[str, Callable[[str], str]]] = {"solver": known_name}
    defaults: ClassVar[Mapping[str, str]] = {"solver": "highs"}

    def _session(self, problem: Problem, weights: np.ndarray | None = None) -> _Session:
        return _Session(self.settings["solver"], problem, weights)

    def solve(self, problem: Problem) -> SolveResult:
        session = self._session(problem)
        outcome = session.solve(presolve=False)  # see pyomo_solvers.NO_PRESOLVE
        stats = {"solver": self.settings["solver"], "outcome": outcome.value}
        if outcome in (Outcome.OPTIMAL, Outcome.FEASIBLE):
            return SolveResult(Status.SOLVED, read_placement(session.model, problem.n), stats=stats)
        return SolveResult(_STATUS[outcome], stats=stats)

    def enumerate(self, problem: Problem) -> Iterator[Placement]:
        yield from self._session(problem).solutions()

    def count(
        self, problem: Problem, unique: bool = False, progress: ProgressCallback | None = None
    ) -> CountResult:
        total = 0
        try:
            for _ in self._session(problem).solutions():
                total += 1
        except LimitReached:
            return CountResult(None, status=Status.LIMIT, stats={"found": total})
        return CountResult(total)

    def optimize(self, problem: Problem, weights: np.ndarray) -> OptimizeResult:
        session = self._session(problem, weights)
        outcome = session.solve()
        if outcome is Outcome.OPTIMAL:
            placement = read_placement(session.model, problem.n)
            objective = int(weights[np.arange(problem.n), placement.as_array()].sum())
            return OptimizeResult(Status.OPTIMAL, objective, placement)
        # A limit may leave a feasible board, but OPTIMAL is the only claim optimize makes.
        return OptimizeResult(Status.LIMIT if outcome is Outcome.FEASIBLE else _STATUS[outcome])
