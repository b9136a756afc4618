"""Min-conflicts on the torus: Pólya's starts, breakout repair, givens and blocked cells."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import queenslab as ql
from queenslab.heuristics.torus import multiplier, solve_torus
from tests import oracle


def wrapped_lines_hold_one_queen(cols: np.ndarray) -> bool:
    """Every column and wrapped diagonal holds exactly one queen (NumPy, not the kernel)."""
    n = cols.size
    rows = np.arange(n)
    cols = cols.astype(np.int64)
    keys = (cols, (rows + cols) % n, (cols - rows) % n)
    return all(np.bincount(key, minlength=n).max() == 1 for key in keys)


def is_linear(cols: tuple[int, ...]) -> bool:
    n = len(cols)
    return len({(cols[(r + 1) % n] - cols[r]) % n for r in range(n)}) == 1


@pytest.fixture(scope="module")
def nonlinear_13() -> list[tuple[int, ...]]:
    """Toroidal solutions of 13 that no start c = a*r + b is (so givens from them need repair)."""
    every = (tuple(p) for p in ql.enumerate_solutions(13, "bitmask", variant="toroidal"))
    return [cols for cols in every if not is_linear(cols)]


@pytest.mark.parametrize("n", [29, 31, 35, 37, 101, 1001])
def test_sizes_where_swaps_stalled_are_solved(n):
    """QS4's swaps stalled on these tori; before the torus search the variant was refused."""
    result = ql.solve(n, "min-conflicts", variant="toroidal", seed=n)
    assert result.status == ql.Status.SOLVED
    assert wrapped_lines_hold_one_queen(np.array(list(result.placement)))


def test_a_million_queens_on_a_torus():
    cols = solve_torus(1_000_003, seed=1).cols
    assert cols is not None and wrapped_lines_hold_one_queen(cols)


@pytest.mark.parametrize("n", [4, 6, 9, 12, 15])
def test_no_search_where_polya_says_there_is_no_placement(n):
    outcome = solve_torus(n, seed=1, restarts=1000)
    assert outcome.cols is None and not outcome.stopped
    assert outcome.stats == {"restarts": 0, "moves": 0}


def test_givens_from_nonlinear_solutions_are_repaired(nonlinear_13):
    rng = random.Random(13)
    moves = 0
    for seed in range(20):
        solution = rng.choice(nonlinear_13)
        givens = [(r, solution[r]) for r in sorted(rng.sample(range(13), 4))]
        outcome = solve_torus(13, seed, givens)
        assert outcome.cols is not None, givens
        assert oracle.is_solution(list(outcome.cols), 13, "toroidal")
        assert all(outcome.cols[r] == c for r, c in givens)
        moves += outcome.stats["moves"]
    assert moves > 0  # some of these givens fit no linear start: the repair ran


def test_givens_and_blocked_cells_together(nonlinear_13):
    rng = random.Random(7)
    for seed in range(20):
        solution = rng.choice(nonlinear_13)
        givens = [(r, solution[r]) for r in sorted(rng.sample(range(13), 3))]
        free = [(r, c) for r, c in itertools.product(range(13), repeat=2) if solution[r] != c]
        blocked = sorted(rng.sample(free, 13))
        result = ql.solve(13, "min-conflicts", variant="toroidal", givens=givens,
                          blocked=blocked, seed=seed)  # fmt: skip
        assert result.status == ql.Status.SOLVED
        assert oracle.is_solution(list(result.placement), 13, "toroidal", blocked)


def test_many_blocked_cells_on_a_big_torus():
    n = 211
    rng = random.Random(3)
    blocked = sorted({(rng.randrange(n), rng.randrange(n)) for _ in range(2 * n)})
    result = ql.solve(n, "min-conflicts", variant="toroidal", blocked=blocked, seed=4)
    assert result.status == ql.Status.SOLVED
    assert oracle.is_solution(list(result.placement), n, "toroidal", blocked)


def test_multipliers_keep_their_neighbours_prime_to_n():
    rng = np.random.default_rng(0)
    for n in (5, 7, 25, 35, 143, 1001):
        for _ in range(50):
            a = multiplier(n, rng)
            assert all(np.gcd((a + d) % n, n) == 1 for d in (-1, 0, 1))


def test_a_stop_ends_a_repair_that_cannot_finish():
    """A blocked column leaves no placement: the repair runs until told to stop, or gives up."""
    column = [(r, 0) for r in range(29)]
    asked = itertools.count()
    outcome = solve_torus(29, 1, blocked=column, should_stop=lambda: next(asked) == 3)
    assert outcome.cols is None and outcome.stopped
    assert outcome.stats["moves"] > 0
    gave_up = solve_torus(29, 1, blocked=column, restarts=2)
    assert gave_up.cols is None and not gave_up.stopped
    assert gave_up.stats["restarts"] == 1
