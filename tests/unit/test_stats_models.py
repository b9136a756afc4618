"""Model backends report the shared statistics (queenslab.core.stats.FIELDS) that apply.

Parametrized from the registry: every model backend x every task it offers. Each field
must be present, integral and plausible (a model has constraints, a search that found a
board made at least one decision or branch, where the solver counts them).
"""

from __future__ import annotations

import numpy as np
import pytest

import queenslab as ql
from queenslab.core.backend import Family, Task
from queenslab.core.stats import FIELDS
from queenslab.registry import backend_class, info, names

#: What each model backend reports for every task, beside the model size.
EFFORT = {
    "cpsat": ("conflicts", "branches"),
    "sat": ("conflicts", "decisions", "propagations", "restarts"),
    "maxsat": ("conflicts", "decisions", "propagations", "restarts"),
    "milp": ("mip_nodes", "lp_iterations"),
    "sharpsat": (),
}
TASKS = (Task.SOLVE, Task.COUNT, Task.OPTIMIZE)
CASES = [
    (name, task)
    for name in names()
    if backend_class(name).family is Family.MODEL
    for task in TASKS
    if backend_class(name).searches_itself(task, "placement")
]


def _run(name: str, task: Task) -> dict:
    n = 8
    if task is Task.SOLVE:
        return ql.solve(n, name).stats
    if task is Task.COUNT:
        return ql.count(n, name).stats
    weights = np.arange(n * n).reshape(n, n) % 7
    return ql.optimize(n, weights, name).stats


def test_every_model_backend_is_covered():
    """A new model backend with a placement search of its own must say here what effort
    it reports (the portfolio reports its members' instead)."""
    placing = {
        n
        for n in names()
        if backend_class(n).family is Family.MODEL
        and any(backend_class(n).searches_itself(task, "placement") for task in TASKS)
    }
    assert placing <= set(EFFORT)


@pytest.mark.parametrize(("name", "task"), CASES, ids=lambda x: getattr(x, "value", x))
def test_model_statistics_are_shared_integral_and_plausible(name, task):
    if not info(name).available:
        pytest.skip(f"{name} not installed")
    stats = _run(name, task)
    expected = ("variables", "constraints", *EFFORT[name])
    for field in expected:
        assert field in FIELDS
        assert isinstance(stats.get(field), int) and stats[field] >= 0, (field, stats)
    assert stats["variables"] >= 64 and stats["constraints"] > 0
    if name in ("sat", "sharpsat"):
        assert stats["auxiliary_variables"] == stats["variables"] - 64
    for timing in ("build_seconds", "solve_seconds"):
        assert stats[timing] >= 0


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["maxsat", "milp", "sat", "cpsat"])
def test_a_count_reports_the_size_of_its_model_not_a_sum_over_its_solves(backend):
    """Counting builds the model of the optimum, then the model of its answers (maxsat and
    milp once more per answer, each blocked): the record says how large a model was, the
    largest built, where it had summed them (186 answers: 186 models' variables)."""
    import queenslab as ql

    asked = {"kind": "domination", "model": "cells", "backend": backend}
    counted = ql.count(5, **asked)
    optimized = ql.optimize(5, **asked)
    assert counted.total == ql.count(5, kind="domination", model="cells", backend="cpsat").total
    assert counted.total > 100
    assert counted.stats["variables"] < 5 * optimized.stats["variables"], counted.stats
