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
the two mirrors is 36 items and three or four choices. The cover is searched by dancing
cells with restarts (``exact.dancing_cells``), for several groups in turn (``search``).

The board's long diagonals are cliques, which prune (after Vasquez 2004's clique
filtering): a line of n cells takes all n colours, so every class meets each of the two
main diagonals once, and a solution orbit with a class that misses one is no option; a
line of n - 1 cells is missed by at most one class, so each of the four such diagonals is
a secondary item (at most once) of the options with a class that misses it. Sound for
every colouring G keeps, so the search stays complete for them.

No transpose keeps an n-colouring (n >= 2): the main diagonal's n cells are in n
different classes, each of which the transpose must then map onto itself, and no solution
is its own transpose (queens at (r, c) and (c, r) share an anti-diagonal). Hence the
groups below: an odd board has only the half turn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from queenslab.core.run import never
from queenslab.exact import dancing_cells, queen_orbits

#: The groups tried, in order, by their generators (``queen_orbits.permutation``). Mirror
#: groups only fold even boards (on an odd one the middle column's cells would need a
#: class of their own mirror image, and no solution is one).
GROUPS = (
    ("mirror-columns", "mirror-rows"),
    ("mirror-columns",),
    ("rot180",),
)

Options = tuple[np.ndarray, np.ndarray]
#: The work (options removed) per option item each running search does before the next
#: group joins them (``search``).
JOIN = 32
#: The largest board searched: the fold enumerates every solution (14.8 million at
#: n = 16, about 40 CPU s here; each n more takes some seven times as many).
MAX_N = 16


class Folded(NamedTuple):
    """The cover under a group: the group (``queen_orbits.group``), the kept solutions
    that are options (columns row by row), the options as compressed rows, and the items:
    the cell orbits ``0 .. primary - 1``, then one secondary item per diagonal of n - 1
    cells."""

    maps: np.ndarray
    kept: np.ndarray
    options: Options
    items: int
    primary: int


def long_diagonals(n: int) -> tuple[np.ndarray, np.ndarray]:
    """The diagonals of n and of n - 1 cells, each a mask over the cells (one a row)."""
    r, c = np.divmod(np.arange(n * n), n)
    full = np.array([r == c, r + c == n - 1])
    short = np.array([r - c == 1, c - r == 1, r + c == n - 2, r + c == n])
    return full, short


def folded(n: int, generators: tuple[str, ...]) -> Folded:
    """The cover of the colourings the group ``generators`` make keeps: one option per
    kept solution whose classes meet both main diagonals and no two of which miss one
    diagonal of n - 1 cells (module docstring)."""
    if n > MAX_N:
        raise ValueError(f"the folded search enumerates every solution: n <= {MAX_N}, got {n}")
    maps = queen_orbits.group(n, generators)
    kept = queen_orbits.representatives(n, maps)
    full, short = long_diagonals(n)
    missed = queen_orbits.misses(kept, maps, np.concatenate([full, short]))
    fit = (missed[:, : len(full)] == 0).all(axis=1) & (missed[:, len(full) :] <= 1).all(axis=1)
    kept, missed = kept[fit], missed[fit, len(full) :]
    orbit = queen_orbits.orbit_of_cells(maps).astype(np.int32)
    orbits = int(orbit.max()) + 1
    cells = np.sort(orbit[np.arange(n) * n + kept], axis=1)
    new = np.ones(cells.shape, dtype=bool)
    new[:, 1:] = cells[:, 1:] != cells[:, :-1]  # a fixed solution meets an orbit twice
    slack = orbits + np.arange(len(short), dtype=np.int32)
    table = np.concatenate([cells, np.broadcast_to(slack, missed.shape)], axis=1)
    taken = np.concatenate([new, missed == 1], axis=1)
    starts = np.zeros(len(kept) + 1, dtype=np.int64)
    starts[1:] = np.cumsum(taken.sum(axis=1))
    return Folded(maps, kept, (starts, table[taken]), orbits + len(short), orbits)


def colouring(
    n: int, generators: tuple[str, ...], seed: int = 0, should_stop: Callable[[], bool] = never
) -> list[tuple[int, ...]] | None:
    """n disjoint solutions (columns row by row) covering the board whose set the group
    ``generators`` make maps onto itself; None when there is none (a proof for this group
    only). LimitReached when ``should_stop`` says stop."""
    fold = folded(n, generators)
    cover, _ = dancing_cells.first_cover(
        fold.options, fold.items, seed, should_stop, primary=fold.primary
    )
    return None if cover is None else _unfolded(fold.maps, fold.kept, cover)


def _unfolded(maps: np.ndarray, kept: np.ndarray, cover: list[int]) -> list[tuple[int, ...]]:
    return [image for k in cover for image in queen_orbits.images(kept[k].tolist(), maps)]


def search(
    n: int, seed: int = 0, should_stop: Callable[[], bool] = never
) -> list[tuple[int, ...]] | None:
    """An n-colouring kept by one of ``GROUPS``, as n solutions; None when none of them
    keeps one. LimitReached when ``should_stop`` says stop.

    A group's search may neither find a cover nor end for a long time while the next
    group's finds one soon (n = 14: the two mirrors against the column mirror alone), so
    the searches share the time: the one that has done the least work (options removed,
    ``dancing_cells.Tries``) runs its next try. A group joins once each running search has
    done ``JOIN`` times the size of the running instances in work (so its enumeration, and
    memory, go only to boards where the smaller folds are slow), or at once when they have
    all proven that their group keeps no colouring. Deterministic: a seed gives one answer."""
    waiting = [g for g in GROUPS if not (n % 2 and any(name.startswith("mirror") for name in g))]
    running: list[tuple[np.ndarray, np.ndarray, dancing_cells.Tries]] = []
    while waiting or running:
        least = min((tries.work for _, _, tries in running), default=0)
        if waiting and (not running or least >= JOIN * sum(t.size for _, _, t in running)):
            fold = folded(n, waiting.pop(0))
            tries = dancing_cells.Tries(fold.options, fold.items, seed, primary=fold.primary)
            running.append((fold.maps, fold.kept, tries))
        entry = min(running, key=lambda entry: entry[2].work)
        settled, cover = entry[2].next_try(should_stop)
        if cover is not None:
            return _unfolded(entry[0], entry[1], cover)
        if settled:
            running.remove(entry)
    return None
