"""The ``cpsat`` backend: both formulations, streamed enumeration, cubes, limits, optimum."""

from __future__ import annotations

import itertools
import threading

import numpy as np
import pytest

import queenslab as ql
from queenslab.core.errors import LimitReached, UsageError
from queenslab.models.cpsat import FORMULATIONS
from tests import oracle

pytestmark = pytest.mark.parametrize("formulation", FORMULATIONS)


def test_enumerate_8_gives_the_92_solutions_once_each(formulation):
    found = [tuple(p) for p in ql.enumerate_solutions(8, "cpsat", formulation=formulation)]
    assert len(found) == len(set(found)) == 92
    assert all(oracle.is_solution(p, 8) for p in found)


@pytest.mark.parametrize("workers", [1, 2])
def test_count_10(formulation, workers):
    assert ql.count(10, "cpsat", formulation=formulation, workers=workers).total == 724


def test_solve_24_and_infeasible_boards(formulation):
    result = ql.solve(24, "cpsat", formulation=formulation, time_limit=60)
    assert oracle.is_solution(list(result.placement), 24)
    for n, givens in [(2, ()), (3, ()), (4, ((0, 0),)), (6, ((0, 0), (1, 2)))]:
        result = ql.solve(n, "cpsat", formulation=formulation, givens=givens)
        assert result.status == ql.Status.INFEASIBLE


def test_givens_agree_with_brute_force(formulation):
    for n, givens in [(6, ((1, 3),)), (7, ((0, 0), (6, 5))), (8, ((2, 4), (5, 0)))]:
        expected = oracle.all_solutions(n, givens)
        found = [tuple(p) for p in ql.enumerate_solutions(n, "cpsat", givens=givens)]
        assert sorted(found) == sorted(expected)
        counted = ql.count(n, "cpsat", formulation=formulation, givens=givens).total
        assert counted == len(expected)


def test_time_limits_end_in_limit(formulation):
    assert ql.solve(300, "cpsat", formulation=formulation, time_limit=0.001).status in (
        ql.Status.LIMIT,
        ql.Status.SOLVED,  # CP-SAT may already hold an answer when it looks at the clock
    )
    counted = ql.count(13, "cpsat", formulation=formulation, time_limit=0.01, workers=2)
    assert counted.status == ql.Status.LIMIT and counted.total is None
    with pytest.raises(LimitReached):
        for _ in ql.enumerate_solutions(14, "cpsat", formulation=formulation, time_limit=0.05):
            pass


def test_abandoned_enumeration_stops_its_solver_thread(formulation):
    stream = ql.enumerate_solutions(16, "cpsat", formulation=formulation)
    first = list(itertools.islice(stream, 300))  # more than the queue holds
    stream.close()
    assert len(set(map(tuple, first))) == 300
    left = [t for t in threading.enumerate() if t.name.startswith(("cpsat-enumerate", "cubes"))]
    assert not left


def test_optimize_agrees_with_brute_force(formulation):
    """Weighted placement is the kind's model, optimised as every kind's: the placement
    searches' ``formulation`` is refused there in one line, not silently ignored."""
    with pytest.raises(UsageError, match="formulation"):
        ql.optimize(5, np.ones((5, 5), int), "cpsat", formulation=formulation)
    rng = np.random.default_rng(5)
    for n in (5, 6, 7):
        weights = rng.integers(-20, 30, size=(n, n))
        result = ql.optimize(n, weights, "cpsat")
        assert result.status == ql.Status.OPTIMAL
        assert result.objective == oracle.best_weight(n, weights)


def test_invalid_formulation_names_the_choices(formulation):
    with pytest.raises(UsageError, match="integer, boolean"):
        ql.solve(8, "cpsat", formulation=formulation + "x")


def test_a_model_build_stops_when_asked(formulation):
    """A big board's model takes seconds to post: the build looks at ``should_stop``."""
    from queenslab.core.problem import Problem
    from queenslab.models.cpsat import build

    with pytest.raises(LimitReached):
        build(Problem(12), formulation, lambda: True)
    assert build(Problem(12), formulation).decisions


def test_any_whole_seed_is_taken(formulation):
    """CP-SAT's seed is a 32-bit int: a seed from 2^31 on was a raw TypeError."""
    result = ql.solve(8, "cpsat", seed=10**20, formulation=formulation)
    assert result.status == ql.Status.SOLVED
    again = ql.solve(8, "cpsat", seed=10**20 % 2**31, formulation=formulation)
    assert result.placement == again.placement
