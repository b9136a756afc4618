"""The user's own question as a first-class citizen: total domination stated outside the
package through ``queenslab.modelling`` alone (tests/total_domination.py) runs every task on
every model backend against its brute force, and wrong kinds (tests/public_kinds.py) get
the kind's own error, never a solver's, on every task and backend."""

from __future__ import annotations

import ast
import io
import os
import subprocess
import sys
from functools import cache
from itertools import combinations

import pytest

import queenslab as ql
from queenslab.boards import board
from queenslab.core.errors import KindError, ModelMismatch
from queenslab.lab.sweep import configurations, run_sweep
from queenslab.modelling import ModelBuilder, ProblemKind, total
from tests.conftest import ROOT
from tests.public_kinds import WRONG, RooksAsQueens
from tests.total_domination import TotalDomination

MODEL_BACKENDS = ("cpsat", "sat", "milp", "maxsat")
USER_FILE = ROOT / "tests" / "total_domination.py"


@cache
def brute_force(n: int) -> tuple[int, set[frozenset[tuple[int, int]]]]:
    """The fewest queens totally dominating the n x n board, and every such set, by the
    kind's own checker over sets of increasing size."""
    kind, field = TotalDomination(), board(n)
    cells = list(field.open_cells())
    for k in range(1, len(cells) + 1):
        found = {
            frozenset(s) for s in combinations(cells, k) if kind.check(field, frozenset(s)) is None
        }
        if found:
            return k, found
    raise AssertionError("the full board dominates itself")


def as_cells(answer: list[list[int]]) -> frozenset[tuple[int, int]]:
    return frozenset((r, c) for r, c in answer)


