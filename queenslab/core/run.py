"""One call's run: its seed, a deadline that covers the whole call, a stop signal of its
own, the statistics the backend reports, and a progress callback.

The deadline starts when the call starts, so building and loading a model count against
``time_limit`` as much as the search does. The stop signal belongs to this run alone: two
counts in one process never stop each other. Compiled kernels poll ``stop_flag``, a
one-byte array that ``stop()`` and an expired deadline both set (``runtime.stop.watch``
sets it from a thread for kernels that never look at the clock).
"""

from __future__ import annotations

import math
import numbers
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from queenslab.core.errors import UsageError
from queenslab.core.integers import integer
from queenslab.core.stats import Stats

if TYPE_CHECKING:
    import numpy as np

#: Called with the number of finished work units and their total (None when unknown).
ProgressCallback = Callable[[int, int | None], None]
#: The shortest time limit taken: below it no search can even start.
MIN_TIME_LIMIT = 0.001


def check_time_limit(seconds: Any) -> float | None:
    """The time limit as a float: a real number (Python or NumPy, not a bool or a string)
    of at least ``MIN_TIME_LIMIT`` seconds, or None for none."""
    if seconds is None:
        return None
    real = isinstance(seconds, numbers.Real) and not isinstance(seconds, bool)
    if not (real and math.isfinite(seconds) and seconds >= MIN_TIME_LIMIT):
        raise UsageError(
            f"time limit must be a finite number of seconds >= {MIN_TIME_LIMIT}, got {seconds!r}"
        )
    return float(seconds)


def never() -> bool:
    """A ``should_stop`` that never says stop: for work that must run to its end."""
    return False


class Run:
    """How one call searches, and what it tells about the search."""

    def __init__(
        self,
        seed: int | None = None,
        time_limit: float | None = None,
        progress: ProgressCallback | None = None,
        profile: bool = False,
    ) -> None:
        self.seed = None if seed is None else integer(seed, "seed", 0)
        #: Asked for the tree profile: stats["profile"][d] = nodes at depth d (d queens).
        self.profile = profile
        self.time_limit = check_time_limit(time_limit)
        self.progress = progress
        self.stats = Stats()
        self._start = time.perf_counter()
        self._end = None if self.time_limit is None else self._start + self.time_limit
        self._stopped = threading.Event()
        self._flag: np.ndarray | None = None
        self._reported: tuple[int, int | None] = (0, None)

    # -- the clock ----------------------------------------------------------------------
    def expired(self) -> bool:
        """True when the time limit has passed (cheap: call it every few thousand nodes)."""
        return self._end is not None and time.perf_counter() >= self._end

    def remaining(self) -> float | None:
        """Seconds left (never negative), or None when unlimited."""
        return None if self._end is None else max(0.0, self._end - time.perf_counter())

    def wall_clock_end(self) -> float | None:
        """The deadline as a ``time.time()`` value, comparable in other processes."""
        left = self.remaining()
        return None if left is None else time.time() + left

    # -- stopping -----------------------------------------------------------------------
    def stop(self) -> None:
        """Ask every part of this run to stop soon (Ctrl-C, a caller giving up)."""
        self._stopped.set()
        if self._flag is not None:
            self._flag[0] = 1

    def should_stop(self) -> bool:
        """True when the run was stopped or its time is up."""
        if self._stopped.is_set():
            return True
        if self.expired():
            self.stop()
            return True
        return False

    @property
    def stop_flag(self) -> np.ndarray:
        """A one-byte array set to 1 when the run must stop, for compiled kernels to poll."""
        if self._flag is None:
            import numpy as np

            self._flag = np.zeros(1, dtype=np.uint8)
            if self._stopped.is_set():
                self._flag[0] = 1
        return self._flag

    # -- statistics ---------------------------------------------------------------------
    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        """Time a phase (``build``) into ``stats[name + "_seconds"]``."""
        start = time.perf_counter()
        try:
            yield
        finally:
            self.stats.add({f"{name}_seconds": time.perf_counter() - start})

    def report(self, done: int, total: int | None) -> None:
        self._reported = (done, total)
        if self.progress is not None:
            self.progress(done, total)

    def heartbeat(self) -> None:
        """Report the last progress again while a phase that measures none runs (a forked
        solver proving an optimum): the bar's clock moves, it stood at 0:00:00."""
        self.report(*self._reported)
