"""The n-queens solutions that can be colour classes of a colouring kept by a group of
permutations of the board's cells, one per orbit, compiled.

A colouring whose set of classes a group G maps onto itself is made of whole orbits of
solutions, and an orbit can be part of it only when its members are solutions and its
distinct members are pairwise disjoint: ``representatives`` enumerates the solutions
(bitwise backtracking, row by row) and keeps a solution s when every image gs is a
solution, s is the lexicographically least of them, and s is disjoint from each image
that differs from it (gs and hs meet exactly where g maps s ∩ g⁻¹hs, so this covers
every pair).

G need not preserve the queens graph: besides the square's symmetries (``SYMMETRIES``)
it may translate the board cyclically (``permutation``'s ``shift``), which maps a
solution to a placement that is a solution only sometimes, hence the first test.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from queenslab.compiled.jit import njit

Cell = tuple[int, int]
#: The square's symmetries as maps of (n, r, c) to the image cell.
SYMMETRIES: dict[str, Callable[[int, int, int], Cell]] = {
    "rot90": lambda n, r, c: (c, n - 1 - r),
    "rot180": lambda n, r, c: (n - 1 - r, n - 1 - c),
    "mirror-columns": lambda n, r, c: (r, n - 1 - c),
    "mirror-rows": lambda n, r, c: (n - 1 - r, c),
    "transpose": lambda n, r, c: (c, r),
    "anti-transpose": lambda n, r, c: (n - 1 - c, n - 1 - r),
}


def permutation(n: int, name: str) -> np.ndarray:
    """A generator by name, as the image of each cell (numbered r * n + c): a symmetry of
    ``SYMMETRIES``, or ``shift:a:b``, which moves cell (r, c) to (r + a, c + b) cyclically
    (a translation of the torus)."""
    kind, _, steps = name.partition(":")
    if kind in SYMMETRIES:
        move = SYMMETRIES[kind]
    elif kind == "shift" and len(steps.split(":")) == 2:
        a, b = (int(step) for step in steps.split(":"))
        move = lambda n, r, c: ((r + a) % n, (c + b) % n)  # noqa: E731
    else:
        raise ValueError(f"no cell permutation named {name!r}")
    images = [move(n, r, c) for r in range(n) for c in range(n)]
    return np.array([r * n + c for r, c in images], dtype=np.int64)


def group(n: int, generators: Sequence[str]) -> np.ndarray:
    """The group the named permutations generate (the identity first), one row each."""
    identity = np.arange(n * n, dtype=np.int64)
    members = {identity.tobytes(): identity}
    frontier = [identity]
    moves = [permutation(n, name) for name in generators]
    while frontier:
        new = []
        for member in frontier:
            for move in moves:
                product = move[member]
                if product.tobytes() not in members:
                    members[product.tobytes()] = product
                    new.append(product)
        frontier = new
    return np.array(list(members.values()))


@njit(cache=True)
def _kept(cols, maps, other, lines):
    """Whether ``cols`` is kept (module docstring); ``other`` and ``lines`` are scratch."""
    n = cols.shape[0]
    for g in range(1, maps.shape[0]):
        lines[:] = 0
        for r in range(n):
            cell = maps[g, r * n + cols[r]]
            r2, c2 = cell // n, cell % n
            if lines[r2] or lines[n + c2] or lines[2 * n + r2 + c2] or lines[5 * n + r2 - c2]:
                return False  # the image is no solution
            lines[r2] = lines[n + c2] = lines[2 * n + r2 + c2] = lines[5 * n + r2 - c2] = 1
            other[r2] = c2
        same, less, decided, meets = True, False, False, False
        for r in range(n):
            if other[r] != cols[r]:
                same = False
                if not decided:
                    less, decided = other[r] < cols[r], True
            else:
                meets = True
        if not same and (less or meets):
            return False
    return True


@njit(cache=True)
def _enumerate(n, maps, first, out):
    """Every solution kept (``_kept``) whose first queen is in ``first`` (a bit set of
    columns) into ``out`` while it has room; their number."""
    full = (1 << n) - 1
    cols = np.zeros(n, dtype=np.int64)
    other = np.zeros(n, dtype=np.int64)
    lines = np.zeros(7 * n, dtype=np.int64)
    free = np.zeros(n + 1, dtype=np.int64)
    left = np.zeros(n + 1, dtype=np.int64)
    right = np.zeros(n + 1, dtype=np.int64)
    down = np.zeros(n + 1, dtype=np.int64)
    found = 0
    row = 0
    free[0] = first
    while row >= 0:
        options = free[row]
        if options == 0:
            row -= 1
            continue
        bit = options & -options
        free[row] = options ^ bit
        cols[row] = _index(bit)
        if row == n - 1:
            if _kept(cols, maps, other, lines):
                if found < out.shape[0]:
                    out[found, :] = cols
                found += 1
            continue
        down[row + 1] = down[row] | bit
        left[row + 1] = ((left[row] | bit) << 1) & full
        right[row + 1] = (right[row] | bit) >> 1
        free[row + 1] = full & ~(down[row + 1] | left[row + 1] | right[row + 1])
        row += 1
    return found


@njit(cache=True)
def _index(bit):
    """The position of the one bit set in ``bit``."""
    index = 0
    while bit > 1:
        bit >>= 1
        index += 1
    return index


def representatives(n: int, maps: np.ndarray) -> np.ndarray:
    """The kept solutions (module docstring) of the n x n board under the group ``maps``
    (``group``), as columns row by row, one array row each."""
    if not 1 <= n <= 30:
        raise ValueError(f"representatives handles 1 <= n <= 30, got {n}")
    first = (1 << n) - 1
    mirror = permutation(n, "mirror-columns")
    if any(np.array_equal(m, mirror) for m in maps):  # the least starts in the left half
        first = (1 << ((n + 1) // 2)) - 1
    room = 1 << 16
    while True:
        out = np.zeros((room, n), dtype=np.int8)
        found = _enumerate(n, maps, first, out)
        if found <= room:
            return out[:found]
        room = found


@njit(cache=True)
def _misses(kept, maps, starts, on, lines):
    """``misses``, compiled: the lines through each cell are ``on[starts[cell] :
    starts[cell + 1]]``, so an image costs its queens' lines, not every line's cells. Row
    0's queen tells the distinct images apart, since two distinct images of a kept
    solution are disjoint."""
    m, n = kept.shape
    out = np.zeros((m, lines), dtype=np.int64)
    firsts = np.zeros(maps.shape[0], dtype=np.int64)
    hit = np.zeros(lines, dtype=np.int64)
    for k in range(m):
        seen = 0
        for g in range(maps.shape[0]):
            first = -1
            for r in range(n):
                cell = maps[g, r * n + kept[k, r]]
                if cell // n == 0:
                    first = cell
            new = True
            for j in range(seen):
                if firsts[j] == first:
                    new = False
            if not new:
                continue
            firsts[seen] = first
            seen += 1
            hit[:] = 0
            for r in range(n):
                cell = maps[g, r * n + kept[k, r]]
                for i in range(starts[cell], starts[cell + 1]):
                    hit[on[i]] = 1
            for line in range(lines):
                out[k, line] += 1 - hit[line]
    return out


def misses(kept: np.ndarray, maps: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """For each kept solution (``representatives``) and each line (a row of ``lines``, a
    mask over the cells), how many of its distinct images under ``maps`` miss the line."""
    cell, line = np.nonzero(np.asarray(lines, dtype=bool).T)  # by cell, then line
    starts = np.zeros(lines.shape[1] + 1, dtype=np.int64)
    starts[1:] = np.cumsum(np.bincount(cell, minlength=lines.shape[1]))
    return _misses(kept.astype(np.int64), maps, starts, line.astype(np.int64), len(lines))


def orbit_of_cells(maps: np.ndarray) -> np.ndarray:
    """Each cell's orbit under the group ``maps``, numbered from 0 in order of first cell."""
    number = np.full(maps.shape[1], -1, dtype=np.int64)
    count = 0
    for cell in range(maps.shape[1]):
        if number[cell] < 0:
            number[maps[:, cell]] = count
            count += 1
    return number


def images(cols: Sequence[int], maps: np.ndarray) -> list[tuple[int, ...]]:
    """The distinct images of a solution under the group ``maps``, itself first."""
    n = len(cols)
    found: list[tuple[int, ...]] = []
    for move in maps:
        other = [0] * n
        for r, c in enumerate(cols):
            other[move[r * n + c] // n] = int(move[r * n + c] % n)
        if tuple(other) not in found:
            found.append(tuple(other))
    return found
