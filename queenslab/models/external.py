"""Any DIMACS SAT solver program as the ``sat`` backend's solver (``--solver-cmd CMD``).

The CNF of ``models.cnf`` goes to a temporary file and the command runs on it in a
process group of its own, which a time limit or Ctrl-C ends (SIGTERM, then SIGKILL half a
second later). ``CMD`` is split into words as a shell would; ``{cnf}`` in it stands for
the CNF file (appended when absent) and ``{solution}`` for a file the solver writes its
answer to, read instead of its standard output. Solvers known to need such a file get
both by default (``minisat`` runs as ``minisat {cnf} {solution}``).

Answers are read in the SAT competition's form (``s SATISFIABLE`` with ``v ... 0`` lines,
``s UNSATISFIABLE``, ``s UNKNOWN``; exit code 10, 20 or 0) or MiniSat's result file
(``SAT`` then the literals, ``UNSAT``). A program that cannot start, crashes, prints
something else, or returns a model that is not a new solution of this board is a
one-line UsageError naming the command: never a wrong board. UNSATISFIABLE is taken as
the solver's proof that no solution exists; UNKNOWN as a limit reached.

Enumeration and counting block each board found with a clause on its n board variables
and run the program again on the whole CNF: one process per solution, for checking a
solver rather than for speed.

subprocess, shutil, tempfile and pathlib are imported where they are used: the ``sat`` backend
imports this module for its option, and every command's start-up would pay for them.
"""

from __future__ import annotations

import os
import shlex
import signal
from collections.abc import Generator, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from queenslab.core.backend import Option
from queenslab.core.errors import LimitReached, UsageError
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import CountResult, SolveResult, Status
from queenslab.core.run import Run
from queenslab.runtime.stop import POLL_SECONDS

if TYPE_CHECKING:
    import subprocess
    from pathlib import Path

    from queenslab.models.cnf import BoardCnf

#: Arguments for programs that write their model to a file rather than to stdout.
KNOWN_ARGUMENTS: dict[str, tuple[str, ...]] = {"minisat": ("{cnf}", "{solution}")}

_GRACE_SECONDS = 0.5  # between SIGTERM and SIGKILL
_EXIT_SAT, _EXIT_UNSAT = 10, 20
_STATUS = {
    "SATISFIABLE": Status.SOLVED,
    "SAT": Status.SOLVED,
    "UNSATISFIABLE": Status.INFEASIBLE,
    "UNSAT": Status.INFEASIBLE,
    "UNKNOWN": Status.UNKNOWN,
    "INDET": Status.UNKNOWN,
}


def command(value: Any) -> str:
    """Option converter: a command line whose program is on the PATH."""
    import shutil

    words = shlex.split(str(value))  # ValueError on an unclosed quote
    if not words:
        raise ValueError("the command is empty")
    if shutil.which(words[0]) is None:
        raise ValueError(f"no program {words[0]!r} on the PATH")
    return str(value)


COMMAND_OPTION = Option(
    "solver_cmd",
    "a DIMACS SAT solver program to run instead of python-sat, e.g. 'cadical -q' or "
    "'minisat'; {cnf} and {solution} stand for its input and result files",
    None,
    convert=command,
    metavar="CMD",
)


def arguments(cmd: str, cnf: Path, solution: Path) -> tuple[list[str], bool]:
    """The argument list for one run, and whether the answer is in the solution file."""
    words = shlex.split(cmd)
    if not any("{cnf}" in w or "{solution}" in w for w in words):
        words += KNOWN_ARGUMENTS.get(os.path.basename(words[0]), ("{cnf}",))
    argv = [w.replace("{cnf}", str(cnf)).replace("{solution}", str(solution)) for w in words]
    return argv, any("{solution}" in w for w in words)


def parse(cmd: str, text: str, in_file: bool) -> tuple[Status, list[int]]:
    """The status and the literals of an answer (SAT competition or MiniSat file form)."""
    status: Status | None = None
    words: list[str] = []
    for line in text.splitlines():
        head, *rest = line.split() or ["c"]
        if head == "c":  # a comment, or a blank line
            continue
        if head == "s" or (in_file and head in _STATUS and status is None):
            phrase = " ".join(rest) if head == "s" else head
            if phrase not in _STATUS:
                raise UsageError(f"SAT solver {cmd!r} answered {line.strip()!r}")
            status = _STATUS[phrase]
        elif head == "v":
            words += rest
        elif in_file and status is Status.SOLVED:
            words += [head, *rest]
    if status is None:
        where = "its solution file" if in_file else "its output"
        raise UsageError(f"SAT solver {cmd!r} gave no answer: no 's SATISFIABLE' line in {where}")
    try:
        literals = [int(word) for word in words]
    except ValueError:
        raise UsageError(f"SAT solver {cmd!r} printed a model that is not numbers") from None
    if status is Status.SOLVED and (not literals or literals[-1] != 0 or 0 in literals[:-1]):
        raise UsageError(f"SAT solver {cmd!r} printed a model not ended by a single 0")
    return status, literals[:-1]


