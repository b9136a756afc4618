"""Numba kernels of the plain bitmask search: one resumable loop for solving and enumerating,
and for counting boards with given queens or blocked cells.

Bit ``c`` of a mask is column ``c``. Row ``r`` may use only the columns in ``allowed[r]``
(how a subproblem pins queens in advance, and closes the cells they attack). Rows index
arrays as unsigned integers: a signed index makes Numba handle negative indices on every
access, which cost a fifth of the loop's speed. The loop keeps its stack in arrays, so a
caller can stop it (a node budget, a full output buffer, a stop flag) and resume it later.
Counting the plain board (no givens, no blocked cells) goes through ``inner.py`` instead.
"""

from __future__ import annotations

import numpy as np

from queenslab._numba import njit

Array = np.ndarray  # int64 arrays throughout

#: Rows of the ``stack`` array and slots of the ``state`` array.
LEFT, DOWN, RIGHT, AVAIL = 0, 1, 2, 3
ROW, TOTAL, NODES = 0, 1, 2  # state[ROW] < 0: finished
#: Nodes between two looks at the stop flag when counting (a few milliseconds).
POLL_NODES = 1 << 22

_DEBRUIJN = 0x03F79D71B4CB0A89
_BIT_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _BIT_INDEX[(((1 << _i) * _DEBRUIJN) & (2**64 - 1)) >> 58] = _i
del _i


@njit(cache=True, nogil=True)
def column(bit: int) -> int:
    """Index of the single set bit (de Bruijn multiplication; wraps like uint64)."""
    return _BIT_INDEX[((bit * _DEBRUIJN) >> 58) & 63]


@njit(cache=True, nogil=True)
def start(allowed: Array, stack: Array, state: Array) -> None:
    """Prepare ``stack``/``state`` to search a board from its first row."""
    stack[:, 0] = 0
    stack[AVAIL, 0] = allowed[0]
    state[:] = 0


@njit(cache=True, nogil=True)
def search(
    n: int, allowed: Array, board: Array, stack: Array, state: Array, out: Array, budget: int
) -> int:
    """Run (or resume) the search set up by ``start``; return how many rows of ``out`` it filled.

    Stops when ``out`` is full, after about ``budget`` nodes, or when the search space is
    exhausted (then ``state[ROW] < 0``). Solutions add up in ``state[TOTAL]``; ``board``
    holds the bit of each row's queen. The current row lives in registers and goes to
    ``stack`` only on the way down (and when the loop stops). Before descending it looks
    ahead to the last row: no free cell there, no descent.
    """
    row = state[ROW]
    if row < 0:
        return 0
    avail = stack[AVAIL, row]
    left = stack[LEFT, row]
    down = stack[DOWN, row]
    right = stack[RIGHT, row]
    total = state[TOTAL]
    nodes = state[NODES]
    last = n - 1
    final = allowed[last]
    capacity = out.shape[0]
    found = 0
    while True:
        if avail:
            bit = avail & -avail
            avail ^= bit
            i = np.uint64(row)  # unsigned: no negative-index wraparound in the hot loop
            board[i] = bit
            nodes += 1
            if row == last:
                total += 1
                if capacity:
                    for r in range(n):
                        out[found, r] = column(board[r])
                    found += 1
                    if found == capacity:
                        break
                continue
            stack[AVAIL, i] = avail
            stack[LEFT, i] = left
            stack[DOWN, i] = down
            stack[RIGHT, i] = right
            left = (left | bit) << 1
            down |= bit
            right = (right | bit) >> 1
            row += 1
            i = np.uint64(row)
            avail = allowed[i] & ~(left | down | right)
            ahead = last - row
            if final & ~(down | (left << ahead) | (right >> ahead)) == 0:
                avail = 0
            if nodes >= budget:
                break
        elif row == 0:
            row = -1
            break
        else:
            row -= 1
            i = np.uint64(row)
            avail = stack[AVAIL, i]
            left = stack[LEFT, i]
            down = stack[DOWN, i]
            right = stack[RIGHT, i]
    if row >= 0:
        stack[AVAIL, row] = avail
        stack[LEFT, row] = left
        stack[DOWN, row] = down
        stack[RIGHT, row] = right
    state[ROW] = row
    state[TOTAL] = total
    state[NODES] = nodes
    return found


@njit(cache=True, nogil=True)
def count_batch(n: int, allowed: Array, stop: Array) -> tuple[Array, int]:
    """Count subproblem ``j`` (the board under ``allowed[j]``) for each j, in order.

    Returns rows of (total, 0, nodes) and how many subproblems finished: the search looks
    at ``stop[0]`` every ``POLL_NODES`` nodes and gives up its current subproblem when it
    is set. Releases the GIL: threads run truly parallel.
    """
    m = allowed.shape[0]
    result = np.zeros((m, 3), dtype=np.int64)
    board = np.zeros(n, dtype=np.int64)
    stack = np.zeros((4, n), dtype=np.int64)
    state = np.zeros(3, dtype=np.int64)
    out = np.zeros((0, n), dtype=np.int64)
    for j in range(m):
        if stop[0]:
            return result, j
        start(allowed[j], stack, state)
        while state[ROW] >= 0:
            search(n, allowed[j], board, stack, state, out, state[NODES] + POLL_NODES)
            if state[ROW] >= 0 and stop[0]:
                return result, j
        result[j, 0] = state[TOTAL]
        result[j, 2] = state[NODES]
    return result, m
