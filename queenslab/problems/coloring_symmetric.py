"""n-colourings of the n x n queens graph kept by a group of the square's symmetries
(Vasquez and Habet 2004; Vasquez 2006): a search that is incomplete, but far smaller.

An n-colouring is a partition of the board into n disjoint n-queens solutions
(``coloring_exact_cover``). Vasquez and Habet saw that the colourings of Q12 map onto
themselves under the board's mirrors (each mirror permutes the colours) and searched only
for such colourings, which found n = 15, 16 and larger. Here a group G of symmetries
(``exact.queen_orbits``) folds the cover: its classes come in orbits, so an item is an
orbit of cells and an option an orbit of pairwise disjoint solutions, kept as its least
member. A cover of the cell orbits by solution orbits unfolds into a colouring whose
classes G permutes, and every such colouring folds into one: the search is complete for
the colourings G keeps, and its None proves only that none is kept by G.

The fold divides the options and the items by about |G|, and the depth too: n = 12 under
the two mirrors is 36 items and three or four choices. The cover is searched with
restarts (``exact.restarts``), for several groups in turn (``search``).

The board's diagonals prune (after Vasquez 2004's clique filtering, made a count): a
diagonal of L cells holds L different colours, so exactly n - L classes miss it. A
solution orbit whose classes miss a line more often than that is no option, and the
cover is searched under budgets (``exact.budgeted_cover``): each option spends on every
diagonal its classes miss, and a partial cover whose classes have missed a diagonal
more than n - L times is dead. For the two main diagonals (budget 0) this is Vasquez's
filter; for all of them it is what finds Q15 (a cover search on cells alone searches
below such dead ends for minutes). Sound for every colouring G keeps, so the search stays
complete for them.

No transpose keeps an n-colouring (n >= 2): the main diagonal's n cells are in n
different classes, each of which the transpose must then map onto itself, and no solution
is its own transpose (queens at (r, c) and (c, r) share an anti-diagonal). Hence the
groups below: an odd board has only the half turn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from queenslab.boards import board
from queenslab.core.run import never
from queenslab.exact import budgeted_cover, queen_orbits, restarts

#: The groups tried, in order, by their generators (``queen_orbits.permutation``). Mirror
#: groups only fold even boards (on an odd one the middle column's cells would need a
#: class of their own mirror image, and no solution is one).
GROUPS = (
    ("mirror-columns", "mirror-rows"),
    ("mirror-columns",),
    ("rot180",),
)

Options = tuple[np.ndarray, np.ndarray]
#: The work (options looked at) per option item each running search does before the next
#: group joins them (``search``).
JOIN = 32
#: The largest board searched: the fold enumerates every solution (14.8 million at
#: n = 16, about 40 CPU s here; each n more takes some seven times as many).
MAX_N = 16


class Folded(NamedTuple):
    """The cover under a group: the group (``queen_orbits.group``), the kept solutions
    that are options (columns row by row), the options as compressed rows of cell orbits
    (``items`` of them), and what each option spends on each diagonal (``diagonals``)
    under the diagonal's ``budget``."""

    maps: np.ndarray
    kept: np.ndarray
    options: Options
    items: int
    spend: np.ndarray
    budget: np.ndarray


