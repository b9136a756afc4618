"""Divide and conquer: a board of size n from boards of smaller sizes, for every n >= 4.

Four facts, each checked by the tests (tests/unit/test_heuristics.py):

1. Toroidal boards (no two queens share a diagonal even when the board wraps around)
   exist for every n with gcd(n, 6) = 1: ``c[i] = 2i mod n``. The block product (fact 2)
   of toroidal A and B, ``Q[b*i + j] = b*A[i] + B[j]``, is toroidal (its columns stay
   below ab, so no wrap is needed), so such a board is assembled from the tiles of the
   prime-power factors of n.
2. Block product: for ANY ordinary solution A (size a) and a toroidal B (size b),
   ``Q[b*i + j] = b*A[i] + B[j]`` (no wrap) is an ordinary solution of size ab. Two queens
   in different blocks could only share a diagonal if ``j - B[j]`` and ``j' - B[j']``
   differed by exactly b, which toroidal B forbids. (With an ordinary B this fails: see
   the test composing 8 x 9 x 10 that way.) Q keeps A's corner queen when B[0] = 0, and
   A's empty main diagonal.
3. Corners: removing a queen at (0, 0) with its row and column leaves a solution of size
   n - 1 whose main diagonal is empty; a solution with an empty main diagonal gains a
   queen at (0, 0) to give size n + 1. Toroidal boards c[i] = 2i have the corner queen.
4. Patch (Abramson and Yung's general solution): in the block product of A (size a, a
   queen at (0, 0)) with the tile ``T[s] = 2s mod b``, shrink the top-left block to any
   solution C of size c <= (b + 1) / 2. The board, of size (a - 1)b + c, is a solution: the
   other blocks keep their distances to each other, and a queen of C (``|r - C[r]| < c``)
   could only meet one of a block on a diagonal next to A's main one, whose queens have
   ``|r - col| >= b - (b - 1) / 2 = (b + 1) / 2`` (``|s - T[s]| <= (b - 1) / 2``). C's
   corner queen or empty main diagonal carries over to the board.

Rules, tried in order (``plan``): toroidal (n = 1, 5 mod 6), drop the corner of the
toroidal n + 1 (n = 0, 4 mod 6); for n = 2, 3 mod 6 block products and corner moves over
the factors of n coprime to 6, then the patch, with b from about sqrt(n) up: n mod b must
be 1 or in [4, (b + 1) / 2], which about half the b near sqrt(n) give. The inner boards
follow the same rules. Boards of size <= 12 and the six larger sizes no rule reaches
(``SEARCHED``) come from a tiny exact search. n = 111 = 3 x 37 is built as: toroidal 11 ->
drop corner -> 10 (empty diagonal) -> x 11 -> 110 -> add corner; n = 86 as the torus 5
times the tile 19, its top-left block shrunk to a 10-board. Every step is a few NumPy
passes over the board: linear in n, no search beyond the base boards.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import closing
from functools import cache
from itertools import chain
from math import gcd, isqrt
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from queenslab.core.backend import Backend, Family, Task
from queenslab.core.errors import UsageError
from queenslab.core.kind import Question
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import SolveResult, Status
from queenslab.core.run import Run

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import DTypeLike

#: Boards up to this size come from the search; everything larger is composed.
BASE_LIMIT = 12
#: The sizes above BASE_LIMIT that no rule composes (the test checks there are no others);
#: Abramson and Yung's own list of exceptions is 8, 9, 14, 15, 26, 27, 38, 39.
SEARCHED = frozenset({14, 15, 26, 27, 33, 38})

# A recipe is a nested tuple: ("torus", m) | ("search", m, corner) |
# ("block", recipe_a, b) | ("drop", recipe) | ("add", recipe) |
# ("patch", recipe_a, b, recipe_c).
Recipe = tuple[Any, ...]


def toroidal_size(m: int) -> bool:
    """True when an m x m toroidal board exists (m = 1 or gcd(m, 6) = 1)."""
    return m == 1 or (m >= 5 and gcd(m, 6) == 1)


def _toroidal_factors(n: int) -> list[int]:
    """Divisors b >= 5 of n with a toroidal board, largest first (fewest levels)."""
    small = [d for d in range(1, isqrt(n) + 1) if n % d == 0]
    divisors = set(small) | {n // d for d in small}
    return sorted((b for b in divisors if b >= 5 and toroidal_size(b)), reverse=True)


@cache
def _searched(m: int, corner: bool) -> tuple[int, ...] | None:
    """A board of size m (with a queen at (0, 0) when asked), or None when there is none.

    Forward checking with the row of fewest columns first: each base board takes a few
    hundred nodes (38 queens: 143), where plain backtracking needs seconds from 26 on.
    """
    from queenslab.exact.csp import CspSearch, Strategy

    problem = Problem(m, givens=((0, 0),) if corner else ())
    search = CspSearch(problem, Strategy(inference="forward-checking", variables="mrv"))
    with closing(search.solutions()) as boards:
        return next(boards, None)


def _base(m: int, corner: bool) -> Recipe | None:
    """A searched base board, for the sizes up to BASE_LIMIT and those in SEARCHED only."""
    if m > BASE_LIMIT and m not in SEARCHED:
        return None
    return ("search", m, corner) if _searched(m, corner) else None


@cache
def _with_corner(m: int, may_add: bool = True) -> Recipe | None:
    """A recipe for a board of size m with a queen at (0, 0)."""
    if toroidal_size(m):
        return ("torus", m)
    if m <= BASE_LIMIT:
        return _base(m, True)
    for b in _toroidal_factors(m):
        inner = _with_corner(m // b)
        if inner:
            return ("block", inner, b)
    free = _free_by_product(m - 1) if may_add else None
    return ("add", free) if free else _patched(m, _with_corner) or _base(m, True)


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
    if corner:
        return ("drop", corner)
    return _free_by_product(k) or _patched(k, _with_free_diagonal)


def _patched(n: int, inner: Callable[[int], Recipe | None]) -> Recipe | None:
    """Fact 4: n = (a - 1)b + c, the top-left block of size c built by ``inner``.

    b runs up from about sqrt(n) (two levels of nearly equal sizes), then down to 5.
    """
    start = max(5, isqrt(n))
    for b in chain(range(start, n // 4 + 1), range(start - 1, 4, -1)):
        rows, c = divmod(n, b)
        if not toroidal_size(b) or not (c == 1 or 4 <= c <= (b + 1) // 2):
            continue
        outer = _with_corner(rows + 1)
        top_left = outer and inner(c)
        if top_left:
            return ("patch", outer, b, top_left)
    return None


@cache
def plan(n: int) -> Recipe | None:
    """How to build a board of size n; None only for n = 2 and 3, which have none."""
    if n <= BASE_LIMIT:
        return _base(n, False)
    if toroidal_size(n):
        return ("torus", n)
    if toroidal_size(n + 1):
        return ("drop", ("torus", n + 1))
    found = _with_corner(n) or _with_free_diagonal(n)
    if found:
        return found
    for b in _toroidal_factors(n):
        inner = plan(n // b)
        if inner:
            return ("block", inner, b)
    return _patched(n, plan) or _base(n, False)


def describe(recipe: Recipe) -> str:
    """A readable formula, e.g. ``add(block(drop(torus 11) x torus 11))``."""
    kind = recipe[0]
    if kind == "torus":
        return f"torus {recipe[1]}"
    if kind == "search":
        return f"search {recipe[1]}" + (" with corner" if recipe[2] else "")
    if kind == "block":
        return f"block({describe(recipe[1])} x torus {recipe[2]})"
    if kind == "patch":
        return f"patch({describe(recipe[1])} x tile {recipe[2]}, top-left {describe(recipe[3])})"
    return f"{kind}({describe(recipe[1])})"


def tile(m: int, dtype: DTypeLike = int) -> np.ndarray:
    """The toroidal board ``2i mod m`` (m coprime to 6): every ``|i - c[i]| <= (m - 1) / 2``."""
    import numpy as np

    board: np.ndarray = np.arange(m, dtype=dtype)
    board *= 2
    board[(m + 1) // 2 :] -= m  # the wrap, without a modulo over the whole board
    return board


def torus(m: int, dtype: DTypeLike = int) -> np.ndarray:
    """Toroidal board of size m as the product of the tiles 2i mod p^e of its factors."""
    import numpy as np

    board: np.ndarray = np.zeros(1, dtype=dtype)
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
            board = block_product(board, tile(power, dtype))
        p += 2 if p % 6 == 5 else 4  # only numbers = 1, 5 mod 6 can divide m
    return board


def block_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``Q[b*i + j] = b*A[i] + B[j]``: a solution when A is one and B is toroidal (fact 2),
    toroidal when both are (fact 1)."""
    product: np.ndarray = (len(b) * a[:, None] + b[None, :]).ravel()
    return product


