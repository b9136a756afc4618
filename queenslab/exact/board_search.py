"""Bit-parallel search on any board the board layer describes: variant, blocked cells, givens.

Bit ``c`` of a mask is column ``c``. Row ``r`` may use only the columns in ``allowed[r]``
(blocked cells closed, given queens pinned). The rule of attack arrives as data taken from
the board (``Rules.of``): whether the diagonals wrap around (the diagonal masks rotate
within n bits instead of shifting out), and the leaps as column shifts one and two rows
down (a super-queen's knight moves), carried in two more masks. The search solves,
streams solutions into a buffer, and counts: every leaf adds its ``weight`` to the total,
and with ``canonical`` set a leaf is also a symmetry class when no symmetry of the board
(``Rules.symmetries``, coefficient rows from boards/symmetry.py) maps it to a smaller
placement. Counting classes this way needs no weights per class and works for any group,
e.g. the symmetries that keep a set of blocked cells in place.

The loop keeps its stack in arrays, so a caller can stop it (a node budget, a full
buffer, a stop flag polled every ``POLL_NODES`` nodes) and resume it later.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from queenslab.boards import Board
from queenslab.boards.symmetry import coefficient_table
from queenslab.compiled.jit import njit
from queenslab.core.errors import UsageError

#: Rows of the ``stack`` array and slots of the ``state`` array.
AVAIL, LEFT, DOWN, RIGHT, NEAR, FAR = range(6)
ROW, TOTAL, CLASSES, NODES = range(4)  # state[ROW] < 0: finished
UNLIMITED = 1 << 62
POLL_NODES = 1 << 20  # nodes between two looks at the stop flag
_DEBRUIJN = 0x03F79D71B4CB0A89
_BIT_INDEX = np.zeros(64, dtype=np.int64)
for _i in range(64):
    _BIT_INDEX[(((1 << _i) * _DEBRUIJN) & (2**64 - 1)) >> 58] = _i
del _i


@dataclass(frozen=True)
class Rules:
    """A board's rule of attack and symmetries in the arrays the kernel takes."""

    wraps: bool
    near: np.ndarray  # column shifts attacked one row down (leaps)
    far: np.ndarray  # column shifts attacked two rows down
    symmetries: np.ndarray  # (k, 6) coefficients of the non-identity symmetries

    @classmethod
    def of(cls, board: Board) -> Rules:
        leaps = board.variant.leaps
        if any(dr > 2 for dr, _ in leaps):
            raise UsageError(f"the bitmask search takes leaps of at most two rows ({board})")
        return cls(
            board.variant.wraps,
            np.array([dc for dr, dc in leaps if dr == 1], dtype=np.int64),
            np.array([dc for dr, dc in leaps if dr == 2], dtype=np.int64),
            coefficient_table(board.symmetries()[1:]).reshape(-1, 6),
        )


@njit(cache=True, nogil=True)
def column(bit: int) -> int:
    """Index of the single set bit (de Bruijn multiplication; wraps like uint64)."""
    return _BIT_INDEX[((bit * _DEBRUIJN) >> 58) & 63]


@njit(cache=True, nogil=True)
def moved(mask: int, by: int, n: int, wraps: bool) -> int:
    """``mask`` moved ``by`` columns (-n < by < n) to the left, or right; rotated on a torus."""
    if wraps:
        if by < 0:
            by += n
        full = (np.int64(1) << n) - 1  # Numba's int64; NumPy's stubs say signedinteger
        return ((mask << by) | (mask >> (n - by))) & full  # type: ignore[return-value]
    return mask << by if by >= 0 else mask >> -by


@njit(cache=True, nogil=True)
def spread(bit: int, shifts: np.ndarray, n: int, wraps: bool) -> int:
    mask = 0
    for k in range(shifts.shape[0]):
        mask |= moved(bit, shifts[k], n, wraps)
    return mask


@njit(cache=True, nogil=True)
def _canonical(cols: np.ndarray, image: np.ndarray, symmetries: np.ndarray) -> bool:
    """True when no symmetry maps ``cols`` to a lexicographically smaller placement."""
    n = cols.shape[0]
    m = n - 1
    for k in range(symmetries.shape[0]):
        a, b, c0, d, e, f = symmetries[k]
        for r in range(n):
            c = cols[r]
            image[a * r + b * c + c0 * m] = d * r + e * c + f * m
        for r in range(n):
            if image[r] != cols[r]:
                if image[r] < cols[r]:
                    return False
                break
    return True


@njit(cache=True, nogil=True)
def start(allowed: np.ndarray, stack: np.ndarray, state: np.ndarray) -> None:
    """Prepare ``stack``/``state`` to search a board from its first row."""
    stack[:, 0] = 0
    stack[AVAIL, 0] = allowed[0]
    state[:] = 0


