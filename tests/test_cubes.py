"""The cube split: weighted cube counts add up to the whole count, with or without givens."""

from __future__ import annotations

import pytest

import queenslab as ql
from queenslab import reference
from queenslab.models import cubes
from queenslab.problem import Problem
from tests import oracle


def _solutions_in(cube: cubes.Cube) -> list[tuple[int, ...]]:
    return [tuple(p) for p in ql.enumerate_solutions(cube.problem, "backtrack")]


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_weighted_cubes_add_up_to_the_count(depth):
    for n in range(1, 9):
        split = cubes.split(Problem(n), depth)
        assert sum(c.weight * len(_solutions_in(c)) for c in split) == reference.total(n)


def test_symmetry_keeps_about_a_quarter_of_the_cubes():
    whole = len(cubes._prefixes(12, [0, 11], {}))
    kept = cubes.split(Problem(12), 2)
    assert {c.weight for c in kept} <= {1, 2, 4}
    assert len(kept) < whole / 3


@pytest.mark.parametrize("givens", [((3, 3),), ((0, 1), (5, 4)), ((6, 2),)])
def test_cubes_with_givens_partition_the_completions(givens):
    n = 7
    split = cubes.split(Problem(n, givens), 2)
    assert all(c.weight == 1 for c in split)
    found = [s for c in split for s in _solutions_in(c)]
    assert sorted(found) == sorted(oracle.all_solutions(n, givens))


def _half_of_the_cubes_time_out(problem, settings, end):
    return None if problem.givens[-1][1] % 2 else 1


@pytest.mark.parametrize("workers", [1, 2])
def test_a_cube_out_of_time_makes_the_count_none(workers):
    assert (
        cubes.count_cubes(
            _half_of_the_cubes_time_out,
            Problem(12),
            {},
            depth=2,
            workers=workers,
            pool="thread",
        )
        is None
    )


def test_progress_reports_every_cube():
    seen = []
    total = cubes.count_cubes(
        lambda problem, settings, end: len(oracle.all_solutions(problem.n, problem.givens)),
        Problem(8),
        {},
        depth=2,
        workers=1,
        pool="thread",
        progress=lambda done, of: seen.append((done, of)),
    )
    assert total == 92
    assert seen[-1][0] == seen[-1][1] == len(seen)
