"""What a board is: its cells, the lines that hold at most one queen, the leaps that attack
besides them, its symmetries, and whether a placement breaks none of its rules.

A variant is declared by two facts: whether its diagonals wrap around the edges, and which
extra leaps attack (a knight's move for super-queens). Everything a backend needs is
derived here from those facts and the blocked cells, so no backend writes a board rule:

- ``lines()``: every row and column (exactly one queen each) and every diagonal (at most
  one), over the open cells, named ``row_3``, ``col_5``, ``diag_up_7``, ``diag_down_2``;
- ``leap_pairs()``: the pairs of open cells a leap joins (at most one queen each);
- ``key``/``line_ids``: the line of each cell per family, for lookup-array searches;
- ``check``/``is_valid``: validity of a placement in O(n) (a compiled pass for huge n);
- ``symmetries()``: the maps of the square that send the board and its blocked cells to
  themselves (the group a ``--unique`` count quotients by);
- ``allowed_masks()``: per-row bitmasks of open columns for the bit-parallel searches.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, cast

from queenslab.boards.symmetry import D4, Symmetry, stabilizer

if TYPE_CHECKING:
    import numpy as np

Cell = tuple[int, int]
#: Placements at least this long are validated by the compiled one-pass kernel.
KERNEL_FROM = 1 << 18


@dataclass(frozen=True)
class LineFamily:
    """The lines of one direction: cell (r, c) lies on line ``rw*r + cw*c`` (+ a shift).

    On a wrapping board the key is taken modulo n; otherwise diagonals going down to the
    right are shifted by n - 1 so that keys start at 0.
    """

    name: str
    row_weight: int
    col_weight: int
    exactly_one: bool
    wraps: bool = False

    @property
    def shift(self) -> int:
        """Keys are shifted by ``shift * (n - 1)`` so they start at 0: 1 for the diagonals
        going down to the left of a board that does not wrap, else 0."""
        return int(self.col_weight < 0 and bool(self.row_weight) and not self.wraps)

    def key(self, n: int, r: Any, c: Any) -> Any:
        """The line through (r, c); works on ints and on NumPy arrays alike."""
        raw = self.row_weight * r + self.col_weight * c
        if self.wraps:
            return raw % n
        return raw + self.shift * (n - 1)

    def column_at(self, n: int, r: int, c: int, row: int) -> int | None:
        """Where the line of this family through (r, c) crosses ``row`` (None: nowhere).

        Column and diagonal families have a column weight of +-1, so the crossing is
        unique; rows never cross other rows.
        """
        if not self.col_weight:
            return None
        column = self.col_weight * (self.row_weight * (r - row) + self.col_weight * c)
        if self.wraps:
            return column % n
        return column if 0 <= column < n else None

    def size(self, n: int) -> int:
        """How many lines of this family the board has."""
        return n if self.wraps or not (self.row_weight and self.col_weight) else 2 * n - 1

    def cells(self, n: int, key: int) -> Iterator[Cell]:
        """The cells of line ``key``, row by row (blocked ones too)."""
        if not self.col_weight:  # a row
            return ((key, c) for c in range(n))
        rw, cw = self.row_weight, self.col_weight
        if self.wraps:  # cw = +-1 is its own inverse modulo n
            return ((r, cw * (key - rw * r) % n) for r in range(n))
        raw = key - self.shift * (n - 1)  # rw * r + cw * c == raw
        if rw:  # a diagonal (rw = 1) meets the rows where its column is on the board
            first, last = (raw - n + 1, raw) if cw > 0 else (raw, raw + n - 1)
            rows = range(max(first, 0), min(last, n - 1) + 1)
        else:
            rows = range(n)
        return ((r, cw * (raw - rw * r)) for r in rows)


@dataclass(frozen=True)
class Line:
    """A group of cells holding exactly one queen (``exactly_one``) or at most one."""

    name: str
    cells: tuple[Cell, ...]
    exactly_one: bool


class Variant:
    """A rule of attack. Subclasses set the class attributes; the logic lives in Board."""

    name: ClassVar[str]
    summary: ClassVar[str]
    #: Diagonals continue across the edges (a torus).
    wraps: ClassVar[bool] = False
    #: Extra attacks as (row step > 0, column step): a queen attacks the cell so far away.
    leaps: ClassVar[tuple[Cell, ...]] = ()
    #: OEIS sequences of the published counts (validation and cross-checks only).
    total_sequence: ClassVar[str | None] = None
    unique_sequence: ClassVar[str | None] = None

    @classmethod
    def families(cls) -> tuple[LineFamily, ...]:
        """Rows and columns (exactly one queen), then the two diagonal directions."""
        return (
            LineFamily("row", 1, 0, True),
            LineFamily("col", 0, 1, True),
            LineFamily("diag_up", 1, 1, False, cls.wraps),
            LineFamily("diag_down", 1, -1, False, cls.wraps),
        )


@dataclass(frozen=True)
class Verdict:
    """What is wrong with a placement: attacking row pairs, rows on blocked cells."""

    n: int
    attacking: tuple[tuple[int, int], ...] = ()
    on_blocked: tuple[int, ...] = ()
    off_board: tuple[int, ...] = ()

    @property
    def valid(self) -> bool:
        return not (self.attacking or self.on_blocked or self.off_board)

    def describe(self) -> str:
        """One line for an error message."""
        if self.off_board:
            return f"row {self.off_board[0]} has its queen off the board"
        if self.on_blocked:
            return f"row {self.on_blocked[0]} has its queen on a blocked cell"
        if self.attacking:
            a, b = self.attacking[0]
            more = len(self.attacking) - 1
            return f"the queens of rows {a} and {b} attack each other" + (
                f" ({more} more pairs)" if more else ""
            )
        return "valid"


class Board:
    """An n x n board of one variant with some blocked cells (never holding a queen)."""

    def __init__(self, n: int, variant: type[Variant], blocked: Iterable[Cell] = ()) -> None:
        self.n = n
        self.variant = variant
        self.blocked: tuple[Cell, ...] = tuple(sorted(set(blocked)))
        self._blocked_set = frozenset(self.blocked)
        self.families = variant.families()
        self._key_cache: dict[Cell, set[int]] = {}
        self._attack_cache: dict[Cell, tuple[int, ...]] = {}

    def __repr__(self) -> str:
        blocked = f", {len(self.blocked)} blocked" if self.blocked else ""
        return f"Board({self.n}, {self.variant.name}{blocked})"

    def _key(self) -> tuple[int, str, tuple[Cell, ...]]:
        return self.n, self.variant.name, self.blocked

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    # -- cells and lines ----------------------------------------------------------------
    def is_open(self, r: int, c: int) -> bool:
        return 0 <= r < self.n and 0 <= c < self.n and (r, c) not in self._blocked_set

    def lines(self) -> Iterator[Line]:
        """Rows and columns over their open cells, then diagonals with two open cells or more,
        one line at a time, each listing its cells row by row.

        Lazily, so that a model's builder can look at the clock between two lines: a board
        too big to model (n = 10^5 has 10^10 cells) stops at its time limit instead of
        filling the memory first.
        """
        n, closed = self.n, self._blocked_set
        for family in self.families:
            for key in range(family.size(n)):
                cells = tuple(cell for cell in family.cells(n, key) if cell not in closed)
                if family.exactly_one or len(cells) > 1:
                    yield Line(f"{family.name}_{key}", cells, family.exactly_one)

    def leap_pairs(self) -> list[Line]:
        """Each pair of open cells joined by a leap, once, as an at-most-one group."""
        pairs: list[Line] = []
        if not self.variant.leaps:
            return pairs  # no need to visit n^2 cells
        for r, c in self.open_cells():
            for other in self._leap_targets(r, c):
                pairs.append(Line(f"leap_{r}_{c}_{other[0]}_{other[1]}", ((r, c), other), False))
        return pairs

    def groups(self) -> Iterator[Line]:
        """Every constraint of the board as a group of cells: lines, then leap pairs."""
        yield from self.lines()
        yield from self.leap_pairs()

    def open_cells(self) -> Iterator[Cell]:
        return ((r, c) for r in range(self.n) for c in range(self.n) if self.is_open(r, c))

    def _leap_targets(self, r: int, c: int) -> Iterator[Cell]:
        """Open cells in later rows that a queen on (r, c) attacks by a leap."""
        for dr, dc in self.variant.leaps:
            if self.is_open(r + dr, c + dc):
                yield r + dr, c + dc

    def leap_sources(self, r: int, c: int) -> list[Cell]:
        """Cells in earlier rows from which a leap attacks (r, c) (on the board)."""
        return [
            (r - dr, c - dc)
            for dr, dc in self.variant.leaps
            if 0 <= r - dr < self.n and 0 <= c - dc < self.n
        ]

    def line_ids(self, r: Any, c: Any) -> tuple[Any, ...]:
        """Ids of the column and diagonals through (r, c), numbered across families; on
        ints or on NumPy arrays of cells alike (``LineFamily.key``).

        A row-by-row search marks these in one lookup array (its own row is implied).
        """
        ids, base = [], 0
        for family in self.families[1:]:
            ids.append(base + family.key(self.n, r, c))
            base += family.size(self.n)
        return tuple(ids)

    def line_id_count(self) -> int:
        return sum(family.size(self.n) for family in self.families[1:])

    def attacks(self, a: Cell, b: Cell) -> bool:
        """True when queens on cells a and b (distinct) attack each other."""
        if a[0] == b[0] or self._keys(*a) & self._keys(*b):
            return True
        (r1, c1), (r2, c2) = sorted((a, b))
        return (r2 - r1, c2 - c1) in self.variant.leaps

    def attack_line(self, a: Cell, b: Cell) -> str | None:
        """How a queen on ``a`` attacks cell ``b``: the family of the line they share
        (``row``, ``col``, ``diag_up``, ``diag_down``), ``leap``, or None when it does not.

        For words, not speed: a trace says why a cell was refused ("attacked by row 1
        along a diagonal"); searches use ``attacks`` and ``attack_masks``.
        """
        for family in self.families:
            if family.key(self.n, *a) == family.key(self.n, *b):
                return family.name
        (r1, c1), (r2, c2) = sorted((a, b))
        return "leap" if (r2 - r1, c2 - c1) in self.variant.leaps else None

    def _keys(self, r: int, c: int) -> set[int]:
        """The line ids of a cell, memoised: cube and prefix generation ask for them often."""
        found = self._key_cache.get((r, c))
        if found is None:
            found = self._key_cache[(r, c)] = set(self.line_ids(r, c))
        return found

    def peaceful(self, cells: Sequence[Cell]) -> bool:
        """No two of ``cells`` attack each other and none is blocked."""
        return all(self.is_open(*cell) for cell in cells) and not any(
            self.attacks(a, b) for i, a in enumerate(cells) for b in cells[i + 1 :]
        )

    # -- searches -----------------------------------------------------------------------
    def allowed_masks(self) -> list[int]:
        """Per row, a bitmask of its open columns (bit c = column c)."""
        full = (1 << self.n) - 1
        masks = [full] * self.n
        for r, c in self.blocked:
            masks[r] &= ~(1 << c)
        return masks

    def attack_masks(self, r: int, c: int) -> list[int]:
        """Per row, the bitmask of cells a queen on (r, c) attacks (its own row: all others).

        Bit-parallel searches pin a queen by clearing these bits from their row masks (many
        times per cell when a count is split, hence the cache).
        """
        if (r, c) not in self._attack_cache:
            self._attack_cache[r, c] = tuple(self._attack_masks(r, c))
        return list(self._attack_cache[r, c])

    def pinned(self, allowed: list[int], cells: Iterable[Cell]) -> list[int] | None:
        """Row masks ``allowed`` with a queen pinned on each cell: its row keeps only its
        column and every cell it attacks closes; None when a cell is already closed."""
        masks = list(allowed)
        for r, c in cells:
            if not masks[r] >> c & 1:
                return None
            masks = [mask & ~hit for mask, hit in zip(masks, self.attack_masks(r, c), strict=True)]
            masks[r] = 1 << c
        return masks

    def _attack_masks(self, r: int, c: int) -> list[int]:
        n = self.n
        masks = [0] * n
        masks[r] = ((1 << n) - 1) & ~(1 << c)
        for row in range(n):
            for family in self.families:
                column = family.column_at(n, r, c, row)
                if column is not None and row != r:
                    masks[row] |= 1 << column
        for dr, dc in self.variant.leaps:
            for rr, cc in ((r + dr, c + dc), (r - dr, c - dc)):
                if 0 <= rr < n and 0 <= cc < n:
                    masks[rr] |= 1 << cc
        return masks

    @cached_property
    def _symmetries(self) -> tuple[Symmetry, ...]:
        return stabilizer(self.n, self.blocked, D4)

    def symmetries(self) -> tuple[Symmetry, ...]:
        """The maps of the square that send this board (blocked cells too) onto itself.

        Every variant here is invariant under the whole group of the square (a wrapped
        diagonal maps onto a wrapped diagonal, a knight's move onto a knight's move), so
        only the blocked cells can break a symmetry.
        """
        return self._symmetries

    # -- validity -----------------------------------------------------------------------
    def check(self, cols: Sequence[int] | np.ndarray) -> Verdict:
        """Everything wrong with a placement (one queen per row, ``cols[r]`` its column)."""
        n = self.n
        values = [int(c) for c in cols]
        off = tuple(r for r, c in enumerate(values) if not 0 <= c < n)
        if off or len(values) != n:
            return Verdict(n, off_board=off or (len(values),))
        blocked = tuple(r for r, c in enumerate(values) if (r, c) in self._blocked_set)
        seen: dict[tuple[str, int], list[int]] = {}
        for family in self.families[1:]:
            for r, c in enumerate(values):
                seen.setdefault((family.name, family.key(n, r, c)), []).append(r)
        pairs = {
            (a, b) for rows in seen.values() for i, a in enumerate(rows) for b in rows[i + 1 :]
        }
        for r, c in enumerate(values):
            pairs.update(
                (r, r + dr)
                for dr, dc in self.variant.leaps
                if r + dr < n and values[r + dr] == c + dc
            )
        return Verdict(n, tuple(sorted(pairs)), blocked)

    def is_valid(self, cols: Sequence[int] | np.ndarray) -> bool:
        """True when the placement breaks no rule; O(n), never builds the n x n board."""
        if len(cols) != self.n:
            return False
        if hasattr(cols, "dtype"):
            return self._array_is_valid(cast("np.ndarray", cols))
        return self._sequence_is_valid(list(map(int, cols)))

    def _sequence_is_valid(self, values: list[int]) -> bool:
        """n queens on the board's open cells, one on each line of every family, no leap
        between two.

        Enumerations validate every placement they stream, so this is the fast path: one
        set of line keys per family, built by C loops (``map``) on a plain board.
        """
        n = self.n
        if not 0 <= min(values) <= max(values) < n:
            return False
        if self._blocked_set and not self._blocked_set.isdisjoint(enumerate(values)):
            return False
        for family in self.families[1:]:
            # column weight +-1: queens share a line when c + slope * r is the same
            slope = family.row_weight * family.col_weight
            keys = map(operator.add, range(0, slope * n, slope), values) if slope else values
            if len({key % n for key in keys} if family.wraps else set(keys)) < n:
                return False
        return not any(
            r + dr < n and values[r + dr] == c + dc
            for dr, dc in self.variant.leaps
            for r, c in enumerate(values)
        )

    def _array_is_valid(self, cols: np.ndarray) -> bool:
        import numpy as np

        n = self.n
        if n >= KERNEL_FROM and not self.variant.leaps:
            from queenslab.boards.validate_kernel import first_clash

            clean = first_clash(np.ascontiguousarray(cols), self.variant.wraps) < 0
        else:
            clean = self._counts_are_clean(cols)
        return clean and not any(cols[r] == c for r, c in self.blocked)

    def _counts_are_clean(self, cols: np.ndarray) -> bool:
        import numpy as np

        n = self.n
        if n and (cols.min() < 0 or cols.max() >= n):
            return False
        rows = np.arange(n, dtype=np.int64)
        wide = cols.astype(np.int64, copy=False)
        for family in self.families[1:]:
            counts = np.bincount(family.key(n, rows, wide), minlength=family.size(n))
            if counts.max(initial=0) > 1:
                return False
        return not any(
            np.any(wide[dr:] - wide[:-dr] == dc) for dr, dc in self.variant.leaps if dr < n
        )
