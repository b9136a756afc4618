"""Placement validation and symmetry against the naive oracle; Problem input checks."""

from __future__ import annotations

import argparse

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from queenslab.cli.arguments import cell
from queenslab.core.errors import UsageError
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.lab import reference
from tests import oracle


def naive_pairs(cols):
    n = len(cols)
    return sorted(
        (i, j)
        for i in range(n)
        for j in range(i + 1, n)
        if cols[i] == cols[j] or abs(cols[i] - cols[j]) == j - i
    )


boards = st.integers(1, 12).flatmap(
    lambda n: st.lists(st.integers(0, n - 1), min_size=n, max_size=n)
)
permutations = st.integers(1, 12).flatmap(lambda n: st.permutations(list(range(n))))


@given(boards)
def test_validity_and_attacks_match_the_oracle(cols):
    placement = Placement(cols)
    assert placement.is_valid() == oracle.is_solution(cols, len(cols))
    assert placement.attacking_pairs() == naive_pairs(cols)
    assert placement.attacking_pair_count() == len(naive_pairs(cols))


@given(permutations)
def test_symmetries_match_the_oracle(cols):
    placement = Placement(cols)
    images = [tuple(p) for p in placement.symmetries()]
    assert images == oracle.images(cols)
    assert tuple(placement.canonical()) == min(images)
    assert placement.orbit_size() == len(set(images))


@given(permutations)
def test_tuple_and_array_placements_agree(cols):
    as_tuple, as_array = Placement(cols), Placement(np.array(cols, dtype=np.int32))
    assert as_tuple == as_array and hash(as_tuple) == hash(as_array)
    assert [tuple(p) for p in as_array.symmetries()] == [tuple(p) for p in as_tuple.symmetries()]


def test_off_board_queens_are_invalid_not_an_error():
    assert not Placement([0, 5]).is_valid()
    with pytest.raises(ValueError, match="off the board"):
        Placement([0, 5]).attacking_pairs()


def test_large_placement_is_validated_without_a_board():
    n = 1_000_003  # gcd(n, 6) == 1, so c = 2r mod n is a solution
    cols = (2 * np.arange(n, dtype=np.int64)) % n
    assert Placement(cols).is_valid()
    cols[[0, 1]] = cols[[1, 0]]
    assert not Placement(cols).is_valid()


def test_reference_tables():
    assert reference.total(8) == 92 and reference.unique(8) == 12
    assert reference.total(1000) is None


@pytest.mark.parametrize(
    ("givens", "message"),
    [
        (((9, 9),), "off the 8x8 board"),
        (((0, 0), (1, 1)), "attack each other"),
        (((0, 0), (0, 5)), "attack each other"),
        (((2, 3), (2, 3)), "listed twice"),
    ],
)
def test_bad_givens_are_rejected_before_search(givens, message):
    with pytest.raises(UsageError, match=message):
        Problem(8, givens)


@pytest.mark.parametrize("text", ["3", "a:b", "1:2:3", "", "８:1", "-1:2"])
def test_bad_cell_syntax(text):
    with pytest.raises(argparse.ArgumentTypeError):
        cell(text)


@pytest.mark.parametrize("n", [0, -3, 2.5, True])
def test_bad_board_size(n):
    with pytest.raises(UsageError):
        Problem(n)


#: Issue 29: seed=np.int64(3) raised OverflowError, seed=1.5 and time_limit='1' raw
#: TypeErrors; time_limit=True ran for one second, givens took strings, floats and bools
#: ((True, False) placed a queen on 1:0); workers=-1 said "at least 0" and 0 "at least 1".
BAD_ARGUMENTS = {
    "seed 1.5": ({"seed": 1.5}, "seed must be an integer, got 1.5"),
    "seed '3'": ({"seed": "3"}, "seed must be an integer, got '3'"),
    "seed -1": ({"seed": -1}, "seed must be at least 0, got -1"),
    "time_limit '1'": ({"time_limit": "1"}, "time limit must be a finite number of seconds"),
    "time_limit True": ({"time_limit": True}, "time limit must be a finite number of seconds"),
    "bool givens": ({"givens": [(True, False)]}, "pair of integers, got \\(True, False\\)"),
    "text givens": ({"givens": [("0", "1")]}, "pair of integers"),
    "float givens": ({"givens": [(0.0, 1)]}, "pair of integers"),
    "float blocked": ({"blocked": [(0, 1.0)]}, "blocked cell must be a \\(row, col\\) pair of"),
    "workers -1": ({"workers": -1}, "workers must be at least 1, got -1"),
    "workers 0": ({"workers": 0}, "workers must be at least 1, got 0"),
    "workers '2'": ({"workers": "2"}, "workers must be an integer, got '2'"),
    "workers 2.0": ({"workers": 2.0}, "workers must be an integer, got 2.0"),
}


@pytest.mark.parametrize("case", BAD_ARGUMENTS)
def test_one_rule_for_integers_in_the_api(case):
    import queenslab as ql

    arguments, message = BAD_ARGUMENTS[case]
    backend = "cpsat" if "workers" in arguments else "min-conflicts"
    with pytest.raises(UsageError, match=message):
        ql.solve(8, backend, **arguments)


def test_numpy_integers_are_integers_in_the_api():
    import queenslab as ql

    seeded = ql.solve(8, "min-conflicts", seed=np.int64(3))
    assert seeded.placement == ql.solve(8, "min-conflicts", seed=3).placement
    given = ql.solve(np.int64(8), "cpsat", givens=[(np.int32(0), np.int64(3))], workers=np.int8(2))
    assert given.n == 8 and type(given.problem.n) is int and given.placement[0] == 3


def test_is_array_while_another_thread_is_still_importing_numpy(monkeypatch):
    """A half-imported NumPy (in sys.modules, no ndarray yet) must not break is_array."""
    import sys
    import types

    from queenslab.core.placement import is_array

    monkeypatch.setitem(sys.modules, "numpy", types.ModuleType("numpy"))
    assert is_array([0, 2]) is False
