"""Numba kernels of QS4 min-conflicts, compiled per kind of board from one source.

``kernels_for(constrained)`` returns the five kernels for boards where some rows hold
given queens or blocked cells (``constrained``) or none do. The flag is a closure
constant, so the plain board's kernels contain no test of either feature: it pays
nothing for them. Diagonals are keyed by the standard board's two diagonal families
(``boards.base.LineFamily``): their weights and shift are module constants, which Numba
folds into the kernels.

The state lives in caller-owned arrays, so the driver (``qs4.py``) runs every kernel in
chunks and looks at the clock between them:
- ``queen[r]``: the column of row r's queen, a permutation (int32);
- ``up[k]``, ``down[k]``: queens per diagonal, in the narrowest type that cannot overflow
  (uint8 while every count stays below ``cap``; the driver widens them otherwise);
- ``rows[r]``: ``GIVEN`` and ``BLOCKS`` bits (constrained boards only; empty otherwise);
- ``blocked``: the blocked cells as sorted keys ``r * n + c`` (constrained boards only).
A *collision* is a queen beyond the first on a diagonal, or a queen on a blocked cell.
"""

from __future__ import annotations

from functools import cache
from typing import Any, NamedTuple

import numpy as np

from queenslab.boards.standard import Standard
from queenslab.compiled.jit import njit
from queenslab.heuristics.prefetch import prefetch
from queenslab.heuristics.random_stream import AHEAD, below, draw, peek

GIVEN = 1  # rows[r]: the row holds a given queen, which never moves
BLOCKS = 2  # rows[r]: the row has blocked cells
#: How far ahead of the greedy scan the diagonal counters are prefetched (pool positions).
SCAN_AHEAD = 16
#: Swap partners tried for one attacked row before it goes back in the queue.
TRIES_PER_VISIT = 256


# -- the board's diagonal keys (boards.base.LineFamily.key), inlined into every kernel --
_UP, _DOWN = (family for family in Standard.families() if family.name.startswith("diag"))
UP_ROW, UP_COL, UP_SHIFT = _UP.row_weight, _UP.col_weight, _UP.shift
DOWN_ROW, DOWN_COL, DOWN_SHIFT = _DOWN.row_weight, _DOWN.col_weight, _DOWN.shift


@njit(inline="always")
def up_key(r, c, n):
    return UP_ROW * r + UP_COL * c + UP_SHIFT * (n - 1)


@njit(inline="always")
def down_key(r, c, n):
    return DOWN_ROW * r + DOWN_COL * c + DOWN_SHIFT * (n - 1)


@njit(inline="always")
def is_free(rows, r, constrained):
    """The row's queen may move (it is not a given one)."""
    return not constrained or rows[r] & GIVEN == 0


@njit(inline="always")
def is_blocked(rows, blocked, n, r, c, constrained):
    if not constrained or rows[r] & BLOCKS == 0:
        return False
    key = r * n + c
    k = np.searchsorted(blocked, key)
    return k < blocked.size and blocked[k] == key


@njit(inline="always")
def attacked(queen, up, down, rows, blocked, r, constrained):
    n = queen.size
    c = queen[r]
    return (
        up[up_key(r, c, n)] > 1
        or down[down_key(r, c, n)] > 1
        or is_blocked(rows, blocked, n, r, c, constrained)
    )


@njit(inline="always")
def move(up, down, n, r, old, new):
    """Move row r's queen from column old to new; returns the change in diagonal collisions."""
    delta = 0
    u, d = up_key(r, old, n), down_key(r, old, n)
    up[u] -= 1
    down[d] -= 1
    delta -= (up[u] > 0) + (down[d] > 0)
    u, d = up_key(r, new, n), down_key(r, new, n)
    delta += (up[u] > 0) + (down[d] > 0)
    up[u] += 1
    down[d] += 1
    return delta


@njit(inline="always")
def exchange(up, down, rows, blocked, n, i, j, ci, cj, constrained):
    """Count rows i and j as holding columns cj and ci instead of ci and cj (the queens
    array is the caller's); returns the change in collisions, blocked cells included."""
    delta = move(up, down, n, i, ci, cj) + move(up, down, n, j, cj, ci)
    if constrained:
        delta += is_blocked(rows, blocked, n, i, cj, constrained)
        delta += is_blocked(rows, blocked, n, j, ci, constrained)
        delta -= is_blocked(rows, blocked, n, i, ci, constrained)
        delta -= is_blocked(rows, blocked, n, j, cj, constrained)
    return delta


