"""Split and conquer a decision: cube and conquer (Heule, Kullmann, Wieringa and Biere,
2011) on the bounded model of ``queens decide``.

The split fixes ``depth`` answer variables, each naming a board cell, to every one of
their 2^depth assignments: a cube is the bounded model plus those unit clauses, so the
cubes partition its assignments and every answer lies in exactly one cube. The model's
symmetry-breaking constraints (``--symmetry``) stay in every cube's formula, so the union
of the cubes is the symmetry-reduced space the unsplit decide searches: yes as soon as one
cube has an answer (the others are stopped), no only when every cube is refuted, limit
otherwise.

Cells are chosen by the board's structure: highest degree in the queens graph first (a
queen there attacks the most open cells; on an open board, the central ones). Fixing those
variables propagates the most, in either direction, so the cubes are the most reduced and
the most even: the static stand-in for a lookahead's "most propagations" rule.

The model, its split variables and a checkpoint's fingerprint are built in a forked child
(``runtime.forked``), as an unsplit decide builds its model: at large n that is minutes of
code that looks at no clock (n = 200: the whole run, limit or not), and the deadline and
Ctrl-C must end it all the same.

The cubes are the jobs of the run's pool (``runtime.pool``): forked processes for pysat,
which holds the GIL and loads a cube's formula looking at no clock (so a stop kills them,
even one), threads for CP-SAT, which loads a cube looking at the run between constraints,
and for proofs, whose CaDiCaL the run's stop ends (``_pool``), tasks on a Dask cluster
with a scheduler address.
With a checkpoint file (``exact.checkpoint``) every refuted cube is a row, and a rerun of
the same question solves only the cubes not refuted yet.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import closing
from dataclasses import replace
from typing import Any

from queenslab.boards import Board, Cell
from queenslab.boards.graph import neighbours
from queenslab.core.errors import LimitReached, UsageError
from queenslab.core.kind import Question
from queenslab.core.model import BoolModel, Literal, Sense, Var
from queenslab.core.problem import Problem
from queenslab.core.result import DecideResult, Status
from queenslab.core.run import PartRun, Run
from queenslab.models.zero_one.backend import decided
from queenslab.models.zero_one.outcome import Outcome
from queenslab.models.zero_one.translator import TRANSLATORS
from queenslab.runtime import forked
from queenslab.runtime.pool import Cluster, Pool, Processes, Serial, Threads, connect

#: The translators a split runs on, and whether their solves may share one process.
THREADED = {"cpsat": True, "sat": False}
#: The deepest split: 2^12 cubes are plenty for any pool.
MAX_DEPTH = 12

#: A cube: its number and the literals it fixes.
Cube = tuple[int, tuple[Literal, ...]]


def cell_of(name: str) -> Cell | None:
    """The cell a variable names (``q_3_4``, ``w_3_4``, ``x_3_4_1``: row, column first), or
    None for an auxiliary variable."""
    parts = name.split("_")[1:3]
    if len(parts) == 2 and all(part.isdigit() for part in parts):
        return int(parts[0]), int(parts[1])
    return None


def split_variables(board: Board, model: BoolModel, depth: int) -> list[Var]:
    """The ``depth`` answer variables to split on: on the open cells of highest degree in
    the queens graph first, ties by variable number (deterministic)."""
    degrees = {cell: len(near) for cell, near in neighbours(board).items()}
    candidates = [
        (-degrees[cell], v)
        for v in model.answer
        if (cell := cell_of(model.names[v])) is not None and cell in degrees
    ]
    if len(candidates) < depth:
        raise UsageError(f"--split {depth}: the model has only {len(candidates)} cell variables")
    return [v for _, v in sorted(candidates)[:depth]]


def cubes(variables: list[Var]) -> list[Cube]:
    """Every assignment of ``variables`` as literals, numbered: 2^len(variables) cubes."""
    signs = itertools.product((1, -1), repeat=len(variables))
    return [
        (number, tuple(sign * (v + 1) for sign, v in zip(chosen, variables, strict=True)))
        for number, chosen in enumerate(signs)
    ]


def decide(
    translator: str,
    settings: Mapping[str, Any],
    problem: Problem,
    run: Run,
    question: Question,
    value: int,
    depth: int,
    scheduler: str | None = None,
    checkpoint: str | None = None,
    proof: str | None = None,
) -> DecideResult:
    """The decision of ``value`` by ``depth``-cube split on ``translator`` (``sat`` or
    ``cpsat``) with the backend's ``settings``; ``settings["workers"]`` cubes at a time.
    With ``proof``, each cube is decided by CaDiCaL with a checked proof in
    ``proof/cube-K`` (``proved``): the no is checked only when every cube's proof is."""
    if translator not in THREADED:
        raise UsageError(f"--split runs on the sat and cpsat backends, not {translator}")
    proving = None
    if proof is not None:
        from queenslab.models.zero_one import proved

        if translator != "sat" or scheduler or checkpoint:
            raise UsageError(
                "--proof with --split runs on -b sat, in this machine's pool, without "
                "--checkpoint (a resumed proof would lack the skipped cubes' proofs)"
            )
        proving = (proved.program(settings.get("solver_cmd")), str(proved.folder(proof)))
    prepare = functools.partial(_prepared, problem, run, question, value, depth, checkpoint)
    prepared = forked.in_child(prepare, run, None, grace=0.0)
    if prepared is None:  # the run stopped while the model was built
        return DecideResult(Status.LIMIT, kind=problem.kind, value=value)
    model, variables, plan = prepared
    with contextlib.ExitStack() as stack:
        pool = _pool(translator, int(settings.get("workers", 1)), scheduler, stack, proving)
        todo = cubes(variables)
        total, refuted = len(todo), set[int]()
        record = None
        if checkpoint:  # after the pool: no file from an unreachable scheduler
            from queenslab.exact.checkpoint import Checkpoint

            relation = "<=" if model.sense is Sense.MIN else ">="
            method = f"decide {question.kind.name} value {relation} {value}, split {depth}"
            record = stack.enter_context(
                Checkpoint(checkpoint, problem.n, method, total, plan, problem.describe())
            )
            refuted.update(int(i) for i in record.finished()[0])
            todo = [cube for cube in todo if cube[0] not in refuted]
        run.report(len(refuted), total)
        solved, seconds = 0, 0.0
        result = DecideResult(
            Status.LIMIT, kind=problem.kind, value=value, assumptions=tuple(model.assumptions)
        )
        one = {**settings, "workers": 1}
        work = functools.partial(_solve_cubes, translator, one, model, proving)
        stream = pool.stream(work, todo, run)
        if proving is not None:
            stack.callback(_tidy, proving[1])
        with contextlib.suppress(LimitReached), closing(stream):
            for number, outcome, stats, spent in stream:
                solved, seconds = solved + 1, seconds + spent
                # a cube's build time is part of the cubes' time; its size, every cube's
                run.stats.add({k: v for k, v in stats.items() if k != "build_seconds"})
                if outcome.status is Status.INFEASIBLE:
                    refuted.add(number)
                    if record is not None:
                        record.record([number], [(0, 0, 0)])
                    run.report(len(refuted), total)
                elif outcome.values is not None or outcome.status is Status.UNKNOWN:
                    result = decided(problem, question, model, outcome, value)
                    break  # an answer, or a solver's failure: the other cubes are moot
        if result.status is Status.LIMIT and len(refuted) == total:
            result.status = Status.NO
            if proving is not None:  # a proof's no is a refutation only once checked
                rejected = _covered(model, settings, proving[1], cubes(variables), run)
                if rejected is None:
                    result.proof, result.proof_dir = "checked", proving[1]
                else:
                    result = decided(problem, question, model, rejected, value)
    run.stats.add(
        cubes_total=total, cubes_refuted=len(refuted), cubes_solved=solved, cubes_seconds=seconds
    )
    return result


