"""Border constellations: the split of a plain N-queens count by the queens on the border.

Every solution (n > 1) has exactly one queen in the first row, the last row, the first
column and the last column; a corner queen counts for a row and a column, and a solution
has at most one. Those three or four queens are its *constellation*, written
(i, j, k, l): the columns of the first- and last-row queens, the rows of the first- and
last-column queens. The 8 symmetries of the square map constellations onto constellations
and solutions onto solutions, so the solutions of the 8/|H| constellations of one orbit
(H: the symmetries fixing the constellation) are as many as those of any one of them. The
plan keeps one constellation per orbit with that weight (2, 4 or 8) and the bit set of H,
and counting searches only the inner rows of each (constellation_kernel.py): the border
rows are filled before the search starts, so no search repeats them (the public counters
of the Q27 project and NQueensFAF work the same way).

Which member of an orbit is kept matters only for speed: the search runs top-down and
looks ahead to the last row, so it pays to put the last-row queen nearest a corner
(the "j as min" rule of NQueensFAF), then the first-row queen farthest from one, then
the side queens low. Symmetries are applied through ``boards.symmetry`` only.
"""

from __future__ import annotations

import ctypes
import hashlib
from dataclasses import dataclass

import numpy as np

from queenslab.compiled import native
from queenslab.core.errors import LimitReached
from queenslab.exact.kernel_layout import WORK_PER_ROW

Array = np.ndarray
#: Boards from this size on have 4 inner rows or more in every constellation: the counting
#: kernel's own search handles them all, and runs without Numba (callbacks.py).
SPECIALISED_FROM = 8
#: Listing the orbits and counting run as C callbacks (callbacks.py) whose saved machine
#: code loads without Numba (compiled/native.py).
_pointer, _size = ctypes.c_void_p, ctypes.c_int64
_representatives = native.Callback(
    "queenslab.exact.callbacks", "representatives", ctypes.c_int64,
    (_size, _pointer, _pointer, _size, _pointer, _pointer, _pointer),
)  # fmt: skip
_count_plain = native.Callback(
    "queenslab.exact.callbacks", "count_plain", None,
    (_size, _size, _pointer, _pointer, _pointer, _pointer, _pointer),
)  # fmt: skip


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
        if self.unique or self.n < SPECIALISED_FROM:
            from queenslab.boards.symmetry import coefficient_table
            from queenslab.exact import constellation_kernel

            return constellation_kernel.count_batch(
                self.n, self.border, self.weight, self.stabilizer, coefficient_table(),
                self.unique, stop,
            )  # fmt: skip
        result = np.zeros((len(self), 3), dtype=np.int64)
        work = np.zeros(WORK_PER_ROW * self.n, dtype=np.int64)
        _count_plain(
            self.n, len(self), _address(self.border), _address(self.weight), _address(stop),
            _address(result), _address(work),
        )  # fmt: skip
        return result


def plan(n: int, stop: Array | None = None, unique: bool = False) -> Constellations:
    """The constellations of the n x n board, in a fixed order (ids for checkpoints);
    ``unique``: the counts will include the classes of solutions.

    Building takes O(n^4) steps (seconds at n = 60), so it polls ``stop[0]`` too and
    raises LimitReached when it is set.
    """
    from queenslab.boards.symmetry import coefficient_table

    table, scratch = coefficient_table(), np.zeros((4, 4), dtype=np.int64)
    flag = np.zeros(1, dtype=np.uint8) if stop is None else stop
    border, stabilizer = np.zeros((0, 4), dtype=np.int64), np.zeros(0, dtype=np.int64)
    for _ in range(2):  # the first call sizes the arrays, the second fills them
        size = _representatives(
            n, _address(table), _address(border), len(stabilizer), _address(stabilizer),
            _address(flag), _address(scratch),
        )  # fmt: skip
        if size < 0:
            raise LimitReached
        if size != len(stabilizer):
            border, stabilizer = np.zeros((size, 4), dtype=np.int64), np.zeros(size, dtype=np.int64)
    fixed = np.array([bin(int(s)).count("1") for s in stabilizer], dtype=np.int64)
    return Constellations(n, border, 8 // fixed, stabilizer, unique)


def _address(array: Array) -> int:
    """Where a kernel finds ``array``: C-contiguous int64 words, or the one-byte stop flag."""
    if not array.flags.c_contiguous or array.dtype not in (np.int64, np.uint8, np.bool_):
        raise TypeError(f"a kernel needs C-contiguous int64 or bytes, got {array.dtype}")
    return int(array.ctypes.data)
