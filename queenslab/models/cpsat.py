"""N-queens in OR-Tools CP-SAT: two formulations, parallel solve, streamed enumeration.

``boolean``: the placement kind's model (n² Booleans, exactly one per row and column, at
most one per diagonal), translated as every kind's model is. ``integer``: one variable
per row (its queen's column), AllDifferent on q, q+i and q-i. Weighted placement is the
kind's model optimised like any kind's (``zero_one``): no code of its own here.

Enumerating solves run one worker each: with several workers ``enumerate_all_solutions``
misses and repeats solutions. Counting and enumeration get their parallelism from
independent cubes instead (``cubes.rows_split``), one model and one solve per cube, on
threads since CP-SAT releases the GIL while it searches; one loop serves both, streaming
each cube's solutions from its solver thread, without SAT inprocessing (about twice as
fast here). Up to ``FIXED_SEARCH_UP_TO_N`` the search is fixed, row by row and lowest
column first (lexicographic within a cube). An enumeration comes out in the cubes' order
(``cubes.enumerate_cubes``).
"""

from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from queenslab.boards import VARIANTS, Cell
from queenslab.core.backend import (
    EVERY_KIND,
    Family,
    Feature,
    Option,
    Task,
    default_workers,
    workers_option,
)
from queenslab.core.errors import LimitReached
from queenslab.core.kind import Question
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import CountResult, SolveResult, Status
from queenslab.core.run import Run, never
from queenslab.core.stats import Stats
from queenslab.models import cubes
from queenslab.models.zero_one.backend import MODEL_TASKS, KindModels
from queenslab.runtime import forked
from queenslab.runtime.stop import POLL_SECONDS, run_stoppably

FORMULATIONS = ("integer", "boolean")
#: Rows fixed per cube (one at each end of the board). The border split, with hundreds of
#: cubes, costs more here: every cube is a new model and a new solve.
CUBE_DEPTH = 2
#: Up to this size a cube is searched row by row, lowest column first: the fastest way
#: through all of its solutions (half the CPU time of CP-SAT's own search at n = 12). That
#: depth-first order can take minutes to reach a big board's first solution (n = 36),
#: where nobody lists every solution anyway: there CP-SAT's own search finds the first ones
#: in a fraction of a second (n = 64: 0.3 s).
FIXED_SEARCH_UP_TO_N = 20
#: Solutions buffered between a cube's solver thread and its worker.
_QUEUE_SIZE = 256


@dataclass
class Model:
    """A CP-SAT model with its row variables and a decoder of solutions."""

    model: Any  # cp_model.CpModel
    decisions: list[Any]  # search order: row by row
    columns: Callable[[Sequence[int]], tuple[int, ...]]  # solution (values by index) -> cols
    #: A queen on a cell as (the proto index of a variable, its value).
    place: Callable[[Cell], tuple[int, int]]

    def with_queens(self, queens: Iterable[Cell]) -> Model:
        """A copy with ``queens`` placed (a cube's): cloning the proto costs a fraction of
        stating and translating the board again for every cube."""
        model = self.model.clone()
        for cell in queens:
            index, value = self.place(cell)
            model.add(model.get_int_var_from_proto_index(index) == value)
        decisions = [model.get_int_var_from_proto_index(v.index) for v in self.decisions]
        return Model(model, decisions, self.columns, self.place)


def build(
    problem: Problem,
    formulation: str,
    should_stop: Callable[[], bool] = never,
) -> Model:
    """The model of ``problem`` in ``formulation``, givens fixed; LimitReached when
    ``should_stop`` says stop first (a big board's Boolean model takes seconds to post).

    ``boolean``: the placement kind's own model, translated as any kind's is. ``integer``:
    one variable per row (its queen's column), the one formulation a 0-1 model cannot
    state (``_rows``).
    """
    if formulation == "integer":
        return _rows(problem, should_stop)
    return _cells(problem, should_stop)


