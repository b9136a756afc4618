"""The one place that maps a MILP solver name to a working Pyomo interface.

Pyomo has three solver interfaces that disagree on names, options and results: the legacy
``SolverFactory`` (``glpk``, ``cbc``, ``cplex``), APPSI (``appsi_highs``) and the newer
``pyomo.contrib.solver`` factory (``highs``, ``scip_persistent``, ``gurobi_persistent``).
Which of them offers a solver changed between Pyomo releases, so each user-facing name
lists its candidates in order of preference and the first one the installed Pyomo knows
and can run wins. The adapters below turn every interface into the same small API:
``prepare`` once, ``add_constraint`` for cuts, ``solve(time_limit)`` -> ``Outcome``, and
``said``: the solver's own words for a solve that ended without an answer.

While it solves, a solver tells its news (``listen``) only through its own callbacks, and
no Pyomo interface offers them; HiGHS's come through the ``highspy.Highs`` object that
the persistent HiGHS interfaces (contrib and APPSI) keep in ``_solver_model``, its columns
numbered in ``_pyomo_var_to_solver_var_map`` (both private: tests/unit/test_milp.py fails
when they change).
"""

from __future__ import annotations

import logging
import math
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from enum import Enum
from typing import Any, ClassVar

from queenslab.core.errors import UsageError

#: User-facing solver name -> (interface, name in that interface's factory), best first.
CANDIDATES: dict[str, tuple[tuple[str, str], ...]] = {
    "highs": (("contrib", "highs"), ("appsi", "highs")),
    "scip": (("contrib", "scip_persistent"), ("contrib", "scip_direct")),
    "gurobi": (("contrib", "gurobi_persistent"), ("appsi", "gurobi")),
    "cplex": (("appsi", "cplex"), ("legacy", "cplex")),
    "cbc": (("appsi", "cbc"), ("legacy", "cbc")),
    "glpk": (("legacy", "glpk"),),
}


#: Options that switch presolve off, per solver. HiGHS presolve on a big feasibility model
#: ignores the time limit (n = 400: 4.9 s for a 2 s limit) and slows n = 256 from 0.7 s to
#: 2.5 s; on the small enumeration subproblems it pays (n = 9: 1.3 s with, 3.5 s without).
NO_PRESOLVE: dict[str, dict[str, Any]] = {"highs": {"presolve": "off"}}


#: What ``PyomoSolver.listen`` hears while the solver runs: a better answer's values (one
#: per variable listened to; None: only the bound moved) and the solver's dual bound.
Hear = Callable[[list[float] | None, float], None]


class Outcome(Enum):
    """What a solve established; values are loaded into the model when there is a solution."""

    OPTIMAL = "optimal"  # a solution proven optimal (for a feasibility model: any solution)
    FEASIBLE = "feasible"  # a solution, but a limit stopped the proof of optimality
    INFEASIBLE = "infeasible"
    LIMIT = "limit"  # a limit stopped the solver before any solution
    ERROR = "error"  # the solver failed: neither an answer nor a limit (see ``said``)


def known_name(name: str) -> str:
    """Option converter: accept only names this module knows how to resolve."""
    key = str(name).lower()
    if key not in CANDIDATES:
        raise ValueError(f"unknown MILP solver; choose from: {', '.join(CANDIDATES)}")
    return key


def available_solvers() -> list[str]:
    """The user-facing names that resolve to a runnable solver here."""
    return [name for name in CANDIDATES if _resolve(name) is not None]


def open_solver(name: str) -> PyomoSolver:
    """A fresh adapter for ``name``; UsageError listing the available ones otherwise."""
    key = known_name(name)
    resolved = _resolve(key)
    if resolved is None:
        found = ", ".join(available_solvers()) or "none"
        raise UsageError(f"MILP solver {key!r} is not available here (available: {found})")
    interface, solver = resolved
    return _ADAPTERS[interface](key, solver)


def _resolve(name: str) -> tuple[str, Any] | None:
    for interface, pyomo_name in CANDIDATES[name]:
        solver = _FACTORIES[interface](pyomo_name)
        if solver is not None:
            return interface, solver
    return None