def patch(a: np.ndarray, b: int, c: np.ndarray) -> np.ndarray:
    """Fact 4: A (queen at (0, 0)) times the tile of size b, its top-left block C."""
    import numpy as np

    rest = tile(b, a.dtype)
    board = np.empty((len(a) - 1) * b + len(c), dtype=a.dtype)
    board[: len(c)] = c
    body = board[len(c) :].reshape(len(a) - 1, b)
    np.add(b * (a[1:, None] - 1) + len(c), rest[None, :], out=body)
    return board


def build(recipe: Recipe, dtype: DTypeLike = int) -> np.ndarray:
    """The board of a recipe, its columns in ``dtype`` (int32 halves the memory)."""
    import numpy as np

    kind = recipe[0]
    if kind == "torus":
        return torus(recipe[1], dtype)
    if kind == "search":
        return np.array(_searched(recipe[1], recipe[2]), dtype=dtype)
    if kind == "block":
        return block_product(build(recipe[1], dtype), torus(recipe[2], dtype))
    if kind == "patch":
        return patch(build(recipe[1], dtype), recipe[2], build(recipe[3], dtype))
    inner = build(recipe[1], dtype)
    if kind == "drop":  # the queen at (0, 0) goes with its row and column
        inner -= 1
        return inner[1:]
    board: np.ndarray = np.empty(len(inner) + 1, dtype=dtype)  # "add": a queen at (0, 0)
    board[0] = 0
    np.add(inner, 1, out=board[1:])
    return board


class DivideConquerBackend(Backend):
    name = "divide-conquer"
    family = Family.HEURISTIC
    tasks = MappingProxyType({"placement": frozenset({Task.SOLVE})})
    summary = "construction from toroidal tiles, block products, corner moves and patches"

    def solve(self, problem: Problem, run: Run, question: Question) -> SolveResult:
        import numpy as np

        recipe = plan(problem.n)
        if recipe is None:
            raise UsageError(f"no board exists for n = {problem.n} (n = 2 and 3 have none)")
        # every column and every sum a step forms stays below 2n: int32 up to 2^30
        board = build(recipe, np.int32 if problem.n < 2**30 else np.int64)
        return SolveResult(Status.SOLVED, Placement(board), stats={"recipe": describe(recipe)})
