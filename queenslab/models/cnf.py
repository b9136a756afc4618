"""The ``sat`` backend: the CNF of ``formula.py`` solved by python-sat's SAT solvers.

Counting splits the board on its border queens (``cubes.border_split``, the board's
symmetries) and solves each batch of cubes in one solver, under assumptions, in processes.
Models are blocked on the board variables only: blocking a whole model would also block
the auxiliary variables and count one board several times. Because every row has exactly
one queen, the clause "not all of these n queens" blocks exactly one board.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar

from queenslab.backend import Backend, Capability, Family, Option, workers_option
from queenslab.boards import VARIANTS
from queenslab.errors import LimitReached
from queenslab.models import cubes, external, forked
from queenslab.models.formula import ENCODING_OPTION, board_clauses, cell, clauses, decode
from queenslab.placement import Placement
from queenslab.problem import Problem
from queenslab.result import CountResult, SolveResult, Status
from queenslab.run import Run

#: pysat solvers that construct in this build, solve incrementally and take conflict
#: budgets. Left out: lingeling (no limited solve), kissat404 (aborts the process when
#: called again after a budget ran out), cryptosat and minisatgh (not built).
SOLVERS = (
    "cadical195",
    "cadical153",
    "cadical103",
    "cadical300",
    "glucose3",
    "glucose4",
    "glucose42",
    "gluecard3",
    "gluecard4",
    "maplechrono",
    "maplecm",
    "maplesat",
    "mergesat3",
    "minicard",
    "minisat22",
    "minisatep",
    "ergo",
)

#: Conflicts between two looks at the clock (and for Ctrl-C).
_CONFLICTS_PER_SLICE = 1000


def _blocking_clause(n: int, model: list[int]) -> list[int]:
    return [-lit for lit in model[: n * n] if lit > 0]


def _solve_until(
    solver: Any, should_stop: Callable[[], bool], assumptions: Sequence[int] = ()
) -> bool | None:
    """Solve in slices of conflicts, asking ``should_stop`` between them; None when told to.

    Conflict budgets rather than an interrupt from a timer: CaDiCaL in pysat has no
    interrupt, and every listed solver has budgets. Slices also let Ctrl-C through.
    """
    while not should_stop():
        solver.conf_budget(_CONFLICTS_PER_SLICE)
        found = solver.solve_limited(assumptions=assumptions)
        if found is not None:
            return found
    return None


def _model_stats(top: int, body: Sequence[Sequence[int]], n: int) -> dict[str, int]:
    return {"variables": top, "constraints": len(body), "auxiliary_variables": top - n * n}


def solver_stats(solver: Any) -> dict[str, int]:
    """python-sat's search counters under the shared names."""
    counters = solver.accum_stats() or {}
    return {key: int(counters.get(key, 0)) for key in _SEARCH_COUNTERS}


_SEARCH_COUNTERS = ("conflicts", "decisions", "propagations", "restarts")


def _models(problem: Problem, settings: Mapping[str, Any], run: Run) -> Iterator[list[int]]:
    """Every model, each blocked on the board once found; raises LimitReached on a stop."""
    from pysat.solvers import Solver

    n = problem.n
    with run.phase("build"):
        body, top = clauses(problem, settings["encoding"])
        solver = Solver(name=settings["solver"], bootstrap_with=body)
    run.stats.add(_model_stats(top, body, n))
    with solver:
        try:
            while True:
                found = _solve_until(solver, run.should_stop)
                if found is None:
                    raise LimitReached
                if not found:
                    return
                model = solver.get_model()
                yield model
                solver.add_clause(_blocking_clause(n, model))
        finally:
            run.stats.add(solver_stats(solver))


def count_batch(
    batch: Sequence[cubes.Cube], settings: Mapping[str, Any], should_stop: Callable[[], bool]
) -> cubes.BatchResult | None:
    """Weighted models of some cubes, in one solver taking each cube as assumptions.

    The blocking clauses of one cube may stay for the next: each blocks one solution,
    already counted, of one cube only. A module-level function, so processes can run it.
    """
    from pysat.solvers import Solver

    problem = batch[0].problem
    n = problem.n
    hard, _ = board_clauses(problem.board, settings["encoding"])
    total = 0
    with Solver(name=settings["solver"], bootstrap_with=hard) as solver:
        for cube in batch:
            assumptions = [cell(n, r, c) for r, c in cube.problem.givens]
            found = 0
            while satisfiable := _solve_until(solver, should_stop, assumptions):
                found += 1
                solver.add_clause(_blocking_clause(n, solver.get_model()))
            if satisfiable is None:
                return None
            total += cube.weight * found
        return total, solver_stats(solver)


class SatBackend(Backend):
    name = "sat"
    family = Family.MODEL
    capabilities = frozenset(
        {
            Capability.SOLVE,
            Capability.ENUMERATE,
            Capability.COUNT,
            Capability.GIVENS,
            Capability.BLOCKED,
        }
    )
    variants = frozenset(VARIANTS)
    summary = "CNF with pysat cardinality encodings; counts cube by cube in processes"
    requires: ClassVar[Mapping[str, str]] = {"pysat": "python-sat"}
    options = (
        ENCODING_OPTION,
        Option("solver", "SAT solver inside python-sat", "cadical195", choices=SOLVERS),
        workers_option(help="counting processes"),
        external.COMMAND_OPTION,
    )

    def load(self) -> None:
        import pysat.card
        import pysat.solvers  # noqa: F401

    def solve(self, problem: Problem, run: Run) -> SolveResult:
        if self.settings["solver_cmd"]:
            return external.solve(problem, self.settings, run)
        return forked.in_child(lambda: self._solve(problem, run), run, SolveResult(Status.LIMIT))

    def _solve(self, problem: Problem, run: Run) -> SolveResult:
        models = _models(problem, self.settings, run)
        try:
            model = next(models, None)
        except LimitReached:
            return SolveResult(Status.LIMIT)
        finally:
            models.close()
        if model is None:
            return SolveResult(Status.INFEASIBLE)
        return SolveResult(Status.SOLVED, Placement(decode(problem.n, model)))

    def enumerate(self, problem: Problem, run: Run) -> Iterator[Placement]:
        if self.settings["solver_cmd"]:
            yield from external.enumerate_boards(problem, self.settings, run)
            return
        for model in _models(problem, self.settings, run):
            yield Placement(decode(problem.n, model))

    def count(self, problem: Problem, run: Run, unique: bool = False) -> CountResult:
        if self.settings["solver_cmd"]:
            return external.count(problem, self.settings, run)
        with run.phase("build"):
            split = cubes.border_split(problem)
            body, top = clauses(problem, self.settings["encoding"])
        run.stats.add(_model_stats(top, body, problem.n), cubes=len(split))
        total = cubes.count_cubes(count_batch, split, self.settings, run, pool="process")
        return CountResult(total, status=Status.SOLVED if total is not None else Status.LIMIT)
