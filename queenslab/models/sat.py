"""The ``sat`` backend: the placement model's CNF (``models.cnf``) solved by python-sat.

Counting and enumerating split the board on its border queens (``cubes.border_split``,
the board's symmetries) and solve the cubes in worker processes, each with one solver
taking its cubes as assumptions: a count weighs each cube by its orbit, an enumeration
maps each solution found onto the other cubes of its orbit (``cubes.enumerate_cubes``,
which sets the order).
Models are blocked on the board variables only: blocking a whole model would also block
the auxiliary variables and count one board several times. Because every row has exactly
one queen, the clause "not all of these n queens" blocks exactly one board.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from queenslab.boards import VARIANTS
from queenslab.core.backend import (
    EVERY_KIND,
    Family,
    Feature,
    Option,
    Task,
    workers_option,
)
from queenslab.core.errors import LimitReached, UsageError
from queenslab.core.kind import Question
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import CountResult, DecideResult, SolveResult, Status
from queenslab.core.run import Run
from queenslab.models import cubes, external
from queenslab.models.cnf import ENCODING_OPTION, BoardCnf, board_cnf
from queenslab.models.zero_one.backend import MODEL_TASKS, KindModels, decided
from queenslab.runtime import forked
from queenslab.runtime.stop import run_stoppably

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

#: The solver used unless the user names another.
DEFAULT_SOLVER = "cadical195"

#: Solvers whose solve calls grow slower in one solver object (maplecm: 1.4 ms for its
#: first cube at n = 11, 10 ms by the 110th, with no clause added between). Measured at
#: n = 12 over 730 cubes, one solver for all against a fresh one per cube: maplecm 108 s
#: against 10.6 s, mergesat3 21.5 s against 2.1 s, maplechrono 11.8 s against 3.2 s;
#: every other listed solver is 1.3-5.7x faster with one solver for all.
SLOWER_WITH_EACH_CALL = frozenset({"maplechrono", "maplecm", "mergesat3"})

#: Conflicts between two looks at the clock (and for Ctrl-C).
_CONFLICTS_PER_SLICE = 1000


def solve_until(
    solver: Any, should_stop: Callable[[], bool], assumptions: Sequence[int] = ()
) -> bool | None:
    """Solve in slices of conflicts, asking ``should_stop`` between them; None when told to.

    Conflict budgets rather than an interrupt from a timer: CaDiCaL in pysat has no
    interrupt, and every listed solver has budgets. Where Ctrl-C can land (the main
    thread, SIGINT not blocked), the slices run in a helper thread: python-sat's own
    SIGINT handler, put in place for a solve in the main thread, jumps out of the solver
    mid-search, and CaDiCaL, left in an invalid state, aborts the process at the next call
    on it (its statistics, its deletion). In a helper thread python-sat catches nothing,
    Ctrl-C lands in the waiting main thread, and the solver ends its slice first.
    """
    if not _ctrl_c_lands_here():
        return _slices(solver, should_stop, assumptions)
    halt = threading.Event()
    _, found = run_stoppably(
        lambda: _slices(solver, lambda: halt.is_set() or should_stop(), assumptions),
        halt.set,
        should_stop,
    )
    return found


def _ctrl_c_lands_here() -> bool:
    """Whether SIGINT is handled by this thread: the main one, with SIGINT not blocked
    (a worker process blocks it, ``runtime.stop.leave_sigint_to_parent``)."""
    if threading.current_thread() is not threading.main_thread():
        return False
    return signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, ())


def _slices(
    solver: Any, should_stop: Callable[[], bool], assumptions: Sequence[int]
) -> bool | None:
    while not should_stop():
        solver.conf_budget(_CONFLICTS_PER_SLICE)
        found: bool | None = solver.solve_limited(assumptions=assumptions)
        if found is not None:
            return found
    return None


def _model_stats(formula: BoardCnf, givens: int) -> dict[str, int]:
    return {
        "variables": formula.top,
        "constraints": len(formula.clauses) + givens,
        "auxiliary_variables": formula.top - formula.board_size,
    }


def solver_stats(solver: Any) -> dict[str, int]:
    """python-sat's search counters under the shared names."""
    counters = solver.accum_stats() or {}
    return {key: int(counters.get(key, 0)) for key in _SEARCH_COUNTERS}


