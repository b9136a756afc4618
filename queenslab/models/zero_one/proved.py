"""A decide whose "no" comes with a checked proof (``queens decide --proof DIR``).

The model bounded at the value goes as CNF (``cnf.encode``) to the CaDiCaL program, which
writes its DRAT proof in text form (``--no-binary``). A no is believed only after
``proofs.drat`` has found the LRAT hints of every lemma the refutation uses and
``proofs.lrat`` has checked that LRAT proof against the CNF read back from its file. The
folder then holds ``formula.cnf``, ``proof.drat`` and ``proof.lrat`` (a yes writes
nothing: the answer is its own certificate). Files are written in a temporary folder
inside it and moved into place at the end, so a failed, stopped or interrupted run
leaves none. The CNF's first lines are comments naming the facts the formula states
beyond the board's rules (``assumed``): the proof refutes the board with them.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from queenslab.core.errors import LimitReached, UsageError
from queenslab.core.model import BoolModel
from queenslab.core.result import Status
from queenslab.core.run import Run
from queenslab.models import external
from queenslab.models.zero_one import cnf
from queenslab.models.zero_one.outcome import Outcome, found
from queenslab.proofs import drat, lrat, reading

FORMULA, DRAT, LRAT = "formula.cnf", "proof.drat", "proof.lrat"
_EXIT_SAT, _EXIT_UNSAT = 10, 20


def program(solver_cmd: str | None) -> list[str]:
    """The CaDiCaL command: ``--solver-cmd`` when it names CaDiCaL, else ``cadical`` from
    the PATH; a one-line UsageError when there is none."""
    if solver_cmd:
        words = shlex.split(solver_cmd)
        if "cadical" not in os.path.basename(words[0]):
            raise UsageError(f"--proof runs CaDiCaL, not {words[0]!r}: --solver-cmd cadical")
        return words
    if shutil.which("cadical") is None:
        raise UsageError("--proof needs the cadical program on the PATH (apt install cadical)")
    return ["cadical"]


def folder(path: str) -> Path:
    """The proof folder, created when missing; a one-line UsageError when it cannot be."""
    target = Path(path)
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot make the proof folder {path}: {exc.strerror or exc}") from None
    return target


@contextlib.contextmanager
def tidied(path: str) -> Iterator[None]:
    """Around a run given the proof folder ``path``: the folders of the path that this run
    created (the run makes them, ``folder``) and left empty (a yes writes no proof, nor
    does a limit, Ctrl-C or a failure) are removed at its end. A folder that was there
    before is never removed, empty or not."""
    target = Path(path).absolute()
    missing = [p for p in (target, *target.parents) if not p.exists()]
    try:
        yield
    finally:
        for created in missing:  # the deepest first: a parent empties as its child goes
            with contextlib.suppress(OSError):  # not empty, or gone: it stays as it is
                created.rmdir()


def decide(
    model: BoolModel, run: Run, settings: Mapping[str, Any], target: Path, command: list[str]
) -> tuple[Outcome, str | None]:
    """The decision on ``model`` (nothing to optimise) and "checked" when a no's proof
    passed; a rejected proof is an unknown outcome saying why."""
    import tempfile

    try:
        with run.phase("build"):
            hard = cnf.encode(model, settings["encoding"], run.should_stop)
        run.stats.add(hard.stats(model), solver=command[0])
        with tempfile.TemporaryDirectory(prefix=".queenslab-proof-", dir=target) as temporary:
            work = Path(temporary)
            write_formula(work / FORMULA, model, hard)
            outcome, checked = _solve_and_check(model, run, command, work)
            if checked:
                for name in (FORMULA, DRAT, LRAT):
                    os.replace(work / name, target / name)
    except LimitReached:
        return Outcome(Status.LIMIT), None
    return outcome, checked


def write_formula(path: Path, model: BoolModel, hard: cnf.Cnf) -> None:
    """The formula's DIMACS file, opened by the comments naming what it assumes."""
    from queenslab.models.cnf import write_dimacs

    with open(path, "w", encoding="ascii") as out:
        out.writelines(assumed(model))
        write_dimacs(out, hard.top, hard.clauses)


def assumed(model: BoolModel) -> list[str]:
    """The comment lines that open the formula's file: what it states beyond the board's
    rules (``BoolModel.assumptions``), so the proof's folder says what the proof rests on."""
    lines = [f"c assumes {a.kind} {a.name}: {a.brief()}\n" for a in model.assumptions]
    said = lines or ["c assumes nothing beyond the board's rules\n"]
    return [line.encode("ascii", "replace").decode("ascii") for line in said]


def _solve_and_check(
    model: BoolModel, run: Run, command: list[str], work: Path
) -> tuple[Outcome, str | None]:
    argv = [*command, "-q", "--no-binary", str(work / FORMULA), str(work / DRAT)]
    code, stdout, stderr = external.run_program(argv, work, run)
    run.stats.add(solver_runs=1)
    if code == _EXIT_SAT:
        _, literals = external.parse(command[0], stdout, False)
        true = {lit for lit in literals if lit > 0}
        return found(model, [v + 1 in true for v in range(model.size)], proven=True), None
    if code != _EXIT_UNSAT:
        last = (stderr.strip() or stdout.strip()).splitlines()[-1:]
        raise UsageError(
            f"{command[0]} failed with exit code {code}" + (f": {last[0]}" if last else "")
        )
    start = time.perf_counter()
    try:
        with open(work / FORMULA, encoding="ascii") as text:
            formula = lrat.read_cnf(text)
        with open(work / DRAT, encoding="ascii") as proof, open(work / LRAT, "w") as out:
            lines = reading.reported(proof, (work / DRAT).stat().st_size, run.report)
            lemmas = drat.to_lrat(formula, lines, out, run.should_stop)
        with open(work / LRAT, encoding="ascii") as proof:
            lrat.check(formula, proof, run.should_stop)
    except lrat.ProofError as exc:
        return Outcome(Status.UNKNOWN, message=f"the solver's proof is rejected: {exc}"), None
    run.stats.add(
        proof_lemmas=lemmas,
        drat_bytes=(work / DRAT).stat().st_size,
        lrat_bytes=(work / LRAT).stat().st_size,
        proof_check_seconds=round(time.perf_counter() - start, 3),
    )
    return Outcome(Status.INFEASIBLE), "checked"
