"""Exact model counting without enumeration: Ganak (pyganak) on the N-queens CNF.

The count is projected on the board variables 1..n²; otherwise every assignment of the
encoding's auxiliary variables would count as a model of its own. Ganak prints "c o" lines
on standard output for some inputs, so its output descriptor is sent to /dev/null while it
runs: stdout belongs to the CLI's answer. Ganak has no time limit and cannot be stopped, so
every count runs in a forked child (``forked``), ended at the deadline, on a stop or on Ctrl-C.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from types import MappingProxyType
from typing import ClassVar

from queenslab.boards import VARIANTS
from queenslab.core.backend import Backend, Family, Feature, Task
from queenslab.core.kind import Question
from queenslab.core.problem import Problem
from queenslab.core.result import CountResult, Status
from queenslab.core.run import Run
from queenslab.models import cnf
from queenslab.runtime import forked


@contextmanager
def _quiet_stdout() -> Iterator[None]:
    """Silence file descriptor 1 (C++ code writes there directly, bypassing sys.stdout)."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as sink:
            os.dup2(sink.fileno(), 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


class SharpSatBackend(Backend):
    name = "sharpsat"
    family = Family.MODEL
    tasks = MappingProxyType({"placement": frozenset({Task.COUNT})})
    features = frozenset({Feature.GIVENS, Feature.BLOCKED})
    variants = frozenset(VARIANTS)
    summary = "Ganak #SAT counter on the CNF, projected on the board (cross-validation)"
    requires: ClassVar[Mapping[str, str]] = {"pyganak": "pyganak", "pysat": "python-sat"}
    options = (cnf.ENCODING_OPTION,)

    def load(self) -> None:
        import pyganak  # noqa: F401

    def count(self, problem: Problem, run: Run, question: Question) -> CountResult:
        # Ganak cannot stop itself: no grace at the deadline
        stopped = CountResult(None, status=Status.LIMIT)
        return forked.in_child(lambda: self._count(problem, run), run, stopped, grace=0.0)

    def _count(self, problem: Problem, run: Run) -> CountResult:
        from pyganak import Counter

        with run.phase("build"):
            formula = cnf.board_cnf(problem.board, self.settings["encoding"])
            body, top = formula.with_givens(problem.givens), formula.top
            counter = Counter()
            counter.new_vars(top)
            counter.add_clauses(body)
            counter.set_sampling_set(range(1, formula.board_size + 1))
        run.stats.add(
            variables=top, constraints=len(body), auxiliary_variables=top - formula.board_size
        )
        if not _satisfiable(body):
            return CountResult(0)
        with _quiet_stdout():
            return CountResult(int(counter.count()))


@cnf.pysat_ctrl_c()
def _satisfiable(clauses: list[tuple[int, ...]]) -> bool:
    """Whether the CNF has a model, by the sat backend's default solver (CaDiCaL):
    milliseconds on these boards, where Ganak spends 20-30 s on some boards without a
    solution (super-queens n = 7 and 8, toroidal n = 6 and 8). An unsatisfiable CNF has
    zero models: that proof is exact too."""
    from pysat.solvers import Solver

    from queenslab.models.sat import DEFAULT_SOLVER

    with Solver(name=DEFAULT_SOLVER, bootstrap_with=clauses) as solver:
        return bool(solver.solve())
