"""The armies search's bounds against brute force on small cases: the knapsack cut at a
node of a part's search (``armies_kernel.meets``)."""

from __future__ import annotations

import itertools
import random

import numpy as np

from queenslab.exact import armies_kernel


def _meets_by_brute_force(gains_w, gains_b, cap, needs):
    """Whether some colouring of the lines (each gives its white or its black) meets a
    requirement, white counts capped at ``cap`` as the kernel caps them."""
    for colours in itertools.product((0, 1), repeat=len(gains_w)):
        white = min(cap, sum(w for w, c in zip(gains_w, colours, strict=True) if c))
        black = sum(b for b, c in zip(gains_b, colours, strict=True) if not c)
        if any(white >= need_w and black >= need_b for need_w, need_b in needs):
            return True
    return False


def test_the_knapsack_cut_is_exact_for_its_gains():
    """``meets`` says yes exactly when some colouring of the other side's lines meets a
    requirement: the cut loses no subset that could help, and keeps none that cannot."""
    rng = random.Random(3)
    for _ in range(300):
        count = rng.randint(1, 6)
        cap = rng.randint(1, 12)
        gains_w = np.array([rng.randint(0, 4) for _ in range(count)], np.int64)
        gains_b = np.array([rng.randint(0, 4) for _ in range(count)], np.int64)
        needs = [(rng.randint(0, cap), rng.randint(0, 12)) for _ in range(rng.randint(1, 3))]
        need_w = np.array([w for w, _ in needs], np.int64)
        need_b = np.array([b for _, b in needs], np.int64)
        g, h = np.empty(cap + 1, np.int64), np.empty(cap + 1, np.int64)
        found = armies_kernel.meets(gains_w, gains_b, count, cap, need_w, need_b, len(needs), g, h)
        assert found == _meets_by_brute_force(gains_w, gains_b, cap, needs), (gains_w, needs)
