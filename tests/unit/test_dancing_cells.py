"""Exact cover by dancing cells against a brute force over every subset of options, and
its restarts: reproducible by seed, None only when there is no cover."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from queenslab.core.errors import LimitReached
from queenslab.core.problem import Problem
from queenslab.exact import backtracking, dancing_cells, restarts
from queenslab.exact.dancing_cells import covers, first_cover
from queenslab.exact.restarts import luby


def brute_force(rows: list[list[int]], items: int) -> list[list[int]]:
    return sorted(
        list(chosen)
        for k in range(len(rows) + 1)
        for chosen in itertools.combinations(range(len(rows)), k)
        if sorted(cell for i in chosen for cell in rows[i]) == list(range(items))
    )


def random_rows(rng: random.Random, most_items: int, most_rows: int) -> tuple[list, int]:
    items = rng.randint(1, most_items)
    rows = [sorted(rng.sample(range(items), rng.randint(1, items)))
            for _ in range(rng.randint(0, most_rows))]  # fmt: skip
    return rows, items


def test_knuths_example_has_its_one_cover():
    rows = [[2, 4, 5], [0, 3, 6], [1, 2, 5], [0, 3], [1, 6], [3, 4, 6]]
    assert [sorted(cover) for cover in covers(rows, 7)] == [[0, 3, 4]]


def test_random_matrices_agree_with_brute_force():
    rng = random.Random(7)
    for _ in range(300):
        rows, items = random_rows(rng, 6, 8)
        got = sorted(sorted(cover) for cover in covers(rows, items))
        assert got == brute_force(rows, items)


def brute_force_with_secondary(rows: list[list[int]], primary: int) -> list[list[int]]:
    """The sets of rows covering each item below ``primary`` once and the others at most
    once."""
    found = []
    for k in range(len(rows) + 1):
        for chosen in itertools.combinations(range(len(rows)), k):
            taken = [cell for i in chosen for cell in rows[i]]
            if len(set(taken)) == len(taken) and set(range(primary)) <= set(taken):
                found.append(list(chosen))
    return sorted(found)


def test_secondary_items_are_covered_at_most_once():
    """Random matrices whose last items are secondary, against a brute force; a chosen
    option always holds a primary item."""
    rng = random.Random(5)
    for _ in range(300):
        rows, items = random_rows(rng, 7, 8)
        primary = rng.randint(0, items)
        rows = [row for row in rows if any(i < primary for i in row)]
        got = sorted(sorted(cover) for cover in covers(rows, items, primary=primary))
        assert got == brute_force_with_secondary(rows, primary)
        cover, _ = first_cover(rows, items, seed=rng.randrange(9), unit=1, primary=primary)
        assert (cover is None) == (got == [])


def test_a_primary_count_beyond_the_items_is_refused():
    with pytest.raises(ValueError, match="primary items"):
        list(covers([[0]], 1, primary=2))


def test_compressed_rows_are_the_same_options():
    rows = [[2, 4, 5], [0, 3, 6], [1, 2, 5], [0, 3], [1, 6], [3, 4, 6]]
    starts = np.cumsum([0] + [len(row) for row in rows])
    flat = np.array([item for row in rows for item in row])
    assert list(covers((starts, flat), 7)) == list(covers(rows, 7))


def disjoint_sets(rows: list[list[int]], size: int, cells: int) -> list[list[int]]:
    """Every set of ``size`` pairwise disjoint rows covering ``cells`` cells, by trying
    each row after the last one chosen (no heuristic, nothing shared with the engine)."""
    found = []

    def extend(chosen: list[int], used: set[int]) -> None:
        if len(chosen) == size:
            if len(used) == cells:
                found.append(list(chosen))
            return
        for i in range(chosen[-1] + 1 if chosen else 0, len(rows)):
            if used.isdisjoint(rows[i]):
                extend([*chosen, i], used | set(rows[i]))

    extend([], set())
    return found


@pytest.mark.parametrize(("n", "colourings"), [(4, 0), (5, 2), (6, 0), (7, 4), (8, 0)])
def test_the_colourings_of_small_boards_are_counted(n, colourings):
    """n disjoint n-queens solutions: as many as a search over sets of pairwise disjoint
    solutions finds (Q5 and Q7 are coloured by Pólya's translates and their mirror
    images)."""
    solutions = list(backtracking.search(Problem(n)))
    rows = [[r * n + c for r, c in enumerate(cols)] for cols in solutions]
    found = sorted(sorted(cover) for cover in covers(rows, n * n))
    assert len(found) == colourings
    assert found == disjoint_sets(rows, n, n * n)


def test_no_items_is_covered_by_no_rows_and_an_uncoverable_item_by_none():
    assert list(covers([], 0)) == [[]]
    assert list(covers([[0]], 2)) == []


def test_an_item_out_of_range_is_refused():
    with pytest.raises(ValueError, match="out of range"):
        list(covers([[0, 3]], 2))


def test_a_stop_raises_limit_reached():
    """Eleven items in pairs never cover exactly, after thousands of options tried."""
    pairs = [list(pair) for pair in itertools.combinations(range(11), 2)]
    assert list(covers(pairs, 11)) == []
    with pytest.raises(LimitReached):
        next(covers(pairs, 11, lambda: True))


@pytest.mark.parametrize("unit", [dancing_cells.UNIT, 1])
def test_a_first_cover_is_a_cover_and_none_only_when_there_is_none(unit):
    """With a unit of one node nearly every matrix goes through restarts, shuffled."""
    rng = random.Random(11)
    for _ in range(300):
        rows, items = random_rows(rng, 7, 9)
        cover, _ = first_cover(rows, items, seed=rng.randrange(100), unit=unit)
        if cover is None:
            assert brute_force(rows, items) == []
        else:
            assert sorted(cell for i in cover for cell in rows[i]) == list(range(items))


def test_restarts_are_reproducible_by_seed_and_vary_with_it():
    """Q7's four colourings: a seed gives the same cover and nodes every time, and some
    seeds find different ones first."""
    solutions = list(backtracking.search(Problem(7)))
    rows = [[r * 7 + c for r, c in enumerate(cols)] for cols in solutions]
    runs = {seed: first_cover(rows, 49, seed=seed, unit=2) for seed in range(12)}
    assert all(first_cover(rows, 49, seed=seed, unit=2) == runs[seed] for seed in (0, 5, 11))
    assert len({tuple(sorted(cover)) for cover, _ in runs.values()}) > 1


def test_a_stop_ends_the_first_cover_search():
    pairs = [list(pair) for pair in itertools.combinations(range(11), 2)]
    assert first_cover(pairs, 11)[0] is None
    with pytest.raises(LimitReached):
        first_cover(pairs, 11, should_stop=lambda: True)


def test_lubys_sequence():
    assert [luby(k) for k in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


def test_tries_count_their_work_the_same_for_a_seed():
    """The work (options removed) a portfolio shares time by: the same for the same
    tries, more for more tries."""
    solutions = list(backtracking.search(Problem(8)))
    rows = [[r * 8 + c for r, c in enumerate(cols)] for cols in solutions]
    runs = []
    for _ in range(2):
        tries = restarts.Tries(dancing_cells.Search(rows, 64), seed=3, unit=1)
        done = [tries.next_try() for _ in range(3)]
        runs.append((done, tries.tries, tries.nodes, tries.work))
    assert runs[0] == runs[1] and runs[0][3] > 0 and tries.volume == 8 * len(rows)
