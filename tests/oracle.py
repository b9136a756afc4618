"""A deliberately naive checker, sharing no code with queenslab.

Pairwise O(n^2) attack tests written out for each variant, and brute force over
permutations: slow, obvious, independent of the board layer it checks.
"""

from __future__ import annotations

from functools import cache
from itertools import permutations

VARIANTS = ("standard", "toroidal", "superqueens")


def attack(n: int, variant: str, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Do queens on cells a and b attack each other on an n x n board of ``variant``?"""
    (r1, c1), (r2, c2) = a, b
    dr, dc = r2 - r1, c2 - c1
    if dr == 0 or dc == 0:
        return True
    if variant == "toroidal":
        return (dr - dc) % n == 0 or (dr + dc) % n == 0
    if abs(dr) == abs(dc):
        return True
    if variant == "superqueens":
        return sorted((abs(dr), abs(dc))) == [1, 2]
    return False


def is_solution(cols, n: int, variant: str = "standard", blocked=()) -> bool:
    """True when ``cols`` places n queens on open cells, none attacking another."""
    cols = [int(c) for c in cols]
    if len(cols) != n or any(c < 0 or c >= n for c in cols):
        return False
    if any((r, c) in set(blocked) for r, c in enumerate(cols)):
        return False
    return not any(
        attack(n, variant, (i, cols[i]), (j, cols[j])) for i in range(n) for j in range(i + 1, n)
    )


def all_solutions(
    n: int, givens=(), variant: str = "standard", blocked=()
) -> list[tuple[int, ...]]:
    """Every solution keeping the given (row, col) queens, by brute force (n <= 9).

    Answers are cached for the test run: the harness asks the same boards of every backend.
    """
    key = (tuple(sorted(map(tuple, givens))), tuple(sorted(map(tuple, blocked))))
    return list(_all_solutions(n, *key, variant))


@cache
def _all_solutions(n: int, givens, blocked, variant: str) -> tuple[tuple[int, ...], ...]:
    fixed = dict(givens)
    return tuple(
        perm
        for perm in permutations(range(n))
        if all(perm[r] == c for r, c in fixed.items()) and is_solution(perm, n, variant, blocked)
    )


def best_weight(n: int, weights, variant: str = "standard", blocked=()) -> int | None:
    """Brute-force maximum of the total weight on the occupied cells (None: no solution)."""
    totals = [
        sum(int(weights[r][c]) for r, c in enumerate(p))
        for p in all_solutions(n, (), variant, blocked)
    ]
    return max(totals) if totals else None


_MAPS = [
    lambda n, r, c: (r, c),
    lambda n, r, c: (c, n - 1 - r),
    lambda n, r, c: (n - 1 - r, n - 1 - c),
    lambda n, r, c: (n - 1 - c, r),
    lambda n, r, c: (r, n - 1 - c),
    lambda n, r, c: (n - 1 - r, c),
    lambda n, r, c: (c, r),
    lambda n, r, c: (n - 1 - c, n - 1 - r),
]


def images(cols, blocked=None) -> list[tuple[int, ...]]:
    """The images under the 8 symmetries of the square, computed cell by cell.

    With ``blocked`` (a collection of cells), only the symmetries mapping it onto itself.
    """
    n = len(cols)
    out = []
    for f in _MAPS:
        if blocked is not None and {f(n, r, c) for r, c in blocked} != set(blocked):
            continue
        board = [0] * n
        for r, c in enumerate(cols):
            r2, c2 = f(n, r, c)
            board[r2] = c2
        out.append(tuple(board))
    return out


def cell_images(n: int, cells) -> list[tuple[tuple[int, int], ...]]:
    """The images of a set of cells under the 8 symmetries of the square, each sorted."""
    return [tuple(sorted(f(n, r, c) for r, c in cells)) for f in _MAPS]


def unique_count(n: int, variant: str = "standard", blocked=()) -> int:
    """Classes of solutions under the symmetries that keep the blocked cells in place."""
    classes = {min(images(p, set(blocked))) for p in all_solutions(n, (), variant, blocked)}
    return len(classes)


def tree_profile(n: int, variant: str = "standard", blocked=()) -> list[int]:
    """Consistent placements of the first d rows, for each d = 0..n.

    These are the nodes at depth d of the textbook backtracking tree. Every consistent
    placement of d + 1 rows extends a consistent one of d rows (attacks are pairwise), so
    each level is the previous one extended by every column, checked against every queen.
    """
    closed = set(blocked)
    level: list[tuple[int, ...]] = [()]
    profile = [1]
    for row in range(n):
        level = [
            (*prefix, c)
            for prefix in level
            for c in range(n)
            if (row, c) not in closed
            and not any(attack(n, variant, (r, prefix[r]), (row, c)) for r in range(row))
        ]
        profile.append(len(level))
    return profile