def _contrib(name: str) -> Any:
    import pyomo.environ  # noqa: F401  (registers the solver plugins)
    from pyomo.contrib.solver.common.factory import SolverFactory

    return _runnable(SolverFactory, name)


def _appsi(name: str) -> Any:
    import pyomo.environ  # noqa: F401  (registers the solver plugins)
    from pyomo.contrib.appsi.base import SolverFactory

    return _runnable(SolverFactory, name)


def _runnable(factory: Any, name: str) -> Any:
    """An instance when this Pyomo registers ``name`` and the solver can run, else None."""
    if name not in factory:
        return None
    solver = factory(name)
    return solver if solver.available() else None


def _legacy(name: str) -> Any:
    import pyomo.environ as pe

    solver = pe.SolverFactory(name)
    return solver if solver.available(exception_flag=False) else None


_FACTORIES = {"contrib": _contrib, "appsi": _appsi, "legacy": _legacy}


def _own_capture_lock() -> None:
    """In a forked child, give Pyomo's output capture a lock of the child's own.

    Once ``multiprocessing`` is imported, Pyomo guards its capture of the process's file
    descriptors with a ``multiprocessing.Lock``: one semaphore shared by the parent and
    every forked child. A child killed while it held it (a portfolio's loser, a run
    stopped at its deadline, both just as HiGHS starts or ends) left it taken for good, and
    every later HiGHS solve of the process and of its children waited 200 s for it (CI:
    eleven harness tests ran into their 60 s limit). Each process captures its own
    descriptors, so a lock per process is all the capture needs.
    """
    dependencies: Any = sys.modules.get("pyomo.common.dependencies")  # untyped
    if dependencies is not None:
        dependencies.capture_output_lock = threading.Lock()


os.register_at_fork(after_in_child=_own_capture_lock)


