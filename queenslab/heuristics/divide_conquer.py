"""Divide and conquer: a board of size n from boards of smaller sizes.

Three facts, each checked by the tests (tests/unit/test_heuristics.py):

1. Toroidal boards (no two queens share a diagonal even when the board wraps around)
   exist for every n with gcd(n, 6) = 1: ``c[i] = 2i mod n``. The product of toroidal A
   (size a) and B (size b), ``Q[b*i + j] = (b*A[i] + B[j]) mod ab``, is toroidal, so such
   a board is assembled from the tiles of the prime-power factors of n.
2. Block product: for ANY ordinary solution A (size a) and a toroidal B (size b),
   ``Q[b*i + j] = b*A[i] + B[j]`` (no wrap) is an ordinary solution of size ab. Two queens
   in different blocks could only share a diagonal if ``j - B[j]`` and ``j' - B[j']``
   differed by exactly b, which toroidal B forbids. (With an ordinary B this fails: see
   the test composing 8 x 9 x 10 that way.) Q keeps A's corner
   queen when B[0] = 0, and A's empty main diagonal.
3. Corners: removing a queen at (0, 0) with its row and column leaves a solution of size
   n - 1 whose main diagonal is empty; a solution with an empty main diagonal gains a
   queen at (0, 0) to give size n + 1. Toroidal boards c[i] = 2i have the corner queen.

Rules, tried in order (``plan``): toroidal (n coprime to 6, covers n = 1, 5 mod 6), drop
the corner of the toroidal n + 1 (n = 0, 4 mod 6), then block products and corner moves
over the factors of n coprime to 6, and boards of size <= 12 found by the textbook
backtracking (with a queen forced at (0, 0) when a corner is needed). n = 111 = 3 x 37
is built as: toroidal 23 -> drop corner -> 22 (empty diagonal) -> x 5 -> 110 -> add corner.

Not covered (``uncovered(10_000)`` lists all 189 below 10^4): 2, 3, 14, 15, 26, 27, 32, 33,
38, 74, 75, 86, 123, 128, ... -- all n = 2, 3 mod 6 whose factors do not help. Abramson and
Yung's construction is credited with everything but 2, 3, 8, 9, 14, 15, 26, 27, 38, 39;
this smaller rule set also misses e.g. 32, 33, 74. For n it does not cover, use the
``explicit`` backend.
"""

from __future__ import annotations

from functools import cache
from math import gcd
from types import MappingProxyType
from typing import TYPE_CHECKING

from queenslab.core.backend import Backend, Family, Task
from queenslab.core.errors import UsageError
from queenslab.core.kind import Question
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import SolveResult, Status
from queenslab.core.run import Run

if TYPE_CHECKING:
    import numpy as np

#: Boards up to this size come from backtracking; everything larger is composed.
BASE_LIMIT = 12

# A recipe is a nested tuple: ("torus", m) | ("search", m, corner) |
# ("block", recipe_a, b) | ("drop", recipe) | ("add", recipe).
Recipe = tuple


def toroidal_size(m: int) -> bool:
    """True when an m x m toroidal board exists (m = 1 or gcd(m, 6) = 1)."""
    return m == 1 or (m >= 5 and gcd(m, 6) == 1)