def test_the_user_file_imports_only_the_public_namespace_in_at_most_25_lines():
    tree = ast.parse(USER_FILE.read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported == {"queenslab.modelling"}
    body = [node for node in tree.body if not isinstance(node, ast.Expr)]  # the docstring
    lines = sum(node.end_lineno - node.lineno + 1 for node in body)
    assert lines <= 25, lines


def test_the_user_file_passes_ruff_and_mypy_strict():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for argv in (["ruff", "check"], ["ruff", "format", "--check"],
                 ["mypy", "--strict", "--follow-imports=silent", "--no-incremental"]):  # fmt: skip
        run = subprocess.run(
            [sys.executable, "-m", *argv, str(USER_FILE)],
            capture_output=True, text=True, cwd=ROOT, env=env, timeout=600,
        )  # fmt: skip
        assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize("n", [4, *(pytest.param(n, marks=pytest.mark.slow) for n in (5, 6))])
@pytest.mark.parametrize("backend", MODEL_BACKENDS)
def test_total_domination_on_every_task_of_every_model_backend(backend, n):
    best, optima = brute_force(n)
    kind = TotalDomination()
    solved = ql.solve(n, backend, problem=kind)
    assert kind.check(board(n), as_cells(solved.answer)) is None
    result = ql.optimize(n, problem=kind, backend=backend)
    assert (str(result.status), result.objective) == ("optimal", best)
    assert as_cells(result.answer) in optima
    assert str(ql.decide(n, kind, best, backend).status) == "yes"
    assert str(ql.decide(n, kind, best - 1, backend).status) == "no"
    counted = ql.count(n, backend, problem=kind)
    assert (counted.total, counted.optimum, counted.stats["checked"]) == (
        len(optima),
        best,
        len(optima),
    )
    assert {as_cells(a) for a in ql.enumerate_solutions(n, backend, problem=kind)} == optima


@pytest.mark.parametrize("fmt", ["dimacs", "wcnf", "opb", "lp", "mps", "cpsat"])
def test_total_domination_exports_in_every_model_format(fmt):
    """Every format that writes a kind's model (col is colouring's graph) writes this one,
    its 16 cell variables and 16 covering clauses."""
    written = ql.export(4, fmt, problem=TotalDomination())
    if fmt in ("lp", "mps", "cpsat"):
        assert "q_3_3" in written
    if fmt == "dimacs":
        assert "p cnf 16 16" in written
    out = io.StringIO()
    assert ql.export(4, fmt, out, problem=TotalDomination()) is None and out.getvalue() == written


def test_total_domination_is_swept_on_every_model_backend():
    ql.register_kind(TotalDomination)
    every = configurations(MODEL_BACKENDS, ["optimize", "count"], {}, TotalDomination.name)
    configs = [next(c for c in every if c.backend == name) for name in MODEL_BACKENDS]
    report = run_sweep(configs, [4], ["optimize", "count"], problem=TotalDomination.name)
    cells = {(c.config.backend, c.task, c.n): c for c in report.cells}
    best, optima = brute_force(4)
    for backend in MODEL_BACKENDS:
        assert not cells[backend, "optimize", 4].failed
        assert cells[backend, "optimize", 4].runs[0].answer == best
        assert cells[backend, "count", 4].runs[0].answer == len(optima)


def test_a_board_the_kind_does_not_declare_is_refused_in_one_line():
    for variant in ("toroidal", "superqueens"):
        with pytest.raises(
            ql.UsageError, match=f"'public-total-domination' does not take the {variant} board"
        ):
            ql.optimize(5, problem=TotalDomination(), variant=variant)


@pytest.mark.parametrize("backend", MODEL_BACKENDS)
@pytest.mark.parametrize("kind", list(WRONG), ids=lambda k: k.name)
def test_a_wrong_kind_is_blamed_on_every_task_never_the_solver(kind, backend):
    """Each task that can state the kind gets the kind's error; one that its class refuses
    (optimise without a sense) says so."""
    tasks = {
        "solve": lambda: ql.solve(4, backend, problem=kind()),
        "count": lambda: ql.count(4, backend, problem=kind()),
        "enumerate": lambda: list(ql.enumerate_solutions(4, backend, problem=kind())),
        "optimize": lambda: ql.optimize(4, problem=kind(), backend=backend),
        "decide": lambda: ql.decide(4, kind(), 3, backend),
    }
    for task, call in tasks.items():
        with pytest.raises(KindError) as raised:
            call()
        words = str(raised.value)
        assert "\n" not in words and "BackendBug" not in words
        optimising = task in ("optimize", "decide") and kind.sense is None
        assert ("states no objective" if optimising else WRONG[kind]) in words, (task, words)


def test_the_mismatch_names_the_kind_and_the_rejected_answer():
    with pytest.raises(ModelMismatch) as raised:
        ql.count(4, "sat", problem=RooksAsQueens())
    error = raised.value
    assert error.kind == "rooks-as-queens" and "attack each other" in error.why
    assert isinstance(error.answer, frozenset) and len(error.answer) == 4


def test_a_kind_that_cannot_be_stated_is_refused_when_its_class_is_made():
    with pytest.raises(KindError, match="sense is 'min', 'max' or None"):
        type("Upwards", (ProblemKind,), {"name": "upwards", "sense": "up"})
    with pytest.raises(KindError, match="unknown variants"):
        type("Hex", (ProblemKind,), {"name": "hex", "variants": ("hexagonal",)})


def test_an_enforced_constraint_holds_exactly_when_its_enforcers_do():
    """``only_if`` as OR-Tools' only_enforce_if, checked over every assignment."""
    from itertools import product

    m = ModelBuilder("enforced")
    x = [m.var(f"x{i}") for i in range(3)]
    e, f = m.var("e"), m.var("f")
    m.add((total(x) <= 1).only_if(e, ~f), (total(x) >= 2).only_if(f), x[0].only_if(e))
    m.add((x[1] | x[2]).only_if(~e))
    model = m.bool_model
    for values in product([False, True], repeat=5):
        *xs, on, off = values
        wanted = ((not on or off) or sum(xs) <= 1) and (not off or sum(xs) >= 2)
        wanted = wanted and (not on or xs[0]) and (on or xs[1] or xs[2])
        holds = all(any((lit > 0) == values[abs(lit) - 1] for lit in c) for c in model.clauses)
        assert (holds and all(row.holds(values) for row in model.linear)) == wanted, values


def test_register_kind_refuses_a_second_class_of_a_taken_name_and_odd_names():
    class Taken(TotalDomination):
        name = "public-total-domination"

    ql.register_kind(TotalDomination)
    ql.register_kind(TotalDomination)  # the same class again: a notebook cell run twice
    with pytest.raises(
        ql.UsageError, match=r"is taken by tests\.total_domination\.TotalDomination"
    ):
        ql.register_kind(Taken)
    for odd in ("has space", "--x", "Upper", ""):
        with pytest.raises(ql.UsageError):
            ql.register_kind(type("Odd", (TotalDomination,), {"name": odd}))
