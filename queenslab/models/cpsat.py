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
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from queenslab.backend import Backend, Capability, Family, Option, default_workers, workers_option
from queenslab.boards import VARIANTS
from queenslab.errors import LimitReached
from queenslab.models import cubes, forked
from queenslab.placement import Placement
from queenslab.problem import Problem
from queenslab.result import CountResult, OptimizeResult, SolveResult, Status
from queenslab.run import Run
from queenslab.stoppable import run_stoppably

if TYPE_CHECKING:
    import numpy as np

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
    """The model of ``problem``, posting the board's lines; givens are fixed before search.

    ``integer``: one variable per row (its queen's column, the row's open columns as its
    domain), and for every other line family AllDifferent over the rows' line keys (a
    wrapped diagonal's key through a modulo variable); each leap is a difference that two
    rows may not have. ``boolean``: a variable per cell and each of the board's groups
    (lines, leap pairs) as exactly-one or at-most-one, blocked cells fixed empty.
    """
    from ortools.sat.python import cp_model

    n = problem.n
    board = problem.board
    given = problem.given_cols
    model = cp_model.CpModel()
    if formulation == "integer":
        q = []
        for r in range(n):
            open_cols = [c for c in range(n) if board.is_open(r, c) and given.get(r, c) == c]
            domain = cp_model.Domain.from_values(open_cols)
            q.append(model.new_int_var_from_domain(domain, f"q_r{r}"))
        for family in board.families[1:]:
            keys = [family.row_weight * r + family.col_weight * q[r] for r in range(n)]
            if family.wraps:
                wrapped = [model.new_int_var(0, n - 1, f"{family.name}_r{r}") for r in range(n)]
                for key, target in zip(keys, wrapped, strict=True):
                    model.add_modulo_equality(target, key + n, n)
                keys = wrapped
            model.add_all_different(keys).with_name(family.name)
        for dr, dc in board.variant.leaps:
            for r in range(n - dr):
                model.add(q[r + dr] - q[r] != dc).with_name(f"leap_r{r}_r{r + dr}")
        return Model(model, q, lambda value: tuple(int(value(v)) for v in q))
    x = [[model.new_bool_var(f"x_r{r}_c{c}") for c in range(n)] for r in range(n)]
    for r, c in board.blocked:
        model.add(x[r][c] == 0).with_name(f"blocked_r{r}_c{c}")
    for group in board.groups():
        cells = [x[r][c] for r, c in group.cells]
        post = model.add_exactly_one if group.exactly_one else model.add_at_most_one
        post(cells).with_name(group.name)
    for r, c in problem.givens:
        model.add(x[r][c] == 1).with_name(f"given_r{r}_c{c}")
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


def _search(solver: Any, model: Any, should_stop: Callable[[], bool], callback: Any = None) -> Any:
    """Solve in a helper thread that a stop of the run (or Ctrl-C) ends; None when stopped.

    The solver's own time limit is set from the run too, so a long solve also ends inside
    CP-SAT; the polling thread catches what the limit cannot (Ctrl-C, a stop by a caller).
    """
    finished, status = run_stoppably(
        lambda: solver.solve(model, callback), solver.stop_search, should_stop
    )
    return status if finished else None


def _model_stats(model: Any) -> dict[str, int]:
    proto = model.proto
    return {"variables": len(proto.variables), "constraints": len(proto.constraints)}


def _solver_stats(solver: Any) -> dict[str, int]:
    return {"conflicts": int(solver.num_conflicts), "branches": int(solver.num_branches)}


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
    built: Model,
    formulation: str,
    should_stop: Callable[[], bool],
    seconds: float | None,
    on_solution: Callable[[Callable[[Any], int], Model], bool],
) -> tuple[bool, dict[str, int]]:
    """Call ``on_solution(value, model)`` for every solution until it returns False.

    Returns (whether the search finished or ``on_solution`` ended it, its statistics);
    False when a stop or the time limit ended it first.
    """
    from ortools.sat.python import cp_model

    solver = _enumerating_solver(built, formulation, seconds)

    class Callback(cp_model.CpSolverSolutionCallback):
        ended = False

        def on_solution_callback(self) -> None:
            if not on_solution(self.value, built):
                self.ended = True
                self.stop_search()

    callback = Callback()
    status = _search(solver, built.model, should_stop, callback)
    finished = callback.ended or status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    return finished, {**_model_stats(built.model), **_solver_stats(solver)}


def count_batch(
    batch: Sequence[cubes.Cube], settings: Mapping[str, Any], should_stop: Callable[[], bool]
) -> Iterator[cubes.BatchItem]:
    """The number of solutions of each cube, one model and one solve per cube."""
    from queenslab.stats import Stats

    stats = Stats()
    for position, cube in enumerate(batch):
        found = 0

        def tally(_value: Callable[[Any], int], _model: Model) -> bool:
            nonlocal found
            found += 1
            return True

        formulation = settings["formulation"]
        built = build(cube.problem, formulation)
        finished, cube_stats = _enumerate(built, formulation, should_stop, None, tally)
        if not finished:
            raise LimitReached
        stats.add(conflicts=cube_stats["conflicts"], branches=cube_stats["branches"])
        yield position, found
    yield None, stats


