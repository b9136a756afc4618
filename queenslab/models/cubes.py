"""Cube and conquer: split the board into cubes, solve the pieces apart, add them up.

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
fewer with blocked cells); with givens none is used. A kept cube remembers the maps that
send it onto the other members of its orbit (``Cube.images``); each map g is a bijection
from the cube's solutions onto those of g(cube), so a count weighs a cube by their number
and an enumeration yields g(S) for every solution S it found.

One runner serves every backend: batches of cubes run on threads when the solver releases
the GIL (CP-SAT), in a process pool when it does not (pysat). A batch streams its results
as it finds them, per cube (its number of solutions, or its solutions in chunks), then
its statistics, which add up in the run's record; they pass through a bounded queue, so
a slow consumer (writing solutions) holds a few chunks, never a whole batch.
"""

from __future__ import annotations

import itertools
import multiprocessing
import queue
import signal
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
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
#: Solutions per message from a worker: big enough to pay for the pickling, small enough
#: that the first solutions of a big board come out at once.
CHUNK = 512
#: Messages waiting for the consumer, per worker, before the workers wait in turn.
QUEUED_PER_WORKER = 4
_POLL_SECONDS = 0.05  # how often the waiting main thread looks at the clock and for Ctrl-C

Queens = tuple[tuple[int, int], ...]
Columns = tuple[int, ...]


@dataclass(frozen=True)
class Cube:
    """The original problem with this cube's queens added to the givens.

    ``images`` holds one map per member of the cube's orbit (identity first): the maps
    giving distinct cubes, one per coset of the cube's stabiliser.
    """

    problem: Problem
    images: tuple[Symmetry, ...]

    @property
    def weight(self) -> int:
        """How many cubes this one stands for: its orbit's size."""
        return len(self.images)


@dataclass(frozen=True)
class WallClock:
    """``should_stop`` for a pool process: the run's deadline as a ``time.time()`` value.

    Picklable, unlike the run itself; a stop or Ctrl-C ends the process from outside.
    """

    end: float | None

    def __call__(self) -> bool:
        return self.end is not None and time.time() >= self.end


#: What a batch function yields: (position of a cube in the batch, a result for it) as it
#: finds them, then (None, the batch's statistics). It raises LimitReached when
#: ``should_stop()`` says stop. Batch functions for process pools must be module-level
#: functions (pickled).
BatchItem = tuple[int | None, Any]
BatchWork = Callable[[Sequence[Cube], Mapping[str, Any], Callable[[], bool]], Iterator[BatchItem]]
#: A batch's item as it reaches the consumer: (index of the batch, position, result).
Message = tuple[int, int | None, Any]
_FAILED = -1  # the position of a message carrying the exception that ended a batch


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
    """The board's symmetries, identity first; the identity alone when queens are given."""
    symmetries = problem.board.symmetries()
    return symmetries[:1] if problem.givens else symmetries


def _cubes(problem: Problem, cubes: Iterable[Queens], symmetries: Sequence[Symmetry]) -> list[Cube]:
    """One cube per orbit (the smallest), with a map onto each member of its orbit."""
    n = problem.n
    kept = []
    for queens in cubes:
        orbit: dict[Queens, Symmetry] = {}
        for symmetry in symmetries:  # the identity first: it maps the cube onto itself
            image = symmetry.cells(n, queens)
            if image < queens:
                break  # a smaller member of the orbit stands for it
            orbit.setdefault(image, symmetry)
        else:
            kept.append(Cube(problem.with_givens(queens), tuple(orbit.values())))
    return kept


