"""Run native code that cannot look at the clock itself, so a run can still stop it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
_POLL_SECONDS = 0.05  # how often a waiting main thread looks at the clock and for Ctrl-C


def run_stoppably(
    work: Callable[[], T], stop: Callable[[], None], should_stop: Callable[[], bool]
) -> tuple[bool, T | None]:
    """Run native ``work`` in a helper thread; ``stop()`` it when ``should_stop()`` or on Ctrl-C.

    A main thread blocked in native code sees neither the clock nor Ctrl-C; a polling one
    sees both. Returns (finished before it had to stop, its result); Ctrl-C is
    re-raised once the work has stopped.
    """
    outcome: list[T] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            outcome.append(work())
        except BaseException as exc:  # handed to the main thread
            failure.append(exc)

    worker = threading.Thread(target=target, name="queenslab-native", daemon=True)
    worker.start()
    try:
        while worker.is_alive():
            worker.join(_POLL_SECONDS)
            if worker.is_alive() and should_stop():
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
