"""One-pass Numba validity check for huge placements (10^6 .. 10^8 queens).

NumPy's bincount route allocates three count arrays plus the key temporaries (about 50
bytes a queen); this kernel marks columns and diagonals in byte arrays (5 bytes a queen)
and stops at the first clash. It reads the diagonal keys the way boards.base defines them.
"""

from __future__ import annotations

import numpy as np

from queenslab._numba import njit


@njit(cache=True, nogil=True)
def first_clash(cols: np.ndarray, wraps: bool) -> int:  # pragma: no cover - compiled
    """The first row whose queen is off the board or attacked from above; -1 when none."""
    n = cols.shape[0]
    size = n if wraps else 2 * n - 1
    col_seen = np.zeros(n, dtype=np.uint8)
    up_seen = np.zeros(size, dtype=np.uint8)
    down_seen = np.zeros(size, dtype=np.uint8)
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
        if col_seen[c] or up_seen[up] or down_seen[down]:
            return r
        col_seen[c] = 1
        up_seen[up] = 1
        down_seen[down] = 1
    return -1
