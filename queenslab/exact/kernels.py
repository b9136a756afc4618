"""Numba kernels of the bitmask search: one resumable loop for counting and streaming.

Bit ``c`` of a mask is column ``c``. Row ``r`` may use only the columns in ``allowed[r]``
(how a subproblem pins queens in advance, and closes the cells they attack), and every
column in ``need_mask`` must be taken by the end of row ``need_row`` (pruning, see
subproblems.py). Rows index arrays as unsigned integers: a signed index makes Numba
handle negative indices on every access, which cost a fifth of the loop's speed.
The loop keeps its stack in arrays, so a caller can stop it (a node budget, a full output
buffer) and resume it later.

Each leaf adds the family's ``weight`` (PLAIN and CORNER families), or for EDGE families
its orbit size when it is the canonical member of its orbit (see ``edge_weight``).
"""

from __future__ import annotations

import numpy as np

from queenslab._numba import njit

Array = np.ndarray  # int64 arrays throughout

PLAIN, CORNER, EDGE = 0, 1, 2
#: Rows of the ``stack`` array and slots of the ``state`` array.
LEFT, DOWN, RIGHT, AVAIL = 0, 1, 2, 3
ROW, TOTAL, UNIQUE, NODES = 0, 1, 2, 3  # state[ROW] < 0: finished
UNLIMITED = 1 << 62

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
def _image(k: int, i: int, cols: Array, inv: Array, n: int) -> int:
    """Row ``i`` of symmetry ``k`` (1..7) of the placement ``cols`` (``inv`` its inverse)."""
    m = n - 1
    if k == 1:  # rotate 90 degrees: (r, c) -> (c, m - r)
        return m - inv[i]
    if k == 2:  # rotate 180 degrees
        return m - cols[m - i]
    if k == 3:  # rotate 270 degrees: (r, c) -> (m - c, r)
        return inv[m - i]
    if k == 4:  # mirror the columns
        return m - cols[i]
    if k == 5:  # mirror the rows
        return cols[m - i]
    if k == 6:  # transpose
        return inv[i]
    return m - inv[m - i]  # anti-transpose


@njit(cache=True, nogil=True)
def edge_weight(n: int, board: Array, b1: int, scratch: Array) -> int:
    """Orbit size of a solution without corner queens if it is canonical, else 0.

    The search only reaches solutions whose top queen sits at column ``b1`` and no border
    queen is nearer a corner. Other images of the solution are reached too exactly when
    another border queen is also ``b1`` from a corner (a tie); the lexicographically
    smallest reached image is the canonical one. An image equal to the solution is a
    symmetry of it, which shrinks the orbit (only rotations can fix a solution).
    """
    m = n - 1
    b2 = m - b1
    side = 1 | (1 << m)
    near = (1 << b1) | (1 << b2)
    if not (board[b1] & side or board[b2] & side or board[m] & near):
        return 8
    cols = scratch[0]
    inv = scratch[1]
    for r in range(n):
        c = column(board[r])
        cols[r] = c
        inv[c] = r
    fixed = 1
    for k in range(1, 8):
        if _image(k, 0, cols, inv, n) != b1:
            continue
        order = 0
        for i in range(1, n):
            v = _image(k, i, cols, inv, n)
            if v != cols[i]:
                order = -1 if v < cols[i] else 1
                break
        if order < 0:
            return 0
        if order == 0:
            fixed += 1
    return 8 // fixed


@njit(cache=True, nogil=True)
def search(
    n: int,
    allowed: Array,
    need_row: int,
    need_mask: int,
    kind: int,
    b1: int,
    weight: int,
    board: Array,
    stack: Array,
    state: Array,
    out: Array,
    budget: int,
) -> int:
    """Run (or resume) the search set up by ``start``; return how many rows of ``out`` it filled.

    Stops when ``out`` is full, after about ``budget`` nodes, or when the search space is
    exhausted (then ``state[ROW] < 0``). Counts add up in ``state``. The current row lives
    in registers and goes to ``stack`` only on the way down (and when the loop stops).
    Before descending it looks ahead to the last row: no free cell there, no descent (a
    second row of look-ahead saved nodes but cost more time than it saved).
    """
    row = state[ROW]
    if row < 0:
        return 0
    avail = stack[AVAIL, row]
    left = stack[LEFT, row]
    down = stack[DOWN, row]
    right = stack[RIGHT, row]
    total = state[TOTAL]
    unique = state[UNIQUE]
    nodes = state[NODES]
    last = n - 1
    final = allowed[last]
    capacity = out.shape[0]
    scratch = np.empty((2, n), dtype=np.int64)
    found = 0
    while True:
        if avail:
            bit = avail & -avail
            avail ^= bit
            i = np.uint64(row)  # unsigned: no negative-index wraparound in the hot loop
            board[i] = bit
            nodes += 1
            if row == last:
                w = edge_weight(n, board, b1, scratch) if kind == EDGE else weight
                if w:
                    total += w
                    unique += 1
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
            if row == need_row:
                missing = need_mask & ~down
                if missing:
                    avail = 0 if missing & (missing - 1) else avail & missing
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
    state[UNIQUE] = unique
    state[NODES] = nodes
    return found


@njit(cache=True, nogil=True)
def count_batch(
    n: int,
    allowed: Array,
    need_row: Array,
    need_mask: Array,
    kind: Array,
    b1: Array,
    weight: Array,
) -> Array:
    """Count each subproblem to the end: rows of (total, unique, nodes), one per subproblem.

    Subproblem ``j`` is the search under ``allowed[j]``, ``need_row[j]`` and ``need_mask[j]``,
    its leaves weighted
    by ``kind[j]``, ``b1[j]`` and ``weight[j]``. Releases the GIL: threads run truly parallel.
    """
    m = kind.shape[0]
    result = np.zeros((m, 3), dtype=np.int64)
    board = np.zeros(n, dtype=np.int64)
    stack = np.zeros((4, n), dtype=np.int64)
    state = np.zeros(4, dtype=np.int64)
    out = np.zeros((0, n), dtype=np.int64)
    for j in range(m):
        start(allowed[j], stack, state)
        search(
            n,
            allowed[j],
            need_row[j],
            need_mask[j],
            kind[j],
            b1[j],
            weight[j],
            board,
            stack,
            state,
            out,
            UNLIMITED,
        )
        result[j, 0] = state[TOTAL]
        result[j, 1] = state[UNIQUE]
        result[j, 2] = state[NODES]
    return result
