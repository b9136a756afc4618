"""N-queens as a 0-1 integer program in Pyomo, solved by HiGHS or any MILP solver Pyomo finds.

The model is the placement kind's (``problems.placement``), translated as every kind's
model is (``zero_one.milp.translate``): a binary per open cell, each of the board's groups
one row. What is placement's own here is the search over it, not a second statement:
solving a feasibility model with presolve off (``pyomo_solvers.NO_PRESOLVE``), and
enumerating by subproblems. Weighted placement is the kind's model optimised as any
kind's (``zero_one.backend``). The model
is built once per call and handed to a persistent solver; enumeration and counting then
re-solve it after each no-good cut (``sum of the cells of the last solution <= n - 1``),
which is only sensible for small n: each solution costs a solve. A solve that fails (the
solver's status ``error``) is tried once more; a second failure is reported as such, in the
solver's words (``stats["solver_said"]``), never as a time limit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any, ClassVar

from queenslab.boards import VARIANTS, Cell
from queenslab.core.backend import EVERY_KIND, Family, Feature, Option, Task
from queenslab.core.errors import LimitReached, Undecided
from queenslab.core.kind import Question
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import CountResult, SolveResult, Status
from queenslab.core.run import Run, never
from queenslab.models import cubes
from queenslab.models.pyomo_solvers import Outcome, PyomoSolver, known_name, open_solver
from queenslab.models.zero_one.backend import MODEL_TASKS, KindModels
from queenslab.runtime import forked
from queenslab.runtime.stop import run_stoppably


@dataclass(frozen=True)
class Stated:
    """The placement kind's model of a problem in Pyomo (``zero_one.milp.translate``): x[v]
    per open cell v, row by row; None when a row or column has no open cell."""

    model: Any
    cells: tuple[Cell, ...]

    @cached_property
    def x(self) -> dict[Cell, Any]:
        """The Pyomo variable of each open cell."""
        return dict(zip(self.cells, self.model.x.values(), strict=True))

    def placement(self, n: int) -> Placement:
        """The columns of the cells whose x is (numerically) 1."""
        import numpy as np

        cols = np.full(n, -1, dtype=np.int64)
        for (r, c), var in self.x.items():
            if var.value is not None and var.value > 0.5:
                cols[r] = c
        return Placement(cols if n > 64 else tuple(cols.tolist()))


def _constraint_list() -> Any:
    import pyomo.environ as pe

    return pe.ConstraintList()


def state(problem: Problem) -> Stated | None:
    """The placement model of ``problem``, givens fixed, nothing to optimise: the kind's
    own statement (``problems.placement``), translated as every kind's is."""
    from queenslab.models.zero_one.milp import translate
    from queenslab.problems.placement import feasibility_model

    stated = feasibility_model(problem.board, problem.givens)
    model = translate(stated)
    return None if model is None else Stated(model, tuple(problem.board.open_cells()))


#: Enumeration leaves this many free rows to the solver and splits on the rows above them.
_SOLVER_ROWS = 6


def subproblems(
    problem: Problem, depth: int, should_stop: Callable[[], bool] = never
) -> Iterator[list[tuple[int, int]]]:
    """Every peaceful placement of the first ``depth`` rows without a given queen.

    No-good cuts make each MILP harder than the last (n = 8 took 5.8 s in one model); the
    same cuts inside small subproblems keep every solve a few milliseconds (0.4 s).
    """
    givens = problem.given_cols
    rows = [r for r in range(problem.n) if r not in givens][:depth]
    for cols in cubes.prefixes(problem, rows, should_stop):
        yield list(zip(rows, cols, strict=True))


def _no_news(_values: list[float] | None, _bound: float) -> None:
    """Placement's solves tell nothing on the way: a board is found whole."""


