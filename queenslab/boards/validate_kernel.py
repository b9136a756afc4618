"""One-pass Numba validity check for huge placements (10^6 .. 10^8 queens).

NumPy's bincount route allocates three count arrays plus the key temporaries (about 50
bytes a queen); this kernel marks columns and diagonals in bit sets (5 bits a queen: 62 MB
at 10^8 queens, which also keeps the marks in cache) and stops at the first clash. It
reads the diagonal keys the way boards.base defines them.
"""

from __future__ import annotations

import numpy as np

from queenslab.compiled.jit import njit


@njit(cache=True, nogil=True)
def first_clash(cols: np.ndarray, wraps: bool) -> int:  # pragma: no cover - compiled
    """The first row whose queen is off the board or attacked from above; -1 when none."""
    n = cols.shape[0]
    size = n if wraps else 2 * n - 1
    col_seen = np.zeros((n >> 6) + 1, dtype=np.uint64)
    up_seen = np.zeros((size >> 6) + 1, dtype=np.uint64)
    down_seen = np.zeros((size >> 6) + 1, dtype=np.uint64)
    one = np.uint64(1)
    for r in range(n):
        c = cols[r]
        if c < 0 or c >= n:
            return r
        if wraps:
            up = (r + c) % n
            down = (r - c + n) % n
        else:
            up = r + c
            down = r - c + n - 1
        c_bit = one << np.uint64(c & 63)
        up_bit = one << np.uint64(up & 63)
        down_bit = one << np.uint64(down & 63)
        if (
            (col_seen[c >> 6] & c_bit)
            or (up_seen[up >> 6] & up_bit)
            or (down_seen[down >> 6] & down_bit)
        ):
            return r
        col_seen[c >> 6] |= c_bit
        up_seen[up >> 6] |= up_bit
        down_seen[down >> 6] |= down_bit
    return -1
