"""The split of a count into independent subproblems, each with its symmetry weight.

A subproblem is a mask of usable columns per row (``allowed``), a mask of columns that
must be taken by the end of one row (``need_mask`` by ``need_row``), and how its leaves
are weighted. Queens are pinned in advance by leaving one column in their row and closing
every cell they attack elsewhere.

Full 8-fold symmetry (``symmetric``): at most one queen of a solution sits in a corner,
and no solution is symmetric under a reflection, so orbits have 8, 4 or 2 members.
- CORNER: a queen at (0, 0) and the row-1 queen at column ``b`` (2 <= b <= n-2). The
  transposed solution also has the corner queen; of the two, keep the one whose column-1
  queen lies below row ``b`` (rows 2..b-1 may not use column 1). Orbit size 8.
- EDGE: no corner queen, the top queen at column ``b1`` < n-1-b1 = ``b2``, and no border
  queen nearer a corner than ``b1``: the queens of column 0, column n-1 and the bottom row
  all lie at b1..b2 along their border. So the side columns are closed in rows < b1 and
  > b2 and both must be taken by the end of row b2. Every orbit has a member here; a
  solution reached more than once is counted at its canonical member (kernels.edge_weight).
(Pinning all four border queens up front was tried: it repeats the top of the tree once
per border combination and visited more nodes than these masks.)

``mirror`` is the classic half-board method (first queen in the left half, x2), kept as
the baseline of the benchmarks; ``plain`` counts every solution that keeps the given
queens. A subproblem's id is its position in this deterministic order (checkpoints).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from queenslab import boards
from queenslab.boards import Board
from queenslab.exact.board_search import Rules
from queenslab.exact.kernels import CORNER, EDGE, PLAIN
from queenslab.problem import Problem

Row = tuple[int, list[int], int, int, int, int]  # kind, allowed, need row+mask, b1, weight


@dataclass(frozen=True)
class Subproblems:
    """Row masks and leaf weights of independent searches; ``method`` names the split."""

    method: str
    n: int
    allowed: np.ndarray  # (m, n) columns each row may use
    need_row: np.ndarray  # (m,) the row by whose end ``need_mask`` must be taken (-1: none)
    need_mask: np.ndarray  # (m,)
    kind: np.ndarray  # (m,) PLAIN, CORNER or EDGE
    b1: np.ndarray  # (m,) column of the top queen (EDGE)
    weight: np.ndarray  # (m,) leaf weight (PLAIN, CORNER)
    #: The board's rule for the general search (board_search); None: the classic kernels.
    rules: Rules | None = None
    canonical: bool = False  # count the symmetry classes at the leaves (general search)

    def __len__(self) -> int:
        return len(self.kind)

    def take(self, ids: np.ndarray) -> Subproblems:
        """A self-contained part (small enough to ship to a Dask worker)."""
        return Subproblems(
            self.method,
            self.n,
            self.allowed[ids],
            self.need_row[ids],
            self.need_mask[ids],
            self.kind[ids],
            self.b1[ids],
            self.weight[ids],
            self.rules,
            self.canonical,
        )

    def searched_by(self, rules: Rules, canonical: bool) -> Subproblems:
        """The same split, searched by the general board search under ``rules``."""
        return dataclasses.replace(self, rules=rules, canonical=canonical)


def _stack(method: str, n: int, rows: list[Row]) -> Subproblems:
    return Subproblems(
        method=method,
        n=n,
        allowed=np.array([r[1] for r in rows], dtype=np.int64).reshape(len(rows), n),
        need_row=np.array([r[2] for r in rows], dtype=np.int64),
        need_mask=np.array([r[3] for r in rows], dtype=np.int64),
        kind=np.array([r[0] for r in rows], dtype=np.int64),
        b1=np.array([r[4] for r in rows], dtype=np.int64),
        weight=np.array([r[5] for r in rows], dtype=np.int64),
    )


def pin(allowed: list[int], board: Board, row: int, col: int) -> list[int] | None:
    """A copy of ``allowed`` with a queen pinned at (row, col); None if that cell is closed."""
    if not allowed[row] >> col & 1:
        return None
    attacked = board.attack_masks(row, col)
    pinned = [mask & ~hit for mask, hit in zip(allowed, attacked, strict=True)]
    pinned[row] = 1 << col
    return pinned


def _pin_all(
    allowed: list[int] | None, board: Board, cells: list[tuple[int, int]]
) -> list[int] | None:
    for row, col in cells:
        if allowed is None:
            return None
        allowed = pin(allowed, board, row, col)
    return allowed


def symmetric(n: int) -> Subproblems:
    board = boards.board(n)
    full, m = (1 << n) - 1, n - 1
    side = 1 | (1 << m)
    if n == 1:  # the lone queen is a corner queen whose orbit has a single member
        return _stack("symmetric", n, [(PLAIN, [1], -1, 0, 0, 1)])
    rows: list[Row] = []
    for b in range(2, m):
        corner = _pin_all([full] * n, board, [(0, 0), (1, b)])
        for r in range(2, b):
            corner[r] &= ~2
        rows.append((CORNER, corner, -1, 0, 0, 8))
    for b1 in range(1, n // 2):  # b1 < b2
        b2 = m - b1
        edge = pin([full] * n, board, 0, b1)
        for r in [*range(1, b1), *range(b2 + 1, n)]:
            edge[r] &= ~side
        edge[m] &= ((1 << (b2 + 1)) - 1) & ~((1 << b1) - 1)
        rows.append((EDGE, edge, b2, side, b1, 8))
    return _stack("symmetric", n, rows)


def mirror(board: Board) -> Subproblems:
    """The half-board split: first queen in the left half, counted twice (and the middle).

    Valid for any board the left-right mirror maps onto itself (no givens). For odd n a
    first queen in the middle column keeps its second-row queen in the left half.
    """
    n = board.n
    allowed = board.allowed_masks()
    half = (1 << (n // 2)) - 1
    rows: list[Row] = [(PLAIN, [allowed[0] & half, *allowed[1:]], -1, 0, 0, 2)]
    if n % 2:
        middle = pin(allowed, board, 0, n // 2)
        if middle is not None:
            if n > 1:
                middle[1] &= half
            rows.append((PLAIN, middle, -1, 0, 0, 2 if n > 1 else 1))
    return _stack("mirror", n, rows)


def plain(problem: Problem) -> Subproblems:
    """Every solution of ``problem`` (givens pinned, blocked cells closed), weight 1."""
    board = problem.board
    allowed = _pin_all(board.allowed_masks(), board, list(problem.givens))
    method = "plain" + "".join(f" {r}:{c}" for r, c in problem.givens)
    method += "".join(f" x{r}:{c}" for r, c in problem.blocked)
    return _stack(method, problem.n, [] if allowed is None else [(PLAIN, allowed, -1, 0, 0, 1)])


def split_depth(n: int) -> int:
    """Rows to fix per subproblem: a few thousand subproblems for large n, fewer for small."""
    return max(0, min(n - 1, 2 if n < 12 else 3 if n < 19 else 4))


def split(subproblems: Subproblems, board: Board, depth: int) -> Subproblems:
    """Each subproblem once for every way to place its first ``depth`` rows (pinned), in order."""
    rows: list[Row] = []
    for j in range(len(subproblems)):
        kind, need_row, need_mask, b1, weight = (
            int(column[j])
            for column in (
                subproblems.kind,
                subproblems.need_row,
                subproblems.need_mask,
                subproblems.b1,
                subproblems.weight,
            )
        )
        stack = [(0, subproblems.allowed[j].tolist())]
        while stack:
            row, allowed = stack.pop()
            if row == depth:
                rows.append((kind, allowed, need_row, need_mask, b1, weight))
                continue
            children = []
            bits = allowed[row]  # pinned queens above have closed every attacked cell
            while bits:
                bit = bits & -bits
                bits ^= bit
                children.append((row + 1, pin(allowed, board, row, bit.bit_length() - 1)))
            stack.extend(reversed(children))
    split_plan = _stack(f"{subproblems.method}/split={depth}", subproblems.n, rows)
    return dataclasses.replace(split_plan, rules=subproblems.rules, canonical=subproblems.canonical)
