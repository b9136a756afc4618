"""Heuristics and constructions: validity at scale, seeds, givens, and the seeds' claims."""

from __future__ import annotations

import numpy as np
import pytest

import queenslab as ql
from queenslab.core.errors import UsageError
from queenslab.core.placement import Placement
from queenslab.heuristics import divide_conquer as dc
from queenslab.heuristics.explicit import explicit_columns
from tests import oracle

#: The 111-queens board printed by seed 000 as the output of its divide and conquer.
SEED_111 = [
    0, 2, 4, 6, 1, 3, 5, 33, 35, 37, 34, 36, 41, 43, 45, 47, 53, 55, 57, 52, 54, 56, 58, 42,
    39, 48, 44, 40, 38, 50, 46, 51, 49, 85, 87, 89, 86, 88, 93, 95, 97, 99, 105, 107, 109,
    104, 106, 108, 110, 94, 91, 100, 96, 92, 90, 102, 98, 103, 101, 7, 9, 11, 8, 10, 15, 17,
    19, 21, 27, 29, 31, 26, 28, 30, 32, 16, 13, 22, 18, 14, 12, 24, 20, 25, 23, 59, 61, 63,
    60, 62, 67, 69, 71, 73, 79, 81, 83, 78, 80, 82, 84, 68, 65, 74, 70, 66, 64, 76, 72, 77, 75,
]  # fmt: skip
#: Seed 000's base boards for 8, 9 and 10, which it composes into a 720 board.
SEED_8 = [0, 4, 7, 5, 2, 6, 1, 3]
SEED_9 = [0, 2, 5, 7, 1, 3, 8, 6, 4]
SEED_10 = [0, 2, 5, 7, 9, 4, 8, 1, 3, 6]


def is_toroidal(cols: np.ndarray) -> bool:
    """No two queens share a column or a wrapped diagonal (checked naively by sets)."""
    n = len(cols)
    rows = np.arange(n)
    return (
        all(len(set(((rows + s * cols) % n).tolist())) == n for s in (0, 1, -1))
        and len(set(cols.tolist())) == n
    )


# -- explicit ---------------------------------------------------------------------------


def test_explicit_is_valid_for_every_n_up_to_ten_thousand():
    for n in [1, *range(4, 10_001)]:
        cols = explicit_columns(n)
        rows = np.arange(n)
        for key in (cols, rows + cols, rows - cols + n):
            assert np.bincount(key).max() == 1, n


@pytest.mark.slow
def test_explicit_is_valid_at_ten_million():
    result = ql.solve(10**7, "explicit")  # the api validates every placement
    assert result.status == ql.Status.SOLVED


@pytest.mark.parametrize("n", [2, 3])
def test_explicit_refuses_boards_without_solutions(n):
    with pytest.raises(UsageError, match="n >= 4"):
        ql.solve(n, "explicit")


# -- hill climbing and Las Vegas --------------------------------------------------------


def test_hill_climbing_solves_moderate_boards():
    result = ql.solve(60, "hill-climbing", seed=3)
    assert result.status == ql.Status.SOLVED
    assert oracle.is_solution(list(result.placement), 60)


def test_las_vegas_counts_nodes_as_the_seed():
    # Step 0 is plain backtracking: the root plus 113 queens placed before [0,4,7,5,2,6,1,3].
    result = ql.solve(8, "las-vegas", step=0, seed=1)
    assert result.placement.as_tuple() == (0, 4, 7, 5, 2, 6, 1, 3)
    effort = {k: v for k, v in result.stats.items() if not k.endswith("_seconds")}
    assert effort == {"step": 0, "trials": 1, "nodes": 114}


def test_las_vegas_step_changes_the_search():
    results = {step: ql.solve(20, "las-vegas", step=step, seed=9) for step in (0, 10, 20)}
    assert all(r.status == ql.Status.SOLVED for r in results.values())
    assert results[20].stats["trials"] > 1  # fully random rows rarely succeed at once
    assert results[0].stats["trials"] == 1  # backtracking from the empty board never fails


def test_las_vegas_keeps_givens():
    givens = [(3, 5), (7, 2)]
    result = ql.solve(16, "las-vegas", givens=givens, seed=4, step=6)
    assert result.status == ql.Status.SOLVED
    assert all(result.placement[r] == c for r, c in givens)


# -- divide and conquer -----------------------------------------------------------------


def test_divide_conquer_builds_111_through_a_decomposition():
    result = ql.solve(111, "divide-conquer")
    assert oracle.is_solution(list(result.placement), 111)
    assert result.stats["recipe"] == "add(block(drop(torus 11) x torus 11))"


