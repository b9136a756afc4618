"""The common harness: every registered backend, on every board variant it declares.

Parametrized from the registry, so a new backend (or variant) is tested here without
touching this file. Answers are checked by the naive oracle (tests/oracle.py) and against
the published OEIS tables; random blocked cells and givens are drawn by Hypothesis. The
variants beyond the standard board, the portfolio (checked by its unit tests), the sizes
in ``SLOW`` and the solve-side draws of ``SLOW_DRAWS`` are slow tests.
"""

from __future__ import annotations

import random
import re

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import queenslab as ql
from queenslab.core.backend import Family, Feature, Task
from queenslab.core.errors import UsageError
from queenslab.lab import reference
from queenslab.registry import backend_class, names
from tests import oracle
from tests.conftest import harness_marks

ALL = names()
#: Board sizes with solutions, and without, per variant (small enough for every method).
SOLVABLE = {"standard": [1, 4, 5, 6, 7, 8, 9, 10, 12], "toroidal": [1, 5, 7, 11, 13],
            "superqueens": [1, 10, 11]}  # fmt: skip
UNSOLVABLE = {"standard": [2, 3], "toroidal": [4, 6], "superqueens": [5, 8]}
#: A 10 x 10 super-queens solution, the smallest size with one (checked by the oracle).
SUPERQUEENS_10 = (2, 5, 8, 0, 3, 6, 9, 1, 4, 7)
#: Per-backend ceilings on n where a full count or enumeration gets slow.
MAX_COUNT_N = {"milp": 7, "hill-climbing": 0}
#: Sizes a backend counts slowly on a variant, counted by a slow case of their own: Ganak
#: takes 5 CPU s for the 352 solutions of n = 9 (more than n = 1..8 together), 34 s for the
#: 88 toroidal ones of n = 11 and 8 s for the 44 super-queens ones.
SLOW = {("sharpsat", "standard"): {9}, ("sharpsat", "toroidal"): {11},
        ("sharpsat", "superqueens"): {11}}  # fmt: skip


def _cases(task: Task, *, needs: tuple[Feature, ...] = ()) -> list:
    """(backend, variant) pairs; unavailable backends are shown as skipped, never dropped,
    and variants other than the standard board and the racers are slow tests."""
    cases = []
    for name in ALL:
        cls = backend_class(name)
        if not cls.searches_itself(task, "placement") or not set(needs) <= cls.features:
            continue
        for variant in sorted(cls.variants):
            cases.append(
                pytest.param(
                    name, variant, id=f"{name}-{variant}", marks=harness_marks(name, variant)
                )
            )
    return cases


def _complete(name: str) -> bool:
    return backend_class(name).family != Family.HEURISTIC


def _blocked_capable(task: Task, complete: bool = False) -> list:
    """Backends that take blocked cells (and givens) for ``task``."""
    return [
        p.values[0]
        for p in _cases(task, needs=(Feature.BLOCKED,))
        if p.values[1] == "standard" and (_complete(p.values[0]) or not complete)
    ]


#: Backends whose three solve-side property tests are slow tests: Hypothesis draws 25 boards
#: for each, and milp starts its solver per board (8 CPU s for the three); its counts and
#: enumerations with blocked cells and givens, against brute force, stay in the default suite.
SLOW_DRAWS = frozenset({"milp"})


def _drawn(cases: list) -> list:
    """``cases`` (backend names, or params whose first value is one) with ``SLOW_DRAWS``
    marked slow."""
    params = [pytest.param(c, id=c) if isinstance(c, str) else c for c in cases]
    return [
        pytest.param(*p.values, id=p.id, marks=(*p.marks, pytest.mark.slow))
        if p.values[0] in SLOW_DRAWS
        else p
        for p in params
    ]


def _count_range(name: str, top: int) -> list[int]:
    return list(range(1, min(top, MAX_COUNT_N.get(name, top)) + 1))


