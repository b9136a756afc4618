"""Numba kernels counting the inner board of each border constellation (constellations.py).

With the border queens placed, the search fills the inner rows top-down over bit masks
(bit c = column c; ``left``/``down``/``right`` = cells the queens above attack). It jumps
over the rows of the side queens: their masks shift by the distance to the next inner
row, and the cells the border queens attack are closed in a per-row mask beforehand.

Per queen placed (a node) the loop also looks ahead, all without branches:
- the child row, the row after it and the last row must keep a free cell, else the
  queen is a dead end and the search does not descend;
- when the row after the child has a single free cell, the child's cells that attack it
  are dropped before they are ever placed.
The last two rows are never searched: for the free cells A of the second-to-last row and
F of the last one, the pairs of queens that fit are |A|·|F| minus the attacking pairs,
which three popcounts give. Those queens count as nodes all the same.

The stack stores a level only while it has untried cells (``sp += avail != 0``), so the
way back up skips exhausted levels. Every ``POLL_NODES`` nodes the loop looks at a stop
flag that another thread may set. Constellations fixed by a symmetry (and tiny boards)
go through the general search (board_search.py) instead, which counts one member of each
class of solutions as unique.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import intrinsic

from queenslab._numba import njit
from queenslab.exact import board_search

Array = np.ndarray
#: Nodes between two looks at the stop flag (a few milliseconds).
POLL_NODES = 1 << 22
#: Fields of the per-slot table (a slot is an inner row, in order), and of the stack.
NEXT, SHIFT, AHEAD, AHEAD_SHIFT, LAST_SHIFT = range(5)
SLOT_FIELDS = 5
STACK_FIELDS = 5  # avail, left, down, right, slot


@intrinsic
def popcount(typingctx, x):  # type: ignore[no-untyped-def]
    """Number of set bits: LLVM's ctpop, one instruction on current CPUs."""
    signature = types.int64(types.int64)

    def codegen(context, builder, sig, args):  # type: ignore[no-untyped-def]
        return builder.ctpop(args[0])

    return signature, codegen


@njit(cache=True, nogil=True)
def masks(n: int, sig: Array, allowed: Array, inner: Array) -> int:
    """Fill ``allowed`` (per row, border rows pinned) and ``inner`` (inner rows); their count."""
    m = n - 1
    allowed[:] = (1 << n) - 1
    rows = (0, m, sig[2], sig[3])
    cols = (sig[0], sig[1], 0, m)
    for q in range(4):
        r, c = rows[q], cols[q]
        for row in range(n):
            d = abs(row - r)
            hit = 1 << c
            if c + d < n:
                hit |= 1 << (c + d)
            if c - d >= 0:
                hit |= 1 << (c - d)
            allowed[row] &= ~hit
    for q in range(4):
        allowed[rows[q]] = 1 << cols[q]
    count = 0
    for row in range(n):
        if row != 0 and row != m and row != sig[2] and row != sig[3]:
            inner[count] = row
            count += 1
    return count