def board(
    cmd: str, problem: Problem, formula: BoardCnf, literals: Sequence[int]
) -> tuple[int, ...]:
    """The board of a model, checked: a queen on each row, and a solution of the problem."""
    rows: list[list[int]] = [[] for _ in range(problem.n)]
    for r, c in formula.queens(literals):
        rows[r].append(c)
    for r, queens in enumerate(rows):
        if len(queens) != 1:
            raise UsageError(f"SAT solver {cmd!r} returned a wrong model: row {r} has "
                             f"{len(queens)} queens")  # fmt: skip
    cols = tuple(queens[0] for queens in rows)
    verdict = problem.board.check(cols)
    if not verdict.valid:
        raise UsageError(f"SAT solver {cmd!r} returned a wrong model: {verdict.describe()}")
    if not problem.keeps_givens(cols):
        raise UsageError(f"SAT solver {cmd!r} returned a wrong model: a given queen moved")
    return cols


def _end(child: subprocess.Popen[bytes]) -> None:
    """End the solver and everything it started (its process group)."""
    import subprocess

    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(child.pid, sig)
        except ProcessLookupError:
            break
        try:
            child.wait(_GRACE_SECONDS)
        except subprocess.TimeoutExpired:
            continue
    child.wait()


def run_program(argv: list[str], folder: Path, run: Run) -> tuple[int, str, str]:
    """Run the solver until it exits (its exit code, stdout, stderr); LimitReached on a stop."""
    import subprocess

    out_path, err_path = folder / "stdout", folder / "stderr"
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        try:
            child = subprocess.Popen(
                argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err, start_new_session=True
            )
        except OSError as exc:
            raise UsageError(f"cannot run SAT solver {argv[0]!r}: {exc.strerror or exc}") from None
        try:
            while True:
                try:
                    code = child.wait(POLL_SECONDS)
                    break
                except subprocess.TimeoutExpired:
                    if run.should_stop():
                        raise LimitReached from None
        except BaseException:  # the limit, Ctrl-C: the solver must not outlive the run
            _end(child)
            raise
    return code, _read(out_path), _read(err_path)


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def _solve_once(
    cmd: str, clauses: Sequence[Sequence[int]], top: int, folder: Path, run: Run
) -> tuple[Status, list[int]]:
    """One run of the solver on ``clauses``: its status and model."""
    from queenslab.models.cnf import write_dimacs

    cnf, solution = folder / "model.cnf", folder / "solution"
    with open(cnf, "w", encoding="ascii") as out:
        write_dimacs(out, top, clauses)
    solution.unlink(missing_ok=True)
    argv, in_file = arguments(cmd, cnf, solution)
    code, stdout, stderr = run_program(argv, folder, run)
    run.stats.add(solver_runs=1)
    if code not in (0, _EXIT_SAT, _EXIT_UNSAT):
        how = f"was killed by signal {-code}" if code < 0 else f"failed with exit code {code}"
        last = stderr.strip().splitlines()[-1:] or stdout.strip().splitlines()[-1:]
        raise UsageError(f"SAT solver {cmd!r} {how}" + (f": {last[0]}" if last else ""))
    if in_file and not solution.exists():
        raise UsageError(f"SAT solver {cmd!r} wrote no solution file")
    status, literals = parse(cmd, _read(solution) if in_file else stdout, in_file)
    expected = {_EXIT_SAT: Status.SOLVED, _EXIT_UNSAT: Status.INFEASIBLE}.get(code, status)
    if status is not expected:
        raise UsageError(f"SAT solver {cmd!r} exited with code {code} but answered {status}")
    return status, literals


def boards(
    problem: Problem, settings: Mapping[str, Any], run: Run
) -> Generator[tuple[int, ...], None, None]:
    """Every solution once, each blocked before the next run; LimitReached on a stop."""
    import tempfile
    from pathlib import Path

    from queenslab.models.cnf import board_cnf

    cmd = settings["solver_cmd"]
    with run.phase("build"):
        formula = board_cnf(problem.board, settings["encoding"], run.should_stop)
        body, top = formula.with_givens(problem.givens), formula.top
    run.stats.add(variables=top, constraints=len(body), solver=cmd)
    blocking: list[tuple[int, ...]] = []
    seen: set[tuple[int, ...]] = set()
    with tempfile.TemporaryDirectory(prefix="queenslab-sat-") as folder:
        while True:
            status, literals = _solve_once(cmd, [*body, *blocking], top, Path(folder), run)
            if status is Status.INFEASIBLE:
                return
            if status is Status.UNKNOWN:
                raise LimitReached
            cols = board(cmd, problem, formula, literals)
            if cols in seen:
                raise UsageError(f"SAT solver {cmd!r} returned a board the CNF excludes")
            seen.add(cols)
            yield cols
            blocking.append(tuple(-lit for lit in formula.units(enumerate(cols))))


def solve(problem: Problem, settings: Mapping[str, Any], run: Run) -> SolveResult:
    found = boards(problem, settings, run)
    try:
        cols = next(found, None)
    except LimitReached:
        return SolveResult(Status.LIMIT)
    finally:
        found.close()
    if cols is None:
        return SolveResult(Status.INFEASIBLE)
    return SolveResult(Status.SOLVED, Placement(cols))


def enumerate_boards(
    problem: Problem, settings: Mapping[str, Any], run: Run
) -> Iterator[Placement]:
    for cols in boards(problem, settings, run):
        yield Placement(cols)


def count(problem: Problem, settings: Mapping[str, Any], run: Run) -> CountResult:
    total = 0
    try:
        for _ in boards(problem, settings, run):
            total += 1
    except LimitReached:
        return CountResult(None, status=Status.LIMIT)
    return CountResult(total)
