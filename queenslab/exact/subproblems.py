"""The split of a count with given queens or blocked cells into independent subproblems.

A subproblem is a mask of usable columns per row (``allowed``). Queens are pinned in
advance by leaving one column in their row and closing every cell they attack elsewhere:
the givens first, then every non-attacking way to fill the first few rows. Symmetry is gone
once queens are given, so every solution counts once. A subproblem's id is its position
in this deterministic order (checkpoints). The plain board goes through constellations.py.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from queenslab.boards import Board
from queenslab.problem import Problem


@dataclass(frozen=True)
class Subproblems:
    """Row masks of independent searches; ``method`` names the split (and the board)."""

    method: str
    n: int
    allowed: np.ndarray  # (m, n) columns each row may use

    def __len__(self) -> int:
        return len(self.allowed)

    def take(self, ids: np.ndarray) -> Subproblems:
        """A self-contained part (small enough to ship to a Dask worker)."""
        return Subproblems(self.method, self.n, self.allowed[ids])

    def fingerprint(self) -> str:
        """A digest of the whole plan: a checkpoint records it to refuse another plan."""
        digest = hashlib.sha256(f"{self.method}|{self.n}|".encode())
        digest.update(np.ascontiguousarray(self.allowed, dtype=np.int64).tobytes())
        return digest.hexdigest()

    def count(self, stop: np.ndarray) -> tuple[np.ndarray, int]:
        """Rows of (total, unique, nodes) and how many subproblems finished before ``stop``."""
        from queenslab.exact import kernels

        return kernels.count_batch(self.n, self.allowed, stop)


def pin(allowed: list[int], board: Board, row: int, col: int) -> list[int] | None:
    """A copy of ``allowed`` with a queen pinned at (row, col); None if that cell is closed."""
    if not allowed[row] >> col & 1:
        return None
    attacked = board.attack_masks(row, col)
    pinned = [mask & ~hit for mask, hit in zip(allowed, attacked, strict=True)]
    pinned[row] = 1 << col
    return pinned


def plain(problem: Problem) -> Subproblems:
    """Every solution of ``problem`` (givens pinned, blocked cells closed) in one subproblem."""
    board = problem.board
    allowed: list[int] | None = board.allowed_masks()
    for row, col in problem.givens:
        if allowed is None:
            break
        allowed = pin(allowed, board, row, col)
    method = "plain" + "".join(f" {r}:{c}" for r, c in problem.givens)
    method += "".join(f" x{r}:{c}" for r, c in problem.blocked)
    rows = np.array([] if allowed is None else [allowed], dtype=np.int64)
    return Subproblems(method, problem.n, rows.reshape(-1, problem.n))


def split_depth(n: int) -> int:
    """Rows to fix per subproblem: a few thousand subproblems for large n, fewer for small."""
    return max(0, min(n - 1, 2 if n < 12 else 3 if n < 19 else 4))


def split(subproblems: Subproblems, board: Board, depth: int) -> Subproblems:
    """Each subproblem once for every way to place its first ``depth`` rows (pinned), in order."""
    rows: list[list[int]] = []
    for j in range(len(subproblems)):
        stack = [(0, subproblems.allowed[j].tolist())]
        while stack:
            row, allowed = stack.pop()
            if row == depth:
                rows.append(allowed)
                continue
            children = []
            bits = allowed[row]  # pinned queens above have closed every attacked cell
            while bits:
                bit = bits & -bits
                bits ^= bit
                children.append((row + 1, pin(allowed, board, row, bit.bit_length() - 1)))
            stack.extend(reversed(children))
    allowed_rows = np.array(rows, dtype=np.int64).reshape(len(rows), subproblems.n)
    return Subproblems(f"{subproblems.method}/split={depth}", subproblems.n, allowed_rows)
