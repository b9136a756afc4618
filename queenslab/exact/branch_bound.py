"""Exact weighted N-queens: branch and bound over the row-by-row bitmask search.

Each node places a queen in the next row. Its bound is admissible and also a forward
check: for every remaining row, the best weight among the columns still free in that row
(not attacked by any placed queen along its column or diagonals, wrapped on a torus; the
leaps are left out of the bound, which keeps it admissible); a row with no free column
prunes the node at once. The rule of attack is the board's (board_search.Rules). Columns
are tried in decreasing weight, so good boards are found early and the bound cuts most of
the tree. The Numba kernel is resumable: it stops
after a node budget, the Python driver looks at the clock, and calls it again. Import
this module lazily: it loads numba.
"""

from __future__ import annotations

import numpy as np

from queenslab.compiled.jit import njit
from queenslab.core.errors import LimitReached, UsageError
from queenslab.core.problem import Problem
from queenslab.core.run import Run
from queenslab.exact.board_search import Rules, moved, spread

MAX_N = 62  # columns are bits of an int64 mask, shifted by up to n - 1
_NODE_BUDGET = 1 << 20  # nodes per kernel call between two looks at the clock


@njit(cache=True, nogil=True)
def _search(  # type: ignore[no-untyped-def]
    weights, order, allowed, wraps, near, far, state, pos, placed, acc, masks, best_cols, budget
):
    """Run (or resume) the search for at most ``budget`` nodes; True when it is finished.

    state = [row, best, found]; masks[d] = (columns, left diagonals, right diagonals,
    leaps into row d, leaps into row d + 1) at depth d.
    """
    n = weights.shape[0]
    full = (np.int64(1) << n) - 1
    row, best, found = state[0], state[1], state[2]
    nodes = 0
    while row >= 0:
        if nodes >= budget:
            state[0], state[1], state[2] = row, best, found
            return False
        nodes += 1
        if row == n:
            if found == 0 or acc[n] > best:
                best, found = acc[n], 1
                best_cols[:] = placed
            row -= 1
            continue
        cols, left, right = masks[row, 0], masks[row, 1], masks[row, 2]
        if pos[row] < 0:  # first visit: bound the node
            bound = 0
            feasible = True
            for k in range(n - row):
                reach = cols | moved(left, k, n, wraps) | moved(right, -k, n, wraps)
                free = ~(reach | (masks[row, 3] if k == 0 else 0)) & allowed[row + k] & full
                if free == 0:
                    feasible = False
                    break
                for j in range(n):  # order is by decreasing weight: first free is best
                    c = order[row + k, j]
                    if (free >> c) & 1:
                        bound += weights[row + k, c]
                        break
            if not feasible or (found == 1 and acc[row] + bound <= best):
                row -= 1
                continue
            pos[row] = 0
        free = ~(cols | left | right | masks[row, 3]) & allowed[row] & full
        advanced = False
        while pos[row] < n:
            c = order[row, pos[row]]
            pos[row] += 1
            if (free >> c) & 1:
                bit = np.int64(1) << c
                placed[row] = c
                acc[row + 1] = acc[row] + weights[row, c]
                masks[row + 1, 0] = cols | bit
                masks[row + 1, 1] = moved(left | bit, 1, n, wraps) & full
                masks[row + 1, 2] = moved(right | bit, -1, n, wraps)
                masks[row + 1, 3] = masks[row, 4] | spread(bit, near, n, wraps)
                masks[row + 1, 4] = spread(bit, far, n, wraps)
                pos[row + 1] = -1
                row += 1
                advanced = True
                break
        if not advanced:
            row -= 1
    state[0], state[1], state[2] = row, best, found
    return True


def maximize_weight(
    problem: Problem, weights: np.ndarray, run: Run
) -> tuple[int, np.ndarray] | None:
    """The best total weight of a solution of ``problem``, and a board for it.

    Returns None when no placement exists; raises LimitReached when the run must stop.
    """
    n = problem.n
    if n > MAX_N:
        raise UsageError(f"exact weighted search supports n <= {MAX_N}, got {n}")
    weights = np.ascontiguousarray(weights, dtype=np.int64)
    if weights.shape != (n, n):
        raise UsageError(f"weights must be a {n}x{n} matrix, got {weights.shape}")
    order = np.argsort(-weights, axis=1, kind="stable").astype(np.int64)
    allowed = np.array(problem.board.allowed_masks(), dtype=np.int64)
    for r, c in problem.givens:
        allowed[r] = 1 << c
    state = np.array([0, 0, 0], dtype=np.int64)
    pos = np.full(n + 1, -1, dtype=np.int64)
    placed = np.zeros(n, dtype=np.int64)
    acc = np.zeros(n + 1, dtype=np.int64)
    masks = np.zeros((n + 1, 5), dtype=np.int64)
    best_cols = np.zeros(n, dtype=np.int64)
    rules = Rules.of(problem.board)
    while not _search(
        weights, order, allowed, rules.wraps, rules.near, rules.far,
        state, pos, placed, acc, masks, best_cols, _NODE_BUDGET,
    ):  # fmt: skip
        if run.should_stop():
            raise LimitReached
    if state[2] == 0:
        return None
    return int(state[1]), best_cols
