"""Ctrl-C ends a long count cleanly: exit 130, one line on stderr, no traceback.

The command runs in its own session with SIGINT at its default (as from a terminal), and
the signal goes to the whole process group, pool processes included.
"""

from __future__ import annotations

import pytest

from tests.conftest import ctrl_c_after, start_queens

#: Counts that take well over the few seconds before the interrupt.
LONG_COUNTS = {"bitmask": "18", "cpsat": "16", "sat": "16", "milp": "14"}


@pytest.mark.parametrize(("backend", "n"), LONG_COUNTS.items())
def test_ctrl_c_stops_a_count_cleanly(backend, n):
    process = start_queens("count", n, "--backend", backend)
    assert ctrl_c_after(process, 3) == (130, "", "queens: interrupted\n")
