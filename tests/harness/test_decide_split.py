"""``decide --split D`` (cube and conquer) against the unsplit decide and brute force
(tests/kind_oracle.py), on every kind, on sat and cpsat; the cubes cover the space; a
checkpoint's refuted cubes are never solved again; the cubes run on a Dask cluster too.
"""

from __future__ import annotations

import itertools
import sqlite3

import pytest

import queenslab as ql
from queenslab.core.errors import UsageError
from queenslab.models.zero_one import split
from queenslab.problems import BUILTIN, DEFAULT_KIND
from tests import kind_oracle

OTHER_KINDS = [k for k in BUILTIN if k != DEFAULT_KIND]
N = 4


def _values(problem: str) -> list[tuple[int, str]]:
    """The optimum (yes) and the value just beyond it (no)."""
    best, _ = kind_oracle.optimum(problem, N)
    beyond = best - 1 if BUILTIN[problem].sense.value == "min" else best + 1
    return [(best, "yes"), (beyond, "no")]


@pytest.mark.parametrize("backend", ["sat", "cpsat"])
@pytest.mark.parametrize("problem", OTHER_KINDS)
@pytest.mark.parametrize("symmetry", ["none", "lex-leader"])
def test_split_agrees_with_the_unsplit_decide_and_brute_force(backend, problem, symmetry):
    for value, expected in _values(problem):
        if value < 0:
            continue
        whole = ql.decide(N, problem, value, backend, symmetry=symmetry)
        assert whole.status == expected
        for depth in (2, 3):
            cut = ql.decide(N, problem, value, backend, symmetry=symmetry, split=depth)
            assert cut.status == expected, (value, depth)
            assert cut.stats["cubes_total"] == 2**depth
            if expected == "yes":
                assert kind_oracle.fault(problem, N, "standard", (), cut.answer) is None
                assert cut.objective == value
            else:
                assert cut.stats["cubes_refuted"] == 2**depth


def test_the_cubes_cover_every_assignment_of_distinct_cell_variables():
    model = ql.problem_model(5, "peaceable").with_objective_bound(3)
    for depth in (1, 2, 3, 4):
        variables = split.split_variables(ql.Problem(5).board, model, depth)
        assert len(set(variables)) == depth
        assert all(split.cell_of(model.names[v]) for v in variables)
        cubes = split.cubes(variables)
        assert [number for number, _ in cubes] == list(range(2**depth))
        seen = {tuple(lit > 0 for lit in units) for _, units in cubes}
        assert seen == set(itertools.product((True, False), repeat=depth))
        assert all([abs(lit) - 1 for lit in units] == variables for _, units in cubes)


def test_the_split_starts_at_the_centre_of_an_open_board():
    model = ql.problem_model(5, "domination")
    (first,) = split.split_variables(ql.Problem(5).board, model, 1)
    assert model.names[first] == "q_2_2"  # the one cell attacking all 24 others


def test_a_rerun_solves_only_the_cubes_the_checkpoint_lacks(tmp_path):
    path = tmp_path / "cubes.sqlite"
    args = (6, "domination", 2, "sat")
    first = ql.decide(*args, split=3, checkpoint=str(path))
    assert (first.status, first.stats["cubes_solved"]) == ("no", 8)
    again = ql.decide(*args, split=3, checkpoint=str(path))
    assert (again.status, again.stats["cubes_solved"], again.stats["cubes_refuted"]) == (
        "no", 0, 8,
    )  # fmt: skip
    with sqlite3.connect(path) as db:  # as if the run had been killed after five cubes
        db.execute("DELETE FROM done WHERE id IN (1, 4, 6)")
    third = ql.decide(*args, split=3, checkpoint=str(path))
    assert (third.status, third.stats["cubes_solved"]) == ("no", 3)


def test_a_checkpoint_of_another_question_is_refused(tmp_path):
    path = tmp_path / "cubes.sqlite"
    ql.decide(6, "domination", 2, "sat", split=2, checkpoint=str(path))
    with pytest.raises(UsageError, match=r"value <= 2.*value <= 1"):
        ql.decide(6, "domination", 1, "sat", split=2, checkpoint=str(path))
    with pytest.raises(UsageError, match=r"split 2.*split 3"):
        ql.decide(6, "domination", 2, "sat", split=3, checkpoint=str(path))


def test_cubes_on_the_pools_workers_agree():
    for backend in ("sat", "cpsat"):
        found = ql.decide(6, "domination", 3, backend, split=3, workers=2)
        assert found.status == "yes" and found.objective == 3
        refuted = ql.decide(6, "domination", 2, backend, split=3, workers=2)
        assert (refuted.status, refuted.stats["cubes_refuted"]) == ("no", 8)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"backend": "maxsat", "split": 2}, "sat and cpsat"),
        ({"backend": "sat", "split": 0}, "split must be between 1 and 12"),
        ({"backend": "sat", "checkpoint": "x.sqlite"}, "for a split proof: add --split D"),
        ({"backend": "sat", "split": 2, "proof": "p", "checkpoint": "c"}, "without --checkpoint"),
        ({"backend": "cpsat", "split": 2, "proof": "p"}, "runs on -b sat"),
        (
            {"backend": "sat", "split": 2, "scheduler": "tcp://127.0.0.1:9", "checkpoint": "c"},
            "cannot reach the Dask scheduler",
        ),
    ],
)
def test_what_a_split_cannot_do_is_one_usage_error(options, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError, match=message):
        ql.decide(5, "domination", 3, **options)
    assert not list(tmp_path.iterdir())  # no checkpoint, no proof folder


def test_cubes_run_as_tasks_on_a_dask_cluster(tmp_path, dask_scheduler):
    path = tmp_path / "cubes.sqlite"
    refuted = ql.decide(6, "domination", 2, "sat", split=3, scheduler=dask_scheduler,
                        checkpoint=str(path))  # fmt: skip
    found = ql.decide(6, "domination", 3, "cpsat", split=2, scheduler=dask_scheduler)
    assert (refuted.status, refuted.stats["cubes_solved"]) == ("no", 8)
    assert found.status == "yes" and kind_oracle.fault("domination", 6, "standard", (),
                                                       found.answer) is None  # fmt: skip
    local = ql.decide(6, "domination", 2, "sat", split=3, checkpoint=str(path))
    assert local.stats["cubes_solved"] == 0  # the cluster's rows count here too
