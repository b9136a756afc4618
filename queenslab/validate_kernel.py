"""One-pass Numba validity check for huge placements (10^6 .. 10^8 queens).

NumPy's bincount route allocates three count arrays plus the r+c and r-c temporaries; this
kernel marks columns and diagonals in byte arrays and stops at the first clash.
"""

from __future__ import annotations

import numpy as np

from queenslab._numba import njit


@njit(cache=True, nogil=True)
def _first_clash(cols: np.ndarray) -> int:  # pragma: no cover - compiled
    n = cols.shape[0]
    col_seen = np.zeros(n, dtype=np.uint8)
    sum_seen = np.zeros(2 * n, dtype=np.uint8)
    diff_seen = np.zeros(2 * n, dtype=np.uint8)
    for r in range(n):
        c = cols[r]
        if c < 0 or c >= n:
            return r
        s = r + c
        d = r - c + n - 1
        if col_seen[c] or sum_seen[s] or diff_seen[d]:
            return r
        col_seen[c] = 1
        sum_seen[s] = 1
        diff_seen[d] = 1
    return -1


def is_valid_large(cols: np.ndarray) -> bool:
    """True when no two queens share a column or diagonal and all are on the board."""
    return _first_clash(np.ascontiguousarray(cols)) < 0
