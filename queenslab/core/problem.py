"""What a caller asks about: the board size, its variant, blocked cells and given queens.

How to search (seed, time limit) is not part of the problem; it travels in a ``Run``.
Everything a problem says is checked here, before any search: a bad instance is a one-line
UsageError, never a search over a board that cannot exist.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from queenslab.boards import DEFAULT_VARIANT, Board, Cell, UnknownVariant, board, variant
from queenslab.core.errors import UsageError
from queenslab.core.integers import integer

MAX_N = 10**9


@dataclass(frozen=True)
class Problem:
    """An N-queens instance.

    ``givens`` are (row, col) queens that every answer must contain; ``blocked`` are cells
    that may not hold a queen; ``variant`` names the rule of attack (see ``boards``).
    """

    n: int
    givens: tuple[Cell, ...] = ()
    variant: str = DEFAULT_VARIANT
    blocked: tuple[Cell, ...] = ()
    #: The question asked of the board (``queenslab.problems``): placement is n queens.
    kind: str = "placement"

    def __post_init__(self) -> None:
        object.__setattr__(self, "n", integer(self.n, "n", 1, MAX_N))
        try:
            variant(self.variant)
        except UnknownVariant as exc:
            raise UsageError(str(exc)) from None
        object.__setattr__(self, "blocked", _cells(self.n, self.blocked, "blocked cell"))
        object.__setattr__(self, "givens", _cells(self.n, self.givens, "given queen"))
        _check_givens(self.board, self.givens)

    @cached_property
    def board(self) -> Board:
        return board(self.n, self.variant, self.blocked)

    @property
    def given_cols(self) -> dict[int, int]:
        """Row -> column of each given queen."""
        return dict(self.givens)

    def row_masks(self) -> list[int] | None:
        """Per row, the columns a queen may take (bit c = column c): open cells, with the
        given queens pinned (see ``Board.pinned``); None when the givens close a cell."""
        return self.board.pinned(self.board.allowed_masks(), self.givens)

    @property
    def is_classic(self) -> bool:
        """The plain N-queens board: standard rules, no blocked cell (givens allowed)."""
        return self.variant == DEFAULT_VARIANT and not self.blocked

    def keeps_givens(self, cols: Sequence[int]) -> bool:
        """True when a placement (anything indexable by row) has every given queen."""
        return len(cols) == self.n and all(cols[r] == c for r, c in self.givens)

    def with_givens(self, queens: Iterable[Cell]) -> Problem:
        """The same board with more queens placed in advance (a cube of a split search)."""
        return Problem(self.n, (*self.givens, *queens), self.variant, self.blocked, self.kind)

    def describe(self) -> str:
        """A short label, e.g. ``n=8 toroidal, 2 blocked, givens 0:1``."""
        parts = [f"n={self.n}" + ("" if self.variant == DEFAULT_VARIANT else f" {self.variant}")]
        if self.blocked:
            parts.append(f"{len(self.blocked)} blocked")
        if self.givens:
            parts.append("givens " + " ".join(f"{r}:{c}" for r, c in self.givens))
        return ", ".join(parts)


def _cells(n: int, cells: Iterable[Cell], what: str) -> tuple[Cell, ...]:
    """Cells as sorted (int, int) pairs, each on the board and listed once."""
    seen: set[Cell] = set()
    for cell in cells:
        try:
            r, c = (integer(x, what) for x in cell)
        except (TypeError, ValueError):  # not a pair, or not of integers (the UsageError)
            raise UsageError(
                f"{what} must be a (row, col) pair of integers, got {cell!r}"
            ) from None
        if not (0 <= r < n and 0 <= c < n):
            raise UsageError(f"{what} {r}:{c} is off the {n}x{n} board")
        if (r, c) in seen:
            raise UsageError(f"{what} {r}:{c} is listed twice")
        seen.add((r, c))
    return tuple(sorted(seen))


def _check_givens(board: Board, givens: tuple[Cell, ...]) -> None:
    """Reject given queens on blocked cells or attacking each other under the variant."""
    for i, (r, c) in enumerate(givens):
        if not board.is_open(r, c):
            raise UsageError(f"given queen {r}:{c} is on a blocked cell")
        for r2, c2 in givens[:i]:
            if board.attacks((r2, c2), (r, c)):
                raise UsageError(f"given queens {r2}:{c2} and {r}:{c} attack each other")