class _Session:
    """One built model on one prepared solver; the run's deadline bounds every solve."""

    def __init__(self, solver_name: str, problem: Problem, run: Run):
        self.problem = problem
        self.run = run
        with run.phase("build"):
            self.solver: PyomoSolver = open_solver(solver_name)
            self.stated = state(problem)
            if self.stated is not None:
                self.stated.model.cuts = _constraint_list()
                self.solver.prepare(self.stated.model)
                self.solver.listen([], _no_news, run.should_stop)  # HiGHS: stops at a CPU limit
        constraints = 0 if self.stated is None else len(self.stated.model.rows)
        run.stats.add(
            variables=0 if self.stated is None else len(self.stated.cells),
            constraints=constraints,
            solver=solver_name,
        )

    def solve(self, presolve: bool = True) -> Outcome:
        """One solve; a failed one again, without presolve.

        HiGHS 1.12 fails now and then on a subproblem that its cuts made infeasible (about
        one random instance in 600: ``count 7 --blocked 6:5 --given 4:1`` after its fifth
        cut), and the same model solved again proves it infeasible. A second failure is
        recorded in the solver's words.
        """
        if self.stated is None:  # a line without an open cell
            return Outcome.INFEASIBLE
        outcome = self._solve_once(presolve)
        if outcome is Outcome.ERROR:
            self.run.stats.add(resolves=1)
            outcome = self._solve_once(presolve=False)
            if outcome is Outcome.ERROR:
                self.run.stats.add(solver_said=self.solver.said)
        return outcome

    def _solve_once(self, presolve: bool) -> Outcome:
        """One solve, bounded by the deadline, in a helper thread.

        Pyomo captures the solver's output with reader threads; a Ctrl-C landing inside
        that capture broke them (a thread's traceback before the one-line message). The
        main thread takes Ctrl-C while it waits, and the solve finishes undisturbed first.
        """
        if self.run.should_stop():
            return Outcome.LIMIT
        remaining = self.run.remaining()
        _, outcome = run_stoppably(
            lambda: self.solver.solve(remaining, presolve), lambda: None, lambda: False
        )
        assert outcome is not None
        self.run.stats.add(self.solver.effort)
        return outcome

    def solutions(self) -> Iterator[Placement]:
        """Every solution once, subproblem by subproblem; LimitReached when time runs out,
        Undecided when the solver fails twice on one solve."""
        n, givens = self.problem.n, self.problem.given_cols
        depth = max(0, n - len(givens) - _SOLVER_ROWS)
        for cube in subproblems(self.problem, depth, self.run.should_stop):
            yield from self._solutions_with(cube)

    def _solutions_with(self, queens: list[tuple[int, int]]) -> Iterator[Placement]:
        """Solve, cut off the board found (``sum of its cells <= n - 1``), repeat."""
        if self.stated is None:
            return
        n, x, model = self.problem.n, self.stated.x, self.stated.model
        fixed = [x[cell] for cell in queens]
        self._set_lower_bounds(fixed, 1)
        cuts: list[Any] = []
        try:
            while (outcome := self.solve()) is not Outcome.INFEASIBLE:
                if outcome is Outcome.LIMIT:
                    raise LimitReached
                if outcome is Outcome.ERROR:
                    raise Undecided(self.solver.said)
                placement = self.stated.placement(n)
                yield placement
                cuts.append(model.cuts.add(sum(x[cell] for cell in enumerate(placement)) <= n - 1))
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


class MilpBackend(KindModels):
    name = "milp"
    family = Family.MODEL
    tasks = MappingProxyType(
        {
            "placement": frozenset({Task.SOLVE, Task.ENUMERATE, Task.COUNT}),
            EVERY_KIND: MODEL_TASKS,
        }
    )
    translator = "milp"
    features = frozenset({Feature.GIVENS, Feature.BLOCKED})
    variants = frozenset(VARIANTS)
    summary = "0-1 integer program in Pyomo; HiGHS by default (--solver: cbc, glpk, scip, ...)"
    requires: ClassVar[Mapping[str, str]] = {"pyomo": "pyomo", "highspy": "highspy"}
    options = (Option("solver", "MILP solver reached through Pyomo", "highs", convert=known_name),)

    def load(self) -> None:
        import pyomo.environ  # noqa: F401

    def _session(self, problem: Problem, run: Run) -> _Session:
        return _Session(self.settings["solver"], problem, run)

    def own_solve(self, problem: Problem, run: Run, question: Question) -> SolveResult:
        return forked.in_child(lambda: self._solve(problem, run), run, SolveResult(Status.LIMIT))

    def _solve(self, problem: Problem, run: Run) -> SolveResult:
        session = self._session(problem, run)
        outcome = session.solve(presolve=False)  # see pyomo_solvers.NO_PRESOLVE
        run.stats.add(outcome=outcome.value)
        if outcome in (Outcome.OPTIMAL, Outcome.FEASIBLE):
            assert session.stated is not None
            return SolveResult(Status.SOLVED, session.stated.placement(problem.n))
        return SolveResult(_STATUS[outcome])

    def own_enumerate(self, problem: Problem, run: Run, question: Question) -> Iterator[Placement]:
        yield from self._session(problem, run).solutions()

    def own_count(self, problem: Problem, run: Run, question: Question) -> CountResult:
        total = 0
        try:
            for _ in self._session(problem, run).solutions():
                total += 1
                run.tally(1)
        except (LimitReached, Undecided) as stopped:
            run.stats.add(found=total)
            status = Status.LIMIT if isinstance(stopped, LimitReached) else Status.UNKNOWN
            return CountResult(None, status=status)
        return CountResult(total)
