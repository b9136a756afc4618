"""A wall-clock budget shared by the search loops that honour ``--time-limit``."""

from __future__ import annotations

import time


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
