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

The splits are generators, always in the same order, so work starts on the first cube of
a board of any size at once. The cubes are the jobs of the run's pool
(``runtime.pool``): the load balances cube by cube, the consumer builds and pickles no
cube, and each worker keeps one solver for all its cubes. Workers are threads when the
solver releases the GIL (CP-SAT), forked processes when it does not (pysat). A worker
weighs its counts and maps its solutions onto their images itself, and streams them
through the pool's bounded queue (a slow consumer holds a few chunks, never a whole cube);
its statistics, with the number of cubes it solved, add up in the run's record.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from contextlib import closing
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from queenslab.boards import Board, Cell
from queenslab.boards.symmetry import Symmetry
from queenslab.core.errors import LimitReached
from queenslab.core.problem import Problem
from queenslab.core.run import Run, never
from queenslab.runtime.pool import Pool, Processes, Serial, Threads

#: Below this board size a count takes milliseconds: starting workers would cost more.
PARALLEL_FROM_N = 10
#: Solutions per message from a worker: big enough to pay for the pickling, small enough
#: that the first solutions of a big board come out at once.
CHUNK = 512

Queens = tuple[Cell, ...]
Columns = tuple[int, ...]


@dataclass(frozen=True)
class Cube:
    """The original problem (``whole``) with this cube's ``queens`` added to the givens.

    ``images`` holds one map per member of the cube's orbit (identity first): the maps
    giving distinct cubes, one per coset of the cube's stabiliser.
    """

    whole: Problem
    queens: Queens
    images: tuple[Symmetry, ...]

    @cached_property
    def problem(self) -> Problem:
        """Built (and checked) only for the cubes a worker solves: each walks them all."""
        return self.whole.with_givens(self.queens)

    @property
    def weight(self) -> int:
        """How many cubes this one stands for: its orbit's size."""
        return len(self.images)


#: A split: the cubes of a problem one by one, always in the same order; LimitReached
#: when ``should_stop()`` says stop while it is still looking.
Split = Callable[[Problem, Callable[[], bool]], Iterator[Cube]]
#: A worker's solver loop: given the problem, the cubes it claimed (an iterator that
#: claims as it goes), the backend's settings and ``should_stop``, it yields (cube, result)
#: as it finds them (a number of solutions, or a chunk of solutions as columns), then
#: (None, its statistics); LimitReached when ``should_stop()`` says stop.
CubeWork = Callable[
    [Problem, Iterator[Cube], Mapping[str, Any], Callable[[], bool]],
    Generator[tuple[Cube | None, Any], None, None],
]


