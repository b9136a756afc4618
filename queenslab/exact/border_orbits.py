"""Numba kernels listing the border constellations, one per symmetry orbit (constellations.py).

They allocate nothing, so they also run as a C callback loaded without Numba (callbacks.py).
"""

from __future__ import annotations

import numpy as np

from queenslab.compiled.jit import njit

Array = np.ndarray
#: Columns of ``border``: the column of the top queen (i) and of the bottom one (j), the row
#: of the left queen (k) and of the right one (l).
TOP, BOTTOM, LEFT, RIGHT = 0, 1, 2, 3


@njit(cache=True, nogil=True)
def _cells(n: int, i: int, j: int, k: int, l: int, cells: Array) -> int:  # noqa: E741
    """The distinct border cells of a constellation into ``cells``; how many there are."""
    m = n - 1
    cells[0, 0], cells[0, 1] = 0, i
    count = 1
    for r, c in ((m, j), (k, 0), (l, m)):
        seen = False
        for q in range(count):
            if cells[q, 0] == r and cells[q, 1] == c:
                seen = True
        if not seen:
            cells[count, 0], cells[count, 1] = r, c
            count += 1
    return count


@njit(cache=True, nogil=True)
def _valid(n: int, i: int, j: int, k: int, l: int, cells: Array) -> bool:  # noqa: E741
    """One queen per border line (a corner queen serves two) and no two attacking."""
    m = n - 1
    if (i == 0) != (k == 0) or (i == m) != (l == 0):
        return False
    if (j == 0) != (k == m) or (j == m) != (l == m):
        return False
    count = _cells(n, i, j, k, l, cells)
    for a in range(count):
        for b in range(a + 1, count):
            dr = cells[a, 0] - cells[b, 0]
            dc = cells[a, 1] - cells[b, 1]
            if dr == 0 or dc == 0 or dr == dc or dr == -dc:
                return False
    return True


@njit(cache=True, nogil=True)
def _image(n: int, table: Array, g: int, cells: Array, count: int, out: Array) -> None:
    """The constellation (i, j, k, l) of the image of ``cells`` under symmetry ``g``."""
    m = n - 1
    a, b, c, d, e, f = table[g]
    for q in range(count):
        r = a * cells[q, 0] + b * cells[q, 1] + c * m
        col = d * cells[q, 0] + e * cells[q, 1] + f * m
        if r == 0:
            out[TOP] = col
        if r == m:
            out[BOTTOM] = col
        if col == 0:
            out[LEFT] = r
        if col == m:
            out[RIGHT] = r


@njit(cache=True, nogil=True)
def _preference(n: int, sig: Array) -> int:
    """Smaller is the better member of an orbit to search (see the module docstring)."""
    m = n - 1
    last_row = min(sig[BOTTOM], m - sig[BOTTOM])
    first_row = m - min(sig[TOP], m - sig[TOP])
    sides = 2 * m - sig[LEFT] - sig[RIGHT]
    key = (last_row * 64 + first_row) * 128 + sides
    for q in range(4):  # ties: the smallest (i, j, k, l)
        key = key * 64 + sig[q]
    return key


@njit(cache=True, nogil=True)
def representatives(
    n: int, table: Array, border: Array, stabilizer: Array, stop: Array, scratch: Array
) -> int:
    """Write the preferred member of every orbit and its stabilizer (if there is room).

    ``scratch``: a 4 x 4 work space. Returns how many orbits there
    are (call once with empty arrays to size them), or -1
    when ``stop[0]`` was set. A symmetry can bring any border queen to the last row, at
    the same distance from a corner, so a member whose last-row queen is not nearest a
    corner is dropped before its images are computed.
    """
    cells, sig, image = scratch[:, :2], scratch[:, 2], scratch[:, 3]  # views: no allocation
    room = border.shape[0]
    found = 0
    m = n - 1
    for i in range(n):
        if stop[0]:
            return -1
        for j in range(n):
            nearest = min(j, m - j)
            if nearest > min(i, m - i):
                continue
            for k in range(n):
                if nearest > min(k, m - k):
                    continue
                for l in range(n):  # noqa: E741
                    if nearest > min(l, m - l) or not _valid(n, i, j, k, l, cells):
                        continue
                    count = _cells(n, i, j, k, l, cells)
                    sig[TOP], sig[BOTTOM], sig[LEFT], sig[RIGHT] = i, j, k, l
                    mine = _preference(n, sig)
                    kept = True
                    fixed = 0
                    for g in range(table.shape[0]):
                        _image(n, table, g, cells, count, image)
                        theirs = _preference(n, image)
                        if theirs < mine:
                            kept = False
                            break
                        if theirs == mine:
                            fixed |= 1 << g
                    if kept:
                        if found < room:
                            for q in range(4):
                                border[found, q] = sig[q]
                            stabilizer[found] = fixed
                        found += 1
    return found