def test_divide_conquer_builds_every_board_from_4_to_2000():
    """Each board goes through ql.solve, so the harness's O(n) check validates it."""
    for n in range(4, 2001):
        assert ql.solve(n, "divide-conquer").status == ql.Status.SOLVED, n
    for n in (2, 3):
        with pytest.raises(UsageError, match=f"no board exists for n = {n}"):
            ql.solve(n, "divide-conquer")


#: Sizes that toroidal tiles, block products and corner moves alone refused (n = 2, 3 mod 6);
#: 1000203 and 10000203 are products whose factors did not help.
REFUSED_BEFORE = (32, 33, 74, 86, 123, 128, 100238, 1000203, 10000203)


@pytest.mark.parametrize("n", [720, 10**5, 10**6, 2**20, *REFUSED_BEFORE])
def test_divide_conquer_builds_large_boards_and_those_once_refused(n):
    assert ql.solve(n, "divide-conquer").status == ql.Status.SOLVED


def test_divide_conquer_plans_boards_up_to_max_n():
    """Every residue mod 6 near MAX_N = 10^9 (planned only: a board there is 4 GB)."""
    for n in (999_900_218, *range(10**9 - 5, 10**9 + 1)):
        assert dc.plan(n) is not None, n


def test_divide_conquer_searches_only_the_sizes_no_rule_composes(monkeypatch):
    """Without the base boards of SEARCHED, the rules leave exactly those sizes (and 2, 3)."""
    searched = sorted(dc.SEARCHED)
    caches = (dc.plan, dc._with_corner, dc._with_free_diagonal, dc._free_by_product)
    for cached in caches:
        cached.cache_clear()
    monkeypatch.setattr(dc, "SEARCHED", frozenset())
    try:
        assert [n for n in range(1, 2001) if dc.plan(n) is None] == [2, 3, *searched]
    finally:
        for cached in caches:
            cached.cache_clear()


@pytest.mark.parametrize("b", [5, 7, 11, 13, 25, 35])
@pytest.mark.parametrize("a", [5, 7, 8, 11])
def test_patching_the_top_left_block_gives_a_solution(a, b):
    """Fact 4: any top-left board of size 1 or 4..(b + 1) / 2 fits, and its mirror image."""
    outer = dc.build(dc._with_corner(a))
    for c in [1, *range(4, (b + 1) // 2 + 1)]:
        for corner in (explicit_columns(c), explicit_columns(c)[::-1].copy()):
            board = Placement(dc.patch(outer, b, corner))
            assert board.n == (a - 1) * b + c and board.is_valid(), c


def test_a_top_left_block_above_the_bound_can_clash():
    """Torus 5 x tile 7 with a 5-board whose queen stands at its bottom-left corner."""
    corner = dc.torus(5)[::-1].copy()
    assert Placement(corner).is_valid()
    assert Placement(dc.patch(dc.torus(5), 7, corner)).attacking_pair_count() == 1


def test_divide_conquer_names_its_recipe():
    assert ql.solve(86, "divide-conquer").stats["recipe"] == (
        "patch(torus 5 x tile 19, top-left search 10 with corner)"
    )


@pytest.mark.parametrize(("a", "b"), [(5, 7), (7, 11), (25, 13), (35, 5)])
def test_product_of_toroidal_boards_is_toroidal(a, b):
    assert is_toroidal(dc.torus(a)) and is_toroidal(dc.torus(b))
    assert is_toroidal(dc.block_product(dc.torus(a), dc.torus(b)))


@pytest.mark.parametrize("a", [4, 6, 8, 9, 10])
def test_block_product_of_any_solution_with_a_toroidal_board_is_valid(a):
    inner = ql.solve(a, "backtrack").placement.as_array()
    assert Placement(dc.block_product(inner, dc.torus(7))).is_valid()


def test_composing_arbitrary_solutions_does_not_give_a_solution():
    # Seed 000: "place the 8-board on the 9-board's queens, that on the 10-board's": 720.
    board = dc.block_product(
        dc.block_product(np.array(SEED_8), np.array(SEED_9)), np.array(SEED_10)
    )
    placement = Placement(board)
    assert placement.n == 720
    assert not placement.is_valid()
    assert placement.attacking_pair_count() == 352


def test_the_seed_111_board_is_known_bad():
    placement = Placement(SEED_111)
    assert sorted(SEED_111) == list(range(111))  # a permutation...
    assert not placement.is_valid()  # ...with queens sharing diagonals
    assert placement.attacking_pair_count() == 18
    assert placement.attacking_pairs()[0] == (16, 60)


def test_las_vegas_time_limit_stops_a_long_trial():
    """Pure backtracking (step 0) at n = 40 takes minutes; the limit stops it mid-trial."""
    result = ql.solve(40, "las-vegas", step=0, time_limit=0.5)
    assert result.status == ql.Status.LIMIT
