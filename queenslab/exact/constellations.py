"""Border constellations: the split of a plain N-queens count by the queens on the border.

Every solution (n > 1) has exactly one queen in the first row, the last row, the first
column and the last column; a corner queen counts for a row and a column, and a solution
has at most one. Those three or four queens are its *constellation*, written
(i, j, k, l): the columns of the first- and last-row queens, the rows of the first- and
last-column queens. The 8 symmetries of the square map constellations onto constellations
and solutions onto solutions, so the solutions of the 8/|H| constellations of one orbit
(H: the symmetries fixing the constellation) are as many as those of any one of them. The
plan keeps one constellation per orbit with that weight (2, 4 or 8) and the bit set of H,
and counting searches only the inner rows of each (inner.py): the border rows are filled
before the search starts, so no search repeats them (the public counters of the Q27 project
and NQueensFAF work the same way).

Which member of an orbit is kept matters only for speed: the search runs top-down and
looks ahead to the last row, so it pays to put the last-row queen nearest a corner
(the "j as min" rule of NQueensFAF), then the first-row queen farthest from one, then
the side queens low. Symmetries are applied through ``boards.symmetry`` only.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from queenslab._numba import njit
from queenslab.errors import LimitReached

Array = np.ndarray
#: Columns of ``border``: the column of the top queen (i) and of the bottom one (j), the row
#: of the left queen (k) and of the right one (l).
TOP, BOTTOM, LEFT, RIGHT = 0, 1, 2, 3


@dataclass(frozen=True)
class Constellations:
    """One constellation per symmetry class of border placements, with its weight."""

    n: int
    border: Array  # (m, 4) int64: i, j, k, l
    weight: Array  # (m,) int64: orbit size, 8 / |H|
    stabilizer: Array  # (m,) int64: bit g set when symmetry g (index in D4) fixes it
    #: Count the classes of solutions too. A constellation that a symmetry fixes then goes
    #: through the general search, which sees each solution; without it every
    #: constellation goes through the inner-board kernels, which only count.
    unique: bool = False

    method = "constellations"

    def __len__(self) -> int:
        return len(self.weight)

    def take(self, ids: Array) -> Constellations:
        """A self-contained part (small enough to ship to a Dask worker)."""
        return Constellations(
            self.n, self.border[ids], self.weight[ids], self.stabilizer[ids], self.unique
        )

    def fingerprint(self) -> str:
        """A digest of the whole plan: a checkpoint records it to refuse another plan."""
        digest = hashlib.sha256(f"{self.method}|{self.n}|{self.unique}|".encode())
        for array in (self.border, self.weight, self.stabilizer):
            digest.update(np.ascontiguousarray(array, dtype=np.int64).tobytes())
        return digest.hexdigest()

    def count(self, stop: Array) -> Array:
        """Rows of (total, unique, nodes), nodes -1 where ``stop[0]`` came first; the
        unique column means nothing in a plan that does not count classes."""
        from queenslab.boards.symmetry import coefficient_table
        from queenslab.exact import inner

        return inner.count_batch(
            self.n, self.border, self.weight, self.stabilizer, coefficient_table(), self.unique,
            stop,
        )  # fmt: skip


def plan(n: int, stop: Array | None = None, unique: bool = False) -> Constellations:
    """The constellations of the n x n board, in a fixed order (ids for checkpoints);
    ``unique``: the counts will include the classes of solutions.

    Building takes O(n^4) steps (seconds at n = 60), so it polls ``stop[0]`` too and
    raises LimitReached when it is set.
    """
    from queenslab.boards.symmetry import coefficient_table

    table = coefficient_table()
    flag = np.zeros(1, dtype=np.uint8) if stop is None else stop
    empty = np.zeros((0, 4), dtype=np.int64)
    size = _representatives(n, table, empty, np.zeros(0, dtype=np.int64), flag)
    border = np.zeros((max(size, 0), 4), dtype=np.int64)
    stabilizer = np.zeros(max(size, 0), dtype=np.int64)
    if size < 0 or _representatives(n, table, border, stabilizer, flag) < 0:
        raise LimitReached
    fixed = np.array([bin(int(s)).count("1") for s in stabilizer], dtype=np.int64)
    return Constellations(n, border, 8 // fixed, stabilizer, unique)


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
def _representatives(n: int, table: Array, border: Array, stabilizer: Array, stop: Array) -> int:
    """Write the preferred member of every orbit and its stabilizer (if there is room).

    Returns how many orbits there are (call once with empty arrays to size them), or -1
    when ``stop[0]`` was set. A symmetry can bring any border queen to the last row, at
    the same distance from a corner, so a member whose last-row queen is not nearest a
    corner is dropped before its images are computed.
    """
    cells = np.zeros((4, 2), dtype=np.int64)
    sig = np.zeros(4, dtype=np.int64)
    image = np.zeros(4, dtype=np.int64)
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
                            border[found] = sig
                            stabilizer[found] = fixed
                        found += 1
    return found