class _NoInterruptWarning(logging.Filter):
    """Pyomo's HiGHS interface warns of HiGHS's status ``kInterrupt`` as unhandled: it is
    ``listen`` stopping the search, a limit, said in the result."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "kInterrupt" not in record.getMessage()


@contextmanager
def _interrupt_unsaid() -> Iterator[None]:
    logger = logging.getLogger("pyomo.contrib.solver.solvers.highs")
    quiet = _NoInterruptWarning()
    logger.addFilter(quiet)
    try:
        yield
    finally:
        logger.removeFilter(quiet)


@contextmanager
def _ctrl_c_kept() -> Iterator[None]:
    """Pyomo's output capture turns Ctrl-C into ``RuntimeError("KeyboardInterrupt: ...")``.

    Turn it back, so an interrupted solve ends like any other interrupted run.
    """
    try:
        yield
    except RuntimeError as exc:
        if str(exc).startswith("KeyboardInterrupt"):
            raise KeyboardInterrupt from exc
        raise


class PyomoSolver:
    """Common adapter API. A persistent solver keeps the model loaded between solves."""

    def __init__(self, name: str, solver: Any, persistent: bool) -> None:
        self.name = name
        self.solver = solver
        self.persistent = persistent
        self.model: Any = None
        #: The last solve's search effort under the shared names (``queenslab.core.stats``),
        #: where the interface reports it.
        self.effort: dict[str, int] = {}
        #: The last solve's proven bound on the objective (None: none reported), and its
        #: termination condition in the interface's words (for a failure's message).
        self.bound: float | None = None
        self.condition = ""
        #: The last solve was ended by ``listen``'s ``should_stop`` (a limit).
        self.interrupted = False

    def prepare(self, model: Any) -> None:
        """Hand the finished model over; a persistent solver loads it now, outside the clock.

        Later changes are pushed explicitly (``add_constraint``), so Pyomo's scan of the
        whole model for changes before each solve (about a second at n = 400) is switched off.
        """
        self.model = model
        if self.persistent:
            updates = self._update_flags()
            for key in list(updates):
                if key.startswith(("check_for_", "update_")):
                    updates[key] = False
            self.solver.set_instance(model)

    def listen(self, variables: Sequence[Any], hear: Hear, should_stop: Callable[[], bool]) -> bool:
        """From ``prepare`` on, have the solver tell ``hear`` each improving answer (the
        values of ``variables``) and its dual bound as the search goes, and end the search
        (a limit) once ``should_stop()`` says so: the only way to stop a solve on a CPU
        limit. False where the solver tells nothing (every solver but HiGHS)."""
        highs = getattr(self.solver, "_solver_model", None)
        columns = getattr(self.solver, "_pyomo_var_to_solver_var_map", None)
        if self.name != "highs" or highs is None or columns is None:
            return False
        numbers = [columns[id(var)] for var in variables]

        def improved(event: Any) -> None:
            found = event.data_out.mip_solution
            hear([found[i] for i in numbers], event.data_out.mip_dual_bound)

        def working(event: Any) -> None:
            hear(None, event.data_out.mip_dual_bound)
            if should_stop():
                self.interrupted = True
                event.interrupt()

        highs.cbMipImprovingSolution.subscribe(improved)
        highs.cbMipInterrupt.subscribe(working)
        return True

    def add_constraint(self, constraint: Any) -> None:
        """Tell the solver about a constraint added to the model after ``prepare``."""
        if self.persistent:
            self.solver.add_constraints([constraint])

    def remove_constraints(self, constraints: list[Any]) -> None:
        """Drop constraints from the solver and deactivate them in the model."""
        if self.persistent and constraints:
            self.solver.remove_constraints(constraints)
        for constraint in constraints:
            constraint.deactivate()

    def update_variables(self, variables: list[Any]) -> None:
        """Tell the solver that these variables' bounds or fixed values changed."""
        if self.persistent:
            self.solver.update_variables(variables)

    def solve(self, time_limit: float | None, presolve: bool = True) -> Outcome:
        """Solve to proven optimality: objectives here are integral, so the gap must be 0
        (MILP solvers stop at a 0.01% relative gap by default, which is not optimal)."""
        raise NotImplementedError

    def _presolve_options(self, presolve: bool) -> dict[str, Any]:
        return {} if presolve else dict(NO_PRESOLVE.get(self.name, {}))

    def _update_flags(self) -> Any:
        raise NotImplementedError

    @property
    def said(self) -> str:
        """How the last solve ended, in the solver's words (for a failure's message)."""
        return f"{self.name} ended with termination condition {self.condition!r}"

    def _limit_or_error(self, limited: bool, condition: Any) -> Outcome:
        """A solve without a solution or a proof: a limit, or a failure in the solver's words."""
        self.condition = getattr(condition, "name", str(condition))
        return Outcome.LIMIT if limited else Outcome.ERROR


class _ContribSolver(PyomoSolver):
    """``pyomo.contrib.solver`` (Pyomo >= 6.9): options as keywords, ``time_limit`` float."""

    def __init__(self, name: str, solver: Any) -> None:
        super().__init__(name, solver, persistent=hasattr(solver, "add_constraints"))

    def _update_flags(self) -> Any:
        return self.solver.config.auto_updates

    def solve(self, time_limit: float | None, presolve: bool = True) -> Outcome:
        from pyomo.contrib.solver.common.results import SolutionStatus, TerminationCondition

        self.interrupted = False
        with _ctrl_c_kept(), _interrupt_unsaid():
            results = self.solver.solve(
                self.model,
                time_limit=time_limit,
                rel_gap=0.0,
                abs_gap=0.5,
                solver_options=self._presolve_options(presolve),
                load_solutions=False,
                raise_exception_on_nonoptimal_result=False,
            )
        extra = results.extra_info
        self.bound = results.objective_bound
        self.condition = results.termination_condition.name
        self.effort = {
            name: int(value)
            for name, key in _CONTRIB_EFFORT.items()
            if isinstance(value := getattr(extra, key, None), int) and value >= 0
        }
        condition = results.termination_condition
        if condition in (
            TerminationCondition.provenInfeasible,
            TerminationCondition.infeasibleOrUnbounded,
        ):
            return Outcome.INFEASIBLE
        if results.solution_status in (SolutionStatus.optimal, SolutionStatus.feasible):
            results.solution_loader.load_vars()
            if condition is TerminationCondition.convergenceCriteriaSatisfied:
                return Outcome.OPTIMAL
            return Outcome.FEASIBLE
        return self._limit_or_error(
            self.interrupted
            or condition in (TerminationCondition.maxTimeLimit, TerminationCondition.interrupted),
            condition,
        )


