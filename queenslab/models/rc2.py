"""RC2 (python-sat's core-guided MaxSAT solver) stopped by a run: the one RC2 wrapper.

RC2 runs with core minimisation (Ignatiev, Morgado and Marques-Silva, "RC2: an Efficient
MaxSAT Solver", JSAT 2019) and raises its lower bound core by core; its first model is an
optimal one. Its oracle calls go through ``RC2._call_oracle``, a private python-sat method
that this wrapper overrides (pyproject bounds python-sat above; tests/unit/test_rc2.py
fails when the method changes): the core-guided calls run in conflict slices that look at
the run between them (``models.sat.solve_until``), so any oracle stops, CaDiCaL included,
which takes no interrupt; core minimisation's calls (a thousand conflicts each, RC2's own
budget) look at the run first. At a limit, RC2's cost is the lower bound it has proven.

The same override hears what RC2 learns on the way (``Hear``): its cost rises core by
core, and every satisfiable oracle call (core minimisation's, mostly) has a model of the
hard clauses, an answer, if rarely an optimal one before the last.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from queenslab.core.errors import LimitReached
from queenslab.core.result import Status
from queenslab.core.run import Run
from queenslab.models import sat

#: RC2's oracle, by its pysat name: CaDiCaL 1.9.5. Ten times faster than Glucose 3 on the
#: kinds (domination on the 11 x 11 torus: 1.6 s against 16.6 s; the 12 x 12 torus: 44 s,
#: Glucose unfinished after 15 minutes), and faster on weighted placement too (random
#: weights, n = 8, 10, 12: 9.8 s against 17.4 s for the seven boards, medians of three).
ORACLE = "cd19"

#: Called before each oracle call with None and RC2's cost so far (its proven lower bound),
#: and after a satisfiable one with the oracle's model (DIMACS literals) and that cost.
Hear = Callable[[list[int] | None, int], None]


def _deaf(_model: list[int] | None, _cost: int) -> None:
    """The ``Hear`` of a caller that wants only the minimum."""


@dataclass(frozen=True)
class Minimum:
    """RC2's last word: OPTIMAL with ``model``, INFEASIBLE (the hard clauses), or LIMIT;
    ``cost`` is the optimum's cost, or at a limit the proven lower bound."""

    status: Status
    cost: int
    model: list[int] | None = None


def minimise(
    wcnf: Any, run: Run, *, adapt: bool = False, exhaust: bool = False, hear: Hear = _deaf
) -> Minimum:
    """Solve ``wcnf`` (a pysat ``WCNF``) with RC2 and core minimisation until ``run`` stops.

    ``adapt`` (detect at-most-one constraints among the soft clauses) and ``exhaust``
    (core exhaustion) are RC2's options. The oracle's search counters go to ``run.stats``;
    ``hear`` hears the cost and the models on the way.
    """
    with _stoppable(run, hear)(wcnf, solver=ORACLE, adapt=adapt, exhaust=exhaust, minz=True) as rc2:
        try:
            model = rc2.compute()
        except LimitReached:
            return Minimum(Status.LIMIT, rc2.cost)
        finally:
            run.stats.add(sat.solver_stats(rc2.oracle))
    if model is None:
        return Minimum(Status.INFEASIBLE, rc2.cost)
    return Minimum(Status.OPTIMAL, rc2.cost, model)


def _stoppable(run: Run, hear: Hear) -> type:
    """RC2 whose oracle calls raise LimitReached when ``run`` says stop, and tell ``hear``
    (pysat is optional, so the class is made at the call)."""
    from pysat.examples.rc2 import RC2

    class StoppableRC2(RC2):  # type: ignore[misc]  # pysat ships no types
        minimising = False

        def minimize_core(self) -> None:
            self.minimising = True
            try:
                super().minimize_core()
            finally:
                self.minimising = False

        def _call_oracle(self, assumptions: Any = (), expect_interrupt: bool = False) -> Any:
            hear(None, self.cost)
            if self.minimising:
                if run.should_stop():
                    raise LimitReached
                satisfiable = super()._call_oracle(assumptions, expect_interrupt)
            else:
                satisfiable = sat.solve_until(self.oracle, run.should_stop, assumptions)
                if satisfiable is None:
                    raise LimitReached
            if satisfiable:
                hear(self.oracle.get_model(), self.cost)
            return satisfiable

    return StoppableRC2
