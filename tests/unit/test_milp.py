"""The Pyomo MILP backend and the resolution of Pyomo solver names."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

import pytest

import queenslab as ql
from queenslab.core.problem import Problem
from queenslab.lab import reference
from queenslab.models import pyomo_solvers
from queenslab.models.milp import MilpBackend, subproblems
from tests import oracle

pytest.importorskip("pyomo")
pytest.importorskip("highspy")


@pytest.mark.parametrize("n", [8, 64])
def test_solves_with_a_valid_board(n):
    result = ql.solve(n, "milp")
    assert result.status == ql.Status.SOLVED
    assert oracle.is_solution(result.placement.to_list(), n)


def test_counts_92_at_8():
    assert ql.count(8, "milp").total == reference.total(8) == 92


def test_enumeration_with_givens_is_the_brute_force_set():
    givens = [(1, 2)]
    found = sorted(p.as_tuple() for p in ql.enumerate_solutions(7, "milp", givens=givens))
    assert found == sorted(oracle.all_solutions(7, givens))


def test_givens_are_fixed_and_contradictions_proven_infeasible():
    kept = ql.solve(10, "milp", givens=[(0, 0), (9, 5)])
    assert kept.placement[0] == 0 and kept.placement[9] == 5
    # On 4x4 no solution has a corner queen.
    assert ql.solve(4, "milp", givens=[(0, 0)]).status == ql.Status.INFEASIBLE
    assert ql.count(4, "milp", givens=[(0, 0)]).total == 0


def test_a_spent_time_limit_reports_limit_not_infeasible():
    # The budget is gone before the model is even built, whatever the machine's speed.
    assert ql.solve(60, "milp", time_limit=0.001).status == ql.Status.LIMIT
    counted = ql.count(8, "milp", time_limit=0.001)
    assert counted.status == ql.Status.LIMIT and counted.total is None


def non_attacking(queens) -> bool:
    return all(
        c1 != c2 and abs(r1 - r2) != abs(c1 - c2)
        for (r1, c1), (r2, c2) in itertools.combinations(queens, 2)
    )


@pytest.mark.parametrize("n,depth", [(8, 2), (9, 3)])
def test_subproblems_partition_the_prefixes(n, depth):
    prefixes = [tuple(c for _, c in cube) for cube in subproblems(Problem(n), depth)]
    assert len(prefixes) == len(set(prefixes))
    candidates = itertools.permutations(range(n), depth)
    expected = {p for p in candidates if non_attacking(enumerate(p))}
    assert set(prefixes) == expected


def test_subproblems_skip_given_rows_and_respect_given_queens():
    for cube in subproblems(Problem(8, ((0, 0),)), 2):
        rows = [r for r, _ in cube]
        assert rows == [1, 2]
        assert non_attacking([(0, 0), *cube])


def test_unknown_solver_is_a_usage_error_naming_the_choices():
    with pytest.raises(ql.UsageError, match="choose from: highs"):
        MilpBackend(solver="nonsense")


def test_unavailable_solver_lists_the_available_ones():
    available = pyomo_solvers.available_solvers()
    assert "highs" in available
    missing = [name for name in pyomo_solvers.CANDIDATES if name not in available]
    if not missing:
        pytest.skip("every known MILP solver is installed")
    with pytest.raises(ql.UsageError, match=r"available: .*highs"):
        ql.solve(6, "milp", solver=missing[0])


def test_cli_solve_with_milp(queens):
    run = queens("solve", "12", "--backend", "milp", "--solver", "highs", "--format", "json")
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    assert record["backend"] == "milp" and oracle.is_solution(record["cols"], 12)


@pytest.mark.parametrize("first", ["ortools", "highspy"])
def test_ortools_and_highspy_work_together_in_either_order(first):
    """They share libhighs; an incompatible pair breaks one of them (see DESIGN.md)."""
    second = "highspy" if first == "ortools" else "ortools"
    code = (
        f"import {first}, {second}\n"
        "import highspy\n"
        "from ortools.sat.python import cp_model\n"
        "from queenslab.models.pyomo_solvers import available_solvers\n"
        "assert 'highs' in available_solvers()\n"
        "h = highspy.Highs()\n"
        "h.setOptionValue('output_flag', False)\n"
        "assert h.run() is not None\n"
        "model = cp_model.CpModel()\n"
        "x = model.new_int_var(0, 3, 'x')\n"
        "model.add(x >= 2)\n"
        "assert cp_model.CpSolver().solve(model) == cp_model.OPTIMAL\n"
    )
    _python_apart(code)


def _python_apart(code: str) -> list[str]:
    """The words ``code`` printed, run in a Python of its own, which must succeed."""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return run.stdout.split()


def test_a_child_killed_inside_the_output_capture_leaves_later_solves_free():
    """Pyomo shares its output-capture lock with forked children once multiprocessing is
    imported; a child killed holding it (a portfolio's loser, a run stopped at its deadline)
    stalled every later HiGHS solve for 200 s. Run apart: a regression would stall this
    process's solves."""
    code = (
        "import multiprocessing, time\n"
        "import queenslab as ql\n"
        "from pyomo.common import dependencies\n"
        "print(ql.count(6, 'milp').total)\n"
        "def hold():\n"
        "    dependencies.capture_output_lock.acquire()\n"
        "    time.sleep(600)\n"
        "child = multiprocessing.get_context('fork').Process(target=hold)\n"
        "child.start()\n"
        "time.sleep(0.5)\n"
        "child.kill()\n"
        "child.join()\n"
        "print(ql.count(6, 'milp').total)\n"
        "print(ql.decide(4, 'domination', 2, 'milp', time_limit=100).status.value)\n"
    )
    assert _python_apart(code) == ["4", "4", "yes"]


def test_the_appsi_interface_gives_the_same_answers(monkeypatch):
    """The fallback for Pyomo releases without ``pyomo.contrib.solver``'s HiGHS."""
    monkeypatch.setitem(pyomo_solvers.CANDIDATES, "highs", (("appsi", "highs"),))
    assert type(pyomo_solvers.open_solver("highs")).__name__ == "_AppsiSolver"
    assert ql.count(7, "milp").total == reference.total(7)
    assert ql.solve(3, "milp").status == ql.Status.INFEASIBLE


def test_a_solver_error_is_solved_again_not_read_as_a_limit(queens):
    """HiGHS answers 'error' after the fifth cut of this board (issue 29): no time limit
    was given, yet the count said 'limit'."""
    board = {"blocked": [(6, 5)], "givens": [(4, 1)]}
    truth = oracle.all_solutions(7, [(4, 1)], blocked=[(6, 5)])
    assert ql.count(7, "milp", **board).total == len(truth) == 5
    run = queens("enumerate", "7", "--blocked", "6:5", "--given", "4:1", "-b", "milp")
    assert (run.returncode, run.stderr, len(run.stdout.splitlines())) == (0, "", 5)


def test_a_solver_that_keeps_failing_is_unknown_in_its_own_words(monkeypatch):
    def failing(self, time_limit, presolve=True):
        return self._limit_or_error(False, "error")

    monkeypatch.setattr(pyomo_solvers._ContribSolver, "solve", failing)
    counted, solved = ql.count(6, "milp"), ql.solve(6, "milp")
    assert (counted.status, counted.total, solved.status) == (ql.Status.UNKNOWN, None, "unknown")
    for result in (counted, solved):
        assert result.stats["solver_said"] == "highs ended with termination condition 'error'"
    with pytest.raises(ql.Undecided, match="termination condition 'error'"):
        next(ql.enumerate_solutions(6, "milp"))


def test_highs_tells_its_news_through_the_private_parts_of_pyomo_it_was_written_against():
    from queenslab.boards import board
    from queenslab.models.zero_one import milp
    from queenslab.problems import kind

    question = kind("domination")
    model = question.build(board(5), question.model_name(None))
    solver = pyomo_solvers.open_solver("highs")
    pm = milp.translate(model)
    solver.prepare(pm)
    heard: list[float] = []
    listening = solver.listen(
        list(pm.x.values()), lambda _values, bound: heard.append(bound), lambda: False
    )
    assert listening, (
        "Pyomo's HiGHS interface no longer keeps _solver_model or "
        "_pyomo_var_to_solver_var_map: re-check PyomoSolver.listen, then Pyomo's bound"
    )
    assert solver.solve(None) is pyomo_solvers.Outcome.OPTIMAL and heard
