"""Numba kernels of Las Vegas placement: random rows, then backtracking.

Random numbers come from ``stream`` (the generator min-conflicts uses too).

Imported lazily (inside backend methods): compiling is seconds cold, ~0.3 s from the cache.
All state lives in caller-owned arrays so the Python side can run a kernel in chunks and
look at the clock between them.
"""

from __future__ import annotations

import numpy as np

from queenslab.compiled.jit import njit
from queenslab.heuristics.random_stream import below, draw


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

    ``given[r]`` is a forced column or -1. Nodes are counted as in Brassard and Bratley's
    analysis: one for the root plus one per queen placed, in both phases (a given row
    counts when passed). Returns (solved, nodes); a random row without a safe column, or
    backtracking that runs back into the random rows, is a failure. ``cols`` holds the
    board on success. Another thread may set ``stop[0]``: the trial then gives up (a time
    limit), looked at every random row (each scans n columns: at n = 10^5 a trial's random
    phase alone took minutes) and every few thousand nodes of backtracking.
    """
    col[:] = 0
    up[:] = 0
    down[:] = 0
    for r in range(n):
        if given[r] >= 0:
            _mark(col, up, down, n, r, given[r], 1)
    nodes = 1
    for r in range(min(step, n)):
        if stop[0]:
            return False, nodes
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
        pick = below(draw(state), safe)
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
def lv_trials(n, step, given, state, repeat, stop):
    """``repeat`` independent trials: (solved flags, node counts) for the study.

    Setting ``stop[0]`` from another thread ends the trials within a few thousand nodes
    (the arrays then hold what was done).
    """
    solved = np.zeros(repeat, dtype=np.bool_)
    nodes = np.zeros(repeat, dtype=np.int64)
    cols = np.zeros(n, dtype=np.int64)
    col = np.zeros(n, dtype=np.int8)
    up = np.zeros(2 * n, dtype=np.int8)
    down = np.zeros(2 * n, dtype=np.int8)
    for t in range(repeat):
        if stop[0]:
            break
        solved[t], nodes[t] = lv_trial(n, step, given, state, cols, col, up, down, stop)
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
