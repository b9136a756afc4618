"""What a caller asks: the board size, queens already placed, a seed and limits."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from queenslab.errors import UsageError

MAX_N = 10**9


@dataclass(frozen=True)
class Problem:
    """An N-queens instance; given queens are checked here, before any search.

    ``givens`` are (row, col) pairs that every answer must contain. ``seed`` drives all
    randomness; ``time_limit`` (seconds) bounds the search.
    """

    n: int
    givens: tuple[tuple[int, int], ...] = ()
    seed: int | None = None
    time_limit: float | None = None

    def __post_init__(self) -> None:
        if isinstance(self.n, bool) or not isinstance(self.n, int):
            raise UsageError(f"n must be an integer, got {self.n!r}")
        if not 1 <= self.n <= MAX_N:
            raise UsageError(f"n must be between 1 and {MAX_N}, got {self.n}")
        if self.time_limit is not None and not self.time_limit > 0:
            raise UsageError(f"time limit must be positive, got {self.time_limit}")
        givens = tuple(sorted((int(r), int(c)) for r, c in self.givens))
        object.__setattr__(self, "givens", givens)
        check_givens(self.n, givens)

    @property
    def given_cols(self) -> dict[int, int]:
        """Row -> column of each given queen."""
        return dict(self.givens)

    def keeps_givens(self, cols: Sequence[int]) -> bool:
        """True when a placement (anything indexable by row) has every given queen."""
        return len(cols) == self.n and all(cols[r] == c for r, c in self.givens)


def check_givens(n: int, givens: Iterable[tuple[int, int]]) -> None:
    """Reject queens off the board, two in one row, or two that attack each other."""
    seen: list[tuple[int, int]] = []
    for r, c in givens:
        if not (0 <= r < n and 0 <= c < n):
            raise UsageError(f"given queen {r}:{c} is off the {n}x{n} board")
        for r2, c2 in seen:
            if r == r2 and c == c2:
                raise UsageError(f"given queen {r}:{c} is listed twice")
            if r == r2 or c == c2 or abs(r - r2) == abs(c - c2):
                raise UsageError(f"given queens {r2}:{c2} and {r}:{c} attack each other")
        seen.append((r, c))


def parse_given(text: str) -> tuple[int, int]:
    """Parse ``R:C`` (0-based row and column)."""
    parts = text.split(":")
    if len(parts) != 2 or not all(p.strip().lstrip("-").isdigit() for p in parts):
        raise UsageError(f"given queen must look like ROW:COL, got {text!r}")
    return int(parts[0]), int(parts[1])
