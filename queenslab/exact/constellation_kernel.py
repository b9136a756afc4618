"""Numba kernels counting the inner board of each border constellation (constellations.py).

With the border queens placed, the search fills the inner rows top-down over bit masks
(bit c = column c; ``left``/``down``/``right`` = cells the queens above attack). It jumps
over the rows of the side queens: their masks shift by the distance to the next inner
row, and the cells the border queens attack are closed in a per-row mask beforehand.

Per queen placed (a node) the loop also looks ahead, all without branches:
- the child row, the two rows after it and the last row must keep a free cell, else the
  queen is a dead end and the search does not descend;
- when one of the two rows after the child has a single free cell, the child's cells
  that attack it are dropped before they are ever placed.
The last three rows are never descended into: the queens of the third-to-last are
placed in a loop of their own, and for each, with the free cells B of the second-to-last
row and F of the last one, the pairs of queens that fit are |B|·|F| minus the attacking
pairs, which three popcounts give. Those queens count as nodes all the same.

The per-row table and the stack are flat arrays (a row's fields side by side, indexed by
unsigned offsets): one base address each, which leaves registers for the masks. The
current level's masks are written once, into its stack record, when the search enters
it, and read from there; a level's record is kept only while it has untried cells, so
the way back up skips exhausted levels. (Holding the masks in variables instead made
the compiler save them on every node: about 15% more instructions.)

Every ``POLL_NODES`` nodes the loop looks at a stop flag that another thread may set.
When the classes of solutions are counted, constellations fixed by a symmetry go through
the general search (board_search.py) instead, which counts one member of each class as
unique; so do tiny boards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np

from queenslab.compiled.jit import intrinsic, njit, types
from queenslab.exact import board_search
from queenslab.exact.kernel_layout import WORK_PER_ROW

Array = np.ndarray
#: Nodes between two looks at the stop flag (a few milliseconds).
POLL_NODES = 1 << 22
#: Fields of a slot (an inner row, in order) in the row table: the child row's cells and
#: distance, the rows two and three below and their distances from the child, the last
#: row's distance. Unsigned, like every index of the hot loop (no negative-index check).
NEXT, SHIFT, AHEAD, AHEAD_SHIFT, FAR, FAR_SHIFT, LAST_SHIFT = (np.uint64(f) for f in range(7))
SLOT_FIELDS = np.uint64(7)
#: Fields of a stack level: untried cells, the three masks, the slot's offset.
AVAIL, LEFT, DOWN, RIGHT, SLOT = (np.uint64(f) for f in range(5))
STACK_FIELDS = np.uint64(5)


@intrinsic
def _popcount(typingctx, x):
    """Number of set bits: LLVM's ctpop, one instruction on current CPUs."""
    signature = types.int64(types.int64)

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return signature, codegen


#: ``popcount(x)`` as kernels call it (Numba's stubs keep the typing context in the call).
popcount = cast("Callable[[Any], int]", _popcount)


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
def _free(row: int, left: int, down: int, right: int, e: int) -> int:
    """The cells of ``row`` that the masks of a row ``e`` rows above leave free."""
    return row & ~(down | (left << e) | (right >> e))


@njit(cache=True, nogil=True)
def _lone_attacks(free: int, e: int) -> int:
    """The cells ``e`` rows above that attack ``free`` when it is a single cell, else none."""
    # Numba's int64 throughout; NumPy's stubs make the mask a signedinteger
    return (free | (free << e) | (free >> e)) & -np.int64((free & (free - 1)) == 0)  # type: ignore[return-value]


