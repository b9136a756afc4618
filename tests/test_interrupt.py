"""Ctrl-C ends a long count cleanly: exit 130, one line on stderr, no traceback.

The command runs in its own session with SIGINT at its default (as from a terminal), and
the signal goes to the whole process group, pool processes included.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time

import pytest

from tests.conftest import ROOT, queens_command

#: Counts that take well over the few seconds before the interrupt.
LONG_COUNTS = {"bitmask": "18", "cpsat": "16", "sat": "16", "milp": "14"}


@pytest.mark.parametrize(("backend", "n"), LONG_COUNTS.items())
def test_ctrl_c_stops_a_count_cleanly(backend, n):
    process = subprocess.Popen(
        [*queens_command(), "count", n, "--backend", backend],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(3)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert (process.returncode, out, err) == (130, "", "queens: interrupted\n"), err
