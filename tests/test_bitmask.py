"""The bitmask counter: OEIS agreement, symmetry pruning, parallel runs, Dask, checkpoints."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

import queenslab as ql
from queenslab import boards, reference
from queenslab.errors import UsageError
from queenslab.exact import parallel, subproblems
from tests import oracle


def _count(n: int, **options):
    return ql.count(n, "bitmask", unique=True, **options)


def _kernel_totals(plan: subproblems.Subproblems) -> np.ndarray:
    return parallel.count_part(plan).sum(axis=0)


@pytest.mark.parametrize("n", range(1, 15))
def test_total_and_unique_match_oeis(n):
    result = _count(n)
    assert (result.total, result.unique) == (reference.total(n), reference.unique(n))


@pytest.mark.slow
@pytest.mark.parametrize("n", [15, 16])
def test_total_and_unique_match_oeis_for_larger_boards(n):
    result = _count(n)
    assert (result.total, result.unique) == (reference.total(n), reference.unique(n))


@pytest.mark.parametrize("n", [12, 13])
def test_full_symmetry_visits_under_half_the_mirror_nodes(n):
    """Node counts are deterministic; the ratio falls with n."""
    symmetric = _kernel_totals(subproblems.symmetric(n))
    mirror = _kernel_totals(subproblems.mirror(boards.board(n)))
    assert symmetric[0] == mirror[0] == reference.total(n)
    assert symmetric[2] < 0.46 * mirror[2]


def _effort(result):
    """The statistics that do not depend on the clock."""
    return {k: v for k, v in result.stats.items() if not k.endswith("_seconds")}


@pytest.mark.parametrize("n", [9, 12])
def test_split_and_worker_count_change_nothing(n):
    whole = _kernel_totals(subproblems.symmetric(n))
    for depth in (1, 2, 4):
        split = _kernel_totals(subproblems.split(subproblems.symmetric(n), boards.board(n), depth))
        assert split.tolist()[:2] == whole.tolist()[:2]
    one, two = _count(n, workers=1), _count(n, workers=2)
    assert (one.total, one.unique, _effort(one)) == (two.total, two.unique, _effort(two))


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


def test_dask_cluster_gives_the_same_counts():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        remote = _count(11, scheduler=cluster.scheduler_address)
    local = _count(11, workers=2)
    assert (remote.total, remote.unique, _effort(remote)) == (
        local.total,
        local.unique,
        _effort(local),
    )


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:9", "bogus::addr"])
def test_unreachable_or_malformed_scheduler_is_a_usage_error(monkeypatch, address):
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", 1.0)
    with pytest.raises(UsageError, match="Dask scheduler"):
        ql.count(6, "bitmask", scheduler=address)


def test_interrupted_count_resumes_from_its_checkpoint(tmp_path):
    path = str(tmp_path / "count.sqlite")
    seen: list[tuple[int, int]] = []

    def interrupt(done: int, total: int) -> None:
        seen.append((done, total))
        if done >= total // 3:
            raise KeyboardInterrupt  # what Ctrl-C raises in the main thread

    with pytest.raises(KeyboardInterrupt):
        ql.count(13, "bitmask", unique=True, workers=2, checkpoint=path, progress=interrupt)
    with sqlite3.connect(path) as db:
        saved = db.execute("SELECT COUNT(*) FROM done").fetchone()[0]
    done, total = seen[-1]
    assert 0 < saved == done < total

    resumed: list[int] = []
    result = ql.count(
        13, "bitmask", unique=True, checkpoint=path, progress=lambda d, t: resumed.append(d)
    )
    assert resumed[0] == saved
    assert (result.total, result.unique) == (reference.total(13), reference.unique(13))
    again = ql.count(13, "bitmask", unique=True, checkpoint=path)
    assert (again.total, again.unique) == (result.total, result.unique)


def test_checkpoint_of_another_count_is_refused(tmp_path):
    path = str(tmp_path / "count.sqlite")
    ql.count(9, "bitmask", checkpoint=path)
    with pytest.raises(UsageError, match="another count"):
        ql.count(10, "bitmask", checkpoint=path)
    with pytest.raises(UsageError, match="another count"):
        ql.count(9, "bitmask", givens=[(0, 1)], checkpoint=path)


@pytest.mark.parametrize(
    "content", [b"not a database at all" * 100, b"SQLite format 3\x00" + bytes(200)]
)
def test_damaged_checkpoint_is_refused(tmp_path, content):
    path = tmp_path / "count.sqlite"
    path.write_bytes(content)
    with pytest.raises(UsageError, match="damaged"):
        ql.count(9, "bitmask", checkpoint=str(path))


def test_foreign_sqlite_file_is_refused(tmp_path):
    path = str(tmp_path / "other.sqlite")
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE people (name TEXT)")
    with pytest.raises(UsageError, match="not a queenslab checkpoint"):
        ql.count(9, "bitmask", checkpoint=path)


def test_command_resumes_and_rejects_checkpoints(queens, tmp_path):
    path = str(tmp_path / "count.sqlite")
    first = queens("count", "10", "--unique", "--backend", "bitmask", "--checkpoint", path)
    assert first.returncode == 0, first.stderr
    assert {"724", "92"} <= set(first.stdout.split())
    other = queens("count", "11", "--backend", "bitmask", "--checkpoint", path)
    assert other.returncode == 2
    assert "another count" in other.stderr
    assert "Traceback" not in other.stderr


@pytest.mark.parametrize(
    ("variant", "blocked", "givens"),
    [
        ("toroidal", (), ()),
        ("superqueens", (), ()),
        ("standard", ((0, 0), (11, 11)), ()),  # keeps the half turn and both transposes
        ("standard", ((3, 5),), ()),  # breaks every symmetry
        ("toroidal", ((2, 2),), ((0, 1),)),
    ],
)
def test_general_search_counts_match_backtracking(variant, blocked, givens):
    n = 12 if variant != "toroidal" else 11
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
    assert result.stats["nodes"] >= 0


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