def _rows(problem: Problem, should_stop: Callable[[], bool]) -> Model:
    """One variable per row (its queen's column, the row's open columns as its domain),
    and for every other line family AllDifferent over the rows' line keys (a wrapped
    diagonal's key through a modulo variable); each leap is a difference that two rows
    may not have. The board's line families say it all: no board rule of its own."""
    from ortools.sat.python import cp_model

    n = problem.n
    board = problem.board
    given = problem.given_cols
    model = cp_model.CpModel()
    q = []
    for r in range(n):
        if should_stop():
            raise LimitReached
        open_cols = [c for c in range(n) if board.is_open(r, c) and given.get(r, c) == c]
        domain = cp_model.Domain.from_values(open_cols)
        q.append(model.new_int_var_from_domain(domain, f"q_r{r}"))
    for family in board.families[1:]:
        keys: Sequence[cp_model.LinearExprT] = [
            family.row_weight * r + family.col_weight * q[r] for r in range(n)
        ]
        if family.wraps:
            wrapped = [model.new_int_var(0, n - 1, f"{family.name}_r{r}") for r in range(n)]
            for key, target in zip(keys, wrapped, strict=True):
                model.add_modulo_equality(target, key + n, n)
            keys = wrapped
        model.add_all_different(keys).with_name(family.name)
    for dr, dc in board.variant.leaps:
        for r in range(n - dr):
            model.add(q[r + dr] - q[r] != dc).with_name(f"leap_r{r}_r{r + dr}")
    indices = [v.index for v in q]
    return Model(
        model,
        q,
        lambda solution: tuple(int(solution[i]) for i in indices),
        lambda cell: (indices[cell[0]], cell[1]),
    )


def _cells(problem: Problem, should_stop: Callable[[], bool]) -> Model:
    """The placement kind's ``cells`` model (``problems.placement``) as every kind's model
    is translated (``zero_one.cpsat.translate``): its cells are its first variables, row
    by row, and the search's decisions."""
    from queenslab.models.zero_one.cpsat import translate
    from queenslab.problems.placement import feasibility_model

    stated = feasibility_model(problem.board, problem.givens, should_stop)
    model = translate(stated, should_stop)
    cells = tuple(problem.board.open_cells())
    size = len(cells)
    decisions = [model.get_bool_var_from_proto_index(v) for v in stated.answer]

    def columns(solution: Sequence[int]) -> tuple[int, ...]:
        board = itertools.islice(solution, size)  # the proto does not slice
        return tuple(cells[i][1] for i, value in enumerate(board) if value)

    index = {cell: v for cell, v in zip(cells, stated.answer, strict=True)}
    return Model(model, decisions, columns, lambda cell: (index[cell], 1))


def new_solver() -> Any:
    """A CpSolver that leaves Ctrl-C to Python.

    With its default ``catch_sigint_signal`` CP-SAT installs a SIGINT handler of its own and
    leaves SIG_DFL behind when the solve returns (ortools 9.15); installed from the worker
    threads of a cube count at once, it aborted the process with ``bad_function_call``.
    """
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.catch_sigint_signal = False
    return solver


def parallel_solver(workers: int, run: Run) -> Any:
    """A solver on ``workers`` threads; interleaved search keeps it deterministic for a
    given seed.

    It gets no time limit of its own: ``search`` stops it at the run's deadline. CP-SAT's
    own limit ended runs early: its clock says "reached" once now + T passes the limit, T
    the longest stretch it has seen between two looks at the clock (OR-Tools'
    ``util/time_limit.h``), and in interleaved search it looks once per batch of tasks,
    which lasts seconds on a busy machine (``optimize 11 --problem domination --variant
    toroidal -b cpsat --time-limit 10`` ended at 6.0 s, one run in two).
    """
    solver = new_solver()
    params = solver.parameters
    params.num_workers = workers
    params.interleave_search = True
    params.random_seed = (run.seed or 0) % 2**31  # CP-SAT's seed is a 32-bit int
    return solver


def search(solver: Any, model: Any, should_stop: Callable[[], bool], callback: Any = None) -> Any:
    """Solve in a helper thread that a stop of the run (or Ctrl-C) ends; the status CP-SAT
    ended with (after a stop, FEASIBLE keeps the best answer found), None if it gave none.

    The polling thread is the one limit (the deadline, Ctrl-C, a stop by a caller): the
    answer found so far survives ``stop_search``. A run already stopped (its deadline
    passed while the model was built) gets a solve of no time, which reports a limit.
    """
    if should_stop():
        solver.parameters.max_time_in_seconds = 0.0
    _, status = run_stoppably(
        lambda: solver.solve(model, callback), solver.stop_search, should_stop
    )
    return status


