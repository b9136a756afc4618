"""Cube-and-conquer counting: split the board into cubes, count the pieces apart, add up.

A cube places a few queens in advance; every solution lies in exactly one cube. Two
shapes:

- ``rows_split``: the queens of ``depth`` rows from both ends of the board (0, n-1, 1, ...)
  that hold no given queen. The board's row-keeping symmetries (left-right mirror,
  top-bottom mirror, half turn) map a cube's solutions one-to-one onto its mirrored
  cubes' solutions, so one cube per orbit is solved, counted once per member.
- ``border_split``: the queens of the four border lines (rows 0 and n-1, columns 0 and
  n-1). Every symmetry of the square maps the border onto itself, so one cube per orbit
  of the board's whole symmetry group is solved: nearly an eighth of the work, in many
  small cubes (for solvers that take a cube as assumptions, without rebuilding).

The symmetries are the board's own (``Board.symmetries``: all eight on an open board,
fewer with blocked cells); with givens none is used. One runner serves every counting
backend: batches of cubes run on threads when the solver releases the GIL (CP-SAT), in a
process pool when it does not (pysat). Each batch returns its weighted count and its
statistics, which add up in the run's record.
"""

from __future__ import annotations

import itertools
import multiprocessing
import signal
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass
from typing import Any, Literal

from queenslab.boards.symmetry import Symmetry
from queenslab.errors import LimitReached
from queenslab.problem import Problem
from queenslab.run import Run

#: Below this board size a count takes milliseconds: starting a pool would cost more.
PARALLEL_FROM_N = 10
#: Batches per worker: enough to balance uneven cubes, few enough to share solver setup.
BATCHES_PER_WORKER = 8
_POLL_SECONDS = 0.05  # how often the waiting main thread looks at the clock and for Ctrl-C

Queens = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Cube:
    """The original problem with this cube's queens added to the givens."""

    problem: Problem
    weight: int  # the size of its orbit: how many cubes it is counted for


@dataclass(frozen=True)
class WallClock:
    """``should_stop`` for a pool process: the run's deadline as a ``time.time()`` value.

    Picklable, unlike the run itself; a stop or Ctrl-C ends the process from outside.
    """

    end: float | None

    def __call__(self) -> bool:
        return self.end is not None and time.time() >= self.end


#: The weighted count of a batch and its statistics, or None when ``should_stop()`` said
#: stop first. Counters for process pools must be module-level functions (pickled).
BatchResult = tuple[int, dict[str, Any]]
BatchCounter = Callable[[Sequence[Cube], Mapping[str, Any], Callable[[], bool]], BatchResult | None]


def prefixes(
    problem: Problem, rows: Sequence[int], should_stop: Callable[[], bool] = lambda: False
) -> Iterator[tuple[int, ...]]:
    """Columns for ``rows`` whose queens attack neither each other nor the givens.

    Depth first and lexicographic, in memory for one prefix only, looking at
    ``should_stop`` at every node (LimitReached): deep splits of big boards are long.
    """
    board = problem.board
    placed = [*problem.givens]
    cols: list[int] = []
    start = 0  # the first column to try in the next row
    while not should_stop():
        depth = len(cols)
        if depth == len(rows):
            yield tuple(cols)
            found = None
        else:
            found = next(
                (
                    c
                    for c in range(start, problem.n)
                    if board.is_open(rows[depth], c)
                    and not any(board.attacks(queen, (rows[depth], c)) for queen in placed)
                ),
                None,
            )
        if found is None:  # this row is done: the next column of the row above
            if not cols:
                return
            start = cols.pop() + 1
            placed.pop()
        else:
            cols.append(found)
            placed.append((rows[depth], found))
            start = 0
    raise LimitReached


def _outer_rows(n: int) -> list[int]:
    """0, n-1, 1, n-2, ...: fixing rows at both ends keeps the vertical mirror usable."""
    return [r for pair in zip(range(n), range(n - 1, -1, -1), strict=True) for r in pair][:n]


def _symmetries(problem: Problem) -> tuple[Symmetry, ...]:
    """The board's symmetries other than the identity; none when queens are given."""
    return () if problem.givens else problem.board.symmetries()[1:]


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
            kept.append(Cube(problem.with_givens(queens), len(orbit)))
    return kept