def prefixes(
    problem: Problem, rows: Sequence[int], should_stop: Callable[[], bool] = never
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


def _one_per_orbit(
    problem: Problem, cubes: Iterable[Queens], symmetries: Sequence[Symmetry]
) -> Iterator[Cube]:
    """The cubes that stand for their orbit (the smallest member: its sorted cells), each
    with a map onto every member of it.

    A cell is a number (``r * n + c``): sorting and comparing a cube's images is then
    integer work. A cell's numbers under the maps are worked out once: cells recur in
    many cubes.
    """
    n = problem.n
    numbers: dict[Cell, tuple[int, ...]] = {}
    for queens in cubes:
        for queen in queens:
            if queen not in numbers:
                images = (symmetry.cell(n, *queen) for symmetry in symmetries)
                numbers[queen] = tuple(r * n + c for r, c in images)
        # per map, the image of the cube; no queen (givens in every row): one empty cube
        keys = [
            tuple(sorted(cells)) for cells in zip(*(numbers[q] for q in queens), strict=True)
        ] or [()] * len(symmetries)
        if min(keys) < keys[0]:  # the identity's image is the cube itself
            continue  # a smaller member of the orbit stands for it
        orbit: dict[tuple[int, ...], Symmetry] = {}
        for key, symmetry in zip(keys, symmetries, strict=True):
            orbit.setdefault(key, symmetry)
        yield Cube(problem, queens, tuple(orbit.values()))


def rows_split(
    problem: Problem, should_stop: Callable[[], bool] = never, *, depth: int = 2
) -> Iterator[Cube]:
    """Cubes fixing ``depth`` free rows; their weighted counts add up to the problem's."""
    n = problem.n
    givens = problem.given_cols
    rows = [r for r in _outer_rows(n) if r not in givens][:depth]
    symmetries = tuple(
        s
        for s in _symmetries(problem)
        # only the maps sending the fixed rows onto themselves map cubes onto cubes
        if s.keeps_rows and {s.cell(n, r, 0)[0] for r in rows} == set(rows)
    )
    cubes = (
        tuple(sorted(zip(rows, cols, strict=True))) for cols in prefixes(problem, rows, should_stop)
    )
    return _one_per_orbit(problem, cubes, symmetries)


def border_split(problem: Problem, should_stop: Callable[[], bool] = never) -> Iterator[Cube]:
    """Cubes fixing the queens of the four border lines (the rows split with givens)."""
    if problem.givens or problem.n < 4:
        return rows_split(problem, should_stop)
    queens = _border_queens(problem.board, should_stop)
    return _one_per_orbit(problem, queens, _symmetries(problem))


def _border_queens(board: Board, should_stop: Callable[[], bool]) -> Iterator[Queens]:
    """Peaceful queens on rows 0 and n-1 (one each) and on columns 0 and n-1 (one each,
    unless a corner queen holds the column); the clock between two queens on column 0.

    A side queen's cell is one bit of a number per column (bit r: row r), and each end
    queen's threats to them are such numbers, worked out once per cell: a side queen is
    checked against the end queens with one AND.
    """
    n = board.n
    last = n - 1
    columns = (0, last)
    threats: dict[Cell, tuple[int, int]] = {}  # per queen, the side cells it attacks

    def threatened(queen: Cell) -> tuple[int, int]:
        found = threats.get(queen)
        if found is None:
            left, right = (
                sum(1 << r for r in range(1, last) if board.attacks(queen, (r, column)))
                for column in columns
            )
            found = threats[queen] = (left, right)
        return found

    sides = [[r for r in range(1, last) if board.is_open(r, column)] for column in columns]
    for top, bottom in itertools.product(range(n), repeat=2):
        ends = ((0, top), (last, bottom))
        if not board.peaceful(ends):
            continue
        held = [threatened(ends[0])[side] | threatened(ends[1])[side] for side in (0, 1)]
        lefts, rights = (
            [None] if columns[side] in (top, bottom) else [
                (r, columns[side]) for r in sides[side] if not held[side] >> r & 1
            ]
            for side in (0, 1)
        )  # fmt: skip
        for left in lefts:
            if should_stop():
                raise LimitReached
            attacked = threatened(left)[1] if left else 0
            for right in rights:
                if not (right and attacked >> right[0] & 1):
                    yield tuple(q for q in (*ends, left, right) if q)


def chunks(items: Iterable[Any], size: int = CHUNK) -> Iterator[list[Any]]:
    """``items`` in lists of 1, 2, 4, ... up to ``size``, for streaming solutions: the first
    solutions of a big cube come out at once, the rest in messages that pay for pickling."""
    items = iter(items)
    length = 1
    while chunk := list(itertools.islice(items, length)):
        yield chunk
        length = min(2 * length, size)


def _weighed(cube: Cube, found: int) -> int:
    return cube.weight * found


def _with_images(cube: Cube, chunk: list[Columns]) -> list[Columns]:
    """Each solution of ``chunk`` followed by its images in the other cubes of its orbit."""
    return [symmetry.placement(cols) for cols in chunk for symmetry in cube.images]


def count_cubes(
    counter: CubeWork,
    split: Split,
    problem: Problem,
    settings: Mapping[str, Any],
    run: Run,
    *,
    pool: Literal["thread", "process"],
) -> int | None:
    """The weighted sum of the cubes' counts, or None when the run had to stop first
    (each told to ``Run.tally`` as it comes).

    ``counter`` yields numbers of solutions of the cubes it is given (several per cube
    add up).
    """
    total = 0
    try:
        for counted in _results(counter, _weighed, split, problem, settings, run, pool):
            total += counted
            run.tally(counted)
    except LimitReached:
        return None
    return total


def enumerate_cubes(
    enumerator: CubeWork,
    split: Split,
    problem: Problem,
    settings: Mapping[str, Any],
    run: Run,
    *,
    pool: Literal["thread", "process"],
) -> Iterator[Columns]:
    """Every solution of ``problem`` once; LimitReached when the run stops first.

    ``enumerator`` yields the solutions (columns) of the cubes it is given in chunks.
    Order: chunks as the workers find them (one worker on a small board: the split's
    order); within a chunk, each solution followed by its images in the other cubes of
    its orbit.
    """
    for chunk in _results(enumerator, _with_images, split, problem, settings, run, pool):
        yield from chunk


class _Counted(Iterator[Cube]):
    """A worker's claimed cubes, counted for its statistics."""

    def __init__(self, cubes: Iterator[Cube]) -> None:
        self._cubes = cubes
        self.taken = 0

    def __next__(self) -> Cube:
        cube = next(self._cubes)
        self.taken += 1
        return cube


def _worker(
    work: CubeWork,
    present: Callable[[Cube, Any], Any],
    problem: Problem,
    settings: Mapping[str, Any],
    claimed: Iterator[Cube],
    should_stop: Callable[[], bool],
) -> Iterator[tuple[bool, Any]]:
    """One worker of the pool: its cubes' results, ``present``-ed, then (False, its stats)."""
    counted = _Counted(claimed)
    items = work(problem, counted, settings, should_stop)
    with closing(items):
        for cube, result in items:
            if cube is None:
                yield False, {**result, "cubes": counted.taken}
            else:
                yield True, present(cube, result)


def _results(
    work: CubeWork,
    present: Callable[[Cube, Any], Any],
    split: Split,
    problem: Problem,
    settings: Mapping[str, Any],
    run: Run,
    kind: Literal["thread", "process"],
) -> Iterator[Any]:
    """The workers' presented results as they come; LimitReached when the run stops first.

    Statistics of every worker are added to ``run.stats``; progress counts the results
    received (the total is unknown while the split is still walked). ``settings["workers"]``
    workers of the run's pool run when the board is big enough to pay for them.
    """
    workers = settings["workers"]
    pool: Pool[Cube, tuple[bool, Any]] = Serial()
    if workers > 1 and problem.n >= PARALLEL_FROM_N:
        pool = Processes(workers) if kind == "process" else Threads(workers)
    cubes = split(problem, run.should_stop)
    received = 0
    stream = pool.stream(functools.partial(_worker, work, present, problem, settings), cubes, run)
    with closing(stream):
        for is_result, payload in stream:
            if not is_result:
                run.stats.add(payload)
                continue
            received += 1
            run.report(received, None)
            yield payload