def model_stats(model: Any) -> dict[str, int]:
    proto = model.proto
    return {"variables": len(proto.variables), "constraints": len(proto.constraints)}


def solver_stats(solver: Any) -> dict[str, int]:
    return {"conflicts": int(solver.num_conflicts), "branches": int(solver.num_branches)}


def enumerating_solver() -> Any:
    """A solver that visits every solution: one worker (with several,
    ``enumerate_all_solutions`` misses and repeats solutions), no SAT inprocessing."""
    solver = new_solver()
    params = solver.parameters
    params.enumerate_all_solutions = True
    params.num_workers = 1
    params.use_sat_inprocessing = False
    return solver


def _enumerating_solver(built: Model, n: int, formulation: str) -> Any:
    """A one-worker solver that visits every solution of ``built`` (an ``n``-board);
    in lexicographic order up to ``FIXED_SEARCH_UP_TO_N``."""
    from ortools.sat.python import cp_model

    solver = enumerating_solver()
    params = solver.parameters
    if n <= FIXED_SEARCH_UP_TO_N:
        lowest_first = (
            cp_model.SELECT_MIN_VALUE if formulation == "integer" else cp_model.SELECT_MAX_VALUE
        )
        built.model.add_decision_strategy(built.decisions, cp_model.CHOOSE_FIRST, lowest_first)
        params.search_branching = cp_model.FIXED_SEARCH
    return solver


@dataclass(frozen=True)
class _End:
    """The last item of a solver thread: how its solve ended."""

    status: Any = None
    error: BaseException | None = None


