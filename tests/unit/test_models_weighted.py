"""MaxSAT proves weighted optima that need large weights: random 0..10^6 at n = 8.

One soft clause per cell with its own weight left RC2 without a proof for minutes; the
reduced assignment costs (queenslab.models.maxsat) prove it in a fraction of a second. A
limit far above that catches a regression without timing anything.
"""

from __future__ import annotations

import numpy as np
import pytest

import queenslab as ql
from queenslab.registry import info

pytestmark = pytest.mark.skipif(not info("maxsat").available, reason="python-sat missing")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_large_weights_are_proven_optimal(seed):
    weights = np.random.default_rng(seed).integers(0, 10**6, size=(8, 8), endpoint=True)
    found = ql.optimize(8, weights, "maxsat", time_limit=60)
    assert found.status == ql.Status.OPTIMAL
    assert found.objective == ql.optimize(8, weights, "bitmask").objective


def test_negative_weights_and_blocked_cells_keep_the_optimum():
    weights = np.random.default_rng(4).integers(-(10**6), 10**6, size=(7, 7), endpoint=True)
    blocked = [(0, 0), (3, 4), (6, 2)]
    found = ql.optimize(7, weights, "maxsat", blocked=blocked, time_limit=60)
    assert found.status == ql.Status.OPTIMAL
    assert found.objective == ql.optimize(7, weights, "bitmask", blocked=blocked).objective
