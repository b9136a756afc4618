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