def test_every_backend_and_variant_is_covered_by_the_harness():
    tested = {Task.SOLVE, Task.ENUMERATE, Task.COUNT, Task.OPTIMIZE}
    covered = {(p.values[0], p.values[1]) for task in tested for p in _cases(task)}
    for name in ALL:
        cls = backend_class(name)
        assert any(cls.tasks.values()), f"{name} offers nothing to test"
        if not any(cls.searches_itself(task, "placement") for task in tested):
            continue  # kinds only: tests/harness/test_kind_backends.py covers it
        for variant in cls.variants:
            assert variant in ql.VARIANTS, f"{name} declares an unknown variant {variant}"
            assert (name, variant) in covered, f"{name} on {variant} is not covered"


@pytest.mark.parametrize(("name", "variant"), _cases(Task.SOLVE))
def test_solve_returns_a_valid_placement(name, variant):
    for n in SOLVABLE[variant]:
        try:
            result = ql.solve(n, name, variant=variant, seed=7, time_limit=60)
        except UsageError as exc:  # a construction may not cover every n; it must say so
            assert not _complete(name), exc
            continue
        assert result.status == ql.Status.SOLVED, (n, result)
        assert result.variant == variant
        assert oracle.is_solution(list(result.placement), n, variant)


@pytest.mark.parametrize(("name", "variant"), _cases(Task.SOLVE))
def test_unsolvable_boards(name, variant):
    """Complete methods prove it; heuristics never claim it."""
    for n in UNSOLVABLE[variant]:
        try:
            result = ql.solve(
                n, name, variant=variant, seed=1, time_limit=60 if _complete(name) else 1
            )
        except UsageError as exc:  # a construction may refuse a size: it must name it
            assert not _complete(name), exc
            assert re.search(rf"(n ?= ?|got ){n}\b", str(exc)), exc
            continue
        if _complete(name):
            assert result.status == ql.Status.INFEASIBLE, (n, result)
        else:
            assert result.status in (ql.Status.UNKNOWN, ql.Status.LIMIT), (n, result)
        assert result.placement is None


@pytest.mark.parametrize(("name", "variant"), _cases(Task.SOLVE))
def test_same_seed_same_answer(name, variant):
    n = SOLVABLE[variant][-1]
    try:
        first = ql.solve(n, name, variant=variant, seed=2024, time_limit=60)
    except UsageError:
        pytest.skip(f"{name} does not cover n={n}")
    second = ql.solve(n, name, variant=variant, seed=2024, time_limit=60)
    assert first.placement == second.placement


@st.composite
def boards_with_blocks(draw, max_n: int = 7, feasible: bool = False):
    """A variant, a size, blocked cells and givens (a completion exists when ``feasible``)."""
    variant = draw(st.sampled_from(oracle.VARIANTS))
    n = draw(st.integers(4, max_n))
    cells = [(r, c) for r in range(n) for c in range(n)]
    if feasible:
        if variant == "superqueens":
            variant = "standard"  # no super-queens board below n = 10 has a solution
        solutions = oracle.all_solutions(n, (), variant)
        if not solutions:
            variant, n = "standard", 6
            solutions = oracle.all_solutions(n)
            cells = [(r, c) for r in range(n) for c in range(n)]
        solution = draw(st.sampled_from(solutions))
        occupied = set(enumerate(solution))
        blocked = draw(
            st.sets(st.sampled_from([x for x in cells if x not in occupied]), max_size=n)
        )
        rows = draw(st.sets(st.integers(0, n - 1), max_size=n - 1))
        givens = tuple((r, solution[r]) for r in sorted(rows))
        return variant, n, tuple(sorted(blocked)), givens
    blocked = draw(st.sets(st.sampled_from(cells), max_size=n))
    placed: list[tuple[int, int]] = []
    for r in draw(st.lists(st.integers(0, n - 1), unique=True, max_size=2)):
        c = draw(st.integers(0, n - 1))
        if (r, c) not in blocked and not any(oracle.attack(n, variant, p, (r, c)) for p in placed):
            placed.append((r, c))
    return variant, n, tuple(sorted(blocked)), tuple(placed)


