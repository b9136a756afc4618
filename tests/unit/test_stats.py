"""Native searches and heuristics report the shared statistics too, and the timings add up.

Parametrized from the registry: every exact and heuristic backend x solve / count. Model
backends are checked field by field in test_stats_models.py; here every backend, models
included, must report its time split: ``build_seconds`` + ``solve_seconds`` = ``seconds``,
with imports and kernel loading apart in ``startup_seconds``.
"""

from __future__ import annotations

import pytest

import queenslab as ql
from queenslab.core.backend import Family, Task
from queenslab.core.stats import Stats
from queenslab.registry import backend_class, info, names

#: The effort figures each non-model backend reports (constructions search nothing).
EFFORT = {
    "backtrack": ("nodes",),
    "bitmask": ("nodes",),
    "gpu": ("nodes",),
    "small": ("nodes",),
    "csp": ("nodes", "pruned"),
    "minton": ("moves", "plateau_moves", "restarts"),
    "min-conflicts": ("moves", "restarts"),
    "hill-climbing": ("moves", "restarts"),
    "las-vegas": ("trials", "nodes"),
    "divide-conquer": (),
    "explicit": (),
    "graph-search": ("moves",),
    "armies": ("nodes",),
    "independent-search": ("nodes",),
}
NATIVE = [name for name in names() if backend_class(name).family is not Family.MODEL]
CASES = [
    (name, task)
    for name in names()
    for task in (Task.SOLVE, Task.COUNT)
    if backend_class(name).searches_itself(task, "placement")
]


def test_every_native_backend_has_its_effort_figures_listed():
    assert set(NATIVE) <= set(EFFORT)


def _run(name: str, task: Task) -> ql.SolveResult | ql.CountResult:
    if not info(name).available:
        pytest.skip(f"{name} is not installed: {', '.join(info(name).missing)}")
    if task is Task.SOLVE:
        return ql.solve(12, name, seed=1)
    return ql.count(7, name)


@pytest.mark.parametrize(("name", "task"), CASES)
def test_timings_add_up(name, task):
    result = _run(name, task)
    stats = result.stats
    for key in ("build_seconds", "solve_seconds", "startup_seconds"):
        assert isinstance(stats[key], float) and stats[key] >= 0, key
    assert result.seconds == pytest.approx(stats["build_seconds"] + stats["solve_seconds"])


@pytest.mark.parametrize(("name", "task"), [c for c in CASES if c[0] in NATIVE])
def test_effort_figures_are_integral_and_plausible(name, task):
    result = _run(name, task)
    for key in EFFORT[name]:
        value = result.stats[key]
        assert isinstance(value, int) and value >= 0, (key, value)
    if "nodes" in EFFORT[name]:
        found = result.total if task is Task.COUNT else 1
        assert result.stats["nodes"] >= found  # every solution is a leaf of the tree
        if task is Task.SOLVE:
            assert result.stats["nodes"] >= 12  # a queen placed per row at least


def test_summed_seconds_keep_the_digits_they_were_given():
    """A split's per-cube timings (each rounded to milliseconds) add up without float
    noise in the JSON: 1.149, not 1.1489999999999998."""
    stats = Stats()
    for seconds in (0.1, 0.2, 0.849):
        stats.add(proof_check_seconds=seconds)
    assert stats["proof_check_seconds"] == 1.149
    assert repr(stats["proof_check_seconds"]) == "1.149"
