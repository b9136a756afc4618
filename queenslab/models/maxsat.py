"""Weighted N-queens as MaxSAT: RC2 over the hard N-queens CNF and weighted soft clauses.

RC2 minimises the total weight of falsified soft clauses (weights positive). Every row
and every column holds exactly one queen, so maximising the weight of the occupied cells
is minimising an assignment cost, and the cost of each cell may be reduced by a constant
per row and per column, as in the first step of Kuhn's Hungarian method (1955): cost =
max weight - weight, less its row's least cost, less its column's least. Every board's
cost changes by the same constant, so the optimum stays; but most rows and columns now
have free cells, and RC2's cores find the bound quickly (random weights 0..10^6: n = 8
in hundredths of a second, where one soft clause per cell of weight w ran for minutes).
An occupied cell of reduced cost k > 0 falsifies the soft clause (¬x) of weight k.

RC2 (``models.rc2``, the wrapper the kinds use too) runs with at-most-one detection and
core exhaustion besides core minimisation; its stratified variant was no faster here and
fails on boards without a solution (pysat 1.9). The objective is recomputed from the
board; the cost only guides the search.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, ClassVar

from queenslab.boards import VARIANTS
from queenslab.core.backend import EVERY_KIND, Family, Feature, Task
from queenslab.core.kind import Question
from queenslab.core.placement import Placement
from queenslab.core.problem import Problem
from queenslab.core.result import OptimizeResult, Status
from queenslab.core.run import Run
from queenslab.models import cnf, rc2
from queenslab.models.zero_one.backend import MODEL_TASKS, KindModels
from queenslab.runtime import forked

if TYPE_CHECKING:
    import numpy as np


def reduced_costs(problem: Problem, weights: np.ndarray) -> dict[tuple[int, int], int]:
    """Each open cell's cost when occupied, >= 0, reduced per row and then per column.

    Python integers: weights near the bound must not overflow.
    """
    n = problem.n
    open_cells = [(r, c) for r in range(n) for c in range(n) if problem.board.is_open(r, c)]
    if not open_cells:
        return {}
    top = max(int(weights[r, c]) for r, c in open_cells)
    cost = {(r, c): top - int(weights[r, c]) for r, c in open_cells}
    for axis in (0, 1):
        least: dict[int, int] = {}
        for cell, value in cost.items():
            least[cell[axis]] = min(value, least.get(cell[axis], value))
        cost = {cell: value - least[cell[axis]] for cell, value in cost.items()}
    return cost


class MaxSatBackend(KindModels):
    name = "maxsat"
    family = Family.MODEL
    tasks = MappingProxyType(
        {
            "placement": frozenset({Task.OPTIMIZE}),
            EVERY_KIND: MODEL_TASKS,
        }
    )
    translator = "maxsat"
    features = frozenset({Feature.GIVENS, Feature.BLOCKED})
    variants = frozenset(VARIANTS)
    summary = "pysat RC2 MaxSAT: hard N-queens CNF, one weighted soft clause per cell"
    requires: ClassVar[Mapping[str, str]] = {"pysat": "python-sat"}
    options = (cnf.ENCODING_OPTION,)

    def load(self) -> None:
        import pysat.examples.rc2  # noqa: F401

    def own_optimize(self, problem: Problem, run: Run, question: Question) -> OptimizeResult:
        weights = question.kind.weights
        stopped = OptimizeResult(Status.LIMIT)
        return forked.in_child(lambda: self._optimize(problem, run, weights), run, stopped)

    def _optimize(self, problem: Problem, run: Run, weights: np.ndarray) -> OptimizeResult:
        from pysat.formula import WCNF

        n = problem.n
        with run.phase("build"):
            wcnf = WCNF()
            hard, top = cnf.clauses(problem, self.settings["encoding"])
            wcnf.extend(hard)
            for (r, c), cost in reduced_costs(problem, weights).items():
                if cost:
                    wcnf.append([-cnf.cell(n, r, c)], weight=cost)
        run.stats.add(variables=top, constraints=len(hard), soft_clauses=len(wcnf.soft))
        minimum = rc2.minimise(wcnf, run, adapt=True, exhaust=True)
        if minimum.model is None:
            return OptimizeResult(minimum.status)
        cols = cnf.decode(n, minimum.model)
        objective = sum(int(weights[r, c]) for r, c in enumerate(cols))
        return OptimizeResult(Status.OPTIMAL, objective, Placement(cols))
