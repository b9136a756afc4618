"""The eight symmetries of the square (the dihedral group D4), written once for every board.

Each symmetry is an integer affine map of cells: with ``m = n - 1``,
``(r, c) -> (A*r + B*c + C*m, D*r + E*c + F*m)``. The coefficients are data, so Python code
(placements, cubes, boards) and compiled kernels (which receive ``coefficient_table()``)
apply the very same maps. A map with ``B == 0`` sends rows onto rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

Cell = tuple[int, int]


@dataclass(frozen=True)
class Symmetry:
    """One map of the n x n square onto itself."""

    name: str
    coefficients: tuple[int, int, int, int, int, int]  # A, B, C, D, E, F

    def cell(self, n: int, r: Any, c: Any) -> Any:
        """The image of (r, c): ints, or NumPy arrays of rows and columns alike."""
        a, b, k, d, e, f = self.coefficients
        m = n - 1
        return a * r + b * c + k * m, d * r + e * c + f * m

    def cells(self, n: int, cells: Iterable[Cell]) -> tuple[Cell, ...]:
        """The images of ``cells``, sorted (a canonical key for a set of cells)."""
        return tuple(sorted(self.cell(n, r, c) for r, c in cells))

    @property
    def keeps_rows(self) -> bool:
        """True when every row is mapped onto a row (the map does not transpose)."""
        return self.coefficients[1] == 0

    def placement(self, cols: Sequence[int]) -> tuple[int, ...]:
        """The image of a placement with one queen per row and per column."""
        n = len(cols)
        a, b, k, d, e, f = self.coefficients  # ``cell`` inlined: enumerations map every board
        image = [0] * n
        for r, c in enumerate(map(int, cols)):
            image[a * r + b * c + k * (n - 1)] = d * r + e * c + f * (n - 1)
        return tuple(image)

    def placement_array(self, cols: np.ndarray) -> np.ndarray:
        """``placement`` for a NumPy array of columns, vectorised (same dtype)."""
        import numpy as np

        image = np.empty_like(cols)
        rows, columns = self.cell(len(cols), np.arange(len(cols), dtype=cols.dtype), cols)
        image[rows] = columns
        return image


#: The group in a fixed order; index 0 is the identity. Kernels index it the same way.
D4: tuple[Symmetry, ...] = (
    Symmetry("identity", (1, 0, 0, 0, 1, 0)),
    Symmetry("rot90", (0, 1, 0, -1, 0, 1)),  # clockwise: (r, c) -> (c, m - r)
    Symmetry("rot180", (-1, 0, 1, 0, -1, 1)),
    Symmetry("rot270", (0, -1, 1, 1, 0, 0)),  # (r, c) -> (m - c, r)
    Symmetry("flip-h", (1, 0, 0, 0, -1, 1)),  # columns mirrored
    Symmetry("flip-v", (-1, 0, 1, 0, 1, 0)),  # rows upside down
    Symmetry("transpose", (0, 1, 0, 1, 0, 0)),
    Symmetry("anti-transpose", (0, -1, 1, -1, 0, 1)),
)

SYMMETRY_NAMES = tuple(s.name for s in D4)


def stabilizer(
    n: int, cells: Iterable[Cell], group: Sequence[Symmetry] = D4
) -> tuple[Symmetry, ...]:
    """The members of ``group`` that map the set ``cells`` onto itself (identity first)."""
    key = tuple(sorted(cells))
    return tuple(s for s in group if s.cells(n, key) == key)


def coefficient_table(group: Sequence[Symmetry] = D4) -> np.ndarray:
    """An (len(group), 6) int64 array of the maps' coefficients, for compiled kernels."""
    import numpy as np

    return np.array([s.coefficients for s in group], dtype=np.int64)
