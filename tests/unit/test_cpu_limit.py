"""``cpu_limit`` on every task: work that cannot finish in a hundredth of a CPU second
ends with status limit, in this process, its threads and its forked workers alike.

No test looks at the clock: each asks only what the run said."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

import queenslab as ql
from queenslab.core.errors import LimitReached, UsageError
from queenslab.core.run import Run
from queenslab.runtime.pool import Processes, WorkerLimits

#: A hundredth of a CPU second: less than any of the tasks below needs.
TINY = 0.01


def test_solve_stops_at_its_cpu_limit():
    assert ql.solve(62, "bitmask", cpu_limit=TINY).status is ql.Status.LIMIT


@pytest.mark.parametrize(
    "options", [{}, {"backend": "sat", "workers": 2}], ids=["threads", "processes"]
)
def test_count_stops_at_its_cpu_limit(options):
    result = ql.count(16, cpu_limit=TINY, **options)  # sat: its cubes in forked workers
    assert result.status is ql.Status.LIMIT and result.total is None


def test_enumerate_stops_at_its_cpu_limit():
    with pytest.raises(LimitReached), ql.enumerate_solutions(30, cpu_limit=TINY) as answers:
        for _ in answers:
            pass


@pytest.mark.parametrize("options", [{}, {"split": 3, "workers": 2}], ids=["one", "cubes"])
def test_decide_stops_at_its_cpu_limit(options):
    # gamma(Q_14) = 8: "at most 7" is a no that takes minutes to prove
    result = ql.decide(14, "domination", 7, "sat", cpu_limit=TINY, **options)
    assert result.status is ql.Status.LIMIT


def test_a_cpu_limit_with_a_dask_scheduler_is_refused():
    """A cluster's workers spend CPU this process cannot count."""
    with pytest.raises(UsageError, match="--cpu-limit"):
        ql.count(20, cpu_limit=1, scheduler="tcp://127.0.0.1:1")
    with pytest.raises(UsageError, match="--cpu-limit"):
        ql.decide(8, "domination", 4, "sat", cpu_limit=1, split=2, scheduler="tcp://127.0.0.1:1")


@pytest.mark.parametrize("limit", [0, -1, float("nan"), "1"])
def test_a_bad_cpu_limit_is_refused_by_every_task(limit):
    calls: list[Callable[[], object]] = [
        lambda: ql.solve(8, cpu_limit=limit),
        lambda: ql.count(8, cpu_limit=limit),
        lambda: ql.enumerate_solutions(8, cpu_limit=limit),
        lambda: ql.decide(8, "domination", 5, cpu_limit=limit),
    ]
    for call in calls:
        with pytest.raises(UsageError, match="CPU limit"):
            call()


def _busy(claimed: Iterator[int], should_stop: Callable[[], bool]) -> Iterator[int]:
    """A worker that spins on each job until told to stop."""
    for job in claimed:
        while not should_stop():
            pass
        yield job


def test_forked_workers_stop_at_their_share_of_the_cpu_left():
    """The parent's clock sees none of the workers' CPU while they run: without a share
    of their own they would spin for ever."""
    stream = Processes[int, int](2).stream(_busy, range(4), Run(cpu_limit=0.1))
    with pytest.raises(LimitReached):
        list(stream)


def test_worker_limits():
    assert WorkerLimits(None, 0.0)() and WorkerLimits(0.0)()
    assert not WorkerLimits(None)()
