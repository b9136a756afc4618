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

    The main thread waits on an Event, never in ``Thread.join``: before Python 3.13 a
    Ctrl-C inside ``join`` marks the thread as finished while it still runs
    (CPython gh-90882), and the process then exits under a running solver (CP-SAT
    aborts: "terminate called without an active exception").

    The work waits for a permit given once the main thread is where it handles Ctrl-C: a
    signal landing inside ``Thread.start()`` (which waits for the thread) left the work
    running unwatched, and the command printed its last line while Pyomo's capture of
    the solver's output still held stderr (the line was lost, ``enumerate 12 -b milp``).
    """
    outcome: list[T] = []
    failure: list[BaseException] = []
    done = threading.Event()
    permit = threading.Event()
    cancelled = False

    def target() -> None:
        while not permit.wait(_POLL_SECONDS):  # a set() cut short by a signal shows too
            pass
        try:
            if not cancelled:
                outcome.append(work())
        except BaseException as exc:  # handed to the main thread
            failure.append(exc)
        finally:
            done.set()

    worker = threading.Thread(target=target, name="queenslab-native", daemon=True)
    try:
        worker.start()
        permit.set()
        while not done.wait(_POLL_SECONDS):
            if should_stop():
                stop()
                done.wait()
                return False, None
    except KeyboardInterrupt:
        if permit.is_set():  # the work runs, or is about to: it stops first
            stop()
            done.wait()
        else:  # a thread that started, if it did, ends without working
            cancelled = True
            permit.set()
        raise
    if failure:
        raise failure[0]
    return True, outcome[0]
