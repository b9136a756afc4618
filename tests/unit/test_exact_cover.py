"""Exact cover (Algorithm X) against a brute force over every subset of rows."""

from __future__ import annotations

import itertools
import random

import pytest

from queenslab.core.errors import LimitReached
from queenslab.exact import exact_cover
from queenslab.exact.exact_cover import FIRST_TRY, exact_covers, first_cover


def brute_force(rows: list[list[int]], items: int) -> list[list[int]]:
    return sorted(
        list(chosen)
        for k in range(len(rows) + 1)
        for chosen in itertools.combinations(range(len(rows)), k)
        if sorted(cell for i in chosen for cell in rows[i]) == list(range(items))
    )


def test_knuths_example_has_its_one_cover():
    rows = [[2, 4, 5], [0, 3, 6], [1, 2, 5], [0, 3], [1, 6], [3, 4, 6]]
    assert [sorted(cover) for cover in exact_covers(rows, 7)] == [[0, 3, 4]]


def test_random_matrices_agree_with_brute_force():
    rng = random.Random(7)
    for _ in range(300):
        items = rng.randint(1, 6)
        rows = [sorted(rng.sample(range(items), rng.randint(1, items)))
                for _ in range(rng.randint(0, 8))]  # fmt: skip
        got = sorted(sorted(cover) for cover in exact_covers(rows, items))
        assert got == brute_force(rows, items)


def test_no_items_is_covered_by_no_rows_and_an_uncoverable_item_by_none():
    assert list(exact_covers([], 0)) == [[]]
    assert list(exact_covers([[0]], 2)) == []


def test_a_stop_raises_limit_reached():
    """Eleven items in pairs never cover exactly, after thousands of rows tried."""
    pairs = [list(pair) for pair in itertools.combinations(range(11), 2)]
    assert list(exact_covers(pairs, 11)) == []
    with pytest.raises(LimitReached):
        next(exact_covers(pairs, 11, lambda: True))


@pytest.mark.parametrize("first_try", [FIRST_TRY, 1])
def test_a_first_cover_is_a_cover_and_none_only_when_there_is_none(monkeypatch, first_try):
    """With a first try of one node every matrix goes through restarts on shuffled rows
    and items, whose indices must come back as the caller's."""
    monkeypatch.setattr(exact_cover, "FIRST_TRY", first_try)
    rng = random.Random(11)
    for _ in range(300):
        items = rng.randint(1, 7)
        rows = [sorted(rng.sample(range(items), rng.randint(1, items)))
                for _ in range(rng.randint(0, 9))]  # fmt: skip
        cover = first_cover(rows, items)
        if cover is None:
            assert brute_force(rows, items) == []
        else:
            assert sorted(cell for i in cover for cell in rows[i]) == list(range(items))


def test_a_stop_ends_the_first_cover_search():
    pairs = [list(pair) for pair in itertools.combinations(range(11), 2)]
    assert first_cover(pairs, 11) is None
    with pytest.raises(LimitReached):
        first_cover(pairs, 11, lambda: True)
