"""Placements of queens, one per row, and their validation and symmetries.

A placement is the 0-based column of the queen in each row: ``cols[r] == c``. Small boards
are tuples, huge ones NumPy arrays; both are checked in O(n) by counting queens per column
and per diagonal, never by building an n x n board.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from queenslab.boards.symmetry import D4, SYMMETRY_NAMES

__all__ = ["SYMMETRY_NAMES", "Placement", "as_placement"]

#: From this size on, validity is checked by a compiled one-pass kernel (see validate_kernel).
_KERNEL_FROM = 1 << 18


class Placement:
    """Queens at ``(r, cols[r])``; wraps a tuple or an integer NumPy array without copying."""

    __slots__ = ("_cols",)

    def __init__(self, cols: Sequence[int] | np.ndarray) -> None:
        if isinstance(cols, Placement):
            cols = cols._cols
        if isinstance(cols, np.ndarray):
            if cols.ndim != 1 or not np.issubdtype(cols.dtype, np.integer):
                raise ValueError("a placement array must be one-dimensional and integer")
            if cols.dtype.kind == "u":  # row - col arithmetic needs signed integers
                cols = cols.astype(np.int64)
            self._cols: tuple[int, ...] | np.ndarray = cols
        else:
            self._cols = tuple(int(c) for c in cols)

    # -- container protocol -------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self._cols)

    def __len__(self) -> int:
        return len(self._cols)

    def __iter__(self) -> Iterator[int]:
        return (int(c) for c in self._cols)

    def __getitem__(self, row: int) -> int:
        return int(self._cols[row])

    def as_array(self) -> np.ndarray:
        """The columns as an integer array: the held array itself, never a copy of it.

        10^8 queens arrive as int32 from the heuristics; widening them would copy 800 MB.
        """
        if isinstance(self._cols, np.ndarray):
            return self._cols
        return np.array(self._cols, dtype=np.int64)

    def to_list(self) -> list[int]:
        if isinstance(self._cols, np.ndarray):
            return self._cols.tolist()
        return list(self._cols)

    def as_tuple(self) -> tuple[int, ...]:
        return self._cols if isinstance(self._cols, tuple) else tuple(self._cols.tolist())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Placement):
            return NotImplemented
        return len(self) == len(other) and bool(np.array_equal(self.as_array(), other.as_array()))

    def __lt__(self, other: Placement) -> bool:
        return self.as_tuple() < other.as_tuple()

    def __hash__(self) -> int:
        return hash(self.as_tuple())

    def __repr__(self) -> str:
        if self.n <= 32:
            return f"Placement({list(self)})"
        head = ", ".join(str(c) for c in self.as_array()[:8].tolist())
        return f"Placement(n={self.n}, cols=[{head}, ...])"

    def _repr_svg_(self) -> str:
        """Jupyter shows a placement as a board."""
        from queenslab.render import to_svg

        return to_svg(self)

    # -- validation ---------------------------------------------------------------------
    def _line_counts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Queens per column, per r+c diagonal and per r-c diagonal; raises if off the board."""
        n = self.n
        cols = self.as_array()
        if n and (cols.min() < 0 or cols.max() >= n):
            bad = int(np.flatnonzero((cols < 0) | (cols >= n))[0])
            raise ValueError(f"row {bad} has column {int(cols[bad])}, off a board of size {n}")
        rows = np.arange(n, dtype=np.int64)
        per_col = np.bincount(cols, minlength=n)
        per_sum = np.bincount(rows + cols, minlength=2 * n)
        per_diff = np.bincount(rows - cols + (n - 1), minlength=2 * n)
        return per_col, per_sum, per_diff

    def is_valid(self) -> bool:
        """True when no two queens share a column or a diagonal (and all are on the board)."""
        if self.n >= _KERNEL_FROM:
            from queenslab.validate_kernel import is_valid_large

            return is_valid_large(self.as_array())
        try:
            counts = self._line_counts()
        except ValueError:
            return False
        return all(int(c.max(initial=0)) <= 1 for c in counts)

    def attacking_pair_count(self) -> int:
        """Number of unordered pairs of queens that attack each other, in O(n)."""
        return sum(int((c * (c - 1) // 2).sum()) for c in self._line_counts())

    def attacking_pairs(self) -> list[tuple[int, int]]:
        """The attacking pairs as (row_a, row_b) with row_a < row_b, sorted.

        Groups rows by line, so the cost is O(n + number of pairs).
        """
        n = self.n
        cols = self.as_array()
        self._line_counts()  # range check
        rows = np.arange(n, dtype=np.int64)
        pairs: set[tuple[int, int]] = set()
        for key in (cols, rows + cols, rows - cols):
            order = np.argsort(key, kind="stable")
            sorted_keys = key[order]
            starts = np.flatnonzero(np.r_[True, sorted_keys[1:] != sorted_keys[:-1]])
            ends = np.r_[starts[1:], n]
            for s, e in zip(starts.tolist(), ends.tolist(), strict=True):
                if e - s > 1:
                    group = sorted(order[s:e].tolist())
                    pairs.update((a, b) for i, a in enumerate(group) for b in group[i + 1 :])
        return sorted(pairs)

    # -- symmetry -----------------------------------------------------------------------
    def _require_permutation(self) -> np.ndarray:
        cols = self.as_array()
        if np.bincount(cols, minlength=self.n).max(initial=0) > 1 or (
            self.n and (cols.min() < 0 or cols.max() >= self.n)
        ):
            raise ValueError("symmetries need one queen per column (a permutation)")
        return cols

    def symmetries(self) -> list[Placement]:
        """The 8 images under the symmetries of the square, in SYMMETRY_NAMES order."""
        cols = self._require_permutation()
        if isinstance(self._cols, tuple):
            return [Placement(s.placement(self._cols)) for s in D4]
        return [Placement(s.placement_array(cols)) for s in D4]

    def canonical(self) -> Placement:
        """The lexicographically smallest of the 8 images: one representative per class."""
        return min(self.symmetries(), key=Placement.as_tuple)

    def orbit_size(self) -> int:
        """How many distinct placements the symmetries produce (1, 2, 4 or 8)."""
        return len({p.as_tuple() for p in self.symmetries()})


def as_placement(value: Placement | Iterable[int] | np.ndarray | Any) -> Placement:
    """Accept a Placement, a sequence or an array of columns."""
    if isinstance(value, Placement):
        return value
    if isinstance(value, np.ndarray):
        return Placement(value)
    return Placement(list(value))
