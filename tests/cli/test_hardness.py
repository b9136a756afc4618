"""`queens hardness-study`: every answer checked, timeouts kept, disagreements stop it."""

from __future__ import annotations

import csv
import io
import itertools
import json
import os
import subprocess
import sys
from types import MappingProxyType

import pytest

from queenslab import cli, registry
from queenslab.core.backend import Backend, Family, Feature, Task
from queenslab.core.errors import UsageError
from queenslab.core.result import SolveResult, Status
from queenslab.lab.generators import generate
from queenslab.lab.hardness import Sample, StudyReport, blocked_kappa, density_range, run_study
from tests import oracle
from tests.conftest import ROOT, signal_after, start_queens


def test_kappa_grows_from_zero_with_the_blocked_cells():
    """kappa = 0 on an empty board and rises with every blocked cell (one per n² density)."""
    kappas = [blocked_kappa(12, b / 144) for b in range(0, 12 * 8 + 1)]
    assert kappas[0] == 0
    assert all(a < b for a, b in itertools.pairwise(kappas))


def test_density_ranges_include_their_last_value():
    assert density_range("0.3:0.6:0.1") == [0.3, 0.4, 0.5, 0.6]
    assert density_range("0.5") == [0.5]
    for bad in ("0.6:0.3:0.1", "a:b:c", "0:1:0", "-1:1:1", "0:1"):
        with pytest.raises(UsageError):
            density_range(bad)


def _verdicts_match_the_oracle(report: dict, kind: str, n: int, min_open: int) -> None:
    for sample in report["samples"]:
        problem = generate(kind, n, sample["density"], sample["seed"], min_open=min_open).problem
        feasible = bool(oracle.all_solutions(n, problem.givens, blocked=problem.blocked))
        assert sample["verdict"] == ("solvable" if feasible else "infeasible"), sample


@pytest.mark.parametrize("kind", ["blocked", "completion", "excluded-diagonals"])
def test_a_small_study_runs_end_to_end_with_every_answer_checked(queens, tmp_path, kind):
    densities = {"blocked": "0.2:0.5:0.15", "completion": "0.125:0.5:0.125"}
    argv = ["hardness-study", "--kind", kind, "--n", "7", "--min-open", "1", "--samples", "4"]
    argv += ["--densities", densities.get(kind, "0.5:1.5:0.5"), "-b", "backtrack", "-b", "cpsat"]
    table, plot = tmp_path / "study.json", tmp_path / "study.png"
    # the plot is the same code for every kind but an axis label's words: one kind draws it
    # (Matplotlib took 1.6 of a study's 2.9 CPU s)
    drawn = kind == "blocked"
    run = queens(*argv, "--output", str(table), *(["--plot", str(plot)] if drawn else []))
    assert run.returncode == 0, run.stderr
    report = json.loads(table.read_text())
    assert report["ok"] and len(report["samples"]) == 4 * len(report["densities"])
    _verdicts_match_the_oracle(report, kind, 7, 1)
    for row in report["densities"]:
        assert set(row["backends"]) == {"backtrack", "cpsat"}
        assert row["backends"]["backtrack"]["effort"]["name"] == "nodes"
    assert plot.read_bytes().startswith(b"\x89PNG") if drawn else not plot.exists()


def test_markdown_table_and_verbose_lines(queens):
    argv = ["hardness-study", "--kind", "blocked", "--n", "6", "--densities", "0.25"]
    run = queens(*argv, "--min-open", "1", "--samples", "2", "-b", "sat", "-v")
    assert run.returncode == 0, run.stderr
    header = "| density | open cells per row | kappa | solvable | undecided | sat s |"
    assert run.stdout.startswith(header)
    assert run.stderr.count("density 0.25 seed") == 2


class Pessimist(Backend):
    """Claims every board is infeasible: a complete method with a broken proof."""

    name = "pessimist"
    family = Family.EXACT
    tasks = MappingProxyType({"placement": frozenset({Task.SOLVE})})
    features = frozenset({Feature.BLOCKED, Feature.GIVENS})

    def solve(self, problem, run, question):
        return SolveResult(Status.INFEASIBLE)


def test_a_proof_of_infeasibility_beside_a_found_board_stops_the_study(
    monkeypatch, capsys, tmp_path
):
    monkeypatch.setattr(registry.BACKENDS, "registered", dict(registry.BACKENDS.registered))
    registry.register_backend(Pessimist)
    output = tmp_path / "never.md"
    argv = ["hardness-study", "--kind", "blocked", "--n", "8", "--densities", "0.1"]
    argv += ["--samples", "1", "-b", "backtrack", "-b", "pessimist", "--output", str(output)]
    assert cli.main(argv) == 1
    err = capsys.readouterr().err
    assert "DISAGREEMENT: pessimist proved no solution, backtrack found the valid board" in err
    assert "blocked n=8 density 0.1 seed 0" in err
    assert not output.exists()


