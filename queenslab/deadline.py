"""A wall-clock budget shared by the search loops that honour ``--time-limit``."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
_POLL_SECONDS = 0.1  # how often a waiting main thread looks at the clock and for Ctrl-C


def wall_clock_end(seconds: float | None) -> float | None:
    """When a budget of ``seconds`` from now ends, as a ``time.time()`` value.

    Unlike Deadline's clock it can be compared in other processes (pool workers).
    """
    return None if seconds is None else time.time() + seconds


class LimitReached(Exception):
    """A search stopped because its time limit passed (the CLI exits with code 3)."""


class Deadline:
    """``expired()`` is cheap enough to call every few thousand nodes."""

    __slots__ = ("_end",)

    def __init__(self, seconds: float | None) -> None:
        self._end = None if seconds is None else time.perf_counter() + seconds

    def expired(self) -> bool:
        return self._end is not None and time.perf_counter() >= self._end

    def remaining(self) -> float | None:
        """Seconds left (never negative), or None when unlimited."""
        return None if self._end is None else max(0.0, self._end - time.perf_counter())


def run_stoppably(
    work: Callable[[], T], stop: Callable[[], None], deadline: Deadline | None = None
) -> tuple[bool, T | None]:
    """Run native ``work`` in a helper thread; ``stop()`` it at the deadline or on Ctrl-C.

    A main thread blocked in native code sees neither the clock nor Ctrl-C; a polling one
    sees both. Returns (finished before the deadline, its result); Ctrl-C is re-raised
    once the work has stopped.
    """
    outcome: list[T] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            outcome.append(work())
        except BaseException as exc:  # handed to the main thread
            failure.append(exc)

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(_POLL_SECONDS)
            if worker.is_alive() and deadline is not None and deadline.expired():
                stop()
                worker.join()
                return False, None
    except KeyboardInterrupt:
        stop()
        worker.join()
        raise
    if failure:
        raise failure[0]
    return True, outcome[0]
