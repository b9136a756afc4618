"""`queens sweep`: the grid comes from the backends' declarations, every answer is checked."""

from __future__ import annotations

import csv
import io
import json

import pytest

from queenslab import cli, registry
from queenslab.core.errors import UsageError
from queenslab.core.result import CountResult
from queenslab.exact.backtracking import BacktrackingBackend
from queenslab.lab.sweep import Config, configurations
from queenslab.models import cnf, sat
from queenslab.models.pyomo_solvers import available_solvers
from tests import oracle
from tests.conftest import signal_after, start_queens


def test_the_grid_is_every_declared_choice():
    sat_grid = configurations(["sat"], ["count"], {})
    assert len(sat_grid) == len(cnf.ENCODINGS) * len(sat.SOLVERS)
    assert {dict(c.options)["encoding"] for c in sat_grid} == set(cnf.ENCODINGS)
    cpsat = configurations(["cpsat"], ["solve"], {})
    assert sorted(dict(c.options)["formulation"] for c in cpsat) == ["boolean", "integer"]
    milp = configurations(["milp"], ["count"], {})
    assert [dict(c.options)["solver"] for c in milp] == available_solvers()
    assert configurations(["backtrack"], ["count"], {}) == [Config("backtrack")]


def test_option_lists_narrow_the_grid_and_unknown_values_are_refused():
    narrowed = configurations(["sat", "milp"], ["count"], {"solver": ["minisat22", "highs"]})
    assert {c.label.split()[-1] for c in narrowed} == {"minisat22", "highs"}
    with pytest.raises(UsageError, match="no chosen backend offers"):
        configurations(["sat"], ["count"], {"encoding": ["pairwise", "nonsense"]})
    with pytest.raises(UsageError, match="applies to backend 'milp'"):
        configurations(["sat", "milp"], ["count"], {"solver": ["minisat22"]})
    with pytest.raises(UsageError, match="cannot count"):
        configurations(["min-conflicts"], ["count"], {})


def test_a_small_sweep_runs_end_to_end_with_every_answer_checked(queens, tmp_path):
    argv = ["sweep", "-b", "backtrack", "-b", "sat", "--encoding", "pairwise,ladder"]
    argv += ["--solver", "minisat22", "--n", "4-6", "--repeat", "2"]
    table, plot = tmp_path / "sweep.json", tmp_path / "sweep.png"
    run = queens(*argv, "--output", str(table), "--plot", str(plot), "-v")
    assert run.returncode == 0, run.stderr
    report = json.loads(table.read_text())
    assert report["ok"] and len(report["cells"]) == 3 * 2 * 3  # configs x tasks x n
    for cell in report["cells"]:
        solutions = oracle.all_solutions(cell["n"])
        expected = len(solutions) if cell["task"] == "count" else int(bool(solutions))
        assert (cell["answer"], cell["runs"], cell["failed"]) == (expected, 2, False)
        assert cell["seconds"]["median"] > 0
    assert plot.read_bytes().startswith(b"\x89PNG")
    assert run.stderr.count("sat pairwise minisat22 count n=5: solved in") == 2  # -v: each run


def test_csv_and_markdown_tables(queens):
    """CSV cells are numbers, the quartiles in columns of their own (they were Markdown's
    '6.68 ms [6.58–6.81]' and '2,057')."""
    argv = ["sweep", "-b", "backtrack", "-b", "cpsat", "--n", "5-6", "--task", "count"]
    rows = list(csv.reader(io.StringIO(queens(*argv, "--format", "csv").stdout)))
    cell = ["note", "s", "s q1", "s q3", "effort", "effort q1", "effort q3"]
    assert rows[0] == [
        "configuration",
        "task",
        "effort",
        *(f"n={n} {what}" for n in (5, 6) for what in cell),
        "effort median over n",
    ]
    assert [row[:3] for row in rows[1:]] == [
        ["backtrack", "count", "nodes"],
        *([c.label, "count", "branches"] for c in configurations(["cpsat"], ["count"], {})),
    ]
    for row in rows[1:]:
        assert float(row[17]) == (float(row[7]) + float(row[14])) / 2  # two n: their mean
        for n_cell in (row[3:10], row[10:17]):
            assert n_cell[0] == ""  # no note: every run finished
            seconds, effort = [float(v) for v in n_cell[1:4]], [float(v) for v in n_cell[4:]]
            assert 0 < seconds[1] <= seconds[0] <= seconds[2] < 60
            assert effort[1] <= effort[0] <= effort[2]
    assert rows[1][7] == "54"  # backtrack's nodes at n = 5, as a plain number
    markdown = queens(*argv).stdout
    assert markdown.startswith("| configuration | task | effort |")
    assert queens(*argv, "--format", "md").stdout.splitlines()[:2] == markdown.splitlines()[:2]
    assert "count answers checked (n=5: 10, n=6: 4)" in markdown