@njit(cache=True, nogil=True)
def search(
    allowed: Array, inner: Array, count: int, slot: Array, stack: Array, stop: Array
) -> tuple[int, int]:
    """Solutions and nodes (the border as one) of the inner rows ``inner[:count]``, count >= 3.

    ``slot`` and ``stack`` hold one field per row (contiguous 1-D arrays index faster
    than rows of a 2-D table). Nodes -1: stopped by ``stop[0]``.
    """
    last = count - 1
    pen = last - 1
    final = allowed[inner[last]]
    next_row, shift, ahead_row = slot[NEXT], slot[SHIFT], slot[AHEAD]
    ahead_shift, last_shift = slot[AHEAD_SHIFT], slot[LAST_SHIFT]
    for t in range(last):
        ahead = min(t + 2, last)
        next_row[t] = allowed[inner[t + 1]]
        shift[t] = inner[t + 1] - inner[t]
        ahead_row[t] = allowed[inner[ahead]]
        ahead_shift[t] = inner[ahead] - inner[t + 1]
        last_shift[t] = inner[last] - inner[t + 1]
    gap = inner[last] - inner[pen]
    saved_avail, saved_left, saved_down = stack[0], stack[1], stack[2]
    saved_right, saved_slot = stack[3], stack[4]
    sp = 0
    nodes = 1
    solutions = 0
    poll = POLL_NODES
    t = 0
    left = 0
    down = 0
    right = 0
    avail = allowed[inner[0]]
    while True:
        while avail:
            bit = avail & -avail
            avail ^= bit
            nodes += 1
            ut = np.uint64(t)  # unsigned: no negative-index wraparound in the hot loop
            s = shift[ut]
            nl = (left | bit) << s
            nr = (right | bit) >> s
            nd = down | bit
            child = next_row[ut] & ~(nl | nd | nr)
            e = last_shift[ut]
            fl = final & ~(nd | (nl << e) | (nr >> e))
            if t == pen - 1:  # the child row is the second-to-last: count the pairs
                placed = popcount(child)
                pairs = placed * popcount(fl) - popcount(fl & child)
                pairs -= popcount(fl & (child << gap)) + popcount(fl & (child >> gap))
                nodes += placed + pairs
                solutions += pairs
                continue
            e = ahead_shift[ut]
            f2 = ahead_row[ut] & ~(nd | (nl << e) | (nr >> e))
            lone = -np.int64((f2 & (f2 - 1)) == 0)  # all ones when f2 has one cell (or none)
            child &= ~((f2 | (f2 << e) | (f2 >> e)) & lone)
            if (child != 0) & (f2 != 0) & (fl != 0):
                if nodes >= poll:
                    if stop[0]:
                        return solutions, -1
                    poll = nodes + POLL_NODES
                u = np.uint64(sp)
                saved_avail[u] = avail
                saved_left[u] = left
                saved_down[u] = down
                saved_right[u] = right
                saved_slot[u] = t
                sp += avail != 0
                left = nl
                right = nr
                down = nd
                t += 1
                avail = child
        if sp == 0:
            return solutions, nodes
        sp -= 1
        u = np.uint64(sp)
        avail = saved_avail[u]
        left = saved_left[u]
        down = saved_down[u]
        right = saved_right[u]
        t = saved_slot[u]


@njit(cache=True, nogil=True)
def count_batch(
    n: int, border: Array, weight: Array, stabilizer: Array, table: Array, stop: Array
) -> Array:
    """Count each constellation in order: rows of (total, unique, nodes).

    A constellation's border counts as one node, each queen of the inner search as one
    more. Once ``stop[0]`` is set it stops within ``POLL_NODES`` nodes, leaving nodes -1
    in the rows of the constellations it did not finish. Releases the GIL: threads run
    truly parallel.
    """
    m = weight.shape[0]
    result = np.zeros((m, 3), dtype=np.int64)
    result[:, 2] = -1
    allowed = np.zeros(n, dtype=np.int64)
    inner = np.zeros(n, dtype=np.int64)
    slot = np.zeros((SLOT_FIELDS, n), dtype=np.int64)
    stack = np.zeros((STACK_FIELDS, n + 1), dtype=np.int64)
    for q in range(m):
        if stop[0]:
            break
        count = masks(n, border[q], allowed, inner)
        if stabilizer[q] != 1 or count < 3:
            solutions, classes, nodes = _search_classes(n, allowed, stabilizer[q], table, stop)
        else:
            solutions, nodes = search(allowed, inner, count, slot, stack, stop)
            classes = solutions
        if nodes < 0:
            break
        result[q, 0] = solutions * weight[q]
        result[q, 1] = classes
        result[q, 2] = nodes
    return result


@njit(cache=True, nogil=True)
def _search_classes(
    n: int, allowed: Array, stabilizer: int, table: Array, stop: Array
) -> tuple[int, int, int]:
    """Solutions, classes and nodes of a constellation fixed by symmetries (or a tiny board).

    Two solutions of one constellation are of one class only through a symmetry in its
    stabilizer, so the general search counts a class at the member that no symmetry of
    the stabilizer maps to a smaller placement. Nodes -1: stopped.
    """
    kept = 0
    for g in range(1, table.shape[0]):
        kept += stabilizer >> g & 1
    symmetries = np.zeros((kept, 6), dtype=np.int64)
    kept = 0
    for g in range(1, table.shape[0]):
        if stabilizer >> g & 1:
            symmetries[kept] = table[g]
            kept += 1
    board = np.zeros(n, dtype=np.int64)
    stack = np.zeros((6, n), dtype=np.int64)
    state = np.zeros(4, dtype=np.int64)
    out = np.zeros((0, n), dtype=np.int64)
    none = np.zeros(0, dtype=np.int64)
    board_search.start(allowed, stack, state)
    board_search.search(n, allowed, 1, False, none, none, symmetries, True,
                        board, stack, state, out, board_search.UNLIMITED, stop, none)  # fmt: skip
    if state[board_search.ROW] >= 0:
        return 0, 0, -1
    return state[board_search.TOTAL], state[board_search.CLASSES], state[board_search.NODES]