@njit(inline="always")
def crowded(up, down, n, r, c, cap):
    """A diagonal through (r, c) is so full that two more queens could overflow its count."""
    return up[up_key(r, c, n)] >= cap - 1 or down[down_key(r, c, n)] >= cap - 1


@njit(inline="always")
def requeue(todo, head, size, r, queen, up, down, rows, blocked, constrained):
    """Put row r back at the end of the ring if it is attacked and there is room."""
    if size < todo.size and attacked(queen, up, down, rows, blocked, r, constrained):
        todo[(head + size) % todo.size] = r
        return size + 1
    return size


@njit(inline="always")
def logged(log, moves, i, j):
    """Count a swap of rows i and j, writing it to ``log`` when it has rows (a trace)."""
    if log.shape[0]:
        log[moves, 0] = i
        log[moves, 1] = j
    return moves + 1


class Kernels(NamedTuple):
    """The compiled kernels of one kind of board (see ``kernels_for``)."""

    place_givens: Any
    shuffle: Any
    greedy: Any
    fill: Any
    repair: Any


@cache
def kernels_for(constrained: bool) -> Kernels:
    """The kernels for boards with givens or blocked cells, or for plain ones."""

    @njit(cache=True, nogil=True)
    def place_givens(queen, up, down, rows):
        """Count the given queens (already in ``queen``) on their diagonals."""
        n = queen.size
        for r in range(n):
            if not is_free(rows, r, constrained):
                up[up_key(r, queen[r], n)] += 1
                down[down_key(r, queen[r], n)] += 1

    @njit(cache=True, nogil=True)
    def shuffle(queen, rows, stream, start, stop):
        """Fisher-Yates from the front over the free rows: row t swaps with a free t' >= t.

        The partner of the row ``AHEAD`` steps on is known already and prefetched.
        """
        n = queen.size
        for t in range(start, stop):
            if not is_free(rows, t, constrained):
                continue
            later = t + AHEAD - 1
            if later < n:
                prefetch(queen, later + below(peek(stream, AHEAD - 1), n - later))
            j = t + below(draw(stream), n - t)
            while not is_free(rows, j, constrained):
                j = t + below(draw(stream), n - t)
            queen[t], queen[j] = queen[j], queen[t]

    @njit(cache=True, nogil=True)
    def greedy(queen, up, down, rows, blocked, row, frontier, quota):
        """First fit from ``row`` on: each row takes the first unused column free on both
        diagonals (and open), scanning the shuffled columns of the rows below it.

        Columns that failed for a row stay at the front and are tried again for the
        next one; their counters are still in cache. Columns seen for the first time
        (past ``frontier``) are the misses; their counters are prefetched ``SCAN_AHEAD``
        columns early. Stops after ``quota`` tests, or at a row that no unused column
        fits (``stuck``). Returns (next row, frontier, tests, stuck).
        """
        n = queen.size
        tests = 0
        i = row
        while i < n and tests < quota:
            if not is_free(rows, i, constrained):
                i += 1
                continue
            p = i
            c = queen[p]
            found = False
            while p < n:
                if not is_free(rows, p, constrained):
                    p += 1
                    continue
                c = queen[p]
                tests += 1
                if p >= frontier:
                    frontier = p + 1
                    if p + SCAN_AHEAD < n:
                        ahead = queen[p + SCAN_AHEAD]
                        later = min(i + SCAN_AHEAD, n - 1)
                        prefetch(up, up_key(later, ahead, n))
                        prefetch(down, down_key(later, ahead, n))
                # Both counters are read (they are in cache): one branch instead of two.
                if (up[up_key(i, c, n)] | down[down_key(i, c, n)]) == 0 and not is_blocked(
                    rows, blocked, n, i, c, constrained
                ):
                    found = True
                    break
                p += 1
            if not found:
                return i, frontier, tests, True
            queen[p] = queen[i]
            queen[i] = c
            up[up_key(i, c, n)] = 1
            down[down_key(i, c, n)] = 1
            i += 1
        return i, frontier, tests, False

    @njit(cache=True, nogil=True)
    def fill(queen, up, down, rows, blocked, row, todo, queued, collisions, cap):
        """Count the free rows from ``row`` on with the columns they hold, queueing them.

        Stops before a counter would exceed ``cap`` (the driver widens the counters and
        calls again). Returns (row reached, queued, collisions).
        """
        n = queen.size
        for i in range(row, n):
            if not is_free(rows, i, constrained):
                continue
            c = queen[i]
            u, d = up_key(i, c, n), down_key(i, c, n)
            if up[u] >= cap or down[d] >= cap:
                return i, queued, collisions
            collisions += (up[u] > 0) + (down[d] > 0)
            collisions += int(is_blocked(rows, blocked, n, i, c, constrained))
            up[u] += 1
            down[d] += 1
            if queued < todo.size:
                todo[queued] = i
                queued += 1
        return n, queued, collisions

    @njit(cache=True, nogil=True)
    def repair(queen, up, down, rows, blocked, todo, head, size, scan, collisions, quota,
               cap, stream, log):  # fmt: skip
        """Swap attacked queens with random free rows while that lowers the collisions.

        ``todo`` is a ring of rows to look at (``head``, ``size``); a swap queues both
        rows again if they are still attacked. When the ring runs dry with collisions
        left (a row was dropped from a full ring, or a diagonal kept 3+ queens), a scan
        from row ``scan`` refills it, resumed across calls. A move onto a diagonal whose
        count is near ``cap`` is never made. Work (swap attempts and rows scanned) stops
        at ``quota``. Returns (collisions, head, size, scan, work, attempts, moves).
        A ``log`` with rows (``quota`` of them) gets the rows of each swap, in order, for
        a trace; an empty one costs a test per swap.
        """
        n = queen.size
        ring = todo.size
        work = attempts = moves = 0
        while collisions > 0 and work < quota:
            if size == 0:
                while size < ring and work < quota:
                    r = scan
                    scan = scan + 1 if scan + 1 < n else 0
                    work += 1
                    if is_free(rows, r, constrained) and attacked(
                        queen, up, down, rows, blocked, r, constrained
                    ):
                        todo[(head + size) % ring] = r
                        size += 1
                continue
            i = todo[head]
            head = (head + 1) % ring
            size -= 1
            if not attacked(queen, up, down, rows, blocked, i, constrained):
                continue
            swapped = False
            j = side = -1
            tries = 0
            # A bounded number of partners per visit: at a local minimum no swap helps
            # this row, and another attacked row (or a restart) must get its turn.
            while not swapped and work < quota and tries < TRIES_PER_VISIT:
                work += 1
                attempts += 1
                tries += 1
                j = below(draw(stream), n)
                if j == i or not is_free(rows, j, constrained):
                    continue
                ci, cj = queen[i], queen[j]
                if crowded(up, down, n, i, cj, cap) or crowded(up, down, n, j, ci, cap):
                    continue
                delta = exchange(up, down, rows, blocked, n, i, j, ci, cj, constrained)
                if delta < 0:
                    queen[i], queen[j] = cj, ci
                    collisions += delta
                    moves = logged(log, moves, i, j)
                    swapped = True
                else:
                    exchange(up, down, rows, blocked, n, i, j, cj, ci, constrained)  # undo
                    if delta == 0 and side < 0:
                        side = j
            if not swapped and side < 0:
                # Not even a sideways partner: a random swap (a noise step) moves on.
                j = i
                while j == i or not is_free(rows, j, constrained):
                    j = below(draw(stream), n)
                if not crowded(up, down, n, i, queen[j], cap) and not crowded(
                    up, down, n, j, queen[i], cap
                ):
                    side = j
            if not swapped and side >= 0:
                # No partner helps: a sideways (or noise) swap leaves the plateau.
                j = side
                ci, cj = queen[i], queen[j]
                delta = exchange(up, down, rows, blocked, n, i, j, ci, cj, constrained)
                collisions += delta
                queen[i], queen[j] = cj, ci
                moves = logged(log, moves, i, j)
                swapped = True
            # Still attacked (or out of work): look at the row again later.
            size = requeue(todo, head, size, i, queen, up, down, rows, blocked, constrained)
            if swapped:
                size = requeue(todo, head, size, j, queen, up, down, rows, blocked, constrained)
        return collisions, head, size, scan, work, attempts, moves

    return Kernels(place_givens, shuffle, greedy, fill, repair)
