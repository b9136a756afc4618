"""Problem kinds on the command line: optimize, count, enumerate, export, crosscheck and
sweep with --problem, their outputs, the bad-input lines and exit codes, and every export
of a kind's model read back by a real solver."""

from __future__ import annotations

import json

import pytest

import queenslab as ql
from queenslab import api, exports
from queenslab.exports.spec import ModelInstance
from tests.cli.test_exports import opb_model


def test_optimize_writes_the_optimum_and_its_answer(queens):
    run = queens("optimize", "6", "--problem", "domination")
    assert run.returncode == 0, run.stderr
    head, *rows = run.stdout.splitlines()
    assert head == "domination n=6: optimal 3"
    assert len(rows) == 6 and sum(row.count("Q") for row in rows) == 3
    record = json.loads(
        queens("optimize", "6", "--problem", "independent-domination", "--format", "json").stdout
    )
    assert (record["status"], record["objective"], record["bound"]) == ("optimal", 4, 4)


def test_count_prints_the_number_of_optima(queens):
    assert queens("count", "6", "--problem", "domination").stdout == "4\n"
    classes = queens("count", "5", "--problem", "domination", "--symmetry", "lex-leader")
    assert classes.stdout == "37\n"
    record = json.loads(queens("count", "4", "--problem", "domination", "--format", "json").stdout)
    assert (record["total"], record["optimum"]) == (12, 2)


def test_placement_counts_on_its_0_1_model_when_a_model_is_asked_for(queens):
    """Placement is a kind: its model (``cells``) counts the boards, with lex-leader the
    classes, on the model backends, as its own counters do."""
    assert queens("count", "8", "--model", "cells").stdout == "92\n"
    assert queens("count", "8", "--symmetry", "lex-leader").stdout == "12\n"
    run = queens("count", "8", "--symmetry", "lex-leader", "-b", "bitmask")
    assert run.returncode == 2 and "builds no model" in run.stderr


@pytest.mark.slow
def test_count_8_prints_4860(queens):
    run = queens("count", "8", "--problem", "domination")
    assert (run.returncode, run.stdout) == (0, "4860\n")


def test_enumerate_streams_json_lines(queens):
    run = queens("enumerate", "4", "--problem", "domination", "--backend", "cpsat")
    answers = [json.loads(line)["answer"] for line in run.stdout.splitlines()]
    assert len(answers) == 12 and all(len(answer) == 2 for answer in answers)


@pytest.mark.slow
def test_a_time_limit_gives_the_best_answer_so_far(queens):
    argv = ["optimize", "16", "--problem", "domination", "--backend", "sat"]
    # 5 s: the first answer (every cell) comes at once, the optimum is not proven in 30 s
    run = queens(*argv, "--time-limit", "5", "--format", "json")
    record = json.loads(run.stdout)
    assert run.returncode == 3 and record["status"] == "feasible"
    # the bound is the one the model states: the theorem gamma(Q_n) >= ceil(n/2) = 8
    assert record["bound"] == 8 and record["gap"] == record["objective"] - 8
    assert record["objective"] == len(record["answer"])


@pytest.mark.slow
def test_maxsat_at_a_limit_reports_its_lower_bound(queens):
    """RC2's relaxed cores are a proven lower bound, never above an answer the local
    search finds nor its own (its oracle's models on the way, checked by the api)."""
    argv = ["optimize", "22", "--problem", "domination", "--format", "json"]
    # 5 s: a first core even at load 10 on two cores
    limited = json.loads(queens(*argv, "-b", "maxsat", "--time-limit", "5").stdout)
    found = json.loads(queens(*argv, "-b", "graph-search", "--time-limit", "5").stdout)
    assert limited["status"] == ("limit" if limited["answer"] is None else "feasible")
    assert 1 <= limited["bound"] <= min(found["objective"], limited["objective"] or 22 * 22)


@pytest.mark.slow
def test_graph_search_answers_every_kind_with_a_checked_feasible_answer(queens):
    """Colouring's is optimal: its folded search finds 12 colours, the clique bound."""
    for problem in ("domination", "independent-domination", "peaceable", "coloring"):
        argv = ["optimize", "12", "--problem", problem, "-b", "graph-search", "--seed", "4"]
        run = queens(*argv, "--format", "json")
        record = json.loads(run.stdout)
        expected = (0, "optimal") if problem == "coloring" else (3, "feasible")
        assert (run.returncode, record["status"]) == expected, run.stderr
        again = json.loads(queens(*argv, "--format", "json").stdout)
        assert record["answer"] and again["answer"] == record["answer"]


def test_graph_search_proves_a_colouring_that_meets_the_clique_bound(queens):
    """On n = 5 the longest line has 5 cells and 5 colours suffice: that is a proof."""
    run = queens("optimize", "5", "--problem", "coloring", "-b", "graph-search")
    assert run.returncode == 0 and run.stdout.startswith("coloring n=5: optimal 5")