def _prepared(
    problem: Problem, run: Run, question: Question, value: int, depth: int, checkpoint: str | None
) -> tuple[BoolModel, list[Var], str]:
    """The bounded model, the variables to split on and, with a ``checkpoint``, the
    fingerprint of its rows ("" without one): the work of the forked child."""
    with run.phase("build"):
        model = question.build(problem.board).with_objective_bound(value)
        variables = split_variables(problem.board, model, depth)
        return model, variables, _fingerprint(model, variables) if checkpoint else ""


def _pool(
    translator: str,
    workers: int,
    scheduler: str | None,
    stack: contextlib.ExitStack,
    proving: tuple[list[str], str] | None,
) -> Pool[Cube, tuple[Any, ...]]:
    """The Dask cluster of ``scheduler`` (its client closed with ``stack``), else
    ``workers`` threads or forked processes. Threads for CP-SAT, which releases the GIL,
    and for proofs, whose work is CaDiCaL's: a program in a session of its own, which a
    stop ends through the run (a killed worker left it running). Processes for pysat,
    which holds the GIL and loads a formula that no stop interrupts: a stop kills them,
    so even one is forked."""
    if scheduler:
        return Cluster(stack.enter_context(closing(connect(scheduler))))
    if THREADED[translator] or proving is not None:
        return Threads(workers) if workers > 1 else Serial()
    return Processes(workers)


