"""One rule for every whole number the API takes: n, seed, workers, the cells of givens
and blocked cells.

Python and NumPy integers are accepted (and become Python ints); bools, floats and strings
are refused with the same one-line message, never read as numbers: ``True`` is not row 1,
``1.5`` is not a seed and ``"3"`` is not a size (the command line parses its own text).

A number of workers has a ceiling too (``workers``): every pool starts each one as a
thread or a forked process, so ``--workers 100000`` ran for minutes before its first job,
and 10^9 overflowed a queue's size. On this machine a run starts at most
``WORKERS_PER_CORE`` per core: more only wait for the same cores. With a Dask scheduler
the cluster's size is known only to the scheduler, so the ceiling is a fixed
``CLUSTER_WORKERS``, far above the clusters the lab runs on.
"""

from __future__ import annotations

import numbers
import os
from typing import Any

from queenslab.core.errors import UsageError


def integer(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an int within [low, high]; a UsageError naming ``what`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise UsageError(f"{what} must be an integer, got {value!r}")
    number = int(value)
    if (low is not None and number < low) or (high is not None and number > high):
        if high is None:
            bound = f"at least {low}"
        elif low is None:
            bound = f"at most {high}"
        else:
            bound = f"between {low} and {high}"
        raise UsageError(f"{what} must be {bound}, got {number}")
    return number


#: Workers a run on this machine may start per core it may run on.
WORKERS_PER_CORE = 4
#: Workers a run on a Dask cluster may ask for.
CLUSTER_WORKERS = 4096


def cores() -> int:
    """The cores this process may run on (its affinity where the platform tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def workers(value: Any, scheduler: str | None = None) -> int:
    """``value`` as a number of workers: an integer from 1 to ``WORKERS_PER_CORE`` x the
    cores, or to ``CLUSTER_WORKERS`` with a Dask ``scheduler``; one UsageError line
    otherwise. Every command and backend that takes workers checks them here."""
    number = integer(value, "workers", 1)
    if scheduler:
        if number > CLUSTER_WORKERS:
            raise UsageError(f"workers must be at most {CLUSTER_WORKERS} on a Dask cluster, "
                             f"got {number}")  # fmt: skip
        return number
    ceiling = WORKERS_PER_CORE * cores()
    if number > ceiling:
        raise UsageError(
            f"workers must be at most {ceiling} ({WORKERS_PER_CORE} per core of this machine), "
            f"got {number}"
        )
    return number
