"""The local-search traces are the backends' own searches: a trace's solution, moves and
statistics are what ``queens solve`` finds and counts with the same seed."""

from __future__ import annotations

import pytest

import queenslab as ql
from queenslab.core.problem import Problem
from queenslab.heuristics.collisions import Collisions
from queenslab.trace import trace

PLAIN = [Problem(6), Problem(12)]
CONSTRAINED = [
    Problem(8, ((2, 3),), blocked=((0, 0), (0, 2))),
    Problem(11, ((0, 0),), variant="toroidal", blocked=((1, 3),)),
]
CASES = [("hill-climbing", p) for p in PLAIN] + [("min-conflicts", p) for p in PLAIN + CONSTRAINED]


@pytest.mark.parametrize(("method", "problem"), CASES, ids=repr)
@pytest.mark.parametrize("seed", [0, 5])
def test_a_trace_replays_what_the_backend_does(method, problem, seed):
    steps = trace(problem, method, seed=seed).steps
    solved = ql.solve(problem, method, seed=seed)
    solution = next(step["cols"] for step in steps if step["kind"] == "solution")
    assert solution == [int(c) for c in solved.placement]
    effort = {k: v for k, v in solved.stats.items() if not k.endswith("_seconds")}
    assert steps[-1]["stats"] == effort
    assert sum(step["kind"] == "swap" for step in steps) == effort["moves"]


def test_the_swaps_shown_count_the_attacking_pairs_of_their_board():
    problem = Problem(10, blocked=((0, 0), (5, 5)))
    cols: list[int] = []
    for step in trace(problem, "min-conflicts", seed=3).steps:
        if step["kind"] == "restart":
            cols = list(step["cols"])
        elif step["kind"] == "swap":
            for row, col in zip(step["rows"], step["cols"], strict=True):
                cols[row] = col
        if "conflicts" in step:
            assert Collisions(problem, list(cols)).pairs == step["conflicts"]