_SEARCH_COUNTERS = ("conflicts", "decisions", "propagations", "restarts")


def _cube_models(
    solver: Any, formula: BoardCnf, cube: cubes.Cube, should_stop: Callable[[], bool]
) -> Iterator[list[int]]:
    """Every model of one cube (its queens as assumptions), each blocked once found.

    The blocking clauses may stay for the next cube: each blocks one solution of this cube
    only. Raises LimitReached when ``should_stop`` says stop first.
    """
    assumptions = formula.units(cube.problem.givens)
    while satisfiable := solve_until(solver, should_stop, assumptions):
        model = solver.get_model()
        yield model
        solver.add_clause(formula.blocking(model))
    if satisfiable is None:
        raise LimitReached


def _solve_cubes(
    problem: Problem,
    claimed: Iterable[cubes.Cube],
    settings: Mapping[str, Any],
    should_stop: Callable[[], bool],
    per_cube: Callable[[BoardCnf, Iterator[list[int]]], Iterable[Any]],
) -> Generator[tuple[cubes.Cube | None, Any], None, None]:
    """The items ``per_cube(formula, models)`` of each cube, then the summed search statistics.

    One solver takes all the cubes, keeping what it learnt, except the solvers in
    ``SLOWER_WITH_EACH_CALL``, which get a fresh solver per cube.
    """
    from pysat.solvers import Solver

    formula = board_cnf(problem.board, settings["encoding"], should_stop)  # a fork has it
    fresh = settings["solver"] in SLOWER_WITH_EACH_CALL
    batches = ([cube] for cube in claimed) if fresh else [claimed]
    totals = dict.fromkeys(_SEARCH_COUNTERS, 0)
    for batch in batches:
        with Solver(name=settings["solver"], bootstrap_with=formula.clauses) as solver:
            for cube in batch:
                for result in per_cube(formula, _cube_models(solver, formula, cube, should_stop)):
                    yield cube, result
            for key, value in solver_stats(solver).items():
                totals[key] += value
    yield None, totals


def cube_counts(
    problem: Problem,
    claimed: Iterable[cubes.Cube],
    settings: Mapping[str, Any],
    should_stop: Callable[[], bool],
) -> Generator[tuple[cubes.Cube | None, Any], None, None]:
    """The number of models of each cube (module-level, so processes can run it)."""
    return _solve_cubes(
        problem, claimed, settings, should_stop, lambda _, models: [sum(1 for _ in models)]
    )


def cube_solutions(
    problem: Problem,
    claimed: Iterable[cubes.Cube],
    settings: Mapping[str, Any],
    should_stop: Callable[[], bool],
) -> Generator[tuple[cubes.Cube | None, Any], None, None]:
    """The boards (columns) of each cube's models in chunks, decoded in the worker."""
    return _solve_cubes(
        problem,
        claimed,
        settings,
        should_stop,
        lambda formula, models: cubes.chunks(formula.columns(m) for m in models),
    )


