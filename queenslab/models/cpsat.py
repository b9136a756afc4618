"""N-queens in OR-Tools CP-SAT: two formulations, parallel solve, streamed enumeration.

``integer``: one variable per row (its queen's column), AllDifferent on q, q+i and q-i.
``boolean``: n² Booleans, exactly one per row and column, at most one per diagonal.

Enumerating solves run one worker each: with several workers ``enumerate_all_solutions``
misses and repeats solutions. Counting gets its parallelism from independent cubes
instead (``cubes``), run on threads since CP-SAT releases the GIL while it searches. They
use a fixed search, row by row and lowest column first, which also makes enumeration come
out in lexicographic order, and no SAT inprocessing (about twice as fast here).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from queenslab.backend import (
    Backend,
    Capability,
    Family,
    ProgressCallback,
    default_workers,
    positive_int,
)
from queenslab.deadline import LimitReached, run_stoppably
from queenslab.models import cubes
from queenslab.placement import Placement
from queenslab.problem import Problem
from queenslab.result import CountResult, OptimizeResult, SolveResult, Status

FORMULATIONS = ("integer", "boolean")
#: Rows fixed per counting cube (one at each end of the board). The border split, with
#: hundreds of cubes, costs more here: every cube is a new model and a new solve.
CUBE_DEPTH = 2
#: Solutions buffered between the solver thread and the consumer of ``enumerate``.
_QUEUE_SIZE = 256


@dataclass
class Model:
    """A CP-SAT model with its row variables and a decoder of solutions."""

    model: Any  # cp_model.CpModel
    decisions: list[Any]  # search order: row by row
    columns: Callable[[Callable[[Any], int]], tuple[int, ...]]  # value getter -> cols
    board: list[list[Any]] | None = None  # the Boolean board (boolean formulation)


def build(problem: Problem, formulation: str) -> Model:
    """The model of ``problem``; given queens are fixed in it before any search."""
    from ortools.sat.python import cp_model

    n = problem.n
    given = problem.given_cols
    model = cp_model.CpModel()
    if formulation == "integer":
        q = [model.new_int_var(given.get(r, 0), given.get(r, n - 1), f"q{r}") for r in range(n)]
        model.add_all_different(q)
        model.add_all_different([q[r] + r for r in range(n)])
        model.add_all_different([q[r] - r for r in range(n)])
        return Model(model, q, lambda value: tuple(int(value(v)) for v in q))
    x = [[model.new_bool_var(f"x{r}_{c}") for c in range(n)] for r in range(n)]
    for i in range(n):
        model.add_exactly_one(x[i])
        model.add_exactly_one([x[r][i] for r in range(n)])
    for d in range(2 * n - 1):
        model.add_at_most_one([x[r][d - r] for r in range(n) if 0 <= d - r < n])
        model.add_at_most_one([x[r][r - d + n - 1] for r in range(n) if 0 <= r - d + n - 1 < n])
    for r, c in problem.givens:
        model.add(x[r][c] == 1)
    cells = [v for row in x for v in row]

    def columns(value: Callable[[Any], int]) -> tuple[int, ...]:
        return tuple(next(c for c in range(n) if value(x[r][c])) for r in range(n))

    return Model(model, cells, columns, x)


def _new_solver() -> Any:
    """A CpSolver that leaves Ctrl-C to Python.

    With its default ``catch_sigint_signal`` CP-SAT installs a SIGINT handler of its own and
    leaves SIG_DFL behind when the solve returns (ortools 9.15); installed from the worker
    threads of a cube count at once, it aborted the process with ``bad_function_call``.
    """
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.catch_sigint_signal = False
    return solver


def _solve_interruptibly(solver: Any, model: Any) -> Any:
    """Solve in a helper thread, so Ctrl-C reaches the main thread at once and stops it."""
    return run_stoppably(lambda: solver.solve(model), solver.stop_search)[1]


def _enumerating_solver(built: Model, formulation: str, seconds: float | None) -> Any:
    """A one-worker solver that visits every solution in lexicographic order."""
    from ortools.sat.python import cp_model

    lowest_first = (
        cp_model.SELECT_MIN_VALUE if formulation == "integer" else cp_model.SELECT_MAX_VALUE
    )
    built.model.add_decision_strategy(built.decisions, cp_model.CHOOSE_FIRST, lowest_first)
    solver = _new_solver()
    params = solver.parameters
    params.enumerate_all_solutions = True
    params.num_workers = 1
    params.search_branching = cp_model.FIXED_SEARCH
    params.use_sat_inprocessing = False
    if seconds is not None:
        params.max_time_in_seconds = seconds
    return solver


def _enumerate(
    problem: Problem,
    formulation: str,
    seconds: float | None,
    on_solution: Callable[[Callable[[Any], int], Model], bool],
) -> bool:
    """Call ``on_solution(value, model)`` for every solution until it returns False.

    Returns True when the search finished (or was stopped by ``on_solution``), False when
    the time limit ended it.
    """
    from ortools.sat.python import cp_model

    built = build(problem, formulation)
    solver = _enumerating_solver(built, formulation, seconds)

    class Callback(cp_model.CpSolverSolutionCallback):
        stopped = False

        def on_solution_callback(self) -> None:
            if cubes.interrupted():
                self.stop_search()
            elif not on_solution(self.value, built):
                self.stopped = True
                self.stop_search()

    callback = Callback()
    status = solver.solve(built.model, callback)
    return callback.stopped or status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)


def _count_cube(problem: Problem, formulation: str, end: float | None) -> int | None:
    """Solutions of one cube, or None when wall-clock ``end`` passes first."""
    seconds = None if end is None else end - time.time()
    if seconds is not None and seconds <= 0:
        return None
    found = 0

    def tally(_value: Callable[[Any], int], _model: Model) -> bool:
        nonlocal found
        found += 1
        return True

    return found if _enumerate(problem, formulation, seconds, tally) else None


def count_batch(
    batch: Sequence[cubes.Cube], settings: Mapping[str, Any], end: float | None
) -> int | None:
    """Weighted solutions of some cubes, one model and one solve per cube."""
    total = 0
    for cube in batch:
        found = _count_cube(cube.problem, settings["formulation"], end)
        if found is None:
            return None
        total += cube.weight * found
    return total


def _stream(problem: Problem, formulation: str) -> Iterator[tuple[int, ...]]:
    """Solutions from a solver thread through a bounded queue, never all held at once."""
    channel: queue.Queue[Any] = queue.Queue(_QUEUE_SIZE)
    abandoned = threading.Event()
    finished = object()

    def put(item: Any) -> bool:
        while not abandoned.is_set():
            try:
                channel.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            completed = _enumerate(
                problem,
                formulation,
                problem.time_limit,
                lambda value, built: put(built.columns(value)),
            )
            put(finished if completed else LimitReached())
        except BaseException as exc:  # handed to the consumer, raised there
            put(exc)

    worker = threading.Thread(target=produce, name="cpsat-enumerate", daemon=True)
    worker.start()
    try:
        while (item := channel.get()) is not finished:
            if isinstance(item, BaseException):
                raise item
            yield item
    finally:
        abandoned.set()
        worker.join()


class CpSatBackend(Backend):
    name = "cpsat"
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
    summary = "OR-Tools CP-SAT, integer or Boolean model; counts cube by cube on threads"
    requires: ClassVar[Mapping[str, str]] = {"ortools": "ortools"}
    options: ClassVar[Mapping[str, Any]] = {"formulation": FORMULATIONS, "workers": positive_int}
    # boolean: faster than integer at every n measured, to solve and to count
    defaults: ClassVar[Mapping[str, Any]] = {
        "formulation": "boolean",
        "workers": max(2, default_workers()),  # interleaved search wants two at least
    }

    def _solver(self, problem: Problem) -> Any:
        """A parallel solver; interleaved search keeps it deterministic for a given seed."""
        solver = _new_solver()
        params = solver.parameters
        params.num_workers = self.settings["workers"]
        params.interleave_search = True
        params.random_seed = problem.seed or 0
        if problem.time_limit is not None:
            params.max_time_in_seconds = problem.time_limit
        return solver

    def solve(self, problem: Problem) -> SolveResult:
        from ortools.sat.python import cp_model

        built = build(problem, self.settings["formulation"])
        solver = self._solver(problem)
        status = _solve_interruptibly(solver, built.model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return SolveResult(Status.SOLVED, Placement(built.columns(solver.value)))
        if status == cp_model.INFEASIBLE:
            return SolveResult(Status.INFEASIBLE)
        return SolveResult(Status.LIMIT)

    def enumerate(self, problem: Problem) -> Iterator[Placement]:
        for cols in _stream(problem, self.settings["formulation"]):
            yield Placement(cols)

    def count(
        self, problem: Problem, unique: bool = False, progress: ProgressCallback | None = None
    ) -> CountResult:
        split = cubes.rows_split(problem, CUBE_DEPTH)
        return cubes.count(
            count_batch, problem, split, self.settings, pool="thread", progress=progress
        )

    def optimize(self, problem: Problem, weights: np.ndarray) -> OptimizeResult:
        """Maximise the total weight of the occupied cells on the Boolean board."""
        from ortools.sat.python import cp_model

        n = problem.n
        built = build(problem, "boolean")
        assert built.board is not None
        built.model.maximize(
            sum(int(weights[r, c]) * built.board[r][c] for r in range(n) for c in range(n))
        )
        solver = self._solver(problem)
        status = _solve_interruptibly(solver, built.model)
        if status == cp_model.INFEASIBLE:
            return OptimizeResult(Status.INFEASIBLE)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return OptimizeResult(Status.LIMIT)
        cols = built.columns(solver.value)
        objective = int(weights[np.arange(n), list(cols)].sum())
        return OptimizeResult(
            Status.OPTIMAL if status == cp_model.OPTIMAL else Status.LIMIT,
            objective,
            Placement(cols),
        )
