"""Numba kernels: a seeded generator, QS4 min-conflicts, and one Las Vegas trial.

Imported lazily (inside backend methods): compiling is seconds cold, ~0.3 s from the cache.
All state lives in caller-owned arrays so the Python side can run a kernel in chunks and
look at the clock between them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


def new_rng(seed: int | None) -> np.ndarray:
    """A one-word splitmix64 state; ``None`` behaves as seed 0 so runs stay reproducible."""
    return np.array([(seed or 0) & 0xFFFFFFFFFFFFFFFF], dtype=np.uint64)


@njit(cache=True, nogil=True)
def rand_below(state, k):
    """Uniform integer in [0, k) from the splitmix64 stream in ``state[0]``."""
    state[0] += _GOLDEN
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return np.int64(float(z >> np.uint64(11)) * _TO_UNIT * k)


# -- min-conflicts (QS4) ----------------------------------------------------------------


@njit(cache=True, nogil=True)
def _free_row_at_or_after(fixed, start, n, state):
    """A uniformly random row in [start, n) without a given queen (one must exist)."""
    while True:
        m = start + rand_below(state, n - start)
        if fixed.size == 0 or fixed[m] == 0:
            return m


@njit(cache=True, nogil=True)
def qs4_greedy(queen, up, down, fixed, start, stop, tries_left, state):
    """Greedy rows [start, stop): swap in a random later column free on both diagonals.

    ``up`` counts queens per r+c, ``down`` per r-c+n-1 (given queens already counted;
    their rows are skipped). Returns (next row, tries left);
    the phase ends early when the try budget (3.08 n for the whole board) runs out.
    """
    n = queen.size
    i = start
    while i < stop:
        if fixed.size == 0 or fixed[i] == 0:
            placed = False
            while not placed and tries_left > 0:
                tries_left -= 1
                m = _free_row_at_or_after(fixed, i, n, state)
                c = queen[m]
                if up[i + c] == 0 and down[i - c + n - 1] == 0:
                    queen[m] = queen[i]
                    queen[i] = c
                    up[i + c] += 1
                    down[i - c + n - 1] += 1
                    placed = True
            if not placed:
                return i, tries_left
        i += 1
    return i, tries_left


@njit(cache=True, nogil=True)
def qs4_fill_rest(queen, up, down, fixed, start, todo, state):
    """Shuffle the free rows from ``start`` on, place them and queue them; returns collisions.

    A collision is a queen beyond the first on a diagonal; ``todo`` receives the rows placed
    here (the only ones that can be attacked), as many as fit.
    """
    n = queen.size
    collisions = 0
    queued = 0
    for i in range(start, n):
        if fixed.size != 0 and fixed[i] != 0:
            continue
        m = _free_row_at_or_after(fixed, i, n, state)
        c = queen[m]
        queen[m] = queen[i]
        queen[i] = c
        if up[i + c] > 0:
            collisions += 1
        if down[i - c + n - 1] > 0:
            collisions += 1
        up[i + c] += 1
        down[i - c + n - 1] += 1
        if queued < todo.size:
            todo[queued] = i
            queued += 1
    return collisions, queued


@njit(cache=True, nogil=True)
def _attacked(queen, up, down, i):
    n = queen.size
    c = queen[i]
    return up[i + c] > 1 or down[i - c + n - 1] > 1


@njit(cache=True, nogil=True)
def _move(up, down, n, i, old, new):
    """Move row i's queen from column old to new; returns the change in collisions."""
    delta = 0
    up[i + old] -= 1
    if up[i + old] > 0:
        delta -= 1
    down[i - old + n - 1] -= 1
    if down[i - old + n - 1] > 0:
        delta -= 1
    if up[i + new] > 0:
        delta += 1
    up[i + new] += 1
    if down[i - new + n - 1] > 0:
        delta += 1
    down[i - new + n - 1] += 1
    return delta


@njit(cache=True, nogil=True)
def _requeue(queen, up, down, todo, head, size, r):
    if size < todo.size and _attacked(queen, up, down, r):
        todo[(head + size) % todo.size] = r
        size += 1
    return size


#: Swap partners tried for one attacked row before it goes back in the queue.
_TRIES_PER_VISIT = 256


