"""N-queens as CNF for python-sat: the clauses, DIMACS export, and the ``sat`` backend.

Variables 1..n² are the board cells (cell (r, c) is ``r*n + c + 1``); the auxiliary
variables of the cardinality encodings come after them. Rows and columns hold exactly one
queen, every diagonal at most one. Given queens are unit clauses.

Counting splits the board on its border queens (``cubes.border_split``, all eight
symmetries) and solves each batch of cubes in one solver, under assumptions, in processes.
Models are blocked on the board variables only: blocking a whole model would also block
the auxiliary variables and count one board several times. Because every row has exactly
one queen, the clause "not all of these n queens" blocks exactly one board.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar, TextIO

from queenslab.backend import (
    Backend,
    Capability,
    Family,
    ProgressCallback,
    default_workers,
    positive_int,
)
from queenslab.deadline import LimitReached, wall_clock_end
from queenslab.errors import UsageError
from queenslab.models import cubes
from queenslab.placement import Placement
from queenslab.problem import Problem
from queenslab.result import CountResult, SolveResult, Status

#: pysat cardinality encodings that handle "exactly one" and "at most one" (``native``
#: needs a cardinality-aware solver and is left out).
ENCODINGS = (
    "pairwise",
    "seqcounter",
    "ladder",
    "totalizer",
    "sortnetwrk",
    "cardnetwrk",
    "mtotalizer",
    "kmtotalizer",
    "bitwise",
)

#: pysat solvers that construct in this build, solve incrementally and take conflict
#: budgets. Left out: lingeling (no limited solve), kissat404 (aborts the process when
#: called again after a budget ran out), cryptosat and minisatgh (not built).
SOLVERS = (
    "cadical195",
    "cadical153",
    "cadical103",
    "cadical300",
    "glucose3",
    "glucose4",
    "glucose42",
    "gluecard3",
    "gluecard4",
    "maplechrono",
    "maplecm",
    "maplesat",
    "mergesat3",
    "minicard",
    "minisat22",
    "minisatep",
    "ergo",
)

#: Conflicts between two looks at the clock when a time limit is set.
_CONFLICTS_PER_SLICE = 1000


def cell(n: int, row: int, col: int) -> int:
    """The board variable of cell (row, col)."""
    return row * n + col + 1


def _lines(n: int) -> Iterator[tuple[list[int], bool]]:
    """Each line of the board as (cells, exactly_one): rows and columns, then diagonals."""
    for i in range(n):
        yield [cell(n, i, c) for c in range(n)], True
        yield [cell(n, r, i) for r in range(n)], True
    for d in range(2 * n - 1):
        yield [cell(n, r, d - r) for r in range(n) if 0 <= d - r < n], False
        yield [cell(n, r, r - d + n - 1) for r in range(n) if 0 <= r - d + n - 1 < n], False


def check_encoding(encoding: str) -> str:
    if encoding not in ENCODINGS:
        raise UsageError(f"unknown encoding {encoding!r}; choose from: {', '.join(ENCODINGS)}")
    return encoding


@functools.lru_cache(maxsize=8)
def board_clauses(n: int, encoding: str) -> tuple[tuple[tuple[int, ...], ...], int]:
    """The N-queens clauses without givens, and the highest variable they use."""
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool

    kind = getattr(EncType, check_encoding(encoding))
    pool = IDPool(start_from=n * n + 1)
    clauses: list[tuple[int, ...]] = []
    for cells, exactly in _lines(n):
        if len(cells) < 2 and not exactly:
            continue
        encode = CardEnc.equals if exactly else CardEnc.atmost
        clauses.extend(tuple(c) for c in encode(cells, 1, vpool=pool, encoding=kind).clauses)
    return tuple(clauses), max(pool.top, n * n)


def clauses(problem: Problem, encoding: str) -> tuple[list[tuple[int, ...]], int]:
    """The clauses of a problem (givens as unit clauses) and its number of variables."""
    hard, top = board_clauses(problem.n, encoding)
    units = [(cell(problem.n, r, c),) for r, c in problem.givens]
    return [*hard, *units], top


def write_dimacs(problem: Problem, encoding: str, out: TextIO) -> None:
    """Write the problem as DIMACS CNF, with a header describing the variables."""
    n = problem.n
    body, top = clauses(problem, encoding)
    given = " ".join(f"{r}:{c}" for r, c in problem.givens) or "none"
    auxiliary = f"{n * n + 1}..{top}" if top > n * n else "none"
    out.write(
        f"c N-queens n={n}, cardinality encoding {encoding}, given queens: {given}\n"
        f"c variables 1..{n * n} are the board: cell (r, c) is r*{n} + c + 1 (0-based r, c)\n"
        f"c auxiliary variables of the encoding: {auxiliary}\n"
        f"p cnf {top} {len(body)}\n"
    )
    out.writelines(" ".join(map(str, clause)) + " 0\n" for clause in body)


def decode(n: int, model: list[int]) -> tuple[int, ...]:
    """The columns of the queens in a model (the true board variables, in row order)."""
    return tuple((lit - 1) % n for lit in model[: n * n] if lit > 0)


def _blocking_clause(n: int, model: list[int]) -> list[int]:
    return [-lit for lit in model[: n * n] if lit > 0]


def _solve_before(solver: Any, end: float | None, assumptions: Sequence[int] = ()) -> bool | None:
    """Solve, looking at the clock between slices of conflicts; None when ``end`` passes.

    Conflict budgets rather than an interrupt from a timer: CaDiCaL in pysat has no
    interrupt, and every listed solver has budgets.
    """
    if end is None:
        return solver.solve(assumptions=assumptions)
    while time.time() < end:
        solver.conf_budget(_CONFLICTS_PER_SLICE)
        found = solver.solve_limited(assumptions=assumptions)
        if found is not None:
            return found
    return None


def _models(
    problem: Problem, settings: Mapping[str, Any], end: float | None
) -> Iterator[list[int]]:
    """Every model, each blocked on the board once found; raises LimitReached at ``end``."""
    from pysat.solvers import Solver

    n = problem.n
    body, _ = clauses(problem, settings["encoding"])
    with Solver(name=settings["solver"], bootstrap_with=body) as solver:
        while True:
            found = _solve_before(solver, end)
            if found is None:
                raise LimitReached
            if not found:
                return
            model = solver.get_model()
            yield model
            solver.add_clause(_blocking_clause(n, model))


def count_batch(
    batch: Sequence[cubes.Cube], settings: Mapping[str, Any], end: float | None
) -> int | None:
    """Weighted models of some cubes, in one solver taking each cube as assumptions.

    The blocking clauses of one cube may stay for the next: each blocks one solution,
    already counted, of one cube only. A module-level function, so processes can run it.
    """
    from pysat.solvers import Solver

    n = batch[0].problem.n
    hard, _ = board_clauses(n, settings["encoding"])
    total = 0
    with Solver(name=settings["solver"], bootstrap_with=hard) as solver:
        for cube in batch:
            assumptions = [cell(n, r, c) for r, c in cube.problem.givens]
            found = 0
            while satisfiable := _solve_before(solver, end, assumptions):
                found += 1
                solver.add_clause(_blocking_clause(n, solver.get_model()))
            if satisfiable is None:
                return None
            total += cube.weight * found
    return total


class SatBackend(Backend):
    name = "sat"
    family = Family.MODEL
    capabilities = frozenset(
        {Capability.SOLVE, Capability.ENUMERATE, Capability.COUNT, Capability.GIVENS}
    )
    summary = "CNF with pysat cardinality encodings; counts cube by cube in processes"
    requires: ClassVar[Mapping[str, str]] = {"pysat": "python-sat"}
    options: ClassVar[Mapping[str, Any]] = {
        "encoding": ENCODINGS,
        "solver": SOLVERS,
        "workers": positive_int,
    }
    defaults: ClassVar[Mapping[str, Any]] = {
        "encoding": "pairwise",
        "solver": "cadical195",
        "workers": default_workers(),
    }

    def solve(self, problem: Problem) -> SolveResult:
        try:
            model = next(_models(problem, self.settings, wall_clock_end(problem.time_limit)), None)
        except LimitReached:
            return SolveResult(Status.LIMIT)
        if model is None:
            return SolveResult(Status.INFEASIBLE)
        return SolveResult(Status.SOLVED, Placement(decode(problem.n, model)))

    def enumerate(self, problem: Problem) -> Iterator[Placement]:
        for model in _models(problem, self.settings, wall_clock_end(problem.time_limit)):
            yield Placement(decode(problem.n, model))

    def count(
        self, problem: Problem, unique: bool = False, progress: ProgressCallback | None = None
    ) -> CountResult:
        split = cubes.border_split(problem)
        return cubes.count(
            count_batch, problem, split, self.settings, pool="process", progress=progress
        )
