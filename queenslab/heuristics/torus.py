"""Min-conflicts on the torus: Pólya's linear placements as the start, breakout repair.

On an n x n torus a solution fills every column and every wrapped diagonal exactly once,
and swap-based min-conflicts alone stalls in local minima: from random starts, plain
swaps solved 0 of 10 runs of 200,000 steps at n = 35, 37, 41 and 101 (QS4 too, from
n = 29 on). Two published ideas make it work:

- The start. Pólya (1918) showed that a torus has a solution only when gcd(n, 6) = 1, and
  that then ``c = a*r + b (mod n)`` is one for every multiplier ``a`` with a - 1, a and
  a + 1 prime to n. These n * (number of multipliers) placements are the starts: in a
  seeded random order, the search takes one that holds every given queen and avoids the
  blocked cells if there is one (a blocked cell rules out one ``b`` per multiplier, a
  given fixes ``b``), else the one that holds the most givens, and moves the givens in
  by swaps. Without givens or blocked cells the start is already a solution.
- The repair, when givens or blocked cells leave collisions: a collided queen swaps with
  the row that lowers the weighted collisions most, and at a local minimum the weights
  of the overfull lines (and of queens on blocked cells) grow by one: the breakout
  method of Morris (AAAI 1993), which lets the search climb out of the minima that stop
  plain min-conflicts here. A run that does not finish within its budget restarts from
  the next start.

With gcd(n, 6) > 1 no placement exists, so the search gives up at once (UNKNOWN: a
heuristic reports what it found, and the complete backends prove the rest).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from queenslab.boards.toroidal import Toroidal
from queenslab.compiled.jit import njit
from queenslab.heuristics.qs4 import NO_LOG, Outcome, Watch
from queenslab.heuristics.qs4_kernels import logged

Cell = tuple[int, int]
#: Repair steps between two looks at the clock; one step costs O(n).
STEPS_PER_CHUNK = 1 << 12
#: Multipliers tried for a start that holds every given and avoids the blocked cells.
START_TRIES = 256

# -- the torus's diagonal keys (boards.base.LineFamily.key: weights, taken modulo n) --
_UP, _DOWN = (family for family in Toroidal.families() if family.name.startswith("diag"))
UP_ROW, UP_COL, DOWN_ROW, DOWN_COL = (
    _UP.row_weight,
    _UP.col_weight,
    _DOWN.row_weight,
    _DOWN.col_weight,
)


@njit(inline="always")
def up_key(r, c, n):
    return (UP_ROW * r + UP_COL * c) % n


@njit(inline="always")
def down_key(r, c, n):
    return (DOWN_ROW * r + DOWN_COL * c) % n


def solve_torus(
    n: int,
    seed: int | None = None,
    givens: Sequence[Cell] = (),
    *,
    blocked: Sequence[Cell] = (),
    should_stop: Callable[[], bool] | None = None,
    restarts: int = 1000,
    watch: Watch | None = None,
) -> Outcome:
    """One toroidal placement keeping ``givens`` and avoiding ``blocked`` cells.

    Same contract as ``qs4.solve_min_conflicts``: ``should_stop`` is asked between
    chunks of repair, the same seed gives the same board, ``watch`` hears the search.
    """
    stats = {"restarts": 0, "moves": 0}
    if math.gcd(n, 6) != 1 and n > 1:
        return Outcome(None, False, stats)
    rng = np.random.default_rng(seed or 0)
    if not givens and not blocked:  # every start is a solution: no repair state of size n
        queen = _start(n, givens, blocked, rng)
        if watch:
            watch("start", queen)
        return Outcome(queen, False, stats)
    blocked_keys = np.array(sorted(r * n + c for r, c in blocked), dtype=np.int64)
    fixed = np.zeros(n, dtype=np.bool_)
    for r, _ in givens:
        fixed[r] = True
    for attempt in range(max(1, restarts)):
        stats["restarts"] = attempt
        queen = _start(n, givens, blocked, rng)
        weights = np.ones((3, n), dtype=np.int64)  # per up line, per down line, per row
        budget = 64 * n + 4096
        log = NO_LOG
        if watch:
            watch("start", queen)
            log = np.empty((STEPS_PER_CHUNK, 2), dtype=np.int32)
        while budget > 0:
            if should_stop is not None and should_stop():
                return Outcome(None, True, stats)
            steps = min(budget, STEPS_PER_CHUNK)
            collisions, moves = _repair(
                queen, fixed, blocked_keys, weights, steps, rng.integers(1 << 62), log
            )
            if watch:
                watch("swaps", log[:moves])
            stats["moves"] += moves
            if collisions == 0:
                return Outcome(queen, False, stats)
            budget -= steps
    return Outcome(None, False, stats)


def multiplier(n: int, rng: np.random.Generator) -> int:
    """A random multiplier ``a`` with a - 1, a and a + 1 prime to n (gcd(n, 6) = 1).

    By rejection: at least one value in eight qualifies for any n prime to 6 below 10^9.
    """
    while True:
        a = int(rng.integers(n))
        if all(math.gcd(x % n, n) == 1 for x in (a - 1, a, a + 1)):
            return a


def _start(
    n: int, givens: Sequence[Cell], blocked: Sequence[Cell], rng: np.random.Generator
) -> np.ndarray:
    """The linear placement ``a*r + b`` holding most givens off blocked cells, givens swapped in."""
    queen = np.zeros(n, dtype=np.int32)
    if n == 1:
        return queen
    best: tuple[tuple[int, int], int, int] | None = None
    for _ in range(START_TRIES if givens or blocked else 1):
        a = multiplier(n, rng)
        forbidden = {(c - a * r) % n for r, c in blocked}
        votes = Counter((c - a * r) % n for r, c in givens)
        b, held = _offset(n, votes, forbidden, rng)
        score = (held, -int(b in forbidden))
        if best is None or score > best[0]:
            best = (score, a, b)
        if score == (len(givens), 0):
            break
    assert best is not None
    _linear(queen, best[1], best[2])
    if givens:
        _swap_in(queen, givens)
    return queen


def _offset(
    n: int, votes: Counter[int], forbidden: set[int], rng: np.random.Generator
) -> tuple[int, int]:
    """The offset ``b`` holding the most givens, off the blocked cells if it can be; its givens."""
    for b, held in votes.most_common():
        if b not in forbidden:
            return b, held
    if len(forbidden) < n:
        while (b := int(rng.integers(n))) in forbidden:
            pass
        return b, 0
    b, held = votes.most_common(1)[0] if votes else (int(rng.integers(n)), 0)
    return b, held


@njit(cache=True, nogil=True)
def _linear(queen, a, b):
    n = queen.size
    for r in range(n):
        queen[r] = (a * r + b) % n


def _swap_in(queen: np.ndarray, givens: Sequence[Cell]) -> None:
    """Put each given queen in place by swapping columns, keeping a permutation."""
    row_of = np.empty_like(queen)
    row_of[queen] = np.arange(queen.size, dtype=queen.dtype)
    for r, c in givens:
        other = int(row_of[c])
        queen[r], queen[other] = queen[other], queen[r]
        row_of[queen[r]], row_of[queen[other]] = r, other


@njit(inline="always")
def _on_blocked(blocked, n, r, c):
    key = r * n + c
    k = np.searchsorted(blocked, key)
    return k < blocked.size and blocked[k] == key


@njit(cache=True, nogil=True)
def _repair(queen, fixed, blocked, weights, steps, seed, log):
    """Breakout min-conflicts for ``steps`` steps: (collisions left, moves made); each
    swap's rows go to ``log`` when it has rows (``qs4_kernels.logged``).

    Collisions: queens beyond the first on a line, plus queens on blocked cells.
    ``weights`` (per up line, per down line, per row: a row's weight prices its queen
    on a blocked cell) carry over from chunk to chunk; the counters are rebuilt.
    """
    np.random.seed(seed)
    n = queen.size
    w_up, w_down, w_row = weights[0], weights[1], weights[2]
    up = np.zeros(n, dtype=np.int32)
    down = np.zeros(n, dtype=np.int32)
    for r in range(n):
        up[up_key(r, queen[r], n)] += 1
        down[down_key(r, queen[r], n)] += 1
    collisions = 0
    for k in range(n):
        collisions += max(up[k] - 1, 0) + max(down[k] - 1, 0)
    for r in range(n):
        collisions += _on_blocked(blocked, n, r, queen[r])
    moves = 0
    for _ in range(steps):
        if collisions == 0:
            break
        i = _collided_row(queen, fixed, blocked, up, down, np.random.randint(n))
        if i < 0:
            break  # only given queens collide: this start cannot be repaired
        best = np.int64(1) << 62
        partner = -1
        ties = 0
        for j in range(n):
            if j == i or fixed[j]:
                continue
            delta = _swap_delta(queen, blocked, up, down, w_up, w_down, w_row, i, j)
            if delta < best:
                best, partner, ties = delta, j, 1
            elif delta == best:
                ties += 1
                if np.random.randint(ties) == 0:
                    partner = j
        if best >= 0:  # a local minimum: make its collisions dearer
            for k in range(n):
                w_up[k] += up[k] > 1
                w_down[k] += down[k] > 1
            for r in range(n):
                w_row[r] += _on_blocked(blocked, n, r, queen[r])
            if best > 0 or partner < 0:
                continue
        collisions += _swap(queen, blocked, up, down, i, partner)
        moves = logged(log, moves, i, partner)
    return collisions, moves


@njit(inline="always")
def _collided(queen, blocked, up, down, r):
    n = queen.size
    c = queen[r]
    return up[up_key(r, c, n)] > 1 or down[down_key(r, c, n)] > 1 or _on_blocked(blocked, n, r, c)


@njit(inline="always")
def _collided_row(queen, fixed, blocked, up, down, start):
    """The first movable collided row from ``start`` on, cyclically; -1 when none."""
    n = queen.size
    for k in range(n):
        r = (start + k) % n
        if not fixed[r] and _collided(queen, blocked, up, down, r):
            return r
    return -1


@njit(inline="always")
def _swap_delta(queen, blocked, up, down, w_up, w_down, w_row, i, j):
    """The change of weighted collisions if rows i and j swapped columns."""
    n = queen.size
    ci, cj = queen[i], queen[j]
    delta = w_row[i] * (np.int64(_on_blocked(blocked, n, i, cj)) - _on_blocked(blocked, n, i, ci))
    delta += w_row[j] * (np.int64(_on_blocked(blocked, n, j, ci)) - _on_blocked(blocked, n, j, cj))
    lines = (up_key(i, ci, n), up_key(j, cj, n), up_key(i, cj, n), up_key(j, ci, n))
    delta += _family_delta(up, w_up, lines)
    lines = (down_key(i, ci, n), down_key(j, cj, n), down_key(i, cj, n), down_key(j, ci, n))
    delta += _family_delta(down, w_down, lines)
    return delta


@njit(inline="always")
def _family_delta(count, weight, lines):
    """Weighted change of one family's excess queens: two queens leave, two arrive."""
    out_a, out_b, in_a, in_b = lines
    delta = np.int64(0)
    count[out_a] -= 1
    delta -= weight[out_a] * (count[out_a] >= 1)
    count[out_b] -= 1
    delta -= weight[out_b] * (count[out_b] >= 1)
    delta += weight[in_a] * (count[in_a] >= 1)
    count[in_a] += 1
    delta += weight[in_b] * (count[in_b] >= 1)
    count[in_b] += 1
    count[in_a] -= 1
    count[in_b] -= 1
    count[out_a] += 1
    count[out_b] += 1
    return delta


@njit(inline="always")
def _swap(queen, blocked, up, down, i, j):
    """Swap the columns of rows i and j; the change of (unweighted) collisions."""
    n = queen.size
    change = -np.int64(_on_blocked(blocked, n, i, queen[i]) + _on_blocked(blocked, n, j, queen[j]))
    for r in (i, j):
        change -= _leave(up, up_key(r, queen[r], n)) + _leave(down, down_key(r, queen[r], n))
    queen[i], queen[j] = queen[j], queen[i]
    for r in (i, j):
        change += _arrive(up, up_key(r, queen[r], n)) + _arrive(down, down_key(r, queen[r], n))
    return change + _on_blocked(blocked, n, i, queen[i]) + _on_blocked(blocked, n, j, queen[j])


@njit(inline="always")
def _leave(count, k):
    """Take a queen off line k: 1 when it was a collision."""
    count[k] -= 1
    return np.int64(count[k] >= 1)


@njit(inline="always")
def _arrive(count, k):
    """Put a queen on line k: 1 when it is a collision."""
    count[k] += 1
    return np.int64(count[k] > 1)
