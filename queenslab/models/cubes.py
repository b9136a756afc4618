"""Cube-and-conquer counting: split the board on its first free rows, count the pieces apart.

A cube fixes the queens of ``depth`` rows taken from both ends of the board (0, n-1, 1,
...) that hold no given queen. Without givens, the left-right and top-bottom mirrors map
the solutions of a cube one-to-one onto those of its mirrored cubes, so one cube per orbit
is solved and counted once per member: nearly a quarter of the work. With givens the board
has no symmetry left and every cube counts once.

One runner serves every counting backend: cubes run in a thread pool when the solver
releases the GIL (CP-SAT), or in a process pool when it does not (python-sat).
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass
from typing import Any, Literal

from queenslab.backend import ProgressCallback
from queenslab.problem import Problem
from queenslab.result import CountResult, Status

#: Counts the solutions of one cube; returns None when the wall-clock ``end`` (a
#: ``time.time()`` value, comparable across processes) passes first.
#: Below this board size a count takes milliseconds: starting a pool would cost more.
PARALLEL_FROM_N = 10

CubeCounter = Callable[[Problem, Mapping[str, Any], float | None], int | None]


@dataclass(frozen=True)
class Cube:
    """The original problem with this cube's queens added to the givens."""

    problem: Problem
    weight: int  # the size of its orbit: how many cubes it is counted for


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _prefixes(n: int, rows: list[int], givens: dict[int, int]) -> list[tuple[int, ...]]:
    """Columns for ``rows`` attacking neither each other nor the given queens."""
    partial: list[tuple[int, ...]] = [()]
    for row in rows:
        partial = [
            (*cols, c)
            for cols in partial
            for c in range(n)
            if all(
                c != c2 and abs(row - r2) != abs(c - c2)
                for r2, c2 in [*givens.items(), *zip(rows, cols, strict=False)]
            )
        ]
    return partial


def _outer_rows(n: int) -> list[int]:
    """0, n-1, 1, n-2, ...: fixing rows at both ends keeps the vertical mirror usable."""
    return [r for pair in zip(range(n), range(n - 1, -1, -1), strict=True) for r in pair][:n]


#: Mirror left-right, mirror top-bottom, rotate by 180 degrees: with the identity, the
#: symmetries of the square that keep every queen in a row of its own in a row.
_MIRRORS = (
    lambda n, r, c: (r, n - 1 - c),
    lambda n, r, c: (n - 1 - r, c),
    lambda n, r, c: (n - 1 - r, n - 1 - c),
)


def _orbit(n: int, queens: tuple[tuple[int, int], ...]) -> set[tuple[tuple[int, int], ...]]:
    """The images of a cube under the mirrors that map its set of rows onto itself."""
    rows = {r for r, _ in queens}
    images = {queens}
    for mirror in _MIRRORS:
        image = tuple(sorted(mirror(n, r, c) for r, c in queens))
        if {r for r, _ in image} == rows:
            images.add(image)
    return images


def split(problem: Problem, depth: int = 2) -> list[Cube]:
    """Cubes fixing ``depth`` rows; their weighted counts add up to the problem's count.

    Without givens only one cube per orbit is kept, weighted by the orbit's size (the
    mirrors map each cube's solutions one-to-one onto its images' solutions).
    """
    n = problem.n
    givens = problem.given_cols
    rows = [r for r in _outer_rows(n) if r not in givens][:depth]
    cubes = []
    for cols in _prefixes(n, rows, givens):
        queens = tuple(sorted(zip(rows, cols, strict=True)))
        weight = 1
        if not givens:
            orbit = _orbit(n, queens)
            if queens != min(orbit):
                continue
            weight = len(orbit)
        cube = Problem(n, problem.givens + queens, problem.seed, problem.time_limit)
        cubes.append(Cube(cube, weight))
    return cubes


def _executor(kind: Literal["thread", "process"], workers: int) -> Executor:
    if kind == "thread":
        return ThreadPoolExecutor(workers)
    # fork: children start at once, without re-importing the solver or re-running the
    # caller's main script (spawn and forkserver do both, and fail in unguarded scripts).
    # Only pure-C solvers without threads of their own (python-sat) run in processes.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method))


def count_cubes(
    counter: CubeCounter,
    problem: Problem,
    settings: Mapping[str, Any],
    *,
    depth: int,
    workers: int,
    pool: Literal["thread", "process"],
    progress: ProgressCallback | None = None,
) -> int | None:
    """The weighted sum of the cubes' counts, or None when the time limit passed first.

    ``counter`` must be a module-level function when ``pool`` is "process" (it is pickled).
    """
    end = None if problem.time_limit is None else time.time() + problem.time_limit
    cubes = split(problem, depth)
    total = 0
    finished = 0
    if workers <= 1 or len(cubes) <= 1 or problem.n < PARALLEL_FROM_N:
        for cube in cubes:
            found = counter(cube.problem, settings, end)
            if found is None:
                return None
            total += cube.weight * found
            finished += 1
            if progress is not None:
                progress(finished, len(cubes))
        return total
    executor = _executor(pool, min(workers, len(cubes)))
    try:
        futures: dict[Future[int | None], int] = {
            executor.submit(counter, cube.problem, settings, end): cube.weight for cube in cubes
        }
        pending = set(futures)
        while pending:
            done, pending = wait_futures(pending, return_when="FIRST_COMPLETED")
            for future in done:
                found = future.result()
                if found is None:
                    return None
                total += futures[future] * found
                finished += 1
                if progress is not None:
                    progress(finished, len(cubes))
        return total
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def count(
    counter: CubeCounter,
    problem: Problem,
    settings: Mapping[str, Any],
    *,
    depth: int,
    pool: Literal["thread", "process"],
    progress: ProgressCallback | None = None,
) -> CountResult:
    """A backend's count: ``settings["workers"]`` in parallel (0: one per core)."""
    total = count_cubes(
        counter,
        problem,
        settings,
        depth=depth,
        workers=settings["workers"] or default_workers(),
        pool=pool,
        progress=progress,
    )
    return CountResult(total, status=Status.SOLVED if total is not None else Status.LIMIT)