def _takes(name: str, variant: str, blocked, givens) -> bool:
    cls = backend_class(name)
    needs = ({Feature.BLOCKED} if blocked else set()) | ({Feature.GIVENS} if givens else set())
    return variant in cls.variants and needs <= cls.features


@pytest.mark.parametrize("name", _drawn(_blocked_capable(Task.SOLVE)))
@given(case=boards_with_blocks(feasible=True))
def test_blocked_cells_and_givens_are_kept(name, case):
    variant, n, blocked, givens = case
    assume(_takes(name, variant, blocked, givens))
    result = ql.solve(n, name, variant=variant, blocked=blocked, givens=givens, seed=3,
                      time_limit=60)  # fmt: skip
    assert result.status == ql.Status.SOLVED, result
    assert oracle.is_solution(list(result.placement), n, variant, blocked)
    assert all(result.placement[r] == c for r, c in givens)


@pytest.mark.parametrize("name", _drawn(_blocked_capable(Task.SOLVE, complete=True)))
@given(case=boards_with_blocks())
def test_completion_agrees_with_brute_force(name, case):
    variant, n, blocked, givens = case
    assume(_takes(name, variant, blocked, givens))
    result = ql.solve(n, name, variant=variant, blocked=blocked, givens=givens, time_limit=60)
    expected = bool(oracle.all_solutions(n, givens, variant, blocked))
    assert result.status == (ql.Status.SOLVED if expected else ql.Status.INFEASIBLE)


@pytest.mark.parametrize(("name", "variant"), _drawn(_cases(Task.SOLVE, needs=(Feature.GIVENS,))))
@given(data=st.data())
def test_given_queens_are_kept(name, variant, data):
    n = data.draw(st.sampled_from([m for m in SOLVABLE[variant] if 4 <= m <= 8] or [10]))
    # super-queens have none below n = 10, where the oracle takes minutes for all of them
    solutions = oracle.all_solutions(n, (), variant) if n <= 8 else [SUPERQUEENS_10]
    solution = data.draw(st.sampled_from(solutions))
    rows = data.draw(st.sets(st.integers(0, n - 1), max_size=n - 1))
    givens = tuple((r, solution[r]) for r in sorted(rows))
    result = ql.solve(n, name, variant=variant, givens=givens, seed=3, time_limit=60)
    assert result.status == ql.Status.SOLVED
    assert oracle.is_solution(list(result.placement), n, variant)
    assert all(result.placement[r] == c for r, c in givens)


@pytest.mark.parametrize(("name", "variant"), _cases(Task.ENUMERATE))
def test_enumeration_is_complete_distinct_and_valid(name, variant):
    for n in _count_range(name, 8):
        found = [tuple(p) for p in ql.enumerate_solutions(n, name, variant=variant)]
        assert len(found) == len(set(found)), f"{name} repeated a solution at n={n}"
        assert sorted(found) == oracle.all_solutions(n, (), variant)


@pytest.mark.parametrize("name", _blocked_capable(Task.ENUMERATE))
@given(case=boards_with_blocks(max_n=6))
def test_enumeration_with_blocks_and_givens_matches_brute_force(name, case):
    variant, n, blocked, givens = case
    assume(_takes(name, variant, blocked, givens))
    found = sorted(tuple(p) for p in ql.enumerate_solutions(
        n, name, variant=variant, blocked=blocked, givens=givens))  # fmt: skip
    assert found == oracle.all_solutions(n, givens, variant, blocked)


