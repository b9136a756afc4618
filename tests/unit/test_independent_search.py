"""The independent-domination search (``-b independent-search``) against a brute force of
its own here (every set of cells, smallest first, with the naive attack rule of
``tests.oracle``), on boards larger than the harness's n <= 4, on every variant and on
blocked boards; its orbit split; its stop. Untimed: the limit test only checks that a run
far past reach stops within a generous bound."""

from __future__ import annotations

import itertools
import time

import pytest

import queenslab as ql
from queenslab.boards import board
from queenslab.exact.independent_domination import Plan, _orbits
from tests import oracle

BACKEND = "independent-search"


def brute_force(n: int, variant: str = "standard", blocked: tuple = ()) -> int | None:
    """The fewest non-attacking queens on open cells occupying or attacking every cell."""
    cells = [(r, c) for r in range(n) for c in range(n)]
    spots = [cell for cell in cells if cell not in blocked]
    for k in range(1, len(spots) + 1):
        for queens in itertools.combinations(spots, k):
            if any(oracle.attack(n, variant, a, b) for a, b in itertools.combinations(queens, 2)):
                continue
            if all(
                cell in queens or any(oracle.attack(n, variant, q, cell) for q in queens)
                for cell in cells
            ):
                return k
    return None


def _fault(n: int, variant: str, blocked: tuple, answer) -> str | None:
    queens = [tuple(q) for q in answer]
    if any(q in blocked for q in queens):
        return "a queen on a blocked cell"
    if any(oracle.attack(n, variant, a, b) for a, b in itertools.combinations(queens, 2)):
        return "two queens attack each other"
    for cell in itertools.product(range(n), repeat=2):
        if cell not in queens and not any(oracle.attack(n, variant, q, cell) for q in queens):
            return f"cell {cell} undominated"
    return None


CASES = [
    *((n, "standard", ()) for n in range(1, 8)),
    *((n, variant, ()) for n in range(1, 7) for variant in ("toroidal", "superqueens")),
    (5, "standard", ((2, 2),)),
    (6, "standard", ((0, 1), (3, 3), (5, 2))),
    (6, "toroidal", ((1, 4),)),
]


@pytest.mark.parametrize(("n", "variant", "blocked"), CASES)
def test_the_optimum_and_its_decisions_are_the_brute_forces(n, variant, blocked):
    """The optimum, and a decide at it says yes with a checked answer, one below no (the
    search's own refutation: decide states no theorem)."""
    best = brute_force(n, variant, blocked)
    result = ql.optimize(n, kind="independent-domination", backend=BACKEND, variant=variant,
                         blocked=blocked, workers=1)  # fmt: skip
    if best is None:
        assert result.status is ql.Status.INFEASIBLE
        return
    assert (result.status, result.objective, result.bound) == (ql.Status.OPTIMAL, best, best)
    assert _fault(n, variant, blocked, result.answer) is None
    options = {"variant": variant, "blocked": blocked, "backend": BACKEND, "workers": 2}
    yes = ql.decide(n, kind="independent-domination", value=best, **options)
    assert yes.status is ql.Status.YES and _fault(n, variant, blocked, yes.answer) is None
    if best > 1:
        no = ql.decide(n, kind="independent-domination", value=best - 1, **options)
        assert no.status is ql.Status.NO


@pytest.mark.parametrize("n", [8, 9, 10, 11])
def test_the_optimum_is_the_sat_models(n):
    """Past the brute force: the SAT model's proven optimum (lines, lex-leader)."""
    sat = ql.optimize(n, kind="independent-domination", backend="sat", model="lines",
                      symmetry="lex-leader")  # fmt: skip
    mine = ql.optimize(n, kind="independent-domination", backend=BACKEND)
    assert mine.status is sat.status is ql.Status.OPTIMAL
    assert mine.objective == sat.objective


@pytest.mark.parametrize(("n", "blocked"), [(7, ()), (8, ()), (6, ((0, 0),)), (7, ((3, 3),))])
def test_the_orbits_partition_the_open_cells(n, blocked):
    """Each open cell lies in one orbit, and each orbit is closed under the symmetries
    of the board (those that keep its blocked cells)."""
    field = board(n, blocked=blocked)
    orbits = _orbits(field)
    cells = [cell for orbit in orbits for cell in orbit]
    assert sorted(cells) == sorted(field.open_cells())
    for orbit in orbits:
        for g in field.symmetries():
            assert {g.cell(n, r, c) for r, c in orbit} == set(orbit)


def test_each_job_excludes_exactly_the_orbits_before_it():
    """Job i keeps free every open cell outside the orbits before it: the union of the
    jobs' spaces is every answer up to symmetry, and no job repeats another's."""
    field = board(6)
    plan, orbits = Plan.of(field), _orbits(field)
    for i, (first, free) in enumerate(plan.jobs):
        assert divmod(first, 6) == orbits[i][0]
        before = {cell for orbit in orbits[:i] for cell in orbit}
        kept = {divmod(p, 6) for p in range(36) if (int(free[p // 64]) >> (p % 64)) & 1}
        assert kept == set(field.open_cells()) - before


def test_the_descent_ends_at_the_theorem_bound_or_at_a_no():
    """n = 13: 7 queens meet ceil(13/2), a theorem (no refutation); n = 14: 8 queens are
    one above it, proven by refuting 7."""
    met = ql.optimize(13, kind="independent-domination", backend=BACKEND)
    above = ql.optimize(14, kind="independent-domination", backend=BACKEND)
    assert (met.objective, met.stats["proven_by"]) == (7, "theorem")
    assert (above.objective, above.stats["proven_by"]) == (8, "search")


def test_a_run_far_past_reach_stops_at_its_limit():
    """n = 32 at 15 queens (below ceil(32/2), so a refutation is asked) with a 3 s limit
    ends within a generous bound, limit, no answer."""
    start = time.monotonic()
    result = ql.decide(32, kind="independent-domination", value=15, backend=BACKEND,
                       time_limit=3)  # fmt: skip
    assert result.status is ql.Status.LIMIT
    assert time.monotonic() - start < 60


def test_the_jobs_run_on_a_dask_cluster(dask_scheduler):
    """The same decisions with the orbits as tasks of a Dask cluster."""
    options = {"backend": BACKEND, "scheduler": dask_scheduler}
    assert ql.decide(8, kind="independent-domination", value=4, **options).status is ql.Status.NO
    yes = ql.decide(8, kind="independent-domination", value=5, **options)
    assert yes.status is ql.Status.YES and _fault(8, "standard", (), yes.answer) is None


def test_a_proof_is_refused_in_one_line():
    with pytest.raises(ql.UsageError, match="no proof file"):
        ql.decide(6, kind="independent-domination", value=3, backend=BACKEND, proof="p")
