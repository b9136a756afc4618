"""`queens crosscheck`: agreement passes, any wrong count or invalid board fails it; each
kind gets the tables its declarations call for."""

from __future__ import annotations

import json
from types import MappingProxyType

import pytest

from queenslab import cli, registry
from queenslab.core.backend import Backend, Family, Task
from queenslab.core.errors import UsageError
from queenslab.core.placement import Placement
from queenslab.core.result import CountResult, SolveResult, Status
from queenslab.exact.backtracking import BacktrackingBackend
from queenslab.heuristics.explicit import ExplicitBackend
from queenslab.lab import reference
from queenslab.lab.crosscheck import crosscheck


class OffByOneCounter(BacktrackingBackend):
    """Counts one solution too many from n = 5 on: a deliberately broken encoding."""

    name = "off-by-one"

    def count(self, problem, run, question):
        result = super().count(problem, run, question)
        return CountResult(result.total + (problem.n >= 5))


class DiagonalHeuristic(Backend):
    """Returns the main diagonal, which is never a solution for n > 1."""

    name = "diagonal"
    family = Family.HEURISTIC
    tasks = MappingProxyType({"placement": frozenset({Task.SOLVE})})

    def solve(self, problem, run, question):
        return SolveResult(Status.SOLVED, Placement(range(problem.n)))


class EvenOnlyConstruction(ExplicitBackend):
    """A construction that refuses odd n, as a user's own may (no built-in one refuses)."""

    name = "even-only"

    def solve(self, problem, run, question):
        if problem.n % 2:
            raise UsageError(f"even-only does not cover n={problem.n}")
        return super().solve(problem, run, question)


@pytest.fixture
def broken(monkeypatch):
    monkeypatch.setattr(registry.BACKENDS, "registered", dict(registry.BACKENDS.registered))
    registry.register_backend(OffByOneCounter)
    registry.register_backend(DiagonalHeuristic)
    registry.register_backend(EvenOnlyConstruction)


def test_cli_crosscheck_small_range_agrees(queens):
    run = queens("crosscheck", "--n", "1-6", "--format", "json")
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(run.stdout)
    assert report["ok"] is True and report["problem"] == "placement"
    assert "values" not in report  # every placement is as good: only the count is compared
    counts = report["counts"]
    counting = [b for b in registry.names() if Task.COUNT in registry.info(b).tasks_on("placement")]
    assert counts["counters"] == counting  # every counting backend is shown
    for row in counts["rows"]:
        assert row["oeis"] == reference.total(row["n"])
        for cell in row["counts"].values():
            assert cell["value"] in (row["oeis"], None)


def test_a_wrong_counter_is_a_disagreement(broken):
    report = crosscheck(range(1, 7), ["backtrack", "off-by-one"])
    assert not report.ok
    assert [row.n for row in report.counts.rows if row.disagrees] == [5, 6]
    assert "!! disagree" in report.to_text()
    assert cli.main(["crosscheck", "--n", "4-5", "--backend", "off-by-one"]) == 1


def test_an_invalid_heuristic_board_fails(broken):
    report = crosscheck(range(1, 6), ["backtrack", "diagonal"])
    assert not report.ok
    rows = report.counts.rows
    cell = rows[4].heuristics["diagonal"]
    assert cell.failed and "invalid" in cell.note
    assert not rows[0].heuristics["diagonal"].failed  # one queen on one cell is the answer
    assert rows[1].heuristics == rows[2].heuristics == {}  # n = 2, 3: no answer to find


def test_too_large_n_is_shown_as_skipped():
    report = crosscheck([12], ["backtrack", "bitmask"])
    assert report.ok
    assert report.counts.rows[0].counts["backtrack"].note == "skipped (n too large)"
    assert "skipped (n too large)" in report.to_text()


@pytest.mark.parametrize("backends", [["backtrack"], ["bitmask"]])
def test_sizes_nothing_can_check_are_refused(backends):
    with pytest.raises(UsageError, match="nothing in this cross-check can check n=30"):
        crosscheck([30], backends)


def test_a_construction_that_does_not_cover_n_is_not_a_failure(broken):
    report = crosscheck([4, 5], ["even-only", "explicit"])
    assert report.ok
    even, odd = (row.heuristics for row in report.counts.rows)
    assert even["even-only"].note == "" and odd["even-only"].note == "n not covered"
    assert odd["explicit"].note == ""


def test_an_unknown_backend_is_a_usage_error(capsys):
    assert cli.main(["crosscheck", "--n", "4", "--backend", "nonexistent"]) == 2
    assert "unknown backend" in capsys.readouterr().err


def test_a_kind_with_an_objective_compares_its_optimum_and_its_optima():
    report = crosscheck([4, 5], ["cpsat", "sat", "graph-search"], problem="domination")
    assert report.ok and list(report.tables) == ["values", "counts"]
    assert (report.values.counters, report.values.heuristics) == (
        ["cpsat", "sat"],
        ["graph-search"],
    )
    assert [row.counts["cpsat"].value for row in report.values.rows] == [2, 3]
    assert report.counts.counters == ["cpsat", "sat"] and report.counts.heuristics == []
    assert [row.counts["sat"].value for row in report.counts.rows] == [12, 186]
    text = report.to_text()
    assert "domination: the optimum\n" in text and "domination: how many optimal answers\n" in text


def test_a_backend_that_takes_no_part_is_a_usage_error():
    with pytest.raises(UsageError, match=r"'bitmask' takes no part .* domination"):
        crosscheck([4], ["bitmask"], problem="domination")