#: Shared statistics names -> ``results.extra_info`` entries of pyomo.contrib.solver HiGHS.
_CONTRIB_EFFORT = {"mip_nodes": "mip_node_count", "lp_iterations": "simplex_iteration_count"}


class _AppsiSolver(PyomoSolver):
    """APPSI (Pyomo 6.4 - 6.8 era): options on ``solver.config``, results without status."""

    def __init__(self, name: str, solver: Any) -> None:
        super().__init__(name, solver, persistent=True)
        solver.config.load_solution = False

    def _update_flags(self) -> Any:
        return self.solver.update_config

    def solve(self, time_limit: float | None, presolve: bool = True) -> Outcome:
        from pyomo.contrib.appsi.base import TerminationCondition

        self.interrupted = False
        self.solver.config.time_limit = time_limit
        self.solver.config.mip_gap = 0.0
        if hasattr(self.solver, f"{self.name}_options"):  # e.g. highs_options
            setattr(self.solver, f"{self.name}_options", self._presolve_options(presolve))
        with _ctrl_c_kept():
            results = self.solver.solve(self.model)
        condition = results.termination_condition
        self.bound, self.condition = results.best_objective_bound, condition.name
        if condition in (
            TerminationCondition.infeasible,
            TerminationCondition.infeasibleOrUnbounded,
        ):
            return Outcome.INFEASIBLE
        if results.best_feasible_objective is not None:
            results.solution_loader.load_vars()
            return (
                Outcome.OPTIMAL if condition is TerminationCondition.optimal else Outcome.FEASIBLE
            )
        return self._limit_or_error(
            self.interrupted
            or condition in (TerminationCondition.maxTimeLimit, TerminationCondition.interrupted),
            condition,
        )


class _LegacySolver(PyomoSolver):
    """The original ``SolverFactory``: a fresh solve each time; GLPK wants whole seconds."""

    #: Each command-line solver's name for the relative MIP gap.
    GAP_OPTION: ClassVar[dict[str, str]] = {
        "glpk": "mipgap",
        "cbc": "ratioGap",
        "cplex": "mip_tolerances_mipgap",
    }

    def __init__(self, name: str, solver: Any) -> None:
        super().__init__(name, solver, persistent=False)

    def solve(self, time_limit: float | None, presolve: bool = True) -> Outcome:
        from pyomo.opt import SolutionStatus, TerminationCondition

        options: dict[str, Any] = {"load_solutions": False}
        self.solver.options.update(self._presolve_options(presolve))
        if self.solver.name in self.GAP_OPTION:
            self.solver.options[self.GAP_OPTION[self.solver.name]] = 0
        if time_limit is not None:
            whole = self.solver.name == "glpk"
            options["timelimit"] = max(1, math.ceil(time_limit)) if whole else time_limit
        with _ctrl_c_kept():
            results = self.solver.solve(self.model, **options)
        condition = results.solver.termination_condition
        self.condition = str(condition)
        if condition in (
            TerminationCondition.infeasible,
            TerminationCondition.infeasibleOrUnbounded,
        ):
            return Outcome.INFEASIBLE
        if len(results.solution) and results.solution(0).status in (
            SolutionStatus.optimal,
            SolutionStatus.feasible,
        ):
            self.model.solutions.load_from(results)
            return (
                Outcome.OPTIMAL if condition is TerminationCondition.optimal else Outcome.FEASIBLE
            )
        return self._limit_or_error(condition is TerminationCondition.maxTimeLimit, condition)


_ADAPTERS: dict[str, Callable[[str, Any], PyomoSolver]] = {
    "contrib": _ContribSolver,
    "appsi": _AppsiSolver,
    "legacy": _LegacySolver,
}
