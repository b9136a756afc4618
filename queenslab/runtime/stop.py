"""The stop protocol: how a run stops native code that cannot look at the clock itself.

A run says stop through ``Run.should_stop()`` (a deadline, ``run.stop()``, Ctrl-C) and
through its one-byte ``stop_flag``, which compiled kernels poll. Whoever waits for native
work (this module, the pool, the forked child) looks at the run every ``POLL_SECONDS``,
so a deadline or Ctrl-C is seen within one slice. Worker processes leave Ctrl-C to their
parent, which ends them.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from queenslab.core.run import Run

T = TypeVar("T")
#: How often a waiting thread looks at the clock and for Ctrl-C: the one interval.
POLL_SECONDS = 0.05


def leave_sigint_to_parent() -> None:
    """Worker processes ignore Ctrl-C and die at SIGTERM: the parent stops them, so no
    child prints a traceback, and no child outlives the parent's ``terminate()``.

    A Python handler for SIGTERM (the command's, inherited at the fork) runs only in the
    child's main thread: a signal the kernel handed to another of its threads (a queue's
    feeder) left a main thread blocked in a full queue asleep, and the parent's join hung
    (SIGTERM to ``queens enumerate 14 -b sat``, about one run in three).

    SIGINT is also blocked, not only ignored: python-sat puts a handler of its own in
    place for each solve in a main thread, and a Ctrl-C caught there left the child's
    traceback on the terminal ("Process ForkProcess-1:").
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextmanager
def watch(run: Run) -> Iterator[None]:
    """Set the run's ``stop_flag`` when its deadline passes, from a watcher thread, while
    inside: for native code that polls the flag but never looks at the clock itself."""
    flag = run.stop_flag
    done = threading.Event()

    def watcher() -> None:
        while not done.wait(POLL_SECONDS):
            if run.should_stop():
                flag[0] = 1
                return

    thread = threading.Thread(target=watcher, name="queenslab-deadline", daemon=True)
    thread.start()
    try:
        yield
    except BaseException:
        run.stop()
        raise
    finally:
        done.set()
        thread.join()


def run_stoppably(
    work: Callable[[], T], stop: Callable[[], None], should_stop: Callable[[], bool]
) -> tuple[bool, T | None]:
    """Run native ``work`` in a helper thread; ``stop()`` it when ``should_stop()`` or on Ctrl-C.

    A main thread blocked in native code sees neither the clock nor Ctrl-C; a polling one
    sees both. Returns (finished before it had to stop, its result: after a stop, what
    the stopped work returned, if anything, such as a solver's best answer); Ctrl-C is
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
        while not permit.wait(POLL_SECONDS):  # a set() cut short by a signal shows too
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
        while not done.wait(POLL_SECONDS):
            if should_stop():
                stop()
                done.wait()
                return False, (outcome[0] if outcome else None)
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
