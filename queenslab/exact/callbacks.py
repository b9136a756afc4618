"""The counting kernels as C callbacks: native.py saves their machine code, so a count
loads them without importing Numba (constellations.py declares and calls them).

Arrays arrive as pointers to C-contiguous int64 (the stop flag: one byte) with their sizes.
"""

from __future__ import annotations

import numpy as np

from queenslab.compiled.jit import carray, cfunc, types
from queenslab.exact import border_orbits, constellation_kernel
from queenslab.exact.kernel_layout import WORK_PER_ROW

_words = types.CPointer(types.int64)
_flag = types.CPointer(types.uint8)


@cfunc(types.int64(types.int64, _words, _words, types.int64, _words, _flag, _words),
       nogil=True)  # fmt: skip
def representatives(n, table, border, room, stabilizer, stop, scratch):
    """``border_orbits.representatives``: ``table`` has 8 rows of 6, ``border`` ``room``
    rows of 4, ``stabilizer`` ``room`` words, ``scratch`` 16 words."""
    return border_orbits.representatives(
        n,
        carray(table, (8, 6), np.int64),
        carray(border, (room, 4), np.int64),
        carray(stabilizer, (room,), np.int64),
        carray(stop, (1,), np.uint8),
        carray(scratch, (4, 4), np.int64),
    )


@cfunc(types.void(types.int64, types.int64, _words, _words, _flag, _words, _words),
       nogil=True)  # fmt: skip
def count_plain(n, count, border, weight, stop, result, work):
    """``constellation_kernel.count_plain`` over ``count`` constellations: ``border`` rows
    of 4, ``weight`` words, ``result`` rows of 3, ``work`` WORK_PER_ROW * n words."""
    constellation_kernel.count_plain(
        n,
        carray(border, (count, 4), np.int64),
        carray(weight, (count,), np.int64),
        carray(stop, (1,), np.uint8),
        carray(result, (count, 3), np.int64),
        carray(work, (WORK_PER_ROW * n,), np.int64),
    )
