"""The public entry points: pick a backend, run it, time it, and check everything it returns.

Every placement any backend returns passes through ``_checked``: an O(n) test of the
board's rules (the variant's lines and leaps, blocked cells) and of the given queens. A
backend that returns a wrong board, claims infeasibility without being complete, or
reports a negative count raises ``BackendBug`` instead of reaching the user.

Timing: ``startup_seconds`` (imports, compiled kernels) is measured apart; ``seconds`` is
the backend's work, split into ``build_seconds`` and ``solve_seconds``. The time limit
covers the whole call, start-up and model building included.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from queenslab import registry
from queenslab.boards import DEFAULT_VARIANT, Cell
from queenslab.core.backend import Backend, Family, Task
from queenslab.core.errors import UsageError
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import CountResult, OptimizeResult, SolveResult, Status
from queenslab.core.run import ProgressCallback, Run

R = TypeVar("R", SolveResult, CountResult, OptimizeResult)


class BackendBug(AssertionError):
    """A backend broke its contract: an invalid board, a lost given queen, a false claim."""


def make_problem(
    n: int | Problem,
    givens: Iterable[Cell] = (),
    variant: str = DEFAULT_VARIANT,
    blocked: Iterable[Cell] = (),
) -> Problem:
    """``n`` itself when it is a Problem, else the problem these arguments describe."""
    if isinstance(n, Problem):
        if tuple(givens) or tuple(blocked) or variant != DEFAULT_VARIANT:
            raise UsageError("pass givens, variant and blocked cells inside the Problem")
        return n
    return Problem(n, tuple(givens), variant, tuple(blocked))


def _checked(problem: Problem, placement: Placement, backend: str) -> Placement:
    if placement.n != problem.n:
        raise BackendBug(f"{backend} returned {placement.n} queens for n={problem.n}")
    if not problem.board.is_valid(placement.cols):
        why = problem.board.check(placement.cols).describe()
        raise BackendBug(f"{backend} returned an invalid placement ({why}): {placement!r}")
    if not problem.keeps_givens(placement):
        raise BackendBug(f"{backend} moved a given queen: {placement!r}")
    return placement


def _timed(
    engine: Backend,
    task: Task,
    problem: Problem,
    run: Run,
    work: Callable[[], R],
    unique: bool = False,
) -> R:
    """Load the backend for ``task``, run ``work``, and fill the result's timing and identity."""
    start = time.perf_counter()
    try:
        engine.load_for(task, problem, unique)
        loaded = time.perf_counter()
        result = work()
    except KeyboardInterrupt:
        run.stop()  # threads and kernels of this run wind down
        raise
    seconds = time.perf_counter() - loaded
    stats = run.stats
    stats.setdefault("build_seconds", 0.0)
    stats["solve_seconds"] = max(0.0, seconds - stats["build_seconds"])
    stats["startup_seconds"] = loaded - start
    result.stats = {**stats, **result.stats}
    result.seconds = seconds
    result.n, result.variant, result.backend = problem.n, problem.variant, engine.name
    result.problem = problem
    return result


def solve(
    n: int | Problem,
    backend: str | None = None,
    *,
    givens: Iterable[Cell] = (),
    variant: str = DEFAULT_VARIANT,
    blocked: Iterable[Cell] = (),
    seed: int | None = None,
    time_limit: float | None = None,
    **options: Any,
) -> SolveResult:
    """Find one placement of n queens (keeping ``givens``) with the chosen backend.

    Args:
        n: the board size, or a ready ``Problem`` (then ``givens``, ``variant`` and
            ``blocked`` are ignored).
        backend: a registered backend name (``ql.backends()``); None picks the fastest
            sensible one for this task and board.
        givens: queens placed in advance, as (row, column) cells, 0-based.
        variant: the board's rules: ``"standard"``, ``"toroidal"`` or ``"superqueens"``.
        blocked: cells that may not hold a queen.
        time_limit: seconds for the whole call, model building included.
        **options: backend options (``workers``, ``encoding``, ``formulation``...).
        seed: makes randomised backends reproducible (the same seed, the same board).

    Returns:
        A ``SolveResult``: ``status`` (solved, infeasible, limit, unknown), the validated
        ``placement`` when solved, ``seconds`` and ``stats``.

    Raises:
        UsageError: a bad argument (n, cell, variant, option value, time limit).
        CapabilityError: the backend cannot do this task, or not on this board.
        BackendUnavailable: the backend's solver package is not installed.
        BackendBug: the backend returned an invalid board or a false claim.

    Example:
        >>> ql.solve(8, "cpsat", givens=[(0, 3)]).placement.cols[0]
        3
    """
    problem = make_problem(n, givens, variant, blocked)
    run = Run(seed, time_limit)
    engine = registry.resolve(Task.SOLVE, problem, backend, options)
    result = _timed(engine, Task.SOLVE, problem, run, lambda: engine.solve(problem, run))
    if result.placement is not None:
        _checked(problem, result.placement, engine.name)
    elif result.status is Status.SOLVED:
        raise BackendBug(f"{engine.name} said solved without a placement")
    if result.status is Status.INFEASIBLE and engine.family is Family.HEURISTIC:
        raise BackendBug(f"{engine.name} is incomplete but claimed that no solution exists")
    return result


