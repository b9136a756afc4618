"""The constellation plan: one border placement per symmetry class, with its orbit size."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from queenslab.core.errors import LimitReached
from queenslab.exact import constellations
from queenslab.lab import reference
from tests import oracle


def _cells(n: int, i: int, j: int, k: int, l: int) -> tuple[tuple[int, int], ...]:  # noqa: E741
    return tuple(sorted({(0, i), (n - 1, j), (k, 0), (l, n - 1)}))


def _border_placements(n: int) -> set[tuple[tuple[int, int], ...]]:
    """Non-attacking queens with exactly one on each border line, by brute force."""
    m = n - 1
    found = set()
    for i, j, k, l in itertools.product(range(n), repeat=4):  # noqa: E741
        cells = _cells(n, i, j, k, l)
        lines = [[c for c in cells if test(c)] for test in (
            lambda c: c[0] == 0, lambda c: c[0] == m, lambda c: c[1] == 0, lambda c: c[1] == m
        )]  # fmt: skip
        if all(len(line) == 1 for line in lines) and not any(
            oracle.attack(n, "standard", a, b) for a, b in itertools.combinations(cells, 2)
        ):
            found.add(cells)
    return found


@pytest.mark.parametrize("n", range(1, 11))
def test_one_constellation_per_class_weighted_by_its_orbit(n):
    plan = constellations.plan(n)
    orbits: dict[tuple, set] = {}
    for cells in _border_placements(n):
        orbits.setdefault(min(oracle.cell_images(n, cells)), set()).add(cells)
    kept = [_cells(n, *row) for row in plan.border.tolist()]
    assert len(set(kept)) == len(kept) == len(orbits)
    for cells, weight in zip(kept, plan.weight.tolist(), strict=True):
        orbit = orbits[min(oracle.cell_images(n, cells))]
        assert cells in orbit and weight == len(orbit)


@pytest.mark.parametrize("n", [8, 11])
def test_the_kept_member_has_its_bottom_queen_nearest_a_corner(n):
    m = n - 1
    for i, j, k, l in constellations.plan(n).border.tolist():  # noqa: E741
        images = oracle.cell_images(n, _cells(n, i, j, k, l))
        bottoms = [min(c, m - c) for image in images for r, c in image if r == m]
        assert min(j, m - j) == min(bottoms)


def test_a_plan_part_counts_what_it_holds_and_stops_on_the_flag():
    plan = constellations.plan(12)
    rows = plan.count(np.zeros(1, dtype=np.uint8))
    part_rows = plan.take(np.arange(10, 20)).count(np.zeros(1, dtype=np.uint8))
    assert (rows[:, 2] > 0).all()
    assert (part_rows == rows[10:20]).all()
    assert (plan.count(np.ones(1, dtype=np.uint8))[:, 2] == -1).all()
    assert plan.fingerprint() != constellations.plan(13).fingerprint()


#: n = 9 is slow: the oracle's brute force over its 9! permutations takes 4 CPU s.
@pytest.mark.parametrize("n", [*range(4, 9), pytest.param(9, marks=pytest.mark.slow)])
def test_each_constellation_counts_its_own_solutions_and_classes(n):
    """Per row: the weighted solutions whose border is that constellation, and their classes."""
    plan = constellations.plan(n)
    rows = plan.count(np.zeros(1, dtype=np.uint8))
    by_border: dict[tuple, list] = {}
    for cols in oracle.all_solutions(n):
        cells = tuple(sorted({(0, cols[0]), (n - 1, cols[n - 1]),
                              (cols.index(0), 0), (cols.index(n - 1), n - 1)}))  # fmt: skip
        by_border.setdefault(cells, []).append(tuple(cols))
    for border, weight, (total, classes, _) in zip(
        plan.border.tolist(), plan.weight.tolist(), rows.tolist(), strict=True
    ):
        found = by_border.get(_cells(n, *border), [])
        assert total == len(found) * weight
        assert classes == len({min(oracle.images(s)) for s in found})


def test_building_a_plan_stops_on_the_flag():
    with pytest.raises(LimitReached):
        constellations.plan(40, np.ones(1, dtype=np.uint8))


def test_a_count_without_classes_searches_every_constellation_with_the_inner_kernels():
    """Only a count of classes needs the general search for the symmetric constellations;
    it visits more nodes (fewer cuts), the total is the same."""
    totals_only = constellations.plan(12).count(np.zeros(1, dtype=np.uint8))
    with_classes = constellations.plan(12, unique=True).count(np.zeros(1, dtype=np.uint8))
    assert totals_only[:, 0].sum() == with_classes[:, 0].sum() == reference.total(12)
    assert with_classes[:, 1].sum() == reference.unique(12)
    symmetric = constellations.plan(12).stabilizer != 1
    assert symmetric.any()
    assert (totals_only[symmetric, 2] < with_classes[symmetric, 2]).all()
    assert (totals_only[~symmetric] == with_classes[~symmetric]).all()
    assert (
        constellations.plan(12).fingerprint() != constellations.plan(12, unique=True).fingerprint()
    )
