"""The forked pool ends its workers when the consumer leaves, whatever they do with
SIGTERM."""

from __future__ import annotations

import itertools
import signal
from collections.abc import Iterator

from queenslab.core.run import Run
from queenslab.runtime.pool import Processes


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
