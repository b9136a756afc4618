"""The compiled depth-first search of ``exact.independent_domination``.

Sets of cells are bit sets of ``words`` int64 words (cell ``i`` is bit ``i % 64`` of word
``i // 64``). ``reach[p]`` holds the cells a queen on ``p`` occupies or attacks, and
``clash[p]`` the cells a second queen may not take once ``p`` holds one (``p`` itself
and every cell sharing a line or leap with it); for queens both are the same set, but
a blocked cell is reached and never free, so they are kept apart.

A node holds the undominated cells ``U`` and the free cells ``F`` (open, attacked by no
queen, not ruled out by an earlier sibling). An undominated cell is dominated by a queen
on one of the free cells that reach it, so the search takes the undominated cell with
the fewest such candidates and branches on each, the largest reach first; a candidate
once tried leaves ``F`` for its later siblings (their answers without it are the only
ones left). A cell with no candidate, or remaining queens whose largest reaches into
``U`` sum to fewer than ``U`` holds, ends the node: both are exact, so a refutation is
complete.
"""

from __future__ import annotations

import numpy as np

from queenslab.compiled.jit import njit
from queenslab.exact.constellation_kernel import popcount

Array = np.ndarray
#: Nodes between two looks at the stop flag.
POLL_NODES = 4096
#: What ``search`` returns besides an answer's size: refuted, stopped.
REFUTED, STOPPED = -1, -2


@njit(cache=True, nogil=True)
def _lowest(x: int) -> int:
    """The index of the lowest set bit of a nonzero word."""
    return popcount((x & -x) - 1)


@njit(cache=True, nogil=True)
def _meet(a: Array, b: Array) -> int:
    """The number of cells in both of two bit sets."""
    count = 0
    for w in range(a.shape[0]):
        count += popcount(a[w] & b[w])
    return count


@njit(cache=True, nogil=True)
def _expand(
    reach: Array, undominated: Array, free: Array, left: int, cand: Array, cover: Array
) -> int:
    """Fill ``cand`` with the candidates of the node's branching cell, the largest reach
    first; their number, 0 when the node is refuted, -1 when nothing is left undominated."""
    words = undominated.shape[0]
    need = 0
    for w in range(words):
        need += popcount(undominated[w])
    if need == 0:
        return -1
    if left == 0:
        return 0
    # the remaining queens' largest reaches into U must cover it
    top = np.zeros(left, np.int64)
    for w in range(words):
        x = free[w]
        while x:
            p = w * 64 + _lowest(x)
            x &= x - 1
            c = _meet(reach[p], undominated)
            cover[p] = c
            if c > top[left - 1]:
                j = left - 1
                while j > 0 and top[j - 1] < c:
                    top[j] = top[j - 1]
                    j -= 1
                top[j] = c
    if top.sum() < need:
        return 0
    # the undominated cell with the fewest free cells reaching it
    best, fewest = -1, 1 << 30
    for w in range(words):
        x = undominated[w]
        while x:
            u = w * 64 + _lowest(x)
            x &= x - 1
            c = _meet(reach[u], free)
            if c < fewest:
                best, fewest = u, c
                if c == 0:
                    return 0
    count = 0
    for w in range(words):
        x = reach[best, w] & free[w]
        while x:
            p = w * 64 + _lowest(x)
            x &= x - 1
            j = count
            while j > 0 and cover[cand[j - 1]] < cover[p]:
                cand[j] = cand[j - 1]
                j -= 1
            cand[j] = p
            count += 1
    return count


@njit(cache=True, nogil=True)
def search(
    reach: Array,
    clash: Array,
    undominated: Array,
    free: Array,
    left: int,
    stop: Array,
    queens: Array,
    nodes: Array,
) -> int:
    """Place at most ``left`` more queens on ``free`` cells, no two clashing, so that every
    cell of ``undominated`` is reached. The number placed (in ``queens``) when they can,
    ``REFUTED`` when they cannot, ``STOPPED`` when ``stop[0]`` was set; ``nodes[0]``
    counts the nodes."""
    cells, words = reach.shape
    u_at = np.zeros((left + 1, words), np.int64)
    f_at = np.zeros((left + 1, words), np.int64)
    cand = np.zeros((left + 1, cells), np.int64)
    size = np.zeros(left + 1, np.int64)
    at = np.zeros(left + 1, np.int64)
    cover = np.zeros(cells, np.int64)
    u_at[0], f_at[0] = undominated, free
    size[0] = _expand(reach, u_at[0], f_at[0], left, cand[0], cover)
    if size[0] < 0:
        return 0
    d = 0
    while True:
        if at[d] == size[d]:
            if d == 0:
                return REFUTED
            d -= 1
            continue
        if at[d] > 0:  # the sibling tried before leaves the free cells
            q = cand[d, at[d] - 1]
            f_at[d, q // 64] &= ~(np.int64(1) << (q % 64))
        p = cand[d, at[d]]
        at[d] += 1
        queens[d] = p
        for w in range(words):
            u_at[d + 1, w] = u_at[d, w] & ~reach[p, w]
            f_at[d + 1, w] = f_at[d, w] & ~clash[p, w]
        nodes[0] += 1
        if nodes[0] % POLL_NODES == 0 and stop[0]:
            return STOPPED
        found = _expand(reach, u_at[d + 1], f_at[d + 1], left - d - 1, cand[d + 1], cover)
        if found < 0:
            return d + 1
        if found > 0:
            d += 1
            size[d], at[d] = found, 0
