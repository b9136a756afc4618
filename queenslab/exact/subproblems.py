"""The split of a count on a non-classic board into independent subproblems.

Every board other than the classic one (a variant's own rules, blocked cells, givens) is
counted by the general search (board_search.py); the classic board is split by its border
queens instead (constellations.py). A subproblem is a mask of usable columns per row
(``allowed``) and the weight of each of its leaves. Queens are pinned in advance by
leaving one column in their row and closing every cell they attack elsewhere
(``Board.pinned``): the givens first, then every non-attacking way to fill the first few
rows.

``mirror`` is the half-board split (first queen in the left half, each leaf counted twice)
for boards the left-right mirror keeps; ``plain`` counts every solution that keeps the
given queens. A subproblem's id is its position in this deterministic order (checkpoints).
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass

import numpy as np

from queenslab.boards import Board
from queenslab.core.problem import Problem
from queenslab.exact.board_search import Rules

Row = tuple[list[int], int]  # allowed, weight


@dataclass(frozen=True)
class Subproblems:
    """Row masks and leaf weights of independent searches; ``method`` names the split."""

    method: str
    n: int
    allowed: np.ndarray  # (m, n) columns each row may use
    weight: np.ndarray  # (m,) leaf weight
    #: The board's rule for the general search (board_search); set by ``searched_by``.
    rules: Rules | None = None
    canonical: bool = False  # count the symmetry classes at the leaves

    def __len__(self) -> int:
        return len(self.weight)

    def take(self, ids: np.ndarray) -> Subproblems:
        """A self-contained part (small enough to ship to a Dask worker)."""
        return dataclasses.replace(self, allowed=self.allowed[ids], weight=self.weight[ids])

    def searched_by(self, rules: Rules, canonical: bool) -> Subproblems:
        """The same split, searched by the general board search under ``rules``."""
        return dataclasses.replace(self, rules=rules, canonical=canonical)

    def fingerprint(self) -> str:
        """A digest of the whole plan: a checkpoint records it to refuse another plan."""
        digest = hashlib.sha256(f"{self.method}|{self.n}|{self.canonical}|".encode())
        for array in (self.allowed, self.weight):
            digest.update(np.ascontiguousarray(array, dtype=np.int64).tobytes())
        if self.rules is not None:
            for array in (self.rules.near, self.rules.far, self.rules.symmetries):
                digest.update(np.ascontiguousarray(array, dtype=np.int64).tobytes())
            digest.update(b"wraps" if self.rules.wraps else b"flat")
        return digest.hexdigest()

    def count(self, stop: np.ndarray) -> np.ndarray:
        """Rows of (total, classes, nodes), nodes -1 where ``stop[0]`` came first."""
        from queenslab.exact import board_search

        rules = self.rules
        if rules is None:
            raise ValueError("a split is counted once searched_by() gave it its rules")
        return board_search.count_batch(
            self.n, self.allowed, self.weight, rules.wraps, rules.near, rules.far,
            rules.symmetries, self.canonical, stop,
        )  # fmt: skip


def _stack(method: str, n: int, rows: list[Row]) -> Subproblems:
    return Subproblems(
        method=method,
        n=n,
        allowed=np.array([r[0] for r in rows], dtype=np.int64).reshape(len(rows), n),
        weight=np.array([r[1] for r in rows], dtype=np.int64),
    )


def mirror(board: Board) -> Subproblems:
    """The half-board split: first queen in the left half, counted twice (and the middle).

    Valid for any board the left-right mirror maps onto itself (no givens). For odd n a
    first queen in the middle column keeps its second-row queen in the left half.
    """
    n = board.n
    allowed = board.allowed_masks()
    half = (1 << (n // 2)) - 1
    rows: list[Row] = [([allowed[0] & half, *allowed[1:]], 2)]
    if n % 2:
        middle = board.pinned(allowed, [(0, n // 2)])
        if middle is not None:
            if n > 1:
                middle[1] &= half
            rows.append((middle, 2 if n > 1 else 1))
    return _stack("mirror", n, rows)


def plain(problem: Problem) -> Subproblems:
    """Every solution of ``problem`` (givens pinned, blocked cells closed), weight 1."""
    allowed = problem.row_masks()
    method = "plain" + "".join(f" {r}:{c}" for r, c in problem.givens)
    method += "".join(f" x{r}:{c}" for r, c in problem.blocked)
    return _stack(method, problem.n, [] if allowed is None else [(allowed, 1)])


#: At most about this many subproblems (n^depth): each holds n row masks, and a split of
#: four rows at n = 40 (2.5 million of them, 0.8 GB) took 3 s before the clock was read.
MOST_SUBPROBLEMS = 500_000


def split_depth(n: int) -> int:
    """Rows to fix per subproblem: a few thousand subproblems for large n, fewer for small."""
    depth = max(0, min(n - 1, 2 if n < 12 else 3 if n < 19 else 4))
    while depth > 1 and n**depth > MOST_SUBPROBLEMS:
        depth -= 1
    return depth


def split(subproblems: Subproblems, board: Board, depth: int) -> Subproblems:
    """Each subproblem once for every way to place its first ``depth`` rows (pinned), in order.

    Row by row over the whole set at once (NumPy): every open cell of the row in every
    subproblem becomes a child with that queen pinned. ``np.nonzero`` lists the children
    parent by parent, columns ascending, so the order is the depth-first lexicographic one
    that subproblem ids (checkpoints) rely on.
    """
    n = subproblems.n
    allowed, origin = subproblems.allowed, np.arange(len(subproblems))
    columns = np.arange(n, dtype=np.int64)
    for row in range(depth):
        attacks = np.array([board.attack_masks(row, c) for c in range(n)], dtype=np.int64)
        parents, cols = np.nonzero((allowed[:, row, None] >> columns) & 1)
        allowed = allowed[parents] & ~attacks[cols]
        allowed[:, row] = np.int64(1) << cols
        origin = origin[parents]
    split_plan = subproblems.take(origin)
    return dataclasses.replace(
        split_plan, method=f"{subproblems.method}/split={depth}", allowed=allowed
    )