def _oeis_cases() -> list:
    """``_cases(Task.COUNT)`` with its sizes outside ``SLOW``, and a slow case per pair of
    ``SLOW`` with those sizes."""
    cases = []
    for case in _cases(Task.COUNT):
        cases.append(pytest.param(*case.values, False, id=case.id, marks=case.marks))
        if tuple(case.values) in SLOW:
            marks = (*case.marks, pytest.mark.slow)
            cases.append(pytest.param(*case.values, True, id=f"{case.id}-slow", marks=marks))
    return cases


@pytest.mark.parametrize(("name", "variant", "slow_sizes"), _oeis_cases())
def test_counts_match_oeis(name, variant, slow_sizes):
    top = {"standard": 9, "toroidal": 11, "superqueens": 11}[variant]
    sizes, slow = set(_count_range(name, top)), SLOW.get((name, variant), set())
    for n in sorted(sizes & slow if slow_sizes else sizes - slow):
        assert ql.count(n, name, variant=variant).total == reference.total(n, variant), n


@pytest.mark.parametrize(("name", "variant"), _cases(Task.COUNT, needs=(Feature.UNIQUE,)))
def test_unique_counts_match_oeis_or_brute_force(name, variant):
    for n in _count_range(name, 9 if variant == "standard" else 8):
        result = ql.count(n, name, variant=variant, unique=True)
        expected = reference.unique(n, variant)
        if expected is None:
            expected = oracle.unique_count(n, variant)
        assert (result.total, result.unique) == (reference.total(n, variant), expected), n


@pytest.mark.parametrize("name", _blocked_capable(Task.COUNT))
@given(case=boards_with_blocks(max_n=6))
def test_counts_with_blocks_and_givens_match_brute_force(name, case):
    variant, n, blocked, givens = case
    assume(_takes(name, variant, blocked, givens))
    result = ql.count(n, name, variant=variant, blocked=blocked, givens=givens)
    assert result.total == len(oracle.all_solutions(n, givens, variant, blocked))
    if Feature.UNIQUE in backend_class(name).features and not givens:
        classes = ql.count(n, name, variant=variant, blocked=blocked, unique=True).unique
        assert classes == oracle.unique_count(n, variant, blocked)


@pytest.mark.parametrize(("name", "variant"), _cases(Task.ENUMERATE))
def test_orbits_add_up_to_the_count(name, variant):
    n = min(8, MAX_COUNT_N.get(name, 8))
    classes: dict[tuple[int, ...], int] = {}
    for placement in ql.enumerate_solutions(n, name, variant=variant):
        images = oracle.images(tuple(placement))
        assert all(oracle.is_solution(im, n, variant) for im in images)
        assert {tuple(p) for p in placement.symmetries()} == set(images)
        classes[tuple(placement.canonical())] = len(set(images))
        assert placement.orbit_size() == len(set(images))
    assert sum(classes.values()) == len(oracle.all_solutions(n, (), variant))


@pytest.mark.parametrize(("name", "variant"), _cases(Task.OPTIMIZE))
@pytest.mark.parametrize("seed", [0, 1])
def test_optimize_reaches_the_brute_force_optimum(name, variant, seed):
    rng = random.Random(seed)
    sizes = [n for n in range(4, 8) if oracle.all_solutions(n, (), variant)][:3] or [5]
    for n in sizes:
        weights = np.array([[rng.randint(-9, 20) for _ in range(n)] for _ in range(n)])
        blocked = (
            ((0, rng.randrange(n)),) if Feature.BLOCKED in backend_class(name).features else ()
        )
        best = oracle.best_weight(n, weights, variant, blocked)
        result = ql.optimize(n, weights, name, variant=variant, blocked=blocked, time_limit=60)
        if best is None:
            assert result.status == ql.Status.INFEASIBLE
            continue
        assert result.status == ql.Status.OPTIMAL
        assert result.objective == best


def test_the_super_queens_solution_given_is_one():
    assert oracle.is_solution(list(SUPERQUEENS_10), 10, "superqueens")
