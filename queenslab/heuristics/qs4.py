"""QS4 min-conflicts (Sosic & Gu): one board of up to 10^8 queens at C speed and C memory.

A run shuffles the free columns, places each row greedily on the first unused column
whose diagonals are still empty (first fit over the shuffled columns), gives the few rows
left at the bottom the columns that remain, then repairs: an attacked queen swaps with a
random row whenever that lowers the number of collisions. Per-diagonal counters make
every test O(1); memory is the int32 columns plus two one-byte counters per diagonal
(about 8 bytes a queen), with nothing else of size n.

``solve_min_conflicts`` takes the board as plain arguments (blocked cells, given
queens), so any caller can use it without the backend machinery. A run that
does not finish within its work budget restarts; after ``restarts`` runs it gives up.
A ``Watch`` hears the search (the trace replays it): each run's start, then its swaps.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from queenslab.heuristics.qs4_kernels import BLOCKS, GIVEN, Kernels, kernels_for
from queenslab.heuristics.random_stream import new_stream

Cell = tuple[int, int]
#: Positions, greedy tests or repair work between two looks at the clock (< 0.5 s at 10^8).
CHUNK = 1 << 22
#: Rows queued for repair at most (a scan refills the ring when it runs dry).
RING = 1 << 16
#: Greedy tests per row before the rest is left to repair; a standard board uses about 10.
GREEDY_TESTS_PER_ROW = 32


#: Hears a search, for a trace: ("start", the columns a run repairs) and ("swaps", one
#: (i, j) per swap of rows i and j, in order). The arrays are the search's: copy them.
Watch = Callable[[str, np.ndarray], None]
#: The repair kernel's log when no one watches: it records nothing.
NO_LOG = np.empty((0, 2), dtype=np.int32)


class Outcome(NamedTuple):
    """Columns per row (int32) of a solution, or None; ``stopped`` when ``should_stop`` said so."""

    cols: np.ndarray | None
    stopped: bool
    stats: dict[str, int]


class _Stopped(Exception):
    """The caller's ``should_stop`` said yes between two kernel calls."""


def repair_budget(n: int) -> int:
    """Repair work per run before a restart: generous for big n, short for tiny ones.

    Small boards reach a local minimum within a few dozen swaps; many short runs beat a
    few long ones there (a 6x6 board with one completion failed 50 runs of 20k attempts).
    """
    return 64 * n + 1024


def solve_min_conflicts(
    n: int,
    seed: int | None = None,
    givens: Sequence[Cell] = (),
    *,
    blocked: Sequence[Cell] = (),
    should_stop: Callable[[], bool] | None = None,
    restarts: int = 1000,
    watch: Watch | None = None,
) -> Outcome:
    """One placement of n queens keeping ``givens`` and avoiding ``blocked`` cells.

    ``should_stop`` is asked between kernel calls (a few tenths of a second apart at
    most); when it says yes the search ends with ``stopped``. Givens must be peaceful
    and off the blocked cells (``Problem`` checks that). Same seed, same board.
    """
    kernels = kernels_for(bool(givens or blocked))
    rows, keys = _row_marks(n, givens, blocked)
    stream = new_stream(seed)
    stats = {"restarts": 0, "greedy_tests": 0, "tail_rows": 0, "swap_attempts": 0, "moves": 0}

    def check() -> None:
        if should_stop is not None and should_stop():
            raise _Stopped

    try:
        for attempt in range(max(1, restarts)):
            stats["restarts"] = attempt
            cols = _run(kernels, n, givens, rows, keys, stream, stats, check, watch)
            if cols is not None:
                return Outcome(cols, False, stats)
    except _Stopped:
        return Outcome(None, True, stats)
    return Outcome(None, False, stats)