def test_graph_search_keeps_its_best_answer_at_a_time_limit(queens):
    argv = ["optimize", "60", "--problem", "domination", "-b", "graph-search", "--format", "json"]
    run = queens(*argv, "--time-limit", "2", "--patience", "1000000")
    record = json.loads(run.stdout)
    assert run.returncode == 3 and record["status"] in ("feasible", "limit")
    if record["status"] == "feasible":
        assert len(record["answer"]) == record["objective"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["optimize", "8", "--problem", "dominaton"], "unknown problem 'dominaton'"),
        (
            ["optimize", "8", "--problem", "coloring", "-b", "graph-search", "--patience", "0"],
            "--patience must be at least 1",
        ),
        (["count", "8", "--problem", "coloring", "-b", "graph-search"], "cannot count"),
        (["optimize", "8", "--problem", "domination", "-b", "bitmask"], "does not model"),
        (["count", "8", "--problem", "domination", "-b", "portfolio"], "cannot count"),
        (["optimize", "8", "--problem", "domination", "--model", "rows"], "unknown model"),
        (["optimize", "8", "--problem", "domination", "--given", "0:0"], "no given queens"),
        (["optimize", "8"], "valued by weights"),
        (["enumerate", "4", "--problem", "domination", "--format", "leetcode"], "jsonl only"),
        (["export", "4", "--problem", "domination", "--format", "mzn"], "cannot express"),
        (["count", "4", "--problem", "domination", "--solver-cmd", "cadical"], "only for solving"),
        (["optimize", "1000000000", "--problem", "coloring", "-b", "milp"], "take n <= 100"),
        (
            ["count", "4", "--problem", "coloring", "--model", "assignment"],
            "count and enumerate with: precedence, representatives",
        ),
        (
            ["enumerate", "4", "--problem", "peaceable", "--model", "white-only"],
            "count and enumerate with: lines, basic, bosch",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(queens, argv, message):
    run = queens(*argv)
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and message in run.stderr


@pytest.mark.parametrize("problem", ["coloring", "peaceable"])
def test_milp_on_a_board_without_open_cells_is_optimal_0(queens, problem):
    closed = [arg for cell in ("0:0", "0:1", "1:0", "1:1") for arg in ("--blocked", cell)]
    run = queens("optimize", "2", "--problem", problem, "-b", "milp", *closed, "--format", "json")
    record = json.loads(run.stdout)
    assert run.returncode == 0 and (record["status"], record["objective"]) == ("optimal", 0)


def test_weights_with_a_problem_that_takes_none(queens, tmp_path):
    weights = tmp_path / "w.json"
    weights.write_text(json.dumps([[1] * 4] * 4))
    run = queens("optimize", "4", "--problem", "domination", "--weights", str(weights))
    assert run.returncode == 2 and "takes no weights" in run.stderr


@pytest.mark.slow
def test_crosscheck_and_sweep_agree_with_the_published_values(queens):
    run = queens("crosscheck", "--problem", "domination", "--n", "1-5", "--format", "json")
    report = json.loads(run.stdout)
    assert run.returncode == 0 and report["ok"]
    assert set(report["values"]["counters"]) >= {"milp", "cpsat", "sat", "maxsat"}
    sweep = ["sweep", "-b", "sat", "--encoding", "pairwise", "--solver", "cadical195"]
    run = queens(*sweep, "--problem", "independent-domination", "--n", "3-5", "--format", "json")
    report = json.loads(run.stdout)
    assert run.returncode == 0 and report["ok"], run.stderr
    assert [cell["answer"] for cell in report["cells"]] == [1, 3, 3]


# -- every export of a kind's model, solved again -----------------------------------------

CASES = [
    ("domination", 5, "standard", "none"),
    ("domination", 6, "toroidal", "lex-leader"),
    ("independent-domination", 5, "standard", "none"),
]


def written(problem: str, n: int, variant: str, symmetry: str, name: str) -> str:
    import io

    instance = api.make_problem(n, variant=variant, kind=problem)
    model = ql.problem_model(instance, symmetry=symmetry)
    out = io.StringIO()
    exports.model_writer(name)(ModelInstance(instance, model, symmetry), out)
    return out.getvalue()


def optimum(problem: str, n: int, variant: str) -> int:
    return ql.optimize(n, problem=problem, variant=variant, backend="milp").objective


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("name", ["lp", "mps"])
def test_lp_and_mps_through_highs(tmp_path, case, name):
    import highspy

    path = tmp_path / f"model.{name}"
    path.write_text(written(*case, name))
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    assert h.readModel(str(path)) == highspy.HighsStatus.kOk
    h.run()
    assert round(h.getInfo().objective_function_value) == optimum(*case[:3])


@pytest.mark.parametrize("case", CASES)
def test_opb_through_cpsat(case):
    from ortools.sat.python import cp_model

    model, _ = opb_model(written(*case, "opb"))
    solver = cp_model.CpSolver()
    assert solver.solve(model) == cp_model.OPTIMAL
    assert round(solver.objective_value) == optimum(*case[:3])


@pytest.mark.parametrize("case", CASES)
def test_wcnf_through_rc2(case):
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF

    with RC2(WCNF(from_string=written(*case, "wcnf"))) as rc2:
        assert rc2.compute() is not None and rc2.cost == optimum(*case[:3])


@pytest.mark.parametrize("case", CASES)
def test_dimacs_has_answers_of_the_optimum_and_none_below(case):
    from pysat.card import CardEnc
    from pysat.formula import CNF
    from pysat.solvers import Solver

    text = written(*case, "dimacs")
    shown = [int(v) for v in text.split("c p show ", 1)[1].splitlines()[0].split()[:-1]]
    best = optimum(*case[:3])
    for bound, satisfiable in ((best, True), (best - 1, False)):
        cnf = CNF(from_string=text)
        cnf.extend(CardEnc.atmost(shown, bound, top_id=cnf.nv).clauses)
        with Solver(bootstrap_with=cnf) as solver:
            assert solver.solve() is satisfiable


@pytest.mark.parametrize("case", CASES)
def test_cpsat_proto_through_cpsat(case):
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    model.proto.parse_text_format(written(*case, "cpsat"))
    solver = cp_model.CpSolver()
    assert solver.solve(model) == cp_model.OPTIMAL
    assert round(solver.objective_value) == optimum(*case[:3])
