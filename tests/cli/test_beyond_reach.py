"""The line saying that a run is beyond what its backend proved here: on a terminal only."""

from __future__ import annotations

from queenslab.core.problem import Problem
from queenslab.problems.defaults import beyond_reach
from tests.conftest import on_terminal

#: Domination on 20 x 20 with 1 queen: milp refutes it at once, and no backend proved
#: n = 20 in the benchmark's budget.
BEYOND = ("decide", "20", "--problem", "domination", "--value", "1", "-b", "milp")


def test_the_beyond_reach_line_shows_on_a_terminal_and_not_when_piped(queens):
    line = beyond_reach(Problem(20, kind="domination"), "milp")
    assert line is not None
    code, seen = on_terminal(*BEYOND)
    assert code == 1 and f"queens: {line}" in seen.replace("\r\n", "\n").replace("\n", " ")
    piped = queens(*BEYOND)
    assert piped.returncode == 1 and "beyond" not in piped.stderr