def _stream(problem: Problem, formulation: str, run: Run) -> Iterator[tuple[int, ...]]:
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

    def should_stop() -> bool:
        return abandoned.is_set() or run.should_stop()

    with run.phase("build"):
        built = build(problem, formulation)

    def produce() -> None:
        try:
            completed, stats = _enumerate(
                built,
                formulation,
                should_stop,
                run.remaining(),
                lambda value, model: put(model.columns(value)),
            )
            run.stats.add(stats)
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
            Capability.BLOCKED,
            Capability.OPTIMIZE,
        }
    )
    variants = frozenset(VARIANTS)
    summary = "OR-Tools CP-SAT, integer or Boolean model; counts cube by cube on threads"
    requires: ClassVar[Mapping[str, str]] = {"ortools": "ortools"}
    options = (
        # boolean: faster than integer at every n measured, to solve and to count
        Option("formulation", "CP-SAT model: a Boolean per cell, or an integer per row",
               "boolean", FORMULATIONS),
        # interleaved search wants two workers at least
        workers_option(max(2, default_workers()), "CP-SAT workers, or counting threads"),
    )  # fmt: skip
    uses_seed = True

    def load(self) -> None:
        from ortools.sat.python import cp_model  # noqa: F401

    def _solver(self, run: Run) -> Any:
        """A parallel solver; interleaved search keeps it deterministic for a given seed."""
        solver = _new_solver()
        params = solver.parameters
        params.num_workers = self.settings["workers"]
        params.interleave_search = True
        params.random_seed = run.seed or 0
        remaining = run.remaining()
        if remaining is not None:
            params.max_time_in_seconds = remaining
        return solver

    def _build(self, problem: Problem, run: Run, formulation: str) -> Model:
        with run.phase("build"):
            built = build(problem, formulation)
        run.stats.add(_model_stats(built.model))
        return built

    def solve(self, problem: Problem, run: Run) -> SolveResult:
        return forked.in_child(lambda: self._solve(problem, run), run, SolveResult(Status.LIMIT))

    def _solve(self, problem: Problem, run: Run) -> SolveResult:
        from ortools.sat.python import cp_model

        built = self._build(problem, run, self.settings["formulation"])
        solver = self._solver(run)
        status = _search(solver, built.model, run.should_stop)
        run.stats.add(_solver_stats(solver))
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return SolveResult(Status.SOLVED, Placement(built.columns(solver.value)))
        if status == cp_model.INFEASIBLE:
            return SolveResult(Status.INFEASIBLE)
        return SolveResult(Status.LIMIT)

    def enumerate(self, problem: Problem, run: Run) -> Iterator[Placement]:
        for cols in _stream(problem, self.settings["formulation"], run):
            yield Placement(cols)

    def count(self, problem: Problem, run: Run, unique: bool = False) -> CountResult:
        with run.phase("build"):
            split = cubes.rows_split(problem, CUBE_DEPTH)
            whole = build(problem, self.settings["formulation"])  # its size, for the record
        run.stats.add(_model_stats(whole.model), cubes=len(split))
        total = cubes.count_cubes(count_batch, split, self.settings, run, pool="thread")
        return CountResult(total, status=Status.SOLVED if total is not None else Status.LIMIT)

    def optimize(self, problem: Problem, run: Run, weights: np.ndarray) -> OptimizeResult:
        stopped = OptimizeResult(Status.LIMIT)
        return forked.in_child(lambda: self._optimize(problem, run, weights), run, stopped)

    def _optimize(self, problem: Problem, run: Run, weights: np.ndarray) -> OptimizeResult:
        """Maximise the total weight of the occupied cells on the Boolean board."""
        from ortools.sat.python import cp_model

        n = problem.n
        built = self._build(problem, run, "boolean")
        assert built.board is not None
        with run.phase("build"):
            built.model.maximize(
                sum(int(weights[r, c]) * built.board[r][c] for r in range(n) for c in range(n))
            )
        solver = self._solver(run)
        status = _search(solver, built.model, run.should_stop)
        run.stats.add(_solver_stats(solver))
        if status == cp_model.INFEASIBLE:
            return OptimizeResult(Status.INFEASIBLE)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return OptimizeResult(Status.LIMIT)
        cols = built.columns(solver.value)
        objective = sum(int(weights[r, c]) for r, c in enumerate(cols))
        proven = status == cp_model.OPTIMAL
        return OptimizeResult(
            Status.OPTIMAL if proven else Status.FEASIBLE, objective, Placement(cols)
        )
