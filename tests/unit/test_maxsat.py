"""The ``maxsat`` backend: RC2 reaches the brute-force optimum, negative weights included."""

from __future__ import annotations

import numpy as np
import pytest

import queenslab as ql
from queenslab.models.cnf import ENCODINGS
from tests import oracle


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_optimum_matches_brute_force(seed):
    rng = np.random.default_rng(seed)
    for n in (5, 6, 7):
        weights = rng.integers(-15, 25, size=(n, n))
        result = ql.optimize(n, weights, "maxsat")
        assert result.status == ql.Status.OPTIMAL
        assert result.objective == oracle.best_weight(n, weights)


def test_all_negative_weights_and_every_encoding():
    weights = -np.arange(36).reshape(6, 6)
    best = oracle.best_weight(6, weights)
    for encoding in ENCODINGS:
        assert ql.optimize(6, weights, "maxsat", encoding=encoding).objective == best


def test_givens_and_infeasible_boards():
    weights = np.ones((6, 6), dtype=np.int64)
    weights[0, 0] = 100
    result = ql.optimize(6, weights, "maxsat", givens=[(0, 1)])
    assert result.placement[0] == 1 and result.objective == 6
    assert ql.optimize(3, np.ones((3, 3)), "maxsat").status == ql.Status.INFEASIBLE
    assert ql.optimize(4, np.ones((4, 4)), "maxsat", givens=[(0, 0)]).status == (
        ql.Status.INFEASIBLE
    )


def test_time_limit_and_infeasible_board():
    weights = np.random.default_rng(0).integers(-50, 100, (16, 16))
    stopped = ql.optimize(16, weights, "maxsat", time_limit=0.5)
    # a limit, with the best board the oracle's models gave on the way when there was one
    assert stopped.status in (ql.Status.LIMIT, ql.Status.FEASIBLE)
    if stopped.status is ql.Status.FEASIBLE:
        assert stopped.placement.is_valid() and stopped.objective <= stopped.bound
    assert ql.optimize(3, np.ones((3, 3), int), "maxsat").status == ql.Status.INFEASIBLE
