"""Random hard instances: the generators of Gent, Jefferson and Nightingale (JAIR 2017).

Three kinds, each drawn from ``random.Random(seed)`` in the same order as the authors'
scripts published with CSPLib problems 079 and 080, so one seed gives one instance:

- ``blocked`` (prob080, ``blocked-gen.py``): shuffle every cell of the board and walk the
  order, blocking a cell while its row and its column both keep more than ``min_open``
  open cells, until ``round(density * n²)`` cells are blocked.
- ``excluded-diagonals`` (prob079, ``queens-diag-gen.py``): shuffle the sum diagonals and
  the difference diagonals apart; pick a direction at random while both lists last and
  exclude the next diagonal of it unless that would leave a row or column with fewer than
  ``min_open`` open cells. That gives an ordered list of diagonals; an instance takes its
  first ``round(density * n)`` of them and blocks every cell on them.
- ``completion`` (prob079, ``queens-gen-fast.py``): up to n² times, draw a free row and a
  free column at random and place a queen there when no placed queen attacks it, until
  ``round(density * n)`` queens are given. The givens never attack each other.

Where a draw falls short (the order ran out before enough cells, the list of diagonals is
too short, n² tries placed too few queens) the scripts stop; here the same random stream
draws again, up to ``ATTEMPTS`` times, as ``blocked-gen.py`` itself does.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from queenslab.boards import DEFAULT_VARIANT, Board, Cell, board
from queenslab.core.errors import UsageError
from queenslab.core.problem import Problem
from queenslab.io.instance import Instance

ATTEMPTS = 1000
#: Largest board drawn: the generators walk all n² cells, and a dense instance lists most
#: of them (n = 500 at density 0.9: 225,000 blocked cells, 3 s); far beyond every complete
#: solver here.
MAX_N = 500
#: Open cells every row and column keeps: the CSPLib scripts take it as a parameter and
#: their documentation shows 4.
DEFAULT_MIN_OPEN = 4
SOURCE = "Gent, Jefferson and Nightingale, JAIR 59 (2017); CSPLib problems 079 and 080"
#: What a generator draws: the instance's blocked cells, givens or excluded diagonals.
Drawn = dict[str, list[Any]]


def blocked(n: int, density: float, rng: random.Random, min_open: int, variant: str) -> Drawn:
    """Blocked cells, drawn as ``blocked-gen.py`` draws them."""
    wanted = round(density * n * n)
    if wanted > n * max(0, n - min_open):
        raise UsageError(
            f"cannot block {wanted} cells of {n}x{n} keeping {min_open} open per row and column"
        )
    if wanted == 0:
        return {"blocked": []}
    for _ in range(ATTEMPTS):
        order = [(r, c) for r in range(n) for c in range(n)]
        rng.shuffle(order)
        rows, cols = [n] * n, [n] * n
        chosen: list[Cell] = []
        for r, c in order:
            if rows[r] > min_open and cols[c] > min_open:
                rows[r] -= 1
                cols[c] -= 1
                chosen.append((r, c))
                if len(chosen) == wanted:
                    return {"blocked": chosen}
    raise UsageError(f"no draw blocked {wanted} cells in {ATTEMPTS} attempts")


def excluded_diagonals(
    n: int, density: float, rng: random.Random, min_open: int, variant: str
) -> Drawn:
    """Every cell of the first ``round(density * n)`` diagonals of a ``queens-diag-gen.py`` list."""
    grid = board(n, variant)
    wanted = round(density * n)
    for _ in range(ATTEMPTS):
        order = _diagonal_order(grid, rng, min_open)
        if len(order) >= wanted:
            excluded = order[:wanted]
            cells = {cell for _, _, cells in excluded for cell in cells}
            return {
                "blocked": sorted(cells),
                "diagonals": [[family, key] for family, key, _ in excluded],
            }
    raise UsageError(
        f"no draw excluded {wanted} diagonals keeping {min_open} open cells per row and column"
    )


def _diagonal_order(
    grid: Board, rng: random.Random, min_open: int
) -> list[tuple[str, int, list[Cell]]]:
    """The maximal ordered list of diagonals one draw excludes: (family, key, new cells)."""
    n = grid.n
    families = [f for f in grid.families if not f.exactly_one]  # sum, then difference
    pending = []
    for family in families:
        keys = list(range(family.size(n)))
        rng.shuffle(keys)
        pending.append(keys)
    rows, cols = [n] * n, [n] * n
    closed: set[Cell] = set()
    order = []
    on_line: list[list[list[Cell]]] = []  # per family, per key: its cells in row order
    for family in families:
        lines: list[list[Cell]] = [[] for _ in range(family.size(n))]
        for r in range(n):
            for c in range(n):
                lines[family.key(n, r, c)].append((r, c))
        on_line.append(lines)
    while any(pending):
        if all(pending):
            pick = 0 if rng.randrange(-1, 2, 2) == 1 else 1  # the scripts' +1 / -1
        else:
            pick = 0 if pending[0] else 1
        family, key = families[pick], pending[pick].pop()
        cells = [cell for cell in on_line[pick][key] if cell not in closed]
        if any(rows[r] <= min_open or cols[c] <= min_open for r, c in cells):
            continue
        for r, c in cells:
            rows[r] -= 1
            cols[c] -= 1
        closed.update(cells)
        order.append((family.name, key, cells))
    return order


def completion(n: int, density: float, rng: random.Random, min_open: int, variant: str) -> Drawn:
    """Given queens, drawn as ``queens-gen-fast.py`` draws them (none attacks another)."""
    grid = board(n, variant)
    wanted = round(density * n)
    if wanted > n:
        raise UsageError(f"cannot give {wanted} queens on an {n}x{n} board")
    if wanted == 0:
        return {"givens": []}
    for _ in range(ATTEMPTS):
        rows, cols = list(range(n)), list(range(n))
        placed: list[Cell] = []
        left = n
        for _ in range(n * n):
            i, j = rng.randrange(left), rng.randrange(left)
            queen = rows[i], cols[j]
            if any(grid.attacks(queen, other) for other in placed):
                continue
            placed.append(queen)
            rows[i], cols[j] = rows[left - 1], cols[left - 1]
            left -= 1
            if len(placed) == wanted:
                return {"givens": placed}
    raise UsageError(f"no draw placed {wanted} non-attacking queens in {ATTEMPTS} attempts")


Generator = Callable[[int, float, random.Random, int, str], Drawn]
#: Kind -> generator; the density each one takes is documented in KIND_DENSITY.
GENERATORS: dict[str, Generator] = {
    "completion": completion,
    "blocked": blocked,
    "excluded-diagonals": excluded_diagonals,
}
KIND_DENSITY: dict[str, str] = {
    "completion": "given queens / n",
    "blocked": "blocked cells / n²",
    "excluded-diagonals": "excluded diagonals / n",
}


def generate(
    kind: str,
    n: int,
    density: float,
    seed: int,
    *,
    min_open: int = DEFAULT_MIN_OPEN,
    variant: str = DEFAULT_VARIANT,
) -> Instance:
    """One instance of ``kind``; the same arguments always give the same instance."""
    if kind not in GENERATORS:
        raise UsageError(f"unknown kind {kind!r}; choose from: {', '.join(GENERATORS)}")
    if not density >= 0:
        raise UsageError(f"density must be at least 0, got {density}")
    if n > MAX_N:
        raise UsageError(f"the generators draw boards up to n = {MAX_N}, got {n}")
    Problem(n, variant=variant)  # a UsageError for a bad n or variant, before drawing
    drawn = GENERATORS[kind](n, density, random.Random(seed), min_open, variant)
    provenance: dict[str, Any] = {
        "generator": kind,
        "density": density,
        "density_is": KIND_DENSITY[kind],
        "seed": seed,
        **({} if kind == "completion" else {"min_open": min_open}),
        "source": SOURCE,
    }
    if "diagonals" in drawn:
        provenance["diagonals"] = drawn["diagonals"]
    problem = Problem(n, tuple(drawn.get("givens", ())), variant, tuple(drawn.get("blocked", ())))
    return Instance(problem, provenance)