def _fingerprint(model: BoolModel, variables: list[Var]) -> str:
    """What a checkpoint's rows are true of: the bounded model (its variables, clauses,
    rows and sense) and the split variables. A row is written by its terms and bounds
    alone, as the checkpoints have been since their format 2: a label a row gains (an
    export's name) leaves a ledger of the same question valid."""
    rows = [f"Linear(terms={row.terms!r}, lower={row.lower!r}, upper={row.upper!r})"
            for row in model.linear]  # fmt: skip
    text = repr((model.names, model.clauses, _Written(rows), model.sense, variables))
    return hashlib.sha256(text.encode()).hexdigest()


class _Written(list[str]):
    """Rows already written out: their repr is the text itself, unquoted."""

    def __repr__(self) -> str:
        return "[" + ", ".join(self) + "]"


def _covered(
    model: BoolModel, settings: Mapping[str, Any], root: str, every: list[Cube], run: Run
) -> Outcome | None:
    """After every cube's proof checked: the whole formula and the cube file written in
    the proof folder (``proofs.cubes``), and checked to cover every case with cube
    formulas that are the formula under each cube; None when they are, else the outcome
    saying why not (unknown, or a limit reached while the formula was encoded)."""
    import os
    import tempfile
    from pathlib import Path

    from queenslab.models.zero_one import cnf, proved
    from queenslab.proofs import cubes as split_proof
    from queenslab.proofs.lrat import ProofError, read_cnf

    try:
        hard = cnf.encode(model, settings["encoding"], run.should_stop)
    except LimitReached:
        return Outcome(Status.LIMIT)
    with tempfile.TemporaryDirectory(prefix=".queenslab-proof-", dir=root) as temporary:
        work = Path(temporary)
        proved.write_formula(work / proved.FORMULA, model, hard)
        with open(work / split_proof.MANIFEST, "w", encoding="ascii") as out:
            split_proof.write(out, [units for _, units in every])
        for name in (proved.FORMULA, split_proof.MANIFEST):
            os.replace(work / name, Path(root) / name)
    try:
        with open(Path(root) / proved.FORMULA, encoding="ascii") as text:
            formula = read_cnf(text)
        for _ in split_proof.members(formula, Path(root) / split_proof.MANIFEST):
            pass  # each cube's proof was checked by the worker that refuted it
    except ProofError as exc:
        return Outcome(Status.UNKNOWN, message=f"the split proof is rejected: {exc}")
    return None


def _tidy(root: str) -> None:
    """Remove what stopped cubes left in the proof folder: a worker ended in the middle
    of a proof (another cube said yes, a limit, Ctrl-C) leaves its temporary folder."""
    import shutil
    from pathlib import Path

    for cube in Path(root).glob("cube-*"):
        for temporary in cube.glob(".queenslab-proof-*"):
            shutil.rmtree(temporary, ignore_errors=True)
        with contextlib.suppress(OSError):  # only an empty folder goes
            cube.rmdir()


def _solve_cubes(
    translator: str,
    settings: Mapping[str, Any],
    model: BoolModel,
    proving: tuple[list[str], str] | None,
    claimed: Iterator[Cube],
    should_stop: Callable[[], bool],
) -> Iterator[tuple[int, Outcome, dict[str, Any], float]]:
    """A pool worker: (number, outcome, statistics, seconds) per cube it claims. A pure
    function of its arguments, so a Dask task may be rerun. With ``proving`` (the CaDiCaL
    command, the proof folder), a cube's no is INFEASIBLE only after its proof checked."""
    solve = TRANSLATORS.get(translator).optimize  # a Dask worker loads it as a plug-in
    for number, units in claimed:
        start = time.perf_counter()
        run = PartRun(should_stop)  # a cube's: the pool worker's should_stop
        cube = replace(model, clauses=[*model.clauses, *((lit,) for lit in units)])
        if proving is None:
            outcome = solve(cube, run, settings)
        else:
            from queenslab.models.zero_one import proved

            command, root = proving
            target = proved.folder(f"{root}/cube-{number}")
            outcome, _ = proved.decide(cube, run, settings, target, command)
            with contextlib.suppress(OSError):  # a yes or a stop leaves no empty folder
                target.rmdir()
        yield number, outcome, dict(run.stats), time.perf_counter() - start