def rows_split(problem: Problem, depth: int = 2) -> list[Cube]:
    """Cubes fixing ``depth`` free rows; their weighted counts add up to the problem's."""
    n = problem.n
    givens = problem.given_cols
    rows = [r for r in _outer_rows(n) if r not in givens][:depth]
    cubes = [tuple(sorted(zip(rows, cols, strict=True))) for cols in prefixes(problem, rows)]
    symmetries = tuple(
        s
        for s in _symmetries(problem)
        # only the maps sending the fixed rows onto themselves map cubes onto cubes
        if s.keeps_rows and {s.cell(n, r, 0)[0] for r in rows} == set(rows)
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
        rows = [(0, top), (n - 1, bottom)]
        if not board.peaceful(rows):
            continue  # pruned before the columns' queens are tried
        for left in [None] if 0 in (top, bottom) else inner:
            sides = rows if left is None else [*rows, (left, 0)]
            if left is not None and not board.peaceful(sides):
                continue
            for right in [None] if n - 1 in (top, bottom) else inner:
                queens = sides if right is None else [*sides, (right, n - 1)]
                if right is None or board.peaceful(queens):
                    cubes.add(tuple(sorted(queens)))
    return _cubes(problem, sorted(cubes), _symmetries(problem))


def leave_sigint_to_parent() -> None:
    """Pool processes ignore Ctrl-C: the parent stops them, so no child prints a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _batches(cubes: list[Cube], parts: int) -> list[list[Cube]]:
    size = max(1, -(-len(cubes) // parts))
    return [cubes[i : i + size] for i in range(0, len(cubes), size)]


def chunks(items: Iterable[Any], size: int = CHUNK) -> Iterator[list[Any]]:
    """``items`` in lists of ``size`` (the last one shorter), for streaming solutions."""
    items = iter(items)
    while chunk := list(itertools.islice(items, size)):
        yield chunk


def count_cubes(
    counter: BatchWork,
    cubes: list[Cube],
    settings: Mapping[str, Any],
    run: Run,
    *,
    pool: Literal["thread", "process"],
) -> int | None:
    """The weighted sum of the cubes' counts, or None when the run had to stop first.

    ``counter`` yields the number of solutions of each cube of a batch.
    """
    try:
        return sum(
            cube.weight * found
            for cube, found in _cube_results(counter, cubes, settings, run, pool)
        )
    except LimitReached:
        return None


def enumerate_cubes(
    enumerator: BatchWork,
    cubes: list[Cube],
    settings: Mapping[str, Any],
    run: Run,
    *,
    pool: Literal["thread", "process"],
) -> Iterator[Columns]:
    """Every solution of the cubes' problem once; LimitReached when the run stops first.

    ``enumerator`` yields the solutions (columns) of each cube of a batch in chunks.
    Order: chunks as the workers find them (the workers' batches interleave; one worker
    at a time on a small board); within a chunk, each solution followed by its images in
    the other cubes of its orbit.
    """
    for cube, found in _cube_results(enumerator, cubes, settings, run, pool):
        for cols in found:
            for symmetry in cube.images:
                yield symmetry.placement(cols)


def _cube_results(
    work: BatchWork,
    cubes: list[Cube],
    settings: Mapping[str, Any],
    run: Run,
    pool: Literal["thread", "process"],
) -> Iterator[tuple[Cube, Any]]:
    """(cube, result) as the batches find them; LimitReached when the run stops first.

    Statistics of every batch are added to ``run.stats`` and progress is reported per
    batch; ``settings["workers"]`` batches run at once when the board is big enough to pay
    for a pool, which is closed when the consumer stops early.
    """
    workers = settings["workers"]
    parallel = workers > 1 and bool(cubes) and cubes[0].problem.n >= PARALLEL_FROM_N
    batches = _batches(cubes, workers * BATCHES_PER_WORKER if parallel else BATCHES_PER_WORKER)
    if parallel:
        runner = _in_processes if pool == "process" else _on_threads
        messages = runner(work, batches, settings, run, workers)
    else:
        messages = (
            (index, position, result)
            for index, batch in enumerate(batches)
            for position, result in work(batch, settings, run.should_stop)
        )
    finished = 0
    with closing(messages):
        for index, position, result in messages:
            if position is None:
                run.stats.add(result)
                finished += 1
                run.report(finished, len(batches))
            else:
                yield batches[index][position], result


def _pump(
    put: Callable[[Message], bool],
    work: BatchWork,
    index: int,
    batch: Sequence[Cube],
    settings: Mapping[str, Any],
    should_stop: Callable[[], bool],
) -> None:
    """Run one batch in a worker, sending its items (or its exception) to the consumer.

    ``put`` returns False when the consumer is gone: the batch ends there.
    """
    try:
        items = work(batch, settings, should_stop)
        with closing(items):
            for position, result in items:
                if not put((index, position, result)):
                    return
    except BaseException as exc:  # raised again by the consumer
        put((index, _FAILED, exc))


def _received(get: Callable[[float], Message], batches: int, run: Run) -> Iterator[Message]:
    """The workers' messages until every batch has sent its statistics.

    Waits in short slices, looking for a stop (LimitReached) and for Ctrl-C between them.
    """
    while batches:
        try:
            message = get(_POLL_SECONDS)
        except queue.Empty:
            if run.should_stop():
                raise LimitReached from None
            continue
        _, position, result = message
        if position == _FAILED:
            raise result
        if position is None:
            batches -= 1
        yield message


def _on_threads(
    work: BatchWork,
    batches: list[list[Cube]],
    settings: Mapping[str, Any],
    run: Run,
    workers: int,
) -> Iterator[Message]:
    """The batches' messages as the threads send them; the threads see the run's stop."""
    channel: queue.Queue[Message] = queue.Queue(workers * QUEUED_PER_WORKER)

    def put(message: Message) -> bool:
        while not run.should_stop():
            try:
                channel.put(message, timeout=_POLL_SECONDS)
                return True
            except queue.Full:
                continue
        return False

    executor = ThreadPoolExecutor(min(workers, len(batches)), thread_name_prefix="cubes")
    try:
        for index, batch in enumerate(batches):
            executor.submit(_pump, put, work, index, batch, settings, run.should_stop)
        yield from _received(lambda timeout: channel.get(timeout=timeout), len(batches), run)
    except BaseException:  # Ctrl-C, a stop, or the consumer stopped early: the rest is not wanted
        run.stop()
        raise
    finally:
        executor.shutdown(wait=True, cancel_futures=True)


_channel: Any = None  # a pool process's end of the queue to the consumer (set at its start)


def _start_child(channel: Any) -> None:
    global _channel
    _channel = channel
    leave_sigint_to_parent()


def _send(message: Message) -> bool:
    """Put a message in a pool process's queue; a full queue holds the child (bounded)."""
    _channel.put(message)
    return True


def _pump_in_child(
    work: BatchWork,
    index: int,
    batch: Sequence[Cube],
    settings: Mapping[str, Any],
    should_stop: Callable[[], bool],
) -> None:
    _pump(_send, work, index, batch, settings, should_stop)


def _in_processes(
    work: BatchWork,
    batches: list[list[Cube]],
    settings: Mapping[str, Any],
    run: Run,
    workers: int,
) -> Iterator[Message]:
    """The batches' messages as forked processes that this run alone owns send them.

    fork, because spawn and forkserver re-import the caller's main script (and fail in an
    unguarded one); the children run only pure-C solvers (python-sat) and start before any
    search thread of this run. Stopping terminates this pool's processes and no others.
    """
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    should_stop = WallClock(run.wall_clock_end())
    channel = context.Queue(workers * QUEUED_PER_WORKER)
    size = min(workers, len(batches))
    try:
        with context.Pool(size, initializer=_start_child, initargs=(channel,)) as procs:
            for index, batch in enumerate(batches):
                procs.apply_async(_pump_in_child, (work, index, batch, settings, should_stop))
            yield from _received(lambda timeout: channel.get(timeout=timeout), len(batches), run)
            # leaving the with block terminates the pool: its processes, and only those
    finally:
        channel.close()
