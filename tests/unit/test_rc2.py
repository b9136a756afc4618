"""The one RC2 wrapper (``models.rc2``): the private python-sat methods it overrides keep
the signatures it was written against, and a run stops RC2."""

from __future__ import annotations

import inspect

import pytest

from queenslab.core.result import Status
from queenslab.core.run import Run
from queenslab.models import rc2

rc2_module = pytest.importorskip("pysat.examples.rc2")

#: What ``models.rc2.StoppableRC2`` overrides, as written against python-sat 1.9.
OVERRIDDEN = {
    "_call_oracle": "(self, assumptions=[], expect_interrupt=False)",
    "minimize_core": "(self)",
}


@pytest.mark.parametrize("method", OVERRIDDEN)
def test_the_overridden_private_methods_keep_their_signatures(method):
    found = getattr(rc2_module.RC2, method, None)
    assert found is not None and str(inspect.signature(found)) == OVERRIDDEN[method], (
        f"python-sat changed RC2.{method}: re-check queenslab/models/rc2.py's StoppableRC2 "
        "(its oracle calls must still stop in conflict slices and core minimisation must "
        "still go through it), then move the python-sat bound in pyproject.toml"
    )


def test_an_optimum_and_infeasible_hard_clauses():
    from pysat.formula import WCNF

    formula = WCNF()
    formula.extend([[1, 2], [-1, -2]])
    formula.append([-1], weight=3)
    formula.append([-2], weight=5)
    assert rc2.minimise(formula, Run()) == rc2.Minimum(Status.OPTIMAL, 3, [1, -2])
    formula.extend([[1], [2]])
    assert rc2.minimise(formula, Run()).status is Status.INFEASIBLE


def test_a_stopped_run_ends_rc2_with_its_bound():
    from pysat.formula import WCNF

    formula = WCNF()
    formula.extend([[1, 2]])
    formula.append([-1], weight=1)
    formula.append([-2], weight=1)
    run = Run()
    run.stop()
    assert rc2.minimise(formula, run) == rc2.Minimum(Status.LIMIT, 0)