def _row_marks(
    n: int, givens: Sequence[Cell], blocked: Sequence[Cell]
) -> tuple[np.ndarray, np.ndarray]:
    """The per-row GIVEN/BLOCKS bits and the sorted blocked keys r * n + c.

    Both are empty on a board without givens and blocked cells: huge boards pay nothing.
    """
    rows = np.zeros(n if givens or blocked else 0, dtype=np.uint8)
    for r, _ in givens:
        rows[r] |= GIVEN
    for r, _ in blocked:
        rows[r] |= BLOCKS
    keys = np.array(sorted(r * n + c for r, c in blocked), dtype=np.int64)
    return rows, keys


def _start(n: int, givens: Sequence[Cell]) -> np.ndarray:
    """Columns per row: the givens in place, the other columns ascending in the free rows."""
    queen = np.arange(n, dtype=np.int32)
    if givens:
        given_rows = np.array([r for r, _ in givens], dtype=np.int64)
        given_cols = np.array([c for _, c in givens], dtype=np.int32)
        free = np.ones(n, dtype=bool)
        free[given_rows] = False
        unused = np.ones(n, dtype=bool)
        unused[given_cols] = False
        queen[given_rows] = given_cols
        queen[free] = np.flatnonzero(unused)
    return queen


def _cap(counts: np.ndarray) -> int:
    return int(np.iinfo(counts.dtype).max)


def place_tail(
    kernels: Kernels,
    queen: np.ndarray,
    up: np.ndarray,
    down: np.ndarray,
    rows: np.ndarray,
    keys: np.ndarray,
    row: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    """Count the queens of the rows from ``row`` on where they stand, queueing them.

    Returns the counters (widened to int32 when a diagonal would reach 256 queens, as
    when the greedy phase stopped early), the repair queue, its length and the collisions.
    """
    todo = np.empty(min(queen.size, RING), dtype=np.int32)
    queued = collisions = 0
    while True:
        row, queued, collisions = kernels.fill(
            queen, up, down, rows, keys, row, todo, queued, collisions, _cap(up)
        )
        if row == queen.size:
            return up, down, todo, queued, collisions
        up, down = up.astype(np.int32), down.astype(np.int32)


def _run(
    kernels: Kernels,
    n: int,
    givens: Sequence[Cell],
    rows: np.ndarray,
    keys: np.ndarray,
    stream: np.ndarray,
    stats: dict[str, int],
    check: Callable[[], None],
    watch: Watch | None,
) -> np.ndarray | None:
    """One run from a fresh shuffle: the board, or None when the repair budget ran out."""
    queen = _start(n, givens)
    diagonals = 2 * n - 1
    up = np.zeros(diagonals, dtype=np.uint8)
    down = np.zeros(diagonals, dtype=np.uint8)
    if givens:
        kernels.place_givens(queen, up, down, rows)
    for start in range(0, n, CHUNK):
        kernels.shuffle(queen, rows, stream, start, min(n, start + CHUNK))
        check()

    row, frontier, stuck = 0, 0, False
    budget = GREEDY_TESTS_PER_ROW * n + 1024
    while row < n and not stuck and budget > 0:
        row, frontier, tests, stuck = kernels.greedy(
            queen, up, down, rows, keys, row, frontier, min(budget, CHUNK)
        )
        budget -= tests
        stats["greedy_tests"] += tests
        check()
    stats["tail_rows"] = n - row

    up, down, todo, queued, collisions = place_tail(kernels, queen, up, down, rows, keys, row)

    head = scan = 0
    budget = repair_budget(n)
    log = NO_LOG
    if watch:
        watch("start", queen)
        log = np.empty((min(budget, CHUNK), 2), dtype=np.int32)
    while collisions > 0 and budget > 0:
        collisions, head, queued, scan, work, attempts, moves = kernels.repair(
            queen, up, down, rows, keys, todo, head, queued, scan, collisions,
            min(budget, CHUNK), _cap(up), stream, log,
        )  # fmt: skip
        if watch:
            watch("swaps", log[:moves])
        budget -= work
        stats["swap_attempts"] += attempts
        stats["moves"] += moves
        if collisions:
            check()
    return queen if collisions == 0 else None
