"""The common harness: every registered backend, parametrized from the registry.

A new backend is tested here without touching this file. Answers are checked by the naive
oracle (tests/oracle.py) and against the published OEIS tables.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import queenslab as ql
from queenslab import reference
from queenslab.backend import Capability, Family
from queenslab.errors import UsageError
from queenslab.registry import BACKENDS, backend_class, info
from tests import oracle

ALL = list(BACKENDS)


def _with(capability: Capability) -> list[str]:
    return [name for name in ALL if capability in backend_class(name).capabilities]


def _params(capability: Capability) -> list:
    """Backends with a capability; unavailable ones are shown as skipped, never dropped."""
    return [
        pytest.param(
            name,
            marks=pytest.mark.skipif(
                not info(name).available, reason=f"{name} needs {info(name).missing}"
            ),
        )
        for name in _with(capability)
    ]


SOLVERS = _params(Capability.SOLVE)
ENUMERATORS = _params(Capability.ENUMERATE)
COUNTERS = _params(Capability.COUNT)
UNIQUE_COUNTERS = _params(Capability.UNIQUE)
OPTIMIZERS = _params(Capability.OPTIMIZE)
GIVEN_SOLVERS = [p for p in SOLVERS if Capability.GIVENS in backend_class(p.values[0]).capabilities]
#: Complete methods: they may prove that there is no solution.
COMPLETE_SOLVERS = [p for p in SOLVERS if backend_class(p.values[0]).family != Family.HEURISTIC]
#: Per-backend ceilings on n where a full count or enumeration gets slow.
MAX_COUNT_N = {"milp": 7, "hill-climbing": 0}


def _count_range(name: str, top: int) -> list[int]:
    return list(range(1, min(top, MAX_COUNT_N.get(name, top)) + 1))


def test_every_backend_is_covered_by_the_harness():
    tested = {Capability.SOLVE, Capability.ENUMERATE, Capability.COUNT, Capability.OPTIMIZE}
    covered = {p.values[0] for group in (SOLVERS, ENUMERATORS, COUNTERS, OPTIMIZERS) for p in group}
    for name in ALL:
        assert backend_class(name).capabilities & tested, f"{name} offers nothing to test"
        assert name in covered, f"{name} is registered but not covered by the harness"


@pytest.mark.parametrize("name", SOLVERS)
@pytest.mark.parametrize("n", [1, 4, 5, 6, 7, 8, 9, 10, 12])
def test_solve_returns_a_valid_placement(name, n):
    try:
        result = ql.solve(n, name, seed=7, time_limit=60)
    except UsageError as exc:  # a construction may not cover every n; it must say so
        assert backend_class(name).family == Family.HEURISTIC, exc
        return
    assert result.status == ql.Status.SOLVED, result
    assert oracle.is_solution(list(result.placement), n)


@pytest.mark.parametrize("name", COMPLETE_SOLVERS)
@pytest.mark.parametrize("n", [2, 3])
def test_complete_backends_prove_small_boards_infeasible(name, n):
    result = ql.solve(n, name, time_limit=60)
    assert result.status == ql.Status.INFEASIBLE
    assert result.placement is None


@pytest.mark.parametrize("name", [p for p in SOLVERS if p not in COMPLETE_SOLVERS])
@pytest.mark.parametrize("n", [2, 3])
def test_heuristics_never_claim_infeasible(name, n):
    try:
        result = ql.solve(n, name, seed=1, time_limit=1)
    except UsageError:
        return  # a construction that does not cover n says so instead
    assert result.status in (ql.Status.UNKNOWN, ql.Status.LIMIT)


@pytest.mark.parametrize("name", SOLVERS)
def test_same_seed_same_answer(name):
    n = 12
    try:
        first = ql.solve(n, name, seed=2024, time_limit=60)
    except UsageError:
        pytest.skip(f"{name} does not cover n={n}")
    second = ql.solve(n, name, seed=2024, time_limit=60)
    assert first.placement == second.placement


@st.composite
def feasible_givens(draw, max_n: int = 8):
    """A board size and some queens of one of its solutions (so a completion exists)."""
    n = draw(st.integers(4, max_n))
    solution = draw(st.sampled_from(oracle.all_solutions(n)))
    rows = draw(st.sets(st.integers(0, n - 1), max_size=n - 1))
    return n, tuple((r, solution[r]) for r in sorted(rows))


@st.composite
def any_givens(draw, max_n: int = 7):
    """Non-attacking givens that may or may not have a completion."""
    n = draw(st.integers(4, max_n))
    rows = draw(st.lists(st.integers(0, n - 1), unique=True, max_size=3))
    placed: list[tuple[int, int]] = []
    for r in rows:
        c = draw(st.integers(0, n - 1))
        if all(c != c2 and abs(r - r2) != abs(c - c2) for r2, c2 in placed):
            placed.append((r, c))
    return n, tuple(placed)


@pytest.mark.parametrize("name", GIVEN_SOLVERS)
@given(case=feasible_givens())
def test_given_queens_are_kept(name, case):
    n, givens = case
    result = ql.solve(n, name, givens=givens, seed=3, time_limit=60)
    assert result.status == ql.Status.SOLVED
    assert oracle.is_solution(list(result.placement), n)
    assert all(result.placement[r] == c for r, c in givens)


@pytest.mark.parametrize("name", [p for p in GIVEN_SOLVERS if p in COMPLETE_SOLVERS])
@given(case=any_givens())
def test_completion_agrees_with_brute_force(name, case):
    n, givens = case
    result = ql.solve(n, name, givens=givens, time_limit=60)
    expected = bool(oracle.all_solutions(n, givens))
    assert result.status == (ql.Status.SOLVED if expected else ql.Status.INFEASIBLE)


@pytest.mark.parametrize("name", ENUMERATORS)
def test_enumeration_is_complete_distinct_and_valid(name):
    for n in _count_range(name, 8):
        found = [tuple(p) for p in ql.enumerate_solutions(n, name)]
        assert len(found) == len(set(found)), f"{name} repeated a solution at n={n}"
        assert all(oracle.is_solution(p, n) for p in found)
        assert len(found) == reference.total(n)


@pytest.mark.parametrize(
    "name", [p for p in ENUMERATORS if Capability.GIVENS in backend_class(p.values[0]).capabilities]
)
@given(case=any_givens(max_n=7))
def test_enumeration_with_givens_matches_brute_force(name, case):
    n, givens = case
    found = sorted(tuple(p) for p in ql.enumerate_solutions(n, name, givens=givens))
    assert found == sorted(oracle.all_solutions(n, givens))


@pytest.mark.parametrize("name", COUNTERS)
def test_counts_match_oeis(name):
    for n in _count_range(name, 9):
        assert ql.count(n, name).total == reference.total(n), f"{name} n={n}"


@pytest.mark.parametrize("name", UNIQUE_COUNTERS)
def test_unique_counts_match_oeis(name):
    for n in _count_range(name, 9):
        result = ql.count(n, name, unique=True)
        assert (result.total, result.unique) == (reference.total(n), reference.unique(n))


@pytest.mark.parametrize("name", ENUMERATORS)
def test_orbits_add_up_to_the_count(name):
    n = min(8, MAX_COUNT_N.get(name, 8))
    classes: dict[tuple[int, ...], int] = {}
    for placement in ql.enumerate_solutions(n, name):
        images = oracle.images(tuple(placement))
        assert all(oracle.is_solution(im, n) for im in images)
        assert {tuple(p) for p in placement.symmetries()} == set(images)
        classes[tuple(placement.canonical())] = len(set(images))
        assert placement.orbit_size() == len(set(images))
    assert sum(classes.values()) == reference.total(n)
    assert len(classes) == reference.unique(n)


@pytest.mark.parametrize("name", OPTIMIZERS)
@pytest.mark.parametrize("seed", [0, 1])
def test_optimize_reaches_the_brute_force_optimum(name, seed):
    rng = random.Random(seed)
    for n in (4, 5, 6):
        weights = np.array([[rng.randint(-9, 20) for _ in range(n)] for _ in range(n)])
        result = ql.optimize(n, weights, name, time_limit=60)
        assert result.status == ql.Status.OPTIMAL
        assert result.objective == oracle.best_weight(n, weights)
