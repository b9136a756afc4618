"""The folded colouring search (Vasquez and Habet 2004): the solutions each group keeps
against a brute force over every solution, covers that unfold into colourings the group
keeps, and the colourings found for the frontier (docs/data), checked."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from queenslab.boards import board
from queenslab.core.problem import Problem
from queenslab.exact import backtracking, budgeted_cover, dancing_cells, queen_orbits
from queenslab.problems import coloring_symmetric
from queenslab.problems.coloring import Coloring, ColourClasses
from tests.conftest import ROOT

GENERATORS = [(), ("rot180",), ("mirror-columns",), ("mirror-columns", "mirror-rows"),
              ("transpose",), ("rot90",), ("shift:0:4",), ("rot180", "shift:2:2")]  # fmt: skip


def solution(n: int, cols) -> bool:
    """One queen a column and none two on a diagonal (a row each by construction)."""
    cells = list(enumerate(cols))
    return len(set(cols)) == n and all(
        abs(r1 - r2) != abs(c1 - c2) for (r1, c1), (r2, c2) in itertools.combinations(cells, 2)
    )


def kept_by_brute_force(n: int, maps: np.ndarray) -> list[tuple[int, ...]]:
    """Every solution whose images are solutions, that is least among them, and disjoint
    from each image other than itself."""
    kept = []
    for cols in backtracking.search(Problem(n)):
        images = []
        for move in maps:
            other = [0] * n
            for r, c in enumerate(cols):
                other[move[r * n + c] // n] = int(move[r * n + c] % n)
            images.append(tuple(other))
        if (
            all(solution(n, image) for image in images)
            and min(images) == cols
            and all(
                image == cols or all(a != b for a, b in zip(image, cols, strict=True))
                for image in images
            )
        ):
            kept.append(cols)
    return kept


@pytest.mark.parametrize("n", [6, 8, 9])
@pytest.mark.parametrize("generators", GENERATORS, ids=",".join)
def test_the_kept_solutions_are_the_brute_forces(n, generators):
    maps = queen_orbits.group(n, generators)
    got = sorted(tuple(row) for row in queen_orbits.representatives(n, maps).tolist())
    assert got == sorted(kept_by_brute_force(n, maps))


def test_the_generated_groups():
    assert len(queen_orbits.group(8, ())) == 1
    assert len(queen_orbits.group(8, ("mirror-columns", "mirror-rows"))) == 4  # and rot180
    assert len(queen_orbits.group(8, ("rot90", "transpose"))) == 8
    assert len(queen_orbits.group(15, ("shift:5:5",))) == 3
    with pytest.raises(ValueError, match="no cell permutation"):
        queen_orbits.permutation(8, "rot45")


@pytest.mark.parametrize("generators", GENERATORS, ids=",".join)
def test_cell_orbits_are_closed(generators):
    maps = queen_orbits.group(7, generators)
    orbit = queen_orbits.orbit_of_cells(maps)
    assert all((orbit[move] == orbit).all() for move in maps)
    assert sorted(set(orbit.tolist())) == list(range(orbit.max() + 1))


def classes(found) -> ColourClasses:
    return ColourClasses(tuple(frozenset(enumerate(cols)) for cols in found))


@pytest.mark.parametrize("generators", [("mirror-columns", "mirror-rows"), ("mirror-columns",),
                                        ("rot180",)], ids=",".join)  # fmt: skip
def test_a_folded_cover_unfolds_into_a_colouring_the_group_keeps(generators):
    n = 12
    found = coloring_symmetric.colouring(n, generators, seed=3)
    assert found is not None and len(found) == n
    assert Coloring().check(board(n), classes(found)) is None
    mine = {frozenset(enumerate(cols)) for cols in found}
    for move in queen_orbits.group(n, generators):
        assert {frozenset(divmod(int(move[r * n + c]), n) for r, c in cls) for cls in mine} == mine


def every_colouring(n: int) -> set[frozenset]:
    """Every n-colouring as a set of classes, from covers over every solution (no fold,
    no filter)."""
    solutions = list(backtracking.search(Problem(n)))
    rows = [[r * n + c for r, c in enumerate(cols)] for cols in solutions]
    return {frozenset(solutions[i] for i in cover) for cover in dancing_cells.covers(rows, n * n)}


def kept_by(colouring: frozenset, maps: np.ndarray, n: int) -> bool:
    classes = {frozenset(enumerate(cols)) for cols in colouring}
    return all(
        {frozenset(divmod(int(move[r * n + c]), n) for r, c in cls) for cls in classes} == classes
        for move in maps
    )


def every_cover(fold: coloring_symmetric.Folded) -> list[list[int]]:
    """Every cover of the fold within its budgets, in one pass with no restart."""
    search = budgeted_cover.Search(fold.options, fold.items, fold.spend, fold.budget)
    found = []
    while True:
        try:
            cover = search.run(1 << 30)
        except StopIteration:
            return found
        if cover is not None:
            found.append(cover)


@pytest.mark.parametrize("n", [5, 7])
@pytest.mark.parametrize("generators", [(), ("rot180",)], ids=",".join)
def test_the_folded_covers_are_every_colouring_the_group_keeps(n, generators):
    """The diagonals' budgets drop options and prune; every colouring the group keeps is
    still a cover (Q5, Q7: Pólya's translates and their mirror images)."""
    fold = coloring_symmetric.folded(n, generators)
    unfolded = {
        frozenset(coloring_symmetric._unfolded(fold.maps, fold.kept, cover))
        for cover in every_cover(fold)
    }
    expected = {c for c in every_colouring(n) if kept_by(c, fold.maps, n)}
    assert unfolded == expected and expected


def test_an_option_spends_on_each_diagonal_the_classes_that_miss_it():
    """And within the diagonal's budget: n less its cells (0 for the two main ones)."""
    n = 12
    fold = coloring_symmetric.folded(n, ("mirror-columns",))
    lines, budget = coloring_symmetric.diagonals(n)
    lengths = [*range(1, n + 1), *range(n - 1, 0, -1)]
    assert sorted(budget.tolist()) == sorted(2 * [n - length for length in lengths])
    for k in range(0, len(fold.kept), 97):
        classes = queen_orbits.images(fold.kept[k].tolist(), fold.maps)
        cells = [[r * n + c for r, c in enumerate(cls)] for cls in classes]
        missed = [sum(not line[cls].any() for cls in cells) for line in lines]
        assert fold.spend[k].tolist() == missed
        assert (fold.spend[k] <= budget).all()


@pytest.mark.parametrize("n", [5, 7, 9])
def test_no_solution_is_its_own_transpose(n):
    """So no transpose keeps a colouring (module docstring), even where colourings
    exist."""
    maps = queen_orbits.group(n, ("transpose",))
    kept = queen_orbits.representatives(n, maps)
    assert not any(len(queen_orbits.images(cols.tolist(), maps)) == 1 for cols in kept)
    assert coloring_symmetric.colouring(n, ("transpose",)) is None


@pytest.mark.parametrize("n", [7, 11])
def test_no_solution_of_a_board_3_mod_4_is_kept_by_the_quarter_turn(n):
    """Its queens off the middle come in fours, and n - 1 is no multiple of 4: so no
    quarter turn keeps a colouring of Q15 (the middle cell's class would be one)."""
    maps = queen_orbits.group(n, ("rot90",))
    kept = queen_orbits.representatives(n, maps)
    assert not any(len(queen_orbits.images(cols.tolist(), maps)) == 1 for cols in kept)


@pytest.mark.parametrize("n", [2, 3, 4, 6, 8, 9, 10])
def test_no_group_keeps_a_colouring_where_none_exists(n):
    assert coloring_symmetric.search(n) is None


def test_the_search_is_reproducible_by_seed():
    assert coloring_symmetric.search(12, seed=4) == coloring_symmetric.search(12, seed=4)


def test_a_board_beyond_the_enumeration_is_refused():
    with pytest.raises(ValueError, match="enumerates every solution"):
        coloring_symmetric.folded(coloring_symmetric.MAX_N + 1, ("rot180",))


FOUND = sorted((ROOT / "docs" / "data").glob("coloring-q*.json"))


@pytest.mark.parametrize("path", FOUND, ids=lambda path: path.stem)
def test_the_colourings_found_are_colourings_with_n_colours(path):
    """Each colouring the folded search found (docs/data), read back and checked by the
    kind's own checker: n colours on the n x n board, the optimum (a row takes n)."""
    data = json.loads(path.read_text())
    n = data["n"]
    answer = Coloring().from_json(data["answer"])
    assert Coloring().check(board(n), answer) is None
    assert Coloring().value(answer) == n == int(path.stem.removeprefix("coloring-q"))


def test_the_frontier_colourings_are_there():
    assert {path.stem for path in FOUND} >= {"coloring-q14", "coloring-q15", "coloring-q16"}