def solutions(
    model: Any,
    solver: Any,
    should_stop: Callable[[], bool],
    take: Callable[[Sequence[int]], Any],
    stats: Stats,
) -> Generator[Any, None, None]:
    """``take(solution)`` for every solution of a CpModel, streamed from ``solver``'s thread.

    A bounded queue holds the solutions the consumer has not taken yet; the solver's
    statistics go into ``stats``. LimitReached when ``should_stop`` says stop first. When
    the consumer stops early (a limit, Ctrl-C) the solver is stopped and its thread
    waited for, on an Event rather than ``Thread.join`` (see ``run_stoppably``).
    """
    from ortools.sat.python import cp_model

    channel: queue.Queue[Any] = queue.Queue(_QUEUE_SIZE)
    abandoned = threading.Event()
    finished = threading.Event()

    def put(item: Any) -> bool:
        while not abandoned.is_set():
            try:
                channel.put(item, timeout=POLL_SECONDS)
                return True
            except queue.Full:
                continue
        return False

    class Callback(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            if not put(take(self.response_proto.solution)):
                self.stop_search()

    def produce() -> None:
        try:
            status = solver.solve(model, Callback())
            stats.add(solver_stats(solver))
            put(_End(status))
        except BaseException as exc:  # handed to the consumer, raised there
            put(_End(error=exc))
        finally:
            finished.set()

    threading.Thread(target=produce, name="cpsat-enumerate", daemon=True).start()
    try:
        while not should_stop():
            try:
                item = channel.get(timeout=POLL_SECONDS)
            except queue.Empty:
                continue
            if isinstance(item, _End):
                break
            yield item
        else:
            raise LimitReached
    finally:
        abandoned.set()
        while not finished.wait(POLL_SECONDS):
            solver.stop_search()  # again: a stop before the solve began is not kept
    if item.error is not None:
        raise item.error
    if item.status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        raise LimitReached


def _cube_solutions(
    problem: Problem,
    claimed: Iterable[cubes.Cube],
    settings: Mapping[str, Any],
    should_stop: Callable[[], bool],
    *,
    decode: bool,
) -> Generator[tuple[cubes.Cube | None, Any], None, None]:
    """Each cube's solutions in chunks (columns, or None each when not ``decode``), one
    model (the whole board's, its queens placed) and one solve per cube, then the
    statistics."""
    formulation = settings["formulation"]
    stats = Stats()
    whole = build(problem, formulation, should_stop)
    for cube in claimed:
        built = whole.with_queens(cube.queens)
        solver = _enumerating_solver(built, problem.n, formulation)
        take = built.columns if decode else _nothing
        for chunk in cubes.chunks(solutions(built.model, solver, should_stop, take, stats)):
            yield cube, chunk
    yield None, stats


def _nothing(_solution: Sequence[int]) -> None:
    return None


def cube_counts(
    problem: Problem,
    claimed: Iterable[cubes.Cube],
    settings: Mapping[str, Any],
    should_stop: Callable[[], bool],
) -> Generator[tuple[cubes.Cube | None, Any], None, None]:
    """The number of solutions of each cube, chunk by chunk (they add up)."""
    for cube, found in _cube_solutions(problem, claimed, settings, should_stop, decode=False):
        yield cube, found if cube is None else len(found)


def cube_solutions(
    problem: Problem,
    claimed: Iterable[cubes.Cube],
    settings: Mapping[str, Any],
    should_stop: Callable[[], bool],
) -> Generator[tuple[cubes.Cube | None, Any], None, None]:
    """The solutions (columns) of each cube in chunks."""
    return _cube_solutions(problem, claimed, settings, should_stop, decode=True)


def _split(problem: Problem, should_stop: Callable[[], bool]) -> Iterator[cubes.Cube]:
    return cubes.rows_split(problem, should_stop, depth=CUBE_DEPTH)


class CpSatBackend(KindModels):
    name = "cpsat"
    family = Family.MODEL
    tasks = MappingProxyType(
        {
            "placement": frozenset({Task.SOLVE, Task.ENUMERATE, Task.COUNT}),
            EVERY_KIND: MODEL_TASKS,
        }
    )
    translator = "cpsat"
    features = frozenset({Feature.GIVENS, Feature.BLOCKED})
    variants = frozenset(VARIANTS)
    summary = "OR-Tools CP-SAT, integer or Boolean model; counts cube by cube on threads"
    requires: ClassVar[Mapping[str, str]] = {"ortools": "ortools"}
    options = (
        # boolean: faster than integer at every n measured, to solve and to count
        Option("formulation", "CP-SAT model: a Boolean per cell, or an integer per row",
               "boolean", FORMULATIONS),
        # interleaved search wants two workers at least
        workers_option(max(2, default_workers()), "CP-SAT workers, or threads solving cubes"),
    )  # fmt: skip
    #: A problem kind's model is its own (``--model``), not a formulation of placement.
    native_options = frozenset({"formulation"})
    uses_seed = True

    def load(self) -> None:
        from ortools.sat.python import cp_model  # noqa: F401

    def _solver(self, run: Run) -> Any:
        return parallel_solver(self.settings["workers"], run)

    def _build(
        self, problem: Problem, run: Run, formulation: str, should_stop: Callable[[], bool] = never
    ) -> Model:
        """The model, its size in the record. In a forked child ``should_stop`` stays
        ``never``: the parent ends the child at the deadline."""
        with run.phase("build"):
            built = build(problem, formulation, should_stop)
        run.stats.add(model_stats(built.model))
        return built

    def own_solve(self, problem: Problem, run: Run, question: Question) -> SolveResult:
        return forked.in_child(lambda: self._solve(problem, run), run, SolveResult(Status.LIMIT))

    def _solve(self, problem: Problem, run: Run) -> SolveResult:
        from ortools.sat.python import cp_model

        built = self._build(problem, run, self.settings["formulation"])
        solver = self._solver(run)
        status = search(solver, built.model, run.should_stop)
        run.stats.add(solver_stats(solver))
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            solution = solver.response_proto.solution
            return SolveResult(Status.SOLVED, Placement(built.columns(solution)))
        if status == cp_model.INFEASIBLE:
            return SolveResult(Status.INFEASIBLE)
        return SolveResult(Status.LIMIT)

    def own_enumerate(self, problem: Problem, run: Run, question: Question) -> Iterator[Placement]:
        self._build(problem, run, self.settings["formulation"], run.should_stop)  # for the record
        for cols in cubes.enumerate_cubes(
            cube_solutions, _split, problem, self.settings, run, pool="thread"
        ):
            yield Placement(cols)

    def own_count(self, problem: Problem, run: Run, question: Question) -> CountResult:
        try:
            self._build(problem, run, self.settings["formulation"], run.should_stop)
        except LimitReached:
            return CountResult(None, status=Status.LIMIT)
        total = cubes.count_cubes(cube_counts, _split, problem, self.settings, run, pool="thread")
        return CountResult(total, status=Status.SOLVED if total is not None else Status.LIMIT)
