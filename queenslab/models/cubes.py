"""Cube-and-conquer counting: split the board into cubes, count the pieces apart, add up.

A cube fixes a few queens; every solution lies in exactly one cube. Two shapes:

- ``rows_split``: the queens of ``depth`` rows from both ends of the board (0, n-1, 1, ...)
  that hold no given queen. Without givens the left-right and top-bottom mirrors map a
  cube's solutions one-to-one onto its mirrored cubes' solutions, so one cube per orbit is
  solved, counted once per member: nearly a quarter of the work.
- ``border_split``: the queens of the four border lines (rows 0 and n-1, columns 0 and
  n-1). All eight symmetries of the square map the border onto itself, so one cube per
  orbit of the whole group is solved: nearly an eighth of the work, in many small cubes
  (for solvers that take a cube as assumptions, without rebuilding).

With givens the board has no symmetry left; the rows split is used and every cube counts
once. One runner serves every counting backend: batches of cubes run in a thread pool
when the solver releases the GIL (CP-SAT), in a process pool when it does not (pysat).
"""

from __future__ import annotations

import itertools
import multiprocessing
import signal
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass
from typing import Any, Literal

from queenslab.backend import ProgressCallback
from queenslab.boards.symmetry import D4, Symmetry
from queenslab.deadline import wall_clock_end
from queenslab.problem import Problem
from queenslab.result import CountResult, Status

#: Below this board size a count takes milliseconds: starting a pool would cost more.
PARALLEL_FROM_N = 10
#: Batches per worker: enough to balance uneven cubes, few enough to share solver setup.
BATCHES_PER_WORKER = 8
_POLL_SECONDS = 0.1  # how often the waiting main thread looks for Ctrl-C


@dataclass(frozen=True)
class Cube:
    """The original problem with this cube's queens added to the givens."""

    problem: Problem
    weight: int  # the size of its orbit: how many cubes it is counted for


#: Counts a batch of cubes and returns the sum of weight x solutions, or None when the
#: wall-clock ``end`` (a ``time.time()`` value, comparable across processes) passes first.
BatchCounter = Callable[[Sequence[Cube], Mapping[str, Any], float | None], int | None]


def _peaceful(queens: Sequence[tuple[int, int]]) -> bool:
    """No two queens share a row, a column or a diagonal."""
    return all(
        r1 != r2 and c1 != c2 and abs(r1 - r2) != abs(c1 - c2)
        for i, (r1, c1) in enumerate(queens)
        for r2, c2 in queens[i + 1 :]
    )


def prefixes(n: int, rows: list[int], givens: dict[int, int]) -> list[tuple[int, ...]]:
    """Columns for ``rows`` attacking neither each other nor the given queens."""
    partial: list[tuple[int, ...]] = [()]
    for row in rows:
        partial = [
            (*cols, c)
            for cols in partial
            for c in range(n)
            if _peaceful([*givens.items(), *zip(rows, cols, strict=False), (row, c)])
        ]
    return partial


def _outer_rows(n: int) -> list[int]:
    """0, n-1, 1, n-2, ...: fixing rows at both ends keeps the vertical mirror usable."""
    return [r for pair in zip(range(n), range(n - 1, -1, -1), strict=True) for r in pair][:n]


#: The symmetries of the square other than the identity; the row-keeping ones (left-right
#: mirror, top-bottom mirror, half turn) map a split on rows onto itself.
_SYMMETRIES = D4[1:]
_ROW_SYMMETRIES = tuple(s for s in _SYMMETRIES if s.keeps_rows)

Queens = tuple[tuple[int, int], ...]


def _cubes(problem: Problem, cubes: Iterable[Queens], symmetries: Sequence[Symmetry]) -> list[Cube]:
    """One cube per orbit (the smallest), weighted by the orbit's size."""
    n = problem.n
    kept = []
    for queens in cubes:
        orbit = {queens}
        for symmetry in symmetries:
            image = symmetry.cells(n, queens)
            if image < queens:
                break  # a smaller member of the orbit stands for it
            orbit.add(image)
        else:
            full = Problem(n, problem.givens + queens, problem.seed, problem.time_limit)
            kept.append(Cube(full, len(orbit)))
    return kept