@njit(cache=True, nogil=True)
def search(
    n: int,
    allowed: np.ndarray,
    weight: int,
    wraps: bool,
    near: np.ndarray,
    far: np.ndarray,
    symmetries: np.ndarray,
    canonical: bool,
    board: np.ndarray,
    stack: np.ndarray,
    state: np.ndarray,
    out: np.ndarray,
    budget: int,
    stop: np.ndarray,
    profile: np.ndarray,
) -> int:
    """Run (or resume) the search set up by ``start``; return how many rows of ``out`` it filled.

    Stops when ``out`` is full, after about ``budget`` nodes, when ``stop[0]`` is set, or
    when the search is exhausted (then ``state[ROW] < 0``). Before descending it looks ahead
    to the last row along the columns and diagonals: no free cell there, no descent. A
    ``profile`` of n + 1 slots gets the nodes of each depth added (an empty one: none).
    """
    row = state[ROW]
    if row < 0:
        return 0
    avail = stack[AVAIL, row]
    left = stack[LEFT, row]
    down = stack[DOWN, row]
    right = stack[RIGHT, row]
    near_mask = stack[NEAR, row]
    far_mask = stack[FAR, row]
    total = state[TOTAL]
    classes = state[CLASSES]
    nodes = state[NODES]
    last = n - 1
    final = allowed[last]
    capacity = out.shape[0]
    cols = np.empty(n, dtype=np.int64)
    image = np.empty(n, dtype=np.int64)
    poll = nodes + POLL_NODES
    profiling = profile.shape[0] > 0
    found = 0
    while True:
        if avail:
            bit = avail & -avail
            avail ^= bit
            i = np.uint64(row)  # unsigned: no negative-index wraparound in the hot loop
            board[i] = bit
            nodes += 1
            if profiling:
                profile[i + 1] += 1
            if row == last:
                total += weight
                if canonical or capacity:
                    for r in range(n):
                        cols[r] = column(board[r])
                if canonical and _canonical(cols, image, symmetries):
                    classes += 1
                if capacity:
                    out[found, :] = cols
                    found += 1
                    if found == capacity:
                        break
                continue
            stack[AVAIL, i] = avail
            stack[LEFT, i] = left
            stack[DOWN, i] = down
            stack[RIGHT, i] = right
            stack[NEAR, i] = near_mask
            stack[FAR, i] = far_mask
            left = moved(left | bit, 1, n, wraps)
            right = moved(right | bit, -1, n, wraps)
            down |= bit
            near_mask = far_mask | spread(bit, near, n, wraps)
            far_mask = spread(bit, far, n, wraps)
            row += 1
            avail = allowed[np.uint64(row)] & ~(left | down | right | near_mask)
            ahead = last - row
            reach = down | moved(left, ahead, n, wraps) | moved(right, -ahead, n, wraps)
            if final & ~reach == 0:
                avail = 0
            if nodes >= budget:
                break
            if nodes >= poll:
                poll = nodes + POLL_NODES
                if stop[0]:
                    break
        elif row == 0:
            row = -1
            break
        else:
            row -= 1
            i = np.uint64(row)
            avail = stack[AVAIL, i]
            left = stack[LEFT, i]
            down = stack[DOWN, i]
            right = stack[RIGHT, i]
            near_mask = stack[NEAR, i]
            far_mask = stack[FAR, i]
    if row >= 0:
        stack[AVAIL, row] = avail
        stack[LEFT, row] = left
        stack[DOWN, row] = down
        stack[RIGHT, row] = right
        stack[NEAR, row] = near_mask
        stack[FAR, row] = far_mask
    state[ROW] = row
    state[TOTAL] = total
    state[CLASSES] = classes
    state[NODES] = nodes
    return found


@njit(cache=True, nogil=True)
def count_batch(
    n: int,
    allowed: np.ndarray,
    weight: np.ndarray,
    wraps: bool,
    near: np.ndarray,
    far: np.ndarray,
    symmetries: np.ndarray,
    canonical: bool,
    stop: np.ndarray,
) -> np.ndarray:
    """Count each subproblem: rows of (total, classes, nodes); nodes -1 where a stop came first.

    Subproblem ``j`` searches under ``allowed[j]`` with leaf weight ``weight[j]``. Releases
    the GIL: threads run truly parallel.
    """
    m = weight.shape[0]
    result = np.zeros((m, 3), dtype=np.int64)
    result[:, 2] = -1
    board = np.zeros(n, dtype=np.int64)
    stack = np.zeros((6, n), dtype=np.int64)
    state = np.zeros(4, dtype=np.int64)
    out = np.zeros((0, n), dtype=np.int64)
    no_profile = np.zeros(0, dtype=np.int64)
    for j in range(m):
        start(allowed[j], stack, state)
        search(n, allowed[j], weight[j], wraps, near, far, symmetries, canonical,
               board, stack, state, out, UNLIMITED, stop, no_profile)  # fmt: skip
        if state[ROW] >= 0:  # stopped
            break
        result[j, 0] = state[TOTAL]
        result[j, 1] = state[CLASSES]
        result[j, 2] = state[NODES]
    return result
