"""The bitmask counter: OEIS agreement, node counts, threads, Dask, givens, time limits."""

from __future__ import annotations

import json

import numpy as np
import pytest

import queenslab as ql
from queenslab.core.errors import UsageError
from queenslab.core.problem import Problem
from queenslab.core.run import Run
from queenslab.exact import constellations, parallel, subproblems
from queenslab.exact.board_search import Rules
from queenslab.lab import reference
from queenslab.runtime import pool
from queenslab.runtime.pool import Threads
from tests import oracle

#: Queens placed by Somers' mirror method (benchmarks/c/mirror.c prints them).
MIRROR_NODES = {12: 428_094, 13: 2_337_445, 14: 13_679_276}


def _count(n: int, **options):
    return ql.count(n, "bitmask", unique=True, **options)


@pytest.mark.parametrize("n", range(1, 16))
def test_total_and_unique_match_oeis(n):
    result = _count(n)
    assert (result.total, result.unique) == (reference.total(n), reference.unique(n))


@pytest.mark.slow
@pytest.mark.parametrize("n", [16, 17])
def test_total_and_unique_match_oeis_for_larger_boards(n):
    result = _count(n)
    assert (result.total, result.unique) == (reference.total(n), reference.unique(n))


@pytest.mark.parametrize("n", sorted(MIRROR_NODES))
def test_constellations_visit_under_three_tenths_of_the_mirror_nodes(n):
    """Node counts are deterministic; the ratio falls with n."""
    result = _count(n, workers=1)
    assert result.stats["method"] == "constellations"
    assert result.stats["nodes"] < 0.3 * MIRROR_NODES[n]


def _effort(result):
    """The statistics that do not depend on the clock."""
    return {k: v for k, v in result.stats.items() if not k.endswith("_seconds")}


@pytest.mark.parametrize("n", [9, 12])
def test_worker_count_changes_nothing(n):
    one, two = _count(n, workers=1), _count(n, workers=2)
    assert (one.total, one.unique, _effort(one)) == (two.total, two.unique, _effort(two))


def test_split_depth_changes_nothing_with_givens():
    problem = Problem(8, givens=((1, 3),))
    base = subproblems.plain(problem).searched_by(Rules.of(problem.board), canonical=False)
    totals = {
        int(parallel.count_part(subproblems.split(base, problem.board, depth))[:, 0].sum())
        for depth in (0, 1, 2, 4)
    }
    assert totals == {len(oracle.all_solutions(8, [(1, 3)]))}


@pytest.mark.parametrize(
    "n, givens", [(6, [(0, 1)]), (8, [(0, 0)]), (8, [(2, 3), (5, 1)]), (9, [(4, 4)]), (7, [(0, 3)])]
)
def test_count_with_givens_matches_brute_force(n, givens):
    assert ql.count(n, "bitmask", givens=givens).total == len(oracle.all_solutions(n, givens))


def test_progress_reaches_the_number_of_subproblems():
    calls: list[tuple[int, int]] = []
    result = ql.count(12, "bitmask", progress=lambda done, total: calls.append((done, total)))
    assert calls[0][0] == 0
    assert calls[-1] == (result.stats["subproblems"],) * 2
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


def test_enumeration_streams_before_the_search_ends():
    stream = ql.enumerate_solutions(20, "bitmask")
    first = next(stream)
    assert oracle.is_solution(list(first), 20)
    stream.close()


def test_limits_and_bad_input():
    assert ql.solve(62, "bitmask", time_limit=0.05).status == ql.Status.LIMIT
    with pytest.raises(UsageError):
        ql.count(64, "bitmask")
    with pytest.raises(UsageError):
        ql.count(8, "bitmask", workers=0)