def rows_split(problem: Problem, depth: int = 2) -> list[Cube]:
    """Cubes fixing ``depth`` free rows; their weighted counts add up to the problem's."""
    n = problem.n
    givens = problem.given_cols
    rows = [r for r in _outer_rows(n) if r not in givens][:depth]
    cubes = [tuple(sorted(zip(rows, cols, strict=True))) for cols in prefixes(n, rows, givens)]
    if givens:
        symmetries: tuple[Symmetry, ...] = ()
    elif sorted(rows) == sorted(n - 1 - r for r in rows):
        symmetries = _ROW_SYMMETRIES
    else:  # rows not closed under the top-bottom mirror: only the left-right one applies
        symmetries = tuple(s for s in _ROW_SYMMETRIES if s.name == "flip-h")
    return _cubes(problem, cubes, symmetries)


def border_split(problem: Problem) -> list[Cube]:
    """Cubes fixing the queens of the four border lines (the rows split with givens)."""
    n = problem.n
    if problem.givens or n < 4:
        return rows_split(problem)
    inner = range(1, n - 1)
    cubes = set()
    for top, bottom in itertools.product(range(n), repeat=2):
        for left in [None] if 0 in (top, bottom) else inner:
            for right in [None] if n - 1 in (top, bottom) else inner:
                queens = [(0, top), (n - 1, bottom)]
                queens += [] if left is None else [(left, 0)]
                queens += [] if right is None else [(right, n - 1)]
                if _peaceful(queens):
                    cubes.add(tuple(sorted(queens)))
    return _cubes(problem, sorted(cubes), _SYMMETRIES)


#: Set while an interrupted count winds down: thread-run solves stop at their next check.
_interrupted = threading.Event()


def interrupted() -> bool:
    """True when the user pressed Ctrl-C during a count: cube solves should stop now."""
    return _interrupted.is_set()


def leave_sigint_to_parent() -> None:
    """Pool processes ignore Ctrl-C: the parent stops them, so no child prints a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _executor(kind: Literal["thread", "process"], workers: int) -> Executor:
    if kind == "thread":
        return ThreadPoolExecutor(workers)
    # fork: children start at once, without re-importing the solver or re-running the
    # caller's main script (spawn and forkserver do both, and fail in unguarded scripts).
    # Only pure-C solvers without threads of their own (python-sat) run in processes.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    return ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context(method),
        initializer=leave_sigint_to_parent,
    )


def _batches(cubes: list[Cube], parts: int) -> list[list[Cube]]:
    size = max(1, -(-len(cubes) // parts))
    return [cubes[i : i + size] for i in range(0, len(cubes), size)]


def count_cubes(
    counter: BatchCounter,
    problem: Problem,
    cubes: list[Cube],
    settings: Mapping[str, Any],
    *,
    workers: int,
    pool: Literal["thread", "process"],
    progress: ProgressCallback | None = None,
) -> int | None:
    """The weighted sum of the cubes' counts, or None when the time limit passed first.

    ``counter`` must be a module-level function when ``pool`` is "process" (it is pickled).
    """
    end = wall_clock_end(problem.time_limit)
    parallel = workers > 1 and problem.n >= PARALLEL_FROM_N
    batches = _batches(cubes, workers * BATCHES_PER_WORKER if parallel else BATCHES_PER_WORKER)
    total = 0

    def add(found: int | None, finished: int) -> bool:
        nonlocal total
        if found is None:
            return False
        total += found
        if progress is not None:
            progress(finished, len(batches))
        return True

    if not parallel:
        for finished, batch in enumerate(batches, 1):
            if not add(counter(batch, settings, end), finished):
                return None
        return total
    executor = _executor(pool, min(workers, len(batches)))
    try:
        pending = {executor.submit(counter, batch, settings, end) for batch in batches}
        finished = 0
        while pending:
            # A short timeout: the main thread looks for Ctrl-C between waits.
            done, pending = wait_futures(pending, _POLL_SECONDS, return_when="FIRST_COMPLETED")
            for future in done:
                finished += 1
                if not add(future.result(), finished):
                    return None
        return total
    except KeyboardInterrupt:
        _interrupted.set()
        if pool == "process":
            for child in multiprocessing.active_children():
                child.terminate()
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
        _interrupted.clear()


def count(
    counter: BatchCounter,
    problem: Problem,
    cubes: list[Cube],
    settings: Mapping[str, Any],
    *,
    pool: Literal["thread", "process"],
    progress: ProgressCallback | None = None,
) -> CountResult:
    """A backend's count: ``settings["workers"]`` cubes in parallel."""
    total = count_cubes(
        counter,
        problem,
        cubes,
        settings,
        workers=settings["workers"],
        pool=pool,
        progress=progress,
    )
    return CountResult(total, status=Status.SOLVED if total is not None else Status.LIMIT)
