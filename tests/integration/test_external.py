"""The ``sat`` backend's ``--solver-cmd``: real solver programs, and fake ones that misbehave.

Real programs (CaDiCaL, PicoSAT, MiniSat from the Debian archive, installed by .ci/run)
are skipped with the reason where missing. The fakes are Python scripts written here: a
wrong model, garbage, a crash, a sleeper past the time limit; none may ever reach the
user as a board.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import time

import pytest

import queenslab as ql
from queenslab.core.problem import Problem
from queenslab.lab import reference
from queenslab.models import external
from tests import oracle
from tests.conftest import HANG, ROOT, start_queens

REAL = {"cadical": "cadical -q", "picosat": "picosat", "minisat": "minisat"}


def missing(program: str):
    return pytest.mark.skipif(
        shutil.which(program) is None,
        reason=f"{program} is not installed (.ci/run installs it from Debian)",
    )


SOLVERS = pytest.mark.parametrize(
    "cmd", [pytest.param(cmd, id=program, marks=missing(program)) for program, cmd in REAL.items()]
)


@SOLVERS
def test_real_solvers_solve_and_prove_infeasible(cmd):
    for n in (1, 8, 13):
        result = ql.solve(n, "sat", solver_cmd=cmd)
        assert result.status == ql.Status.SOLVED
        assert oracle.is_solution(list(result.placement), n)
    assert ql.solve(3, "sat", solver_cmd=cmd).status == ql.Status.INFEASIBLE
    problem = Problem(11, variant="toroidal", givens=((0, 0),), blocked=((5, 5),))
    placement = ql.solve(problem, "sat", solver_cmd=cmd).placement
    assert oracle.is_solution(list(placement), 11, "toroidal", problem.blocked)
    assert placement[0] == 0


@SOLVERS
def test_real_solvers_count_by_blocking_clauses(cmd):
    for n in (4, 5, 6):
        assert ql.count(n, "sat", solver_cmd=cmd).total == reference.total(n)
    found = sorted(tuple(p) for p in ql.enumerate_solutions(6, "sat", solver_cmd=cmd))
    assert found == oracle.all_solutions(6)


@missing("cadical")
def test_cadical_solves_40_from_the_command_line(queens):
    run = queens("solve", "40", "--backend", "sat", "--solver-cmd", "cadical -q", "-v")
    assert run.returncode == 0, run.stderr
    rows = run.stdout.splitlines()
    cols = [row.index("Q") for row in rows]
    assert len(rows) == 40 and oracle.is_solution(cols, 40)
    assert "solver cadical -q; solver_runs 1" in run.stderr


# -- fakes ------------------------------------------------------------------------------------


def fake(tmp_path, body: str) -> str:
    """A solver command running ``body`` as a Python script (argv[1] is the CNF file)."""
    script = tmp_path / "fake_solver.py"
    script.write_text("import os, subprocess, sys, time\n" + body)
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"


def diagonal_model(n: int) -> str:
    """A model with one queen per row and column, all on one diagonal: not a solution."""
    return " ".join(str(r * n + c + 1) if r == c else str(-(r * n + c + 1))
                    for r in range(n) for c in range(n))  # fmt: skip


FAKES = {
    "wrong model": (
        f"print('s SATISFIABLE'); print('v {diagonal_model(8)} 0'); sys.exit(10)",
        "returned a wrong model: the queens of rows 0 and 1 attack each other",
    ),
    "too many queens": (
        "print('s SATISFIABLE'); print('v ' + ' '.join(map(str, range(1, 65))) + ' 0')",
        "returned a wrong model: row 0 has 8 queens",
    ),
    "garbage": ("print('hello, world')", "gave no answer: no 's SATISFIABLE' line"),
    "model not numbers": ("print('s SATISFIABLE'); print('v one two 0')", "not numbers"),
    "model without 0": ("print('s SATISFIABLE'); print('v 1 -2')", "not ended by a single 0"),
    "crash": ("print('out of memory', file=sys.stderr); sys.exit(1)",
              "failed with exit code 1: out of memory"),
    "signal": ("import signal; os.kill(os.getpid(), signal.SIGSEGV)", "killed by signal 11"),
    "exit code disagrees": ("print('s UNSATISFIABLE'); sys.exit(10)",
                            "exited with code 10 but answered infeasible"),
    "strange answer": ("print('s MAYBE')", "answered 's MAYBE'"),
}  # fmt: skip


@pytest.mark.parametrize("case", FAKES)
def test_a_misbehaving_solver_is_a_one_line_error(queens, tmp_path, case):
    body, message = FAKES[case]
    cmd = fake(tmp_path, body)
    run = queens("solve", "8", "--backend", "sat", "--solver-cmd", cmd)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith(f"queens: error: SAT solver {cmd!r}"), run.stderr
    assert message in run.stderr and len(run.stderr.splitlines()) == 1


def test_a_wrong_model_never_reaches_the_api_as_a_board(tmp_path):
    cmd = fake(tmp_path, f"print('s SATISFIABLE'); print('v {diagonal_model(8)} 0')")
    with pytest.raises(ql.UsageError, match="wrong model"):
        ql.solve(8, "sat", solver_cmd=cmd)


def test_a_solver_repeating_a_board_is_caught(tmp_path):
    """Without the check an enumeration would loop on the board forever."""
    model = " ".join(
        str(v if (v - 1) % 6 == [1, 3, 5, 0, 2, 4][(v - 1) // 6] else -v) for v in range(1, 37)
    )
    cmd = fake(tmp_path, f"print('s SATISFIABLE'); print('v {model} 0')")
    with pytest.raises(ql.UsageError, match="returned a board the CNF excludes"):
        ql.count(6, "sat", solver_cmd=cmd)


def test_a_solver_that_gives_up_is_a_limit(queens, tmp_path):
    run = queens(
        "count", "6", "--backend", "sat", "--solver-cmd", fake(tmp_path, "print('s UNKNOWN')")
    )
    assert run.returncode == 3


def test_minisat_style_solution_file(tmp_path):
    """``{solution}``: the answer is read from the file the solver writes, not its output."""
    body = (
        "cnf, out = sys.argv[1:]\n"
        "print('SATISFIABLE')\n"
        "model = ' '.join(str(v if (v - 1) % 4 == [1, 3, 0, 2][(v - 1) // 4] else -v) "
        "for v in range(1, 17))\n"
        "open(out, 'w').write('SAT\\n' + model + ' 0\\n')\n"
    )
    cmd = fake(tmp_path, body) + " {cnf} {solution}"
    assert ql.solve(4, "sat", solver_cmd=cmd).placement == ql.Placement([1, 3, 0, 2])
    with pytest.raises(ql.UsageError, match="wrote no solution file"):
        ql.solve(4, "sat", solver_cmd=fake(tmp_path, "pass") + " {cnf} {solution}")


def test_answers_in_both_forms():
    solved, unsat = ql.Status.SOLVED, ql.Status.INFEASIBLE
    competition = "c a comment\ns SATISFIABLE\nv 1 -2\nv 3 0\nc done\n"
    assert external.parse("x", competition, False) == (solved, [1, -2, 3])
    assert external.parse("x", "SAT\n1 -2\n3 0\n", True) == (solved, [1, -2, 3])
    assert external.parse("x", "s SATISFIABLE\nv 1 -2 3 0\n", True) == (solved, [1, -2, 3])
    assert external.parse("x", "UNSAT\n", True)[0] is unsat
    assert external.parse("x", "s UNSATISFIABLE\n", False)[0] is unsat
    with pytest.raises(ql.UsageError, match="no 's SATISFIABLE' line"):
        external.parse("x", "SATISFIABLE\n", False)  # MiniSat's stdout: its model is in a file


def test_arguments_of_known_programs():
    cnf, solution = ROOT / "in.cnf", ROOT / "out"
    assert external.arguments("minisat", cnf, solution) == (
        ["minisat", str(cnf), str(solution)],
        True,
    )
    assert external.arguments("cadical -q", cnf, solution) == (["cadical", "-q", str(cnf)], False)
    assert external.arguments("kissat {cnf} -q", cnf, solution) == (
        ["kissat", str(cnf), "-q"],
        False,
    )


def test_a_missing_program_is_refused_before_any_search(queens):
    run = queens("solve", "8", "--backend", "sat", "--solver-cmd", "no-such-solver -q")
    assert run.returncode == 2 and len(run.stderr.splitlines()) == 1
    assert "no program 'no-such-solver' on the PATH" in run.stderr
    run = queens("solve", "8", "--backend", "sat", "--solver-cmd", "'unclosed")
    assert run.returncode == 2 and "No closing quotation" in run.stderr


SLEEPER = (
    "child = subprocess.Popen(['sleep', '120'])\n"
    "open(sys.argv[1] + '.pids', 'w').write(f'{os.getpid()} {child.pid}')\n"
    "time.sleep(120)\n"
)


def _pids(tmp_path) -> list[int]:
    """The sleeper's pid and its child's, once it has written them."""
    patience = time.monotonic() + HANG
    while time.monotonic() < patience:
        files = list(tmp_path.glob("queenslab-sat-*/model.cnf.pids"))
        if files and files[0].read_text():
            return [int(p) for p in files[0].read_text().split()]
        time.sleep(0.05)
    raise AssertionError("the fake solver never started")


def _gone(pid: int) -> bool:
    """Ended: no such process, or a zombie waiting for a parent to reap it."""
    patience = time.monotonic() + HANG
    while time.monotonic() < patience:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


def _start(tmp_path, *argv: str) -> subprocess.Popen:
    solver = fake(tmp_path, SLEEPER)
    return start_queens(*argv, "--backend", "sat", "--solver-cmd", solver, TMPDIR=str(tmp_path))


@pytest.mark.slow
def test_time_limit_ends_the_solver_and_its_children(tmp_path):
    # 10 s: the fake solver starts (a Python) before the limit, even at load 10
    process = _start(tmp_path, "solve", "8", "--time-limit", "10")
    pids = _pids(tmp_path)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 3, err
    assert all(_gone(pid) for pid in pids)
    assert not list(tmp_path.glob("queenslab-sat-*"))  # the temporary files went too


def test_ctrl_c_ends_the_solver_and_its_children(tmp_path):
    process = _start(tmp_path, "count", "8")
    pids = _pids(tmp_path)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert (process.returncode, err) == (130, "queens: interrupted\n")
    assert out.startswith("at least "), out  # what it had counted: a lower bound
    assert all(_gone(pid) for pid in pids)


def test_sigterm_ends_the_solver_and_its_children(tmp_path):
    """SIGTERM to queens alone (not its group): it must end the solver's group itself."""
    process = _start(tmp_path, "solve", "8")
    pids = _pids(tmp_path)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert (process.returncode, out, err) == (143, "", "queens: terminated\n")
    assert all(_gone(pid) for pid in pids)
    assert not list(tmp_path.glob("queenslab-sat-*"))