@pytest.mark.parametrize("givens", [[], [(0, 0)]])
def test_a_count_stopped_by_its_time_limit_says_how_far_it_got(givens):
    result = ql.count(21, "bitmask", unique=not givens, givens=givens, time_limit=0.5)
    assert (result.status, result.total) == (ql.Status.LIMIT, None)
    stats = result.stats
    assert 0 <= stats["subproblems_finished"] < stats["subproblems"]
    assert 0 <= stats["partial_total"] < reference.total(21)
    assert isinstance(stats["nodes"], int)
    assert ("partial_unique" in stats) == (not givens)


def test_command_stops_a_large_count_at_its_time_limit(queens):
    """The kernels poll a stop flag: no need to wait for a subproblem to end."""
    run = queens("count", "20", "--time-limit", "1", "--format", "json")
    assert run.returncode == 3, run.stderr
    record = json.loads(run.stdout)
    assert (record["status"], record["total"]) == ("limit", None)
    assert record["stats"]["subproblems_finished"] < record["stats"]["subproblems"]
    assert "Traceback" not in run.stderr


def test_json_of_a_finished_count_says_solved(queens):
    run = queens("count", "8", "--unique", "--format", "json")
    record = json.loads(run.stdout)
    assert (record["status"], record["total"], record["unique"]) == (
        "solved",
        len(oracle.all_solutions(8)),
        oracle.unique_count(8),
    )


def test_dask_cluster_gives_the_same_counts(dask_scheduler):
    remote = _count(12, scheduler=dask_scheduler)
    assert (remote.total, remote.unique) == (reference.total(12), reference.unique(12))
    local = _count(12, workers=2)
    assert _effort(remote) == _effort(local)


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:9", "bogus::addr"])
def test_unreachable_or_malformed_scheduler_is_a_usage_error(monkeypatch, address, tmp_path):
    monkeypatch.setattr(pool, "CONNECT_TIMEOUT", 1.0)
    path = tmp_path / "count.sqlite"
    with pytest.raises(UsageError, match="Dask scheduler"):
        ql.count(6, "bitmask", scheduler=address, checkpoint=str(path))
    assert not path.exists()  # no empty checkpoint left behind


def test_plan_parts_run_on_the_pools_threads_each_once():
    plan = constellations.plan(11)
    run = Run()
    seen = np.zeros(len(plan), dtype=np.int64)
    rows = np.zeros((len(plan), 3), dtype=np.int64)
    for ids, part in parallel.run_plan(plan, np.arange(len(plan)), Threads(2), 2, run):
        seen[ids] += 1
        rows[ids] = part
    assert (seen == 1).all() and not run.stop_flag[0]
    assert rows[:, 0].sum() == reference.total(11)


@pytest.mark.parametrize(
    ("variant", "blocked", "givens"),
    [
        ("toroidal", (), ()),
        ("superqueens", (), ()),
        ("standard", ((0, 0), (10, 10)), ()),  # keeps the half turn and both transposes
        ("standard", ((3, 5),), ()),  # breaks every symmetry
        ("toroidal", ((2, 2),), ((0, 1),)),
    ],
)
def test_general_search_counts_match_backtracking(variant, blocked, givens):
    n = 11
    fast = ql.count(n, "bitmask", variant=variant, blocked=blocked, givens=givens)
    slow = ql.count(n, "backtrack", variant=variant, blocked=blocked, givens=givens)
    assert fast.total == slow.total
    if not givens:
        assert (
            ql.count(n, "bitmask", variant=variant, blocked=blocked, unique=True).unique
            == ql.count(n, "backtrack", variant=variant, blocked=blocked, unique=True).unique
        )


def test_general_search_stops_at_its_time_limit():
    result = ql.count(30, "bitmask", variant="superqueens", time_limit=0.5)
    assert result.status == ql.Status.LIMIT and result.total is None
    assert isinstance(result.stats["nodes"], int)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "n", "unique"),
    [("toroidal", 17, False), ("superqueens", 17, True), ("superqueens", 16, True)],
)
def test_variant_counts_at_17_match_oeis(variant, n, unique):
    result = ql.count(n, "bitmask", variant=variant, unique=unique)
    assert result.total == reference.total(n, variant)
    if unique:
        assert result.unique == reference.unique(n, variant)