class Solutions(Iterator[Placement]):
    """The stream of ``enumerate_solutions``: each placement checked as it comes.

    After the stream ends, ``stats`` and ``seconds`` describe the run (as on results).
    """

    def __init__(self, engine: Backend, problem: Problem, run: Run) -> None:
        self.backend, self.problem, self.run = engine.name, problem, run
        self.stats = run.stats
        self.seconds = 0.0
        self._engine = engine
        self._stream: Iterator[Placement] | None = None
        self._clock = 0.0

    def __next__(self) -> Placement:
        start = time.perf_counter()
        try:
            if self._stream is None:
                self._engine.load_for(Task.ENUMERATE, self.problem)
                self.stats["startup_seconds"] = time.perf_counter() - start
                start = time.perf_counter()
                self._stream = iter(self._engine.enumerate(self.problem, self.run))
            placement = next(self._stream)
        except KeyboardInterrupt:
            self.run.stop()
            raise
        finally:
            self.seconds += time.perf_counter() - start
            self.stats["solve_seconds"] = self.seconds - self.stats.get("build_seconds", 0.0)
        return _checked(self.problem, placement, self.backend)

    def __enter__(self) -> Solutions:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop the search and release what it holds (threads, solvers)."""
        self.run.stop()
        close = getattr(self._stream, "close", None)
        if close is not None:
            close()


def enumerate_solutions(
    n: int | Problem,
    backend: str | None = None,
    *,
    givens: Iterable[Cell] = (),
    variant: str = DEFAULT_VARIANT,
    blocked: Iterable[Cell] = (),
    time_limit: float | None = None,
    **options: Any,
) -> Solutions:
    """Stream every solution (each validated) without holding them all in memory.

    Bad arguments raise here, at the call; the search starts at the first ``next()``.

    Args:
        n: the board size, or a ready ``Problem`` (then ``givens``, ``variant`` and
            ``blocked`` are ignored).
        backend: a registered backend name (``ql.backends()``); None picks the fastest
            sensible one for this task and board.
        givens: queens placed in advance, as (row, column) cells, 0-based.
        variant: the board's rules: ``"standard"``, ``"toroidal"`` or ``"superqueens"``.
        blocked: cells that may not hold a queen.
        time_limit: seconds for the whole call, model building included.
        **options: backend options (``workers``, ``encoding``, ``formulation``...).

    Returns:
        An iterator of ``Placement``; close it (or leave a ``with`` block) to stop early.

    Raises:
        UsageError: a bad argument (n, cell, variant, option value, time limit).
        CapabilityError: the backend cannot do this task, or not on this board.
        BackendUnavailable: the backend's solver package is not installed.
        BackendBug: the backend returned an invalid board or a false claim.

    Example:
        >>> sum(1 for _ in ql.enumerate_solutions(6))
        4
    """
    problem = make_problem(n, givens, variant, blocked)
    engine = registry.resolve(Task.ENUMERATE, problem, backend, options)
    return Solutions(engine, problem, Run(None, time_limit))


def count(
    n: int | Problem,
    backend: str | None = None,
    *,
    unique: bool = False,
    givens: Iterable[Cell] = (),
    variant: str = DEFAULT_VARIANT,
    blocked: Iterable[Cell] = (),
    time_limit: float | None = None,
    progress: ProgressCallback | None = None,
    profile: bool = False,
    **options: Any,
) -> CountResult:
    """Count all solutions (and, with ``unique``, the classes under the board's symmetries).

    Args:
        n: the board size, or a ready ``Problem`` (then ``givens``, ``variant`` and
            ``blocked`` are ignored).
        backend: a registered backend name (``ql.backends()``); None picks the fastest
            sensible one for this task and board.
        givens: queens placed in advance, as (row, column) cells, 0-based.
        variant: the board's rules: ``"standard"``, ``"toroidal"`` or ``"superqueens"``.
        blocked: cells that may not hold a queen.
        time_limit: seconds for the whole call, model building included.
        **options: backend options (``workers``, ``encoding``, ``formulation``...).
        unique: also count the classes under the board's symmetry group.
        progress: called with (finished, total) work units as a long count goes.
        profile: record ``stats["profile"][d]``, the nodes of the search tree with d
            queens placed (backends with the ``profile`` feature).

    Returns:
        A ``CountResult``: ``total`` (and ``unique``), or status ``limit`` with ``total``
        None when the time limit came first.

    Raises:
        UsageError: a bad argument (n, cell, variant, option value, time limit).
        CapabilityError: the backend cannot do this task, or not on this board.
        BackendUnavailable: the backend's solver package is not installed.
        BackendBug: the backend returned an invalid board or a false claim.

    Example:
        >>> ql.count(13, variant="toroidal").total
        4524
    """
    problem = make_problem(n, givens, variant, blocked)
    if unique and problem.givens:
        raise UsageError("--unique counts symmetry classes of a board without givens")
    features = registry.needs(problem, unique=unique, profile=profile)
    engine = registry.resolve(Task.COUNT, problem, backend, options, features)
    run = Run(None, time_limit, progress, profile)
    result = _timed(
        engine, Task.COUNT, problem, run, lambda: engine.count(problem, run, unique), unique
    )
    for value in (result.total, result.unique):
        if value is not None and value < 0:
            raise BackendBug(f"{engine.name} reported a negative count {value}")
    if result.status is Status.SOLVED and result.total is None:
        raise BackendBug(f"{engine.name} finished a count without a total")
    return result


def optimize(
    n: int | Problem,
    weights: Any,
    backend: str | None = None,
    *,
    givens: Iterable[Cell] = (),
    variant: str = DEFAULT_VARIANT,
    blocked: Iterable[Cell] = (),
    time_limit: float | None = None,
    **options: Any,
) -> OptimizeResult:
    """Place n queens to maximise the total weight of the occupied cells.

    Args:
        n: the board size, or a ready ``Problem`` (then ``givens``, ``variant`` and
            ``blocked`` are ignored).
        backend: a registered backend name (``ql.backends()``); None picks the fastest
            sensible one for this task and board.
        givens: queens placed in advance, as (row, column) cells, 0-based.
        variant: the board's rules: ``"standard"``, ``"toroidal"`` or ``"superqueens"``.
        blocked: cells that may not hold a queen.
        time_limit: seconds for the whole call, model building included.
        **options: backend options (``workers``, ``encoding``, ``formulation``...).
        weights: an n x n matrix of integers within +-10^12.

    Returns:
        An ``OptimizeResult``: status ``optimal`` (proven), ``feasible`` (a board found
        before the limit, not proven best), ``infeasible`` or ``limit``; ``objective``
        and the validated ``placement``.

    Raises:
        UsageError: a bad argument (n, cell, variant, option value, time limit).
        CapabilityError: the backend cannot do this task, or not on this board.
        BackendUnavailable: the backend's solver package is not installed.
        BackendBug: the backend returned an invalid board or a false claim.

    Example:
        >>> import numpy as np
        >>> ql.optimize(4, np.arange(16).reshape(4, 4), "cpsat").objective
        30
    """
    from queenslab.io.weights import check_weights

    problem = make_problem(n, givens, variant, blocked)
    matrix = check_weights(weights, problem.n)
    engine = registry.resolve(Task.OPTIMIZE, problem, backend, options)
    run = Run(None, time_limit)
    result = _timed(
        engine, Task.OPTIMIZE, problem, run, lambda: engine.optimize(problem, run, matrix)
    )
    if result.placement is not None:
        placement = _checked(problem, result.placement, engine.name)
        achieved = sum(int(matrix[r, c]) for r, c in enumerate(placement))
        if result.objective != achieved:
            raise BackendBug(
                f"{engine.name} reported objective {result.objective}, board gives {achieved}"
            )
    elif result.status in (Status.OPTIMAL, Status.FEASIBLE):
        raise BackendBug(f"{engine.name} said {result.status} without a placement")
    return result