class SatBackend(KindModels):
    name = "sat"
    family = Family.MODEL
    tasks = MappingProxyType(
        {
            "placement": frozenset({Task.SOLVE, Task.ENUMERATE, Task.COUNT}),
            EVERY_KIND: MODEL_TASKS,
        }
    )
    translator = "sat"
    features = frozenset({Feature.GIVENS, Feature.BLOCKED})
    variants = frozenset(VARIANTS)
    summary = "CNF with pysat cardinality encodings; counts cube by cube in processes"
    requires: ClassVar[Mapping[str, str]] = {"pysat": "python-sat"}
    options = (
        ENCODING_OPTION,
        Option("solver", "SAT solver inside python-sat", DEFAULT_SOLVER, choices=SOLVERS),
        workers_option(help="counting processes"),
        external.COMMAND_OPTION,
    )
    #: A problem kind runs in python-sat, on one process; a decide runs its cubes
    #: (``--split``) on ``workers`` and the CaDiCaL program for its ``--proof``.
    native_options = frozenset({"workers", "solver_cmd"})

    @classmethod
    def ignores(cls, option: str, task: Task, own: bool) -> str | None:
        if task is Task.DECIDE:  # --split takes ``workers`` for its pool, not the backend
            return "only with --split (its cubes at a time)" if option == "workers" else None
        return super().ignores(option, task, own)

    def decide(
        self, problem: Problem, run: Run, question: Question, value: int, proof: str | None = None
    ) -> DecideResult:
        """With ``proof``, the CaDiCaL program decides and its proof of a no is checked
        (``models.zero_one.proved``); otherwise python-sat decides, as every kind task."""
        if proof is None:
            if self.settings["solver_cmd"]:
                raise UsageError("--solver-cmd runs a problem kind only with decide --proof")
            return super().decide(problem, run, question, value)
        from queenslab.models.zero_one import proved

        command = proved.program(self.settings["solver_cmd"])
        target = proved.folder(proof)
        with run.phase("build"):
            model = question.build(problem.board).with_objective_bound(value)
        outcome, checked = proved.decide(model, run, self.settings, target, command)
        result = decided(problem, question, model, outcome, value)
        result.proof, result.proof_dir = checked, str(target)
        return result

    def load(self) -> None:
        import pysat.card
        import pysat.solvers  # noqa: F401

    def own_solve(self, problem: Problem, run: Run, question: Question) -> SolveResult:
        if self.settings["solver_cmd"]:
            return external.solve(problem, self.settings, run)
        return forked.in_child(lambda: self._solve(problem, run), run, SolveResult(Status.LIMIT))

    def _solve(self, problem: Problem, run: Run) -> SolveResult:
        from pysat.solvers import Solver

        with run.phase("build"):
            formula = board_cnf(problem.board, self.settings["encoding"])
            body = formula.with_givens(problem.givens)
            solver = Solver(name=self.settings["solver"], bootstrap_with=body)
        run.stats.add(_model_stats(formula, len(problem.givens)))
        with solver:
            found = solve_until(solver, run.should_stop)
            run.stats.add(solver_stats(solver))
            if found is None:
                return SolveResult(Status.LIMIT)
            if not found:
                return SolveResult(Status.INFEASIBLE)
            return SolveResult(Status.SOLVED, Placement(formula.columns(solver.get_model())))

    def own_enumerate(self, problem: Problem, run: Run, question: Question) -> Iterator[Placement]:
        if self.settings["solver_cmd"]:
            yield from external.enumerate_boards(problem, self.settings, run)
            return
        self._record_model(problem, run)
        for cols in cubes.enumerate_cubes(
            cube_solutions, cubes.border_split, problem, self.settings, run, pool="process"
        ):
            yield Placement(cols)

    def own_count(self, problem: Problem, run: Run, question: Question) -> CountResult:
        if self.settings["solver_cmd"]:
            return external.count(problem, self.settings, run)
        try:
            self._record_model(problem, run)
        except LimitReached:
            return CountResult(None, status=Status.LIMIT)
        total = cubes.count_cubes(
            cube_counts, cubes.border_split, problem, self.settings, run, pool="process"
        )
        return CountResult(total, status=Status.SOLVED if total is not None else Status.LIMIT)

    def _record_model(self, problem: Problem, run: Run) -> None:
        """The whole model's size in the record; its clauses, built here, are inherited by
        the forked workers. LimitReached when the run stops first."""
        with run.phase("build"):
            formula = board_cnf(problem.board, self.settings["encoding"], run.should_stop)
        run.stats.add(_model_stats(formula, len(problem.givens)))
