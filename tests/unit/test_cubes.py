"""The cube splits: weighted cube counts add up to the whole count, with or without givens."""

from __future__ import annotations

import pytest

import queenslab as ql
from queenslab.core.errors import LimitReached
from queenslab.core.problem import Problem
from queenslab.core.run import Run
from queenslab.lab import reference
from queenslab.models import cubes
from tests import oracle


def _solutions_in(cube: cubes.Cube) -> list[tuple[int, ...]]:
    return [tuple(p) for p in ql.enumerate_solutions(cube.problem, "backtrack")]


def _weighted_count(split: list[cubes.Cube]) -> int:
    return sum(c.weight * len(_solutions_in(c)) for c in split)


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_weighted_row_cubes_add_up_to_the_count(depth):
    for n in range(1, 9):
        assert _weighted_count(cubes.rows_split(Problem(n), depth=depth)) == reference.total(n)


def test_weighted_border_cubes_add_up_to_the_count():
    for n in range(1, 10):
        assert _weighted_count(cubes.border_split(Problem(n))) == reference.total(n)


def test_symmetry_keeps_a_quarter_or_an_eighth_of_the_cubes():
    rows = list(cubes.rows_split(Problem(12), depth=2))
    border = list(cubes.border_split(Problem(12)))
    assert {c.weight for c in rows} <= {1, 2, 4}
    assert {c.weight for c in border} <= {1, 2, 4, 8}
    assert len(rows) < len(list(cubes.prefixes(Problem(12), [0, 11]))) / 3
    assert sum(c.weight for c in border) > 7 * len(border)


@pytest.mark.parametrize("givens", [((3, 3),), ((0, 1), (5, 4)), ((6, 2),)])
@pytest.mark.parametrize("split", [cubes.border_split, cubes.rows_split])
def test_cubes_with_givens_partition_the_completions(givens, split):
    n = 7
    pieces = list(split(Problem(n, givens)))
    assert all(c.weight == 1 for c in pieces)
    found = [s for c in pieces for s in _solutions_in(c)]
    assert sorted(found) == sorted(oracle.all_solutions(n, givens))


@pytest.mark.parametrize("split", [cubes.border_split, cubes.rows_split])
def test_givens_in_every_row_leave_one_cube_of_no_queen(split):
    pieces = list(split(Problem(4, givens=((0, 1), (1, 3), (2, 0), (3, 2)))))
    assert [(c.queens, c.weight) for c in pieces] == [((), 1)]


def _brute_force_counts(problem, claimed, settings, should_stop):
    for cube in claimed:
        yield cube, len(_solutions_in(cube))
    yield None, {}


def _out_of_time_on_odd_cubes(problem, claimed, settings, should_stop):
    if any(cube.problem.givens[-1][1] % 2 for cube in claimed):
        raise LimitReached
    yield None, {}


def _brute_force_solutions(problem, claimed, settings, should_stop):
    for cube in claimed:
        for chunk in cubes.chunks(_solutions_in(cube), 3):
            yield cube, chunk
    yield None, {}


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("pool", ["thread", "process"])
def test_runner_adds_up_or_stops_on_the_time_limit(workers, pool):
    problem = Problem(10)
    split = cubes.border_split
    settings = {"workers": workers}
    run = Run()
    assert cubes.count_cubes(_brute_force_counts, split, problem, settings, run, pool=pool) == 724
    assert run.stats["cubes"] == len(list(split(problem)))
    stopped = cubes.count_cubes(_out_of_time_on_odd_cubes, split, problem, settings, Run(),
                                pool=pool)  # fmt: skip
    assert stopped is None


@pytest.mark.parametrize("split", [cubes.border_split, cubes.rows_split])
@pytest.mark.parametrize(
    "problem",
    [
        Problem(8),
        Problem(9, blocked=((0, 0), (0, 8), (8, 0), (8, 8))),  # keeps all eight symmetries
        Problem(8, blocked=((0, 0), (7, 7))),  # keeps the diagonal ones
        Problem(8, blocked=((0, 1), (5, 2))),  # keeps none
        Problem(8, givens=((3, 2),)),
        Problem(7, variant="toroidal"),
        Problem(10, variant="superqueens"),
    ],
)
def test_images_of_each_cube_solution_give_every_solution_once(split, problem):
    pieces = list(split(problem))
    for cube in pieces:
        assert cube.images[0].name == "identity" and cube.weight == len(cube.images)
        queens = cube.problem.givens[len(problem.givens) :]
        assert len({s.cells(problem.n, queens) for s in cube.images}) == cube.weight
    found = list(
        cubes.enumerate_cubes(
            _brute_force_solutions, split, problem, {"workers": 1}, Run(), pool="thread"
        )
    )
    assert len(found) == len(set(found))
    assert sorted(found) == sorted(map(tuple, ql.enumerate_solutions(problem, "backtrack")))


@pytest.mark.parametrize("pool", ["thread", "process"])
def test_parallel_and_serial_enumerations_agree(pool):
    problem = Problem(10)
    split = cubes.border_split
    run = Run()
    serial = [*cubes.enumerate_cubes(_brute_force_solutions, split, problem, {"workers": 1},
                                     Run(), pool=pool)]  # fmt: skip
    parallel = [*cubes.enumerate_cubes(_brute_force_solutions, split, problem, {"workers": 2},
                                       run, pool=pool)]  # fmt: skip
    assert sorted(serial) == sorted(parallel)
    assert len(set(serial)) == len(serial) == reference.total(10)
    assert run.stats["cubes"] == len(list(split(problem)))


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("pool", ["thread", "process"])
def test_enumeration_raises_limit_reached_when_a_batch_stops(workers, pool):
    with pytest.raises(LimitReached):
        list(cubes.enumerate_cubes(_out_of_time_on_odd_cubes, cubes.border_split, Problem(10),
                                   {"workers": workers}, Run(), pool=pool))  # fmt: skip


@pytest.mark.parametrize("split", [cubes.border_split, cubes.rows_split])
def test_splits_stop_when_told(split):
    with pytest.raises(LimitReached):
        list(split(Problem(30), lambda: True))


def test_splits_are_lazy():
    first = next(cubes.border_split(Problem(1000)))  # 10^12 candidate cubes: never built
    assert first.problem.givens[0] == (0, 0)


def test_progress_reports_every_result():
    seen = []
    problem = Problem(8)
    total = cubes.count_cubes(
        _brute_force_counts,
        cubes.rows_split,
        problem,
        {"workers": 1},
        Run(progress=lambda done, of: seen.append((done, of))),
        pool="thread",
    )
    assert total == 92
    assert seen == [(done, None) for done in range(1, len(list(cubes.rows_split(problem))) + 1)]
