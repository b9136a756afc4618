"""Placements of queens, one per row, and their validation and symmetries.

A placement is the 0-based column of the queen in each row: ``cols[r] == c``. Small boards
are tuples, huge ones NumPy arrays; both are checked in O(n) by counting queens per column
and per diagonal, never by building an n x n board. NumPy is imported only when an array
is asked for, so small boards never load it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from queenslab.boards.symmetry import D4, SYMMETRY_NAMES

if TYPE_CHECKING:
    import numpy as np
    from typing_extensions import TypeIs

    from queenslab.boards import Board, Verdict

__all__ = ["SYMMETRY_NAMES", "Placement", "as_placement"]


class Placement:
    """Queens at ``(r, cols[r])``; wraps a tuple or an integer NumPy array without copying."""

    __slots__ = ("_cols",)

    def __init__(self, cols: Sequence[int] | np.ndarray) -> None:
        if isinstance(cols, Placement):
            cols = cols._cols
        if is_array(cols):
            import numpy as np

            if cols.ndim != 1 or not np.issubdtype(cols.dtype, np.integer):
                raise ValueError("a placement array must be one-dimensional and integer")
            if cols.dtype.kind == "u":  # row - col arithmetic needs signed integers
                cols = cols.astype(np.int64)
            self._cols: tuple[int, ...] | np.ndarray = cols
        else:
            self._cols = tuple(map(int, cols))

    # -- container protocol -------------------------------------------------------------
    @property
    def cols(self) -> tuple[int, ...] | np.ndarray:
        """The held tuple or array of columns itself (never a copy)."""
        return self._cols

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
        if isinstance(self._cols, tuple):
            import numpy as np

            return np.array(self._cols, dtype=np.int64)
        return self._cols

    def to_list(self) -> list[int]:
        if isinstance(self._cols, tuple):
            return list(self._cols)
        values: list[int] = self._cols.tolist()
        return values

    def as_tuple(self) -> tuple[int, ...]:
        return self._cols if isinstance(self._cols, tuple) else tuple(self._cols.tolist())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Placement):
            return NotImplemented
        if isinstance(self._cols, tuple) and isinstance(other._cols, tuple):
            return self._cols == other._cols
        import numpy as np

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

    # -- validation (the rules live in queenslab.boards) ------------------------------
    def _on(self, board: Board | None) -> Board:
        if board is None:
            from queenslab.boards import board as standard_board

            return standard_board(self.n)
        if board.n != self.n:
            raise ValueError(f"a placement of {self.n} queens is not for a board of size {board.n}")
        return board

    def is_valid(self, board: Board | None = None) -> bool:
        """True when no two queens attack each other on ``board`` (the standard one by default)."""
        return self._on(board).is_valid(self._cols)

    def check(self, board: Board | None = None) -> Verdict:
        """What is wrong with the placement on ``board``: attacking pairs, blocked cells."""
        return self._on(board).check(self._cols)

    def attacking_pairs(self, board: Board | None = None) -> list[tuple[int, int]]:
        """The attacking pairs as (row_a, row_b) with row_a < row_b, sorted."""
        verdict = self.check(board)
        if verdict.off_board:
            raise ValueError(verdict.describe())
        return list(verdict.attacking)

    def attacking_pair_count(self, board: Board | None = None) -> int:
        return len(self.attacking_pairs(board))

    # -- symmetry -----------------------------------------------------------------------
    def _is_permutation(self) -> bool:
        if isinstance(self._cols, tuple):
            return sorted(self._cols) == list(range(self.n))
        import numpy as np

        cols = self._cols
        return not self.n or (
            cols.min() >= 0
            and cols.max() < self.n
            and np.bincount(cols, minlength=self.n).max(initial=0) <= 1
        )

    def symmetries(self) -> list[Placement]:
        """The 8 images under the symmetries of the square, in SYMMETRY_NAMES order."""
        if not self._is_permutation():
            raise ValueError("symmetries need one queen per column (a permutation)")
        if isinstance(self._cols, tuple):
            return [Placement(s.placement(self._cols)) for s in D4]
        return [Placement(s.placement_array(self._cols)) for s in D4]

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
    if is_array(value):
        return Placement(value)
    return Placement(list(value))


def is_array(value: object) -> TypeIs[np.ndarray]:
    """True for a NumPy array, without importing NumPy (no array exists before it loads).

    Another thread may be importing NumPy right now: its module is then in ``sys.modules``
    without ``ndarray`` yet, and no array can exist either.
    """
    ndarray = getattr(sys.modules.get("numpy"), "ndarray", None)
    return ndarray is not None and isinstance(value, ndarray)
