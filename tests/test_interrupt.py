"""Ctrl-C ends a long count cleanly: exit 130, one line on stderr, no traceback.

The command runs in its own session with SIGINT at its default (as from a terminal), and
the signal goes to the whole process group, pool processes included.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from queenslab.runtime.forked import leave_sigint_to_parent
from tests.conftest import ctrl_c_after, start_queens

#: Counts that take well over the few seconds before the interrupt.
LONG_COUNTS = {"bitmask": "18", "cpsat": "16", "sat": "16", "milp": "14"}


@pytest.mark.parametrize(("backend", "n"), LONG_COUNTS.items())
def test_ctrl_c_stops_a_count_cleanly(backend, n):
    process = start_queens("count", n, "--backend", backend)
    assert ctrl_c_after(process, 3) == (130, "", "queens: interrupted\n")


@pytest.mark.parametrize(
    "args",
    [["count", "15"], ["enumerate", "16", "--output", "all.jsonl"]],
    ids=["count", "enumerate"],
)
def test_ctrl_c_inside_a_python_sat_solve_is_one_line(args, tmp_path):
    """With one worker the solver runs in the main process, where python-sat catches
    SIGINT itself and raised "Caught keyboard interrupt" (a traceback, exit 1)."""
    argv = [arg.replace("all.jsonl", str(tmp_path / "all.jsonl")) for arg in args]
    process = start_queens(*argv, "-b", "sat", "--workers", "1")
    assert ctrl_c_after(process, 3) == (130, "", "queens: interrupted\n")
    assert list(tmp_path.iterdir()) == []


def test_a_worker_process_dies_at_sigterm_whatever_thread_takes_it():
    """A worker kept the command's Python handler for SIGTERM, which only its main thread
    runs: delivered to its queue's feeder thread, the signal left it asleep in a full
    queue, and the parent's join hung (SIGTERM to `queens enumerate 14 -b sat`)."""
    saved = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        signal.signal(signal.SIGTERM, lambda *_: None)  # as the command's handler
        leave_sigint_to_parent()
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler)


def test_sigterm_ends_an_enumeration_in_worker_processes(tmp_path):
    output = tmp_path / "all.jsonl"
    process = start_queens("enumerate", "14", "-b", "sat", "--output", str(output))
    time.sleep(3)
    assert process.poll() is None, "the enumeration ended before the signal"
    os.killpg(process.pid, signal.SIGTERM)
    try:
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert (process.returncode, out, err) == (143, "", "queens: terminated\n")
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_inside_thread_start_leaves_no_work_running(monkeypatch):
    """A signal inside Thread.start() (which waits for the new thread) escaped before the
    main thread watched the work: the command printed its last line while the solve still
    ran, inside Pyomo's capture of stderr, and the line was lost (enumerate 12 -b milp)."""
    import threading

    from queenslab.runtime.stop import run_stoppably

    start = threading.Thread.start

    def start_then_interrupt(thread: threading.Thread) -> None:
        start(thread)
        raise KeyboardInterrupt

    began, ended = threading.Event(), threading.Event()

    def work() -> None:
        began.set()
        time.sleep(0.2)
        ended.set()

    monkeypatch.setattr(threading.Thread, "start", start_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        run_stoppably(work, lambda: None, lambda: False)
    assert ended.is_set() or not began.wait(0.5)  # finished first, or never ran