@njit(cache=True, nogil=True)
def search(
    allowed: Array, inner: Array, count: int, plan: Array, saved: Array, stop: Array
) -> tuple[int, int]:
    """Solutions and nodes (the border as one) of the inner rows ``inner[:count]``, count >= 4.

    ``plan`` (SLOT_FIELDS per inner row) and ``saved`` (STACK_FIELDS per level) are
    work space. Nodes -1: stopped by ``stop[0]``.
    """
    last = count - 1
    final = allowed[inner[last]]
    for k in range(last):
        at = np.uint64(k) * SLOT_FIELDS
        ahead, far = min(k + 2, last), min(k + 3, last)
        plan[at + NEXT] = allowed[inner[k + 1]]
        plan[at + SHIFT] = inner[k + 1] - inner[k]
        plan[at + AHEAD] = allowed[inner[ahead]]
        plan[at + AHEAD_SHIFT] = inner[ahead] - inner[k + 1]
        plan[at + FAR] = allowed[inner[far]]
        plan[at + FAR_SHIFT] = inner[far] - inner[k + 1]
        plan[at + LAST_SHIFT] = inner[last] - inner[k + 1]
    third = np.uint64(last - 2) * SLOT_FIELDS  # the third-to-last row's slot
    tail = third - SLOT_FIELDS  # the slot whose child row is the third-to-last
    third_shift, pen_row = plan[third + SHIFT], plan[third + NEXT]
    pen_last = plan[third + LAST_SHIFT]
    gap = inner[last] - inner[last - 1]
    sp = np.uint64(0)
    nodes = 1
    solutions = 0
    poll = POLL_NODES
    t = np.uint64(0)
    saved[LEFT] = 0  # the top level's record: no queen above it
    saved[DOWN] = 0
    saved[RIGHT] = 0
    avail = allowed[inner[0]]
    while True:
        while avail:
            bit = avail & -avail
            avail ^= bit
            nodes += 1
            s = plan[t + SHIFT]
            nl = (saved[sp + LEFT] | bit) << s
            nr = (saved[sp + RIGHT] | bit) >> s
            nd = saved[sp + DOWN] | bit
            child = _free(plan[t + NEXT], nl, nd, nr, 0)
            fl = _free(final, nl, nd, nr, plan[t + LAST_SHIFT])
            e = plan[t + AHEAD_SHIFT]
            f2 = _free(plan[t + AHEAD], nl, nd, nr, e)
            child &= ~_lone_attacks(f2, e)
            e = plan[t + FAR_SHIFT]
            f3 = _free(plan[t + FAR], nl, nd, nr, e)
            child &= ~_lone_attacks(f3, e)
            if (child == 0) | (f2 == 0) | (f3 == 0) | (fl == 0):
                continue
            if t == tail:  # the child row is the third-to-last: its queens in a loop here
                while child:
                    bit = child & -child
                    child ^= bit
                    pl = (nl | bit) << third_shift
                    pr = (nr | bit) >> third_shift
                    pd = nd | bit
                    free = _free(pen_row, pl, pd, pr, 0)
                    fl = _free(final, pl, pd, pr, pen_last)
                    placed = popcount(free)
                    pairs = placed * popcount(fl) - popcount(fl & free)
                    pairs -= popcount(fl & (free << gap)) + popcount(fl & (free >> gap))
                    nodes += 1 + placed + pairs
                    solutions += pairs
                continue
            if nodes >= poll:
                if stop[0]:
                    return solutions, -1
                poll = nodes + POLL_NODES
            saved[sp + AVAIL] = avail
            saved[sp + SLOT] = t
            sp += STACK_FIELDS * np.uint64(avail != 0)
            saved[sp + LEFT] = nl
            saved[sp + DOWN] = nd
            saved[sp + RIGHT] = nr
            t += SLOT_FIELDS
            avail = child
        if sp == 0:
            return solutions, nodes
        sp -= STACK_FIELDS
        avail = saved[sp + AVAIL]
        t = np.uint64(saved[sp + SLOT])


@njit(cache=True, nogil=True)
def count_plain(
    n: int, border: Array, weight: Array, stop: Array, result: Array, work: Array
) -> None:
    """Count each constellation of ``border`` by the inner search: rows of (total, total,
    nodes) into ``result``, nodes -1 where ``stop[0]`` came first. Needs n >= 8 (at least
    4 inner rows) and WORK_PER_ROW * n words of ``work``.

    Allocates nothing, so it also runs as a C callback loaded without Numba (callbacks.py).
    A constellation's border counts as one node, each queen of the inner search as one
    more. Once ``stop[0]`` is set it stops within ``POLL_NODES`` nodes.
    """
    allowed, inner, plan = work[:n], work[n : 2 * n], work[2 * n : 9 * n]
    saved = work[9 * n :]
    result[:, 2] = -1
    for q in range(weight.shape[0]):
        if stop[0]:
            return
        count = masks(n, border[q], allowed, inner)
        solutions, nodes = search(allowed, inner, count, plan, saved, stop)
        if nodes < 0:
            return
        result[q, 0] = solutions * weight[q]
        result[q, 1] = solutions
        result[q, 2] = nodes


@njit(cache=True, nogil=True)
def count_batch(
    n: int,
    border: Array,
    weight: Array,
    stabilizer: Array,
    table: Array,
    unique: bool,
    stop: Array,
) -> Array:
    """``count_plain`` for any n, counting the classes of solutions when ``unique`` is set.

    A constellation fixed by a symmetry then goes through the general search, and so does
    every constellation of a tiny board (fewer than 4 inner rows). Releases the GIL.
    """
    m = weight.shape[0]
    result = np.zeros((m, 3), dtype=np.int64)
    result[:, 2] = -1
    allowed = np.zeros(n, dtype=np.int64)
    work = np.zeros(WORK_PER_ROW * n, dtype=np.int64)
    for q in range(m):
        if stop[0]:
            break
        count = masks(n, border[q], allowed, work[:n])
        if count >= 4 and not (unique and stabilizer[q] != 1):
            count_plain(n, border[q : q + 1], weight[q : q + 1], stop, result[q : q + 1], work)
            if result[q, 2] < 0:
                break
            continue
        solutions, classes, nodes = _search_classes(n, allowed, stabilizer[q], table, stop)
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
