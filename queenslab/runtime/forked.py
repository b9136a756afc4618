"""Run a whole model search in a forked child, so a deadline or Ctrl-C can always end it.

Building a big model and loading it into a solver are long stretches of code that look at
no clock: the board's groups, Pyomo's model and its transfer to HiGHS, CP-SAT's loading
(n = 2000: about two minutes in all), Ganak's whole count. The parent only waits, in short
slices, looking at the run between them; at the deadline it leaves the child a short grace
to hand over what its solver found by its own limit (a feasible board, statistics), then
kills it. Ctrl-C kills it at once. A killed child takes its solver threads with it, which a
thread in this process could not do.

fork, not spawn: the child inherits the problem, the settings and the loaded solver, and
runs only this call's code. Where fork is missing the work runs in this process.

An anytime search's news (``Run.learn``: a better answer, a better bound) come through the
same pipe as they happen, so the parent knows the best answer when it must stop the child,
and shows it while waiting.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, TypeVar

from queenslab.core.run import News, Run, cpu_seconds
from queenslab.runtime.stop import POLL_SECONDS, leave_sigint_to_parent

T = TypeVar("T")
#: How long a child may take past the deadline to report what its own limit left it with.
GRACE_SECONDS = 0.5


#: The first item of a message from the child: news, or the final answer.
_NEWS, _DONE = "news", "done"


def _work_and_send(work: Callable[[], Any], run: Run, sender: Any, parent_cpu: float) -> None:
    leave_sigint_to_parent()
    run.stats.clear()  # the parent keeps what it had; only the child's part comes back

    def tell_parent(event: str, news: News, _seconds: float) -> None:
        sender.send((_NEWS, event, news))  # under the run's news lock: one message at a time

    run.forked_child(parent_cpu, tell_parent)
    try:
        answer = (_DONE, True, work(), dict(run.stats))
    except Exception as exc:  # raised again in the parent
        answer = (_DONE, False, exc, dict(run.stats))
    try:
        sender.send(answer)
    except Exception as exc:  # an exception that does not pickle
        sender.send((_DONE, False, RuntimeError(f"{type(exc).__name__}: {exc}"), answer[3]))


def in_child(work: Callable[[], T], run: Run, stopped: T, grace: float = GRACE_SECONDS) -> T:
    """``work()`` done in a forked child, or ``stopped`` when the run had to stop first.

    The child's statistics are added to ``run.stats``; its exceptions are raised here.
    ``grace``: how long past a stop the child may still answer (0 for work that cannot
    stop itself).
    """
    import multiprocessing  # here: its import costs every command's start-up about 10 ms

    if "fork" not in multiprocessing.get_all_start_methods():
        return work()
    if run.should_stop():  # the limit passed while loading: no child, no grace to wait
        return stopped
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    for stream in (sys.stdout, sys.stderr):
        stream.flush()  # else the child would write the parent's buffered text again
    child = context.Process(
        target=_work_and_send, args=(work, run, sender, cpu_seconds()), daemon=True
    )
    child.start()
    sender.close()
    stopped_at: float | None = None
    try:
        while True:
            if receiver.poll(POLL_SECONDS):
                message = receiver.recv()
                if message[0] == _DONE:
                    break
                run.learn(*message[1:])
            else:
                run.tick()
                if not child.is_alive() and not receiver.poll():
                    raise RuntimeError(
                        f"the solver process ended without an answer ({child.exitcode})"
                    )
            if run.should_stop():  # after news too: a child telling them fast is still stopped
                stopped_at = stopped_at or time.perf_counter()
                if time.perf_counter() - stopped_at >= grace:
                    return stopped
        _, finished, value, stats = message
    finally:
        if child.is_alive():
            child.kill()  # native solvers ignore a Python-level SIGTERM handler
        child.join()
        receiver.close()
    run.stats.add(stats)
    if not finished:
        raise value
    answer: T = value  # what work() returned, through the pipe
    return answer
