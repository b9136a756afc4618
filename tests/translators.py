"""The 0-1 translators as the kinds' tests run them: settings, and a solve whose answer the
kind's own checker vouches for."""

from __future__ import annotations

from typing import Any

from queenslab.boards import board
from queenslab.core.result import Status
from queenslab.core.run import Run
from queenslab.models.zero_one import cpsat, maxsat, milp, sat
from queenslab.models.zero_one.outcome import Outcome
from queenslab.problems import kind

TRANSLATORS = {
    "cpsat": (cpsat, {"workers": 1}),
    "milp": (milp, {"solver": "highs"}),
    "maxsat": (maxsat, {"encoding": "pairwise"}),
    "sat": (sat, {"encoding": "pairwise", "solver": "cadical195"}),
}
ENUMERATORS = {name: TRANSLATORS[name] for name in ("cpsat", "sat")}


class Budget(Run):
    """A run that stops at its ``looks``-th look at ``should_stop``: a deterministic budget
    (the SAT translators look between slices of a thousand conflicts), where a time limit
    gives whatever a loaded machine reaches in it."""

    def __init__(self, looks: int) -> None:
        super().__init__()
        self.looks = looks

    def should_stop(self) -> bool:
        self.looks -= 1
        if self.looks < 0:
            self.stop()
        return super().should_stop()


def load_solvers() -> None:
    """Import the solver packages once, before any test times a solve."""
    import pyomo.environ  # noqa: F401
    from ortools.sat.python import cp_model  # noqa: F401
    from pysat.examples.rc2 import RC2  # noqa: F401


def solve(
    name: str,
    problem: str,
    n: int,
    model: str,
    symmetry: str = "none",
    variant: str = "standard",
    blocked: tuple = (),
) -> Outcome:
    """The translator's outcome on an n-board, its answer checked by the kind's checker."""
    module, settings = TRANSLATORS[name]
    question, field = kind(problem), board(n, variant, blocked)
    built = question.build(field, model, symmetry)
    outcome = module.optimize(built, Run(), settings)
    if outcome.values is not None:
        answer = question.decode(field, built, outcome.values)
        assert question.check(field, answer) is None, answer
        assert question.value(answer) == outcome.objective
    return outcome


def optima(
    name: str, problem: str, n: int, model: str, symmetry: str = "none", variant: str = "standard"
) -> list[Any]:
    """Every optimal answer, decoded: the optimum proven, then its answers streamed."""
    module, settings = ENUMERATORS[name]
    question, field = kind(problem), board(n, variant)
    built = question.build(field, model, symmetry)
    best = module.optimize(built, Run(), settings)
    assert best.status is Status.OPTIMAL
    fixed = built.with_objective_at(best.objective)
    return [question.decode(field, built, v) for v in module.solutions(fixed, Run(), settings)]