class OffByOne(BacktrackingBackend):
    """Counts one solution too many from n = 5 on: a deliberately broken encoding."""

    name = "off-by-one"

    def count(self, problem, run, question):
        result = super().count(problem, run, question)
        return CountResult(result.total + (problem.n >= 5))


def test_a_wrong_count_is_reported_and_exits_1(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(registry.BACKENDS, "registered", dict(registry.BACKENDS.registered))
    registry.register_backend(OffByOne)
    output = tmp_path / "t.md"
    argv = ["sweep", "-b", "backtrack", "-b", "off-by-one", "--n", "4-6", "--task", "count"]
    assert cli.main([*argv, "--output", str(output)]) == 1
    err = capsys.readouterr().err
    assert "off-by-one count n=5: answered 11, published 10" in err
    assert "backtrack count" not in err  # the right counter is not blamed
    assert "WRONG" in output.read_text()


def test_a_tiny_time_limit_shows_limit_cells_and_goes_on(queens):
    argv = ["sweep", "-b", "backtrack", "-b", "sat", "--solver", "minisat22", "--encoding"]
    argv += ["pairwise", "--n", "11-12", "--task", "count", "--time-limit", "0.001"]
    run = queens(*argv, "--format", "json")
    assert run.returncode == 0, run.stderr
    cells = json.loads(run.stdout)["cells"]
    assert [(c["n"], c["note"]) for c in cells] == [
        (11, "limit"),
        (12, "skipped (limit at n=11)"),
    ] * 2
    table = queens(*argv).stdout
    row = next(line for line in table.splitlines() if line.startswith("| backtrack | count |"))
    assert row.endswith("| limit | - | skipped | - | limit |")  # the median over n, too


def test_ctrl_c_ends_a_sweep_cleanly_without_its_table(tmp_path):
    output = tmp_path / "never.md"
    process = start_queens(
        "sweep", "-b", "backtrack", "--n", "12-14", "--task", "count", "--output", str(output)
    )
    assert signal_after(process) == (130, "", "queens: interrupted\n")
    assert list(tmp_path.iterdir()) == []


def test_one_ctrl_c_stops_a_python_sat_sweep():
    """python-sat turned Ctrl-C into its own error, which the sweep recorded as a failed
    cell before going on with the next (one run went on for 700 s)."""
    argv = ["sweep", "-b", "sat", "--encoding", "pairwise", "--solver", "cadical195"]
    process = start_queens(*argv, "--n", "12-14", "--task", "count")
    assert signal_after(process) == (130, "", "queens: interrupted\n")


@pytest.mark.slow
def test_the_full_sat_count_sweep_covers_every_encoding_and_solver(queens):
    """The issue's acceptance run: 9 encodings x every solver, n = 8-11, every count right."""
    run = queens("sweep", "--backend", "sat", "--n", "8-11", "--task", "count", "--format", "json",
                 timeout=1800)  # fmt: skip
    assert run.returncode == 0, run.stderr
    cells = json.loads(run.stdout)["cells"]
    pairs = {(c["options"]["encoding"], c["options"]["solver"]) for c in cells}
    assert pairs == {(e, s) for e in cnf.ENCODINGS for s in sat.SOLVERS}
    assert not any(c["failed"] or c["note"] for c in cells)
    for n in (8, 9):  # small enough for the brute-force oracle; larger n must agree
        assert {c["answer"] for c in cells if c["n"] == n} == {len(oracle.all_solutions(n))}
    for n in (10, 11):
        assert len({c["answer"] for c in cells if c["n"] == n}) == 1


@pytest.mark.parametrize(
    ("command", "plot", "message"),
    [
        (["sweep", "-b", "backtrack", "--n", "4-5"], "missing/dir/p.png", "no directory"),
        (["hardness-study", "--kind", "blocked", "--n", "6", "--densities", "0.2", "-b",
          "backtrack"], "p.txt", "ends in .png, .svg, .pdf"),
    ],
)  # fmt: skip
def test_an_unwritable_plot_is_refused_before_the_run(queens, tmp_path, command, plot, message):
    run = queens(*command, "--plot", str(tmp_path / plot))
    assert run.returncode == 2 and run.stdout == "" and message in run.stderr
    assert list(tmp_path.iterdir()) == []
