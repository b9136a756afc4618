"""The forked pool ends its workers when the consumer leaves, whatever they do with
SIGTERM."""

from __future__ import annotations

import itertools
import signal
from collections.abc import Iterator

import pytest

from queenslab.core.errors import Terminated
from queenslab.core.run import Run
from queenslab.runtime.pool import Processes, _wait_for


def _deaf_endless(jobs: Iterator[int], _should_stop) -> Iterator[int]:
    """A worker that ignores SIGTERM (as one whose SIGTERM came too early does) and yields
    more than the queue holds."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    for job in jobs:
        yield from itertools.repeat(job, 1000)


def test_a_worker_deaf_to_sigterm_is_killed_when_the_consumer_leaves():
    results = Processes(2).stream(_deaf_endless, range(10), Run())
    assert next(results) in range(10)
    results.close()  # returns only once every worker has ended


def test_a_sigterm_while_waiting_for_workers_stays_a_sigterm():
    """A signal that lands while the pool waits for its threads is raised again as it
    came: SIGTERM's Terminated, raised again as a plain KeyboardInterrupt, made
    `queens optimize 15 --problem peaceable` exit 130, not 143, 3 runs in 4."""

    class Interrupted:
        """A worker's done event whose first wait is cut by SIGTERM's handler."""

        def __init__(self) -> None:
            self.waits = 0

        def wait(self, _timeout: float) -> bool:
            self.waits += 1
            if self.waits == 1:
                raise Terminated
            return True

    try:
        _wait_for([Interrupted()])  # type: ignore[list-item]
    except KeyboardInterrupt as raised:  # caught here: a plain one must fail, not end pytest
        assert type(raised) is Terminated
    else:
        pytest.fail("the signal was lost")
