"""The armies search's bounds against brute force on small cases: the knapsack cut at a
node of a part's search (``armies_kernel.meets``), and the bound of an optimisation that
falls as the classes of row colourings are refuted (``Plan.order``)."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import queenslab as ql
from queenslab.boards import board
from queenslab.exact import armies_kernel
from queenslab.exact.armies_plan import Plan
from tests import kind_oracle


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


@pytest.mark.parametrize("n", [1, 2, 5, 8, 11])
def test_the_order_hands_out_every_row_colouring_once_the_largest_bound_first(n):
    plan = Plan.of(board(n))
    order = list(plan.order())
    assert sorted(order) == list(plan.jobs())
    bounds = [plan.row_bound(rows) for rows in order]
    assert bounds == sorted(bounds, reverse=True)


@pytest.mark.parametrize("n", [3, 4, 5, 8])
def test_the_bound_falls_during_the_proof_and_never_below_the_optimum(n):
    """Each bound an optimisation tells is at least the optimum (the brute force's where
    it reaches) and below the one before; at n = 8 it falls class by class during the last
    round (it used to go from the rectangle bound to the optimum at the round's end)."""
    told = []

    def news(event, what, _seconds):
        if event == "bound":
            told.append(what.bound)

    result = ql.optimize(n, kind="peaceable", backend="armies", workers=1, on_news=news)
    best = result.objective if n > kind_oracle.MAX_N else kind_oracle.optimum("peaceable", n)[0]
    assert result.objective == best and told[-1] == best
    assert all(bound >= best for bound in told)
    assert told[:-1] == sorted(set(told[:-1]), reverse=True)  # the last repeats the optimum
    if n == 8:
        assert len(told) > 3