def rows_split(problem: Problem, depth: int = 2) -> list[Cube]:
    """Cubes fixing ``depth`` free rows; their weighted counts add up to the problem's."""
    n = problem.n
    givens = problem.given_cols
    rows = [r for r in _outer_rows(n) if r not in givens][:depth]
    cubes = [tuple(sorted(zip(rows, cols, strict=True))) for cols in prefixes(problem, rows)]
    mirrored = sorted(rows) == sorted(n - 1 - r for r in rows)
    symmetries = tuple(
        s
        for s in _symmetries(problem)
        # rows not closed under the top-bottom mirror: only the left-right one applies
        if s.keeps_rows and (mirrored or s.name == "flip-h")
    )
    return _cubes(problem, cubes, symmetries)


def border_split(problem: Problem) -> list[Cube]:
    """Cubes fixing the queens of the four border lines (the rows split with givens)."""
    n = problem.n
    if problem.givens or n < 4:
        return rows_split(problem)
    board = problem.board
    inner = range(1, n - 1)
    cubes = set()
    for top, bottom in itertools.product(range(n), repeat=2):
        for left in [None] if 0 in (top, bottom) else inner:
            for right in [None] if n - 1 in (top, bottom) else inner:
                queens = [(0, top), (n - 1, bottom)]
                queens += [] if left is None else [(left, 0)]
                queens += [] if right is None else [(right, n - 1)]
                if board.peaceful(queens):
                    cubes.add(tuple(sorted(queens)))
    return _cubes(problem, sorted(cubes), _symmetries(problem))


def leave_sigint_to_parent() -> None:
    """Pool processes ignore Ctrl-C: the parent stops them, so no child prints a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _batches(cubes: list[Cube], parts: int) -> list[list[Cube]]:
    size = max(1, -(-len(cubes) // parts))
    return [cubes[i : i + size] for i in range(0, len(cubes), size)]


def count_cubes(
    counter: BatchCounter,
    cubes: list[Cube],
    settings: Mapping[str, Any],
    run: Run,
    *,
    pool: Literal["thread", "process"],
) -> int | None:
    """The weighted sum of the cubes' counts, or None when the run had to stop first.

    Statistics of every batch are added to ``run.stats``; ``settings["workers"]`` batches
    run at once when the board is big enough to pay for a pool.
    """
    workers = settings["workers"]
    parallel = workers > 1 and bool(cubes) and cubes[0].problem.n >= PARALLEL_FROM_N
    batches = _batches(cubes, workers * BATCHES_PER_WORKER if parallel else BATCHES_PER_WORKER)
    total = 0

    def add(found: BatchResult | None, finished: int) -> bool:
        nonlocal total
        if found is None:
            return False
        total += found[0]
        run.stats.add(found[1])
        run.report(finished, len(batches))
        return True

    if not parallel:
        for finished, batch in enumerate(batches, 1):
            if not add(counter(batch, settings, run.should_stop), finished):
                return None
        return total
    runner = _in_processes if pool == "process" else _on_threads
    for finished, found in enumerate(runner(counter, batches, settings, run, workers), 1):
        if not add(found, finished):
            return None
    return total


def _on_threads(
    counter: BatchCounter,
    batches: list[list[Cube]],
    settings: Mapping[str, Any],
    run: Run,
    workers: int,
) -> Iterable[BatchResult | None]:
    """Batch results as they finish; the counters see the run's own stop signal."""
    executor = ThreadPoolExecutor(min(workers, len(batches)), thread_name_prefix="cubes")
    try:
        pending = {executor.submit(counter, batch, settings, run.should_stop) for batch in batches}
        while pending:
            # A short timeout: the main thread looks for Ctrl-C between waits.
            done, pending = wait_futures(pending, _POLL_SECONDS, return_when="FIRST_COMPLETED")
            for future in done:
                yield future.result()
    except BaseException:  # Ctrl-C, or the consumer stopped early: the rest is not wanted
        run.stop()
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


def _in_processes(
    counter: BatchCounter,
    batches: list[list[Cube]],
    settings: Mapping[str, Any],
    run: Run,
    workers: int,
) -> Iterable[BatchResult | None]:
    """Batch results as they finish, from forked processes this run alone owns.

    fork, because spawn and forkserver re-import the caller's main script (and fail in an
    unguarded one); the children run only pure-C solvers (python-sat) and start before any
    search thread of this run. Stopping terminates this pool's processes and no others.
    """
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    should_stop = WallClock(run.wall_clock_end())
    with context.Pool(min(workers, len(batches)), initializer=leave_sigint_to_parent) as procs:
        pending = [procs.apply_async(counter, (batch, settings, should_stop)) for batch in batches]
        while pending:
            ready = [job for job in pending if job.ready()]
            for job in ready:
                pending.remove(job)
                yield job.get()
            if not ready:
                if run.should_stop():
                    yield None
                    return
                time.sleep(_POLL_SECONDS)
        # leaving the with block terminates the pool: its processes, and only those
