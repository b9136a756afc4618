"""Exact cover under budgets against a brute force over every subset of options, its
restarts, and its stop."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from queenslab.core.errors import LimitReached
from queenslab.exact import budgeted_cover, restarts


def brute_force(rows, items, spend, budget) -> list[list[int]]:
    """The sets of rows covering every item once and spending within every budget."""
    found = []
    for k in range(len(rows) + 1):
        for chosen in itertools.combinations(range(len(rows)), k):
            taken = sorted(cell for i in chosen for cell in rows[i])
            spent = spend[list(chosen)].sum(axis=0) if chosen else np.zeros(len(budget))
            if taken == list(range(items)) and (spent <= budget).all():
                found.append(list(chosen))
    return sorted(found)


def every_cover(search: budgeted_cover.Search) -> list[list[int]]:
    search.restart(None)
    found = []
    while True:
        try:
            cover = search.run(1 << 30)
        except StopIteration:
            return sorted(sorted(cover) for cover in found)
        if cover is not None:
            found.append(cover)


def random_instance(rng: random.Random):
    items = rng.randint(1, 6)
    rows = [sorted(rng.sample(range(items), rng.randint(1, items)))
            for _ in range(rng.randint(0, 9))]  # fmt: skip
    budgets = rng.randint(1, 3)
    spend = np.array([[rng.randint(0, 2) for _ in range(budgets)] for _ in rows],
                     dtype=np.int64).reshape(len(rows), budgets)  # fmt: skip
    budget = np.array([rng.randint(0, 3) for _ in range(budgets)], dtype=np.int64)
    return rows, items, spend, budget


def test_random_instances_agree_with_brute_force():
    """Every cover within the budgets and no other, in one pass with no restart."""
    rng = random.Random(5)
    for _ in range(300):
        rows, items, spend, budget = random_instance(rng)
        search = budgeted_cover.Search(rows, items, spend, budget)
        assert every_cover(search) == brute_force(rows, items, spend, budget)


def test_a_budget_of_zero_forbids_its_options_and_a_large_one_nothing():
    rows = [[0], [1], [0, 1]]
    spend = np.array([[1], [0], [0]])
    assert every_cover(budgeted_cover.Search(rows, 2, spend, np.array([0]))) == [[2]]
    assert every_cover(budgeted_cover.Search(rows, 2, spend, np.array([5]))) == [[0, 1], [2]]


@pytest.mark.parametrize("unit", [None, 1])
def test_a_first_cover_is_within_budget_and_none_only_when_there_is_none(unit):
    rng = random.Random(9)
    for _ in range(200):
        rows, items, spend, budget = random_instance(rng)
        search = budgeted_cover.Search(rows, items, spend, budget)
        cover, _ = restarts.first_cover(search, seed=rng.randrange(100), unit=unit)
        if cover is None:
            assert brute_force(rows, items, spend, budget) == []
        else:
            assert sorted(cell for i in cover for cell in rows[i]) == list(range(items))
            assert (spend[cover].sum(axis=0) <= budget).all()


def test_tries_are_reproducible_by_seed():
    rows = [list(pair) for pair in itertools.combinations(range(8), 2)]
    spend = np.array([[i % 3] for i in range(len(rows))])

    def run():
        tries = restarts.Tries(budgeted_cover.Search(rows, 8, spend, np.array([1])), 3, 1)
        return [tries.next_try() for _ in range(4)], tries.nodes, tries.work

    assert run() == run() and run()[2] > 0


def test_a_stop_ends_the_search_and_no_cover_is_a_proof():
    """Eleven items in pairs never cover exactly."""
    pairs = [list(pair) for pair in itertools.combinations(range(11), 2)]
    search = budgeted_cover.Search(pairs, 11, np.zeros((len(pairs), 1)), np.array([0]))
    assert restarts.first_cover(search)[0] is None
    with pytest.raises(LimitReached):
        restarts.first_cover(search, should_stop=lambda: True)


def test_bad_shapes_are_refused():
    with pytest.raises(ValueError, match="out of range"):
        budgeted_cover.Search([[0, 3]], 2, np.zeros((1, 1)), np.array([0]))
    with pytest.raises(ValueError, match="one column per budget"):
        budgeted_cover.Search([[0]], 1, np.zeros((1, 2)), np.array([0]))