def test_timeouts_are_shown_as_limit_never_dropped(queens):
    argv = ["hardness-study", "--kind", "blocked", "--n", "10", "--densities", "0.3"]
    run = queens(
        *argv, "--samples", "2", "-b", "cpsat", "--time-limit", "0.001", "--format", "json"
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["densities"][0]["backends"]["cpsat"]["limits"] == 2
    assert report["densities"][0]["backends"]["cpsat"]["seconds"]["median"] is None
    assert [s["verdict"] for s in report["samples"]] == ["undecided", "undecided"]
    table = queens(*argv, "--samples", "2", "-b", "cpsat", "--time-limit", "0.001").stdout
    row = next(line for line in table.splitlines() if line.startswith("| 0.3 |"))
    assert row.startswith("| 0.3 | 7 | ") and row.endswith("| 2 |")
    assert "| 0.00 | 2 | limit |" in row


def test_no_peak_is_named_where_every_median_run_hit_the_limit():
    instance = generate("blocked", 8, 0.2, 0)
    timed_out = {"status": "limit", "seconds": 1.0, "stats": {"nodes": 10}}
    solved = {"status": "solved", "seconds": 0.1, "stats": {"nodes": 3}, "cols": []}
    samples = [Sample(d, 0, instance, {"cpsat": timed_out}) for d in (0.2, 0.3)]
    notes = StudyReport("blocked", 8, [0.2, 0.3], ["cpsat"], samples, 1.0).table().notes
    assert not any("peak" in note for note in notes), notes
    samples.append(Sample(0.3, 1, instance, {"cpsat": solved}))
    samples.append(Sample(0.3, 2, instance, {"cpsat": solved}))
    notes = StudyReport("blocked", 8, [0.2, 0.3], ["cpsat"], samples, 1.0).table().notes
    assert "peak median time of cpsat: density 0.3" in notes


def test_backends_are_loaded_before_any_worker_thread_starts():
    """Regression: worker threads importing OR-Tools and NumPy at once saw NumPy half built
    ("partially initialized module 'numpy'") or deadlocked; the study now loads first."""
    probe = (
        "import sys, threading\n"
        "from queenslab.lab.hardness import run_study\n"
        "start = threading.Thread.start\n"
        "def checked(self):\n"
        "    assert {'ortools', 'numpy'} <= set(sys.modules), 'a worker started before loading'\n"
        "    start(self)\n"
        "threading.Thread.start = checked\n"
        "study = run_study('blocked', 6, [0.25], 2, ['backtrack', 'cpsat'], min_open=1,\n"
        "                  workers=2)\n"
        "print(study.ok)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=300
    )
    assert (run.returncode, run.stdout) == (0, "True\n"), run.stderr


def test_a_dask_cluster_gives_the_same_verdicts_as_threads(dask_scheduler):
    study = dict(kind="blocked", n=7, densities=[0.25, 0.4], samples=3, backends=["backtrack"])
    local = run_study(**study, min_open=1, workers=2)
    remote = run_study(**study, min_open=1, scheduler=dask_scheduler)
    assert remote.ok and local.ok
    assert [s.verdict() for s in remote.samples] == [s.verdict() for s in local.samples]
    nodes = [
        [s.outcomes["backtrack"]["stats"]["nodes"] for s in r.samples] for r in (local, remote)
    ]
    assert nodes[0] == nodes[1]


def test_ctrl_c_stops_running_solves_in_the_pools_processes(tmp_path):
    output = tmp_path / "never.md"
    argv = ["hardness-study", "--kind", "blocked", "--n", "28", "--densities", "0.45"]
    argv += ["--samples", "4", "-b", "backtrack", "--time-limit", "600", "--output", str(output)]
    assert signal_after(start_queens(*argv)) == (130, "", "queens: interrupted\n")
    assert list(tmp_path.iterdir()) == []


def test_csv_cells_are_numbers(queens):
    argv = ["hardness-study", "--kind", "blocked", "--n", "8", "--densities", "0.1:0.2:0.1"]
    argv += ["--samples", "3", "--min-open", "2", "-b", "backtrack", "--format", "csv"]
    run = queens(*argv)
    assert run.returncode == 0, run.stderr
    header, *rows = list(csv.reader(io.StringIO(run.stdout)))
    assert header[5:] == [
        f"backtrack {what}"
        for what in (
            "s",
            "s q1",
            "s q3",
            "effort name",
            "effort",
            "effort q1",
            "effort q3",
            "limit",
        )
    ]
    for row in rows:
        assert row[8] == "nodes"
        assert all(float(value) >= 0 for i, value in enumerate(row) if i != 8), row