def _toroidal_factors(n: int) -> list[int]:
    """Divisors b >= 5 of n with a toroidal board, largest first (fewest levels)."""
    small = [d for d in range(1, int(n**0.5) + 1) if n % d == 0]
    divisors = set(small) | {n // d for d in small}
    return sorted((b for b in divisors if b >= 5 and toroidal_size(b)), reverse=True)


@cache
def _searched(m: int, corner: bool) -> tuple[int, ...] | None:
    """First board of size m (with a queen at (0, 0) when asked) by textbook backtracking."""
    from queenslab.exact.backtracking import search

    problem = Problem(m, givens=((0, 0),) if corner else ())
    return next(search(problem), None)


@cache
def _with_corner(m: int, may_add: bool = True) -> Recipe | None:
    """A recipe for a board of size m with a queen at (0, 0)."""
    if toroidal_size(m):
        return ("torus", m)
    if m <= BASE_LIMIT:
        return ("search", m, True) if _searched(m, True) else None
    for b in _toroidal_factors(m):
        inner = _with_corner(m // b)
        if inner:
            return ("block", inner, b)
    if may_add:
        free = _free_by_product(m - 1)
        return ("add", free) if free else None
    return None


@cache
def _free_by_product(k: int) -> Recipe | None:
    for b in _toroidal_factors(k):
        inner = _with_free_diagonal(k // b)
        if inner:
            return ("block", inner, b)
    return None


@cache
def _with_free_diagonal(k: int) -> Recipe | None:
    """A recipe for a board of size k with no queen on the main diagonal r == c."""
    corner = _with_corner(k + 1, may_add=False)
    return ("drop", corner) if corner else _free_by_product(k)


@cache
def plan(n: int) -> Recipe | None:
    """How to build a board of size n, or None when these rules do not cover n."""
    if n <= BASE_LIMIT:
        return ("search", n, False) if _searched(n, False) else None
    found = _with_corner(n) or _with_free_diagonal(n)
    if found:
        return found
    for b in _toroidal_factors(n):
        inner = plan(n // b)
        if inner:
            return ("block", inner, b)
    return None


def uncovered(limit: int) -> list[int]:
    """Every n < limit these rules cannot build."""
    return [n for n in range(1, limit) if plan(n) is None]


def describe(recipe: Recipe) -> str:
    """A readable formula, e.g. ``add(block(drop(torus 23) x 5))``."""
    kind = recipe[0]
    if kind == "torus":
        return f"torus {recipe[1]}"
    if kind == "search":
        return f"backtrack {recipe[1]}" + (" with corner" if recipe[2] else "")
    if kind == "block":
        return f"block({describe(recipe[1])} x torus {recipe[2]})"
    return f"{kind}({describe(recipe[1])})"


def torus(m: int) -> np.ndarray:
    """Toroidal board of size m as the product of the tiles 2i mod p^e of its factors."""
    import numpy as np

    board = np.zeros(1, dtype=np.int64)
    rest = m
    p = 5
    while rest > 1:
        if p * p > rest:
            p = rest
        power = 1
        while rest % p == 0:
            rest //= p
            power *= p
        if power > 1:
            board = torus_product(board, 2 * np.arange(power, dtype=np.int64) % power)
        p += 2 if p % 6 == 5 else 4  # only numbers = 1, 5 mod 6 can divide m
    return board


def torus_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``Q[b*i + j] = (b*A[i] + B[j]) mod ab``: toroidal when A and B are."""
    size = len(a) * len(b)
    return ((len(b) * a[:, None] + b[None, :]) % size).ravel()


def block_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``Q[b*i + j] = b*A[i] + B[j]``: a solution when A is one and B is toroidal."""
    return (len(b) * a[:, None] + b[None, :]).ravel()


def build(recipe: Recipe) -> np.ndarray:
    import numpy as np

    kind = recipe[0]
    if kind == "torus":
        return torus(recipe[1])
    if kind == "search":
        return np.array(_searched(recipe[1], recipe[2]), dtype=np.int64)
    if kind == "block":
        return block_product(build(recipe[1]), torus(recipe[2]))
    inner = build(recipe[1])
    if kind == "drop":  # the queen at (0, 0) goes with its row and column
        return inner[1:] - 1
    return np.concatenate(([0], inner + 1))  # "add": a queen at (0, 0)


class DivideConquerBackend(Backend):
    name = "divide-conquer"
    family = Family.HEURISTIC
    tasks = MappingProxyType({"placement": frozenset({Task.SOLVE})})
    summary = "construction from toroidal tiles, block products and corner moves"

    def solve(self, problem: Problem, run: Run, question: Question) -> SolveResult:
        import numpy as np

        recipe = plan(problem.n)
        if recipe is None:
            raise UsageError(
                f"divide-conquer does not cover n={problem.n}; use the explicit backend"
            )
        board = build(recipe)
        dtype = np.int32 if problem.n < 2**31 else np.int64
        return SolveResult(
            Status.SOLVED, Placement(board.astype(dtype)), stats={"recipe": describe(recipe)}
        )