def diagonals(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The lines of the standard board that a solution need not meet (its diagonals: the
    families that are not ``exactly_one``), each a mask over the cells (one a row), and
    the classes of an n-colouring that miss it: n less its cells."""
    families = [family for family in board(n).families if not family.exactly_one]
    lines = np.zeros((sum(family.size(n) for family in families), n * n), dtype=bool)
    keys = ((family, key) for family in families for key in range(family.size(n)))
    for line, (family, key) in enumerate(keys):
        for r, c in family.cells(n, key):
            lines[line, r * n + c] = True
    return lines, n - lines.sum(axis=1)


def folded(n: int, generators: tuple[str, ...]) -> Folded:
    """The cover of the colourings the group ``generators`` make keeps: one option per
    kept solution whose classes miss no diagonal more often than its budget allows
    (module docstring)."""
    if n > MAX_N:
        raise ValueError(f"the folded search enumerates every solution: n <= {MAX_N}, got {n}")
    maps = queen_orbits.group(n, generators)
    kept = queen_orbits.representatives(n, maps)
    lines, budget = diagonals(n)
    missed = queen_orbits.misses(kept, maps, lines)
    fit = (missed <= budget).all(axis=1)
    kept, missed = kept[fit], missed[fit]
    orbit = queen_orbits.orbit_of_cells(maps).astype(np.int32)
    cells = np.sort(orbit[np.arange(n) * n + kept], axis=1)
    new = np.ones(cells.shape, dtype=bool)
    new[:, 1:] = cells[:, 1:] != cells[:, :-1]  # a fixed solution meets an orbit twice
    starts = np.zeros(len(kept) + 1, dtype=np.int64)
    starts[1:] = np.cumsum(new.sum(axis=1))
    return Folded(maps, kept, (starts, cells[new]), int(orbit.max()) + 1, missed, budget)


Engine = Callable[[Folded], restarts.Restartable]


def budgeted(fold: Folded) -> budgeted_cover.Search:
    """The fold's cover under its diagonals' budgets (module docstring): the engine the
    searches below run unless given another (``benchmarks/coloring_cover.py`` times one
    without the budgets against it)."""
    return budgeted_cover.Search(fold.options, fold.items, fold.spend, fold.budget)


def colouring(
    n: int,
    generators: tuple[str, ...],
    seed: int = 0,
    should_stop: Callable[[], bool] = never,
    engine: Engine = budgeted,
) -> list[tuple[int, ...]] | None:
    """n disjoint solutions (columns row by row) covering the board whose set the group
    ``generators`` make maps onto itself; None when there is none (a proof for this group
    only). LimitReached when ``should_stop`` says stop."""
    fold = folded(n, generators)
    cover, _ = restarts.first_cover(engine(fold), seed, should_stop)
    return None if cover is None else _unfolded(fold.maps, fold.kept, cover)


def _unfolded(maps: np.ndarray, kept: np.ndarray, cover: list[int]) -> list[tuple[int, ...]]:
    return [image for k in cover for image in queen_orbits.images(kept[k].tolist(), maps)]


def search(
    n: int, seed: int = 0, should_stop: Callable[[], bool] = never, engine: Engine = budgeted
) -> list[tuple[int, ...]] | None:
    """An n-colouring kept by one of ``GROUPS``, as n solutions; None when none of them
    keeps one. LimitReached when ``should_stop`` says stop.

    A group's search may neither find a cover nor end for a long time while the next
    group's finds one soon (n = 14: the two mirrors against the column mirror alone), so
    the searches share the time: the one that has done the least work (options looked at,
    ``restarts.Tries``) runs its next try. A group joins once each running search has
    done ``JOIN`` times the size of the running instances in work (so its enumeration, and
    memory, go only to boards where the smaller folds are slow), or at once when they have
    all proven that their group keeps no colouring. Deterministic: a seed gives one answer."""
    waiting = [g for g in GROUPS if not (n % 2 and any(name.startswith("mirror") for name in g))]
    running: list[tuple[np.ndarray, np.ndarray, restarts.Tries]] = []
    while waiting or running:
        least = min((tries.work for _, _, tries in running), default=0)
        if waiting and (not running or least >= JOIN * sum(t.volume for _, _, t in running)):
            fold = folded(n, waiting.pop(0))
            tries = restarts.Tries(engine(fold), seed)
            running.append((fold.maps, fold.kept, tries))
        entry = min(running, key=lambda entry: entry[2].work)
        settled, cover = entry[2].next_try(should_stop)
        if cover is not None:
            return _unfolded(entry[0], entry[1], cover)
        if settled:
            running.remove(entry)
    return None
