"""The cube splits: weighted cube counts add up to the whole count, with or without givens."""

from __future__ import annotations

import pytest

import queenslab as ql
from queenslab import reference
from queenslab.models import cubes
from queenslab.problem import Problem
from queenslab.run import Run
from tests import oracle


def _solutions_in(cube: cubes.Cube) -> list[tuple[int, ...]]:
    return [tuple(p) for p in ql.enumerate_solutions(cube.problem, "backtrack")]


def _weighted_count(split: list[cubes.Cube]) -> int:
    return sum(c.weight * len(_solutions_in(c)) for c in split)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_weighted_row_cubes_add_up_to_the_count(depth):
    for n in range(1, 9):
        assert _weighted_count(cubes.rows_split(Problem(n), depth)) == reference.total(n)


def test_weighted_border_cubes_add_up_to_the_count():
    for n in range(1, 10):
        assert _weighted_count(cubes.border_split(Problem(n))) == reference.total(n)


def test_symmetry_keeps_a_quarter_or_an_eighth_of_the_cubes():
    rows = cubes.rows_split(Problem(12), 2)
    border = cubes.border_split(Problem(12))
    assert {c.weight for c in rows} <= {1, 2, 4}
    assert {c.weight for c in border} <= {1, 2, 4, 8}
    assert len(rows) < len(list(cubes.prefixes(Problem(12), [0, 11]))) / 3
    assert sum(c.weight for c in border) > 7 * len(border)


@pytest.mark.parametrize("givens", [((3, 3),), ((0, 1), (5, 4)), ((6, 2),)])
@pytest.mark.parametrize("split", [cubes.border_split, cubes.rows_split])
def test_cubes_with_givens_partition_the_completions(givens, split):
    n = 7
    pieces = split(Problem(n, givens))
    assert all(c.weight == 1 for c in pieces)
    found = [s for c in pieces for s in _solutions_in(c)]
    assert sorted(found) == sorted(oracle.all_solutions(n, givens))


def _brute_force_batch(batch, settings, should_stop):
    return sum(c.weight * len(_solutions_in(c)) for c in batch), {"cubes": len(batch)}


def _batch_out_of_time(batch, settings, should_stop):
    return None if any(c.problem.givens[-1][1] % 2 for c in batch) else (1, {})


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("pool", ["thread", "process"])
def test_runner_adds_up_or_stops_on_the_time_limit(workers, pool):
    problem = Problem(10)
    split = cubes.border_split(problem)
    settings = {"workers": workers}
    run = Run()
    assert cubes.count_cubes(_brute_force_batch, split, settings, run, pool=pool) == 724
    assert run.stats["cubes"] == len(split)
    assert cubes.count_cubes(_batch_out_of_time, split, settings, Run(), pool=pool) is None


def test_progress_reports_every_batch():
    seen = []
    problem = Problem(8)
    total = cubes.count_cubes(
        _brute_force_batch,
        cubes.rows_split(problem),
        {"workers": 1},
        Run(progress=lambda done, of: seen.append((done, of))),
        pool="thread",
    )
    assert total == 92
    assert seen[-1][0] == seen[-1][1] == len(seen)