@njit(cache=True, nogil=True)
def qs4_repair(queen, up, down, fixed, todo, head, size, collisions, budget, state):
    """Swap attacked queens with random free rows while that lowers the collisions.

    ``todo`` is a ring buffer of rows to look at (``head``, ``size``); a swap queues both
    rows again if they are still attacked. When the ring runs dry with collisions left (a
    row was dropped because the ring was full, or a diagonal kept 3+ queens), one O(n) scan
    refills it. Returns (collisions, head, size, attempts used).
    """
    n = queen.size
    cap = todo.size
    used = 0
    while collisions > 0 and used < budget:
        if size == 0:
            head = 0
            for r in range(n):
                free = fixed.size == 0 or fixed[r] == 0
                if size < cap and free and _attacked(queen, up, down, r):
                    todo[size] = r
                    size += 1
            if size == 0:  # cannot happen: given queens never attack each other
                break
        i = todo[head]
        head = (head + 1) % cap
        size -= 1
        if not _attacked(queen, up, down, i):
            continue
        swapped = False
        j = i
        tries = 0
        # A bounded number of partners per visit: at a local minimum no swap helps this
        # row, and another attacked row (or a restart) must get its turn.
        while not swapped and used < budget and tries < _TRIES_PER_VISIT:
            used += 1
            tries += 1
            j = _free_row_at_or_after(fixed, 0, n, state)
            if j == i:
                continue
            ci = queen[i]
            cj = queen[j]
            delta = _move(up, down, n, i, ci, cj) + _move(up, down, n, j, cj, ci)
            if delta < 0:
                queen[i] = cj
                queen[j] = ci
                collisions += delta
                swapped = True
            else:
                _move(up, down, n, j, ci, cj)
                _move(up, down, n, i, cj, ci)
        # Still attacked (or out of budget): look at the row again later.
        size = _requeue(queen, up, down, todo, head, size, i)
        if swapped:
            size = _requeue(queen, up, down, todo, head, size, j)
    return collisions, head, size, used


# -- Las Vegas + backtracking ----------------------------------------------------------


@njit(cache=True, nogil=True)
def _safe(col, up, down, n, r, c):
    return col[c] == 0 and up[r + c] == 0 and down[r - c + n - 1] == 0


@njit(cache=True, nogil=True)
def _mark(col, up, down, n, r, c, value):
    col[c] = value
    up[r + c] = value
    down[r - c + n - 1] = value


_STOP_CHECK = 1 << 12  # nodes between two looks at the stop flag


@njit(cache=True, nogil=True)
def lv_trial(n, step, given, state, cols, col, up, down, stop):
    """One Las Vegas run: rows < step at random among safe columns, then backtracking.

    ``given[r]`` is a forced column or -1. Nodes are counted as in the seed document: one
    for the root plus one per queen placed, in both phases (a given row counts when
    passed). Returns (solved, nodes); a random row without a safe column, or backtracking
    that runs back into the random rows, is a failure. ``cols`` holds the board on success.
    Another thread may set ``stop[0]``: the backtracking then gives up (a time limit).
    """
    col[:] = 0
    up[:] = 0
    down[:] = 0
    for r in range(n):
        if given[r] >= 0:
            _mark(col, up, down, n, r, given[r], 1)
    nodes = 1
    for r in range(min(step, n)):
        if given[r] >= 0:
            cols[r] = given[r]
            nodes += 1
            continue
        safe = 0
        for c in range(n):
            if _safe(col, up, down, n, r, c):
                safe += 1
        if safe == 0:
            return False, nodes
        pick = rand_below(state, safe)
        for c in range(n):
            if _safe(col, up, down, n, r, c):
                if pick == 0:
                    cols[r] = c
                    _mark(col, up, down, n, r, c, 1)
                    nodes += 1
                    break
                pick -= 1
    r = min(step, n)
    c = 0  # next column to try; > 0 when we came back to this row
    while step <= r < n:
        if nodes % _STOP_CHECK == 0 and stop[0]:
            return False, nodes
        if given[r] >= 0 and c == 0:  # a given row, reached going forward
            cols[r] = given[r]
            nodes += 1
            r += 1
            continue
        if given[r] < 0:
            while c < n and not _safe(col, up, down, n, r, c):
                c += 1
            if c < n:
                cols[r] = c
                _mark(col, up, down, n, r, c, 1)
                nodes += 1
                r += 1
                c = 0
                continue
        r -= 1  # no column left in this row: back to the previous one
        if r >= step:
            c = cols[r] + 1
            if given[r] < 0:
                _mark(col, up, down, n, r, cols[r], 0)
    return r == n, nodes


@njit(cache=True, nogil=True)
def lv_trials(n, step, given, state, repeat):
    """``repeat`` independent trials: (solved flags, node counts) for the study."""
    solved = np.zeros(repeat, dtype=np.bool_)
    nodes = np.zeros(repeat, dtype=np.int64)
    cols = np.zeros(n, dtype=np.int64)
    col = np.zeros(n, dtype=np.int8)
    up = np.zeros(2 * n, dtype=np.int8)
    down = np.zeros(2 * n, dtype=np.int8)
    never = np.zeros(1, dtype=np.uint8)
    for t in range(repeat):
        solved[t], nodes[t] = lv_trial(n, step, given, state, cols, col, up, down, never)
    return solved, nodes


@njit(cache=True, nogil=True)
def lv_until_solved(n, step, given, state, max_trials, cols, stop):
    """Trials until one succeeds (board in ``cols``): returns (solved, trials, total nodes).

    Setting ``stop[0]`` from another thread ends the run (not solved) within a few
    thousand nodes.
    """
    col = np.zeros(n, dtype=np.int8)
    up = np.zeros(2 * n, dtype=np.int8)
    down = np.zeros(2 * n, dtype=np.int8)
    total = 0
    for t in range(max_trials):
        ok, nodes = lv_trial(n, step, given, state, cols, col, up, down, stop)
        total += nodes
        if ok:
            return True, t + 1, total
        if stop[0]:
            return False, t + 1, total
    return False, max_trials, total
