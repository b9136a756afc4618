"""A deliberately naive checker, sharing no code with queenslab.placement.

Pairwise O(n^2) checks and brute force over permutations: slow, obvious, independent.
"""

from __future__ import annotations

from itertools import permutations


def is_solution(cols, n: int) -> bool:
    """True when ``cols`` places n queens on an n x n board, none attacking another."""
    cols = [int(c) for c in cols]
    if len(cols) != n or any(c < 0 or c >= n for c in cols):
        return False
    for i in range(n):
        for j in range(i + 1, n):
            if cols[i] == cols[j] or abs(cols[i] - cols[j]) == j - i:
                return False
    return True


def all_solutions(n: int, givens=()) -> list[tuple[int, ...]]:
    """Every solution keeping the given (row, col) queens, by brute force (n <= 9)."""
    fixed = dict(givens)
    return [
        perm
        for perm in permutations(range(n))
        if all(perm[r] == c for r, c in fixed.items()) and is_solution(perm, n)
    ]


def best_weight(n: int, weights) -> int:
    """Brute-force maximum of the total weight on the occupied cells."""
    return max(sum(int(weights[r][c]) for r, c in enumerate(p)) for p in all_solutions(n))


def images(cols) -> list[tuple[int, ...]]:
    """The 8 symmetric images, computed cell by cell on (row, col) coordinates."""
    n = len(cols)
    cells = [(r, c) for r, c in enumerate(cols)]
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (c, n - 1 - r),
        lambda r, c: (n - 1 - r, n - 1 - c),
        lambda r, c: (n - 1 - c, r),
        lambda r, c: (r, n - 1 - c),
        lambda r, c: (n - 1 - r, c),
        lambda r, c: (c, r),
        lambda r, c: (n - 1 - c, n - 1 - r),
    ]
    out = []
    for f in maps:
        board = [0] * n
        for r, c in cells:
            r2, c2 = f(r, c)
            board[r2] = c2
        out.append(tuple(board))
    return out
