"""Knuth's estimator: unbiased for the backtrack backend's tree, reproducible, bounded."""

from __future__ import annotations

import json
import math

import pytest

from queenslab.core.problem import Problem
from queenslab.core.run import Run
from queenslab.lab.estimate import estimate, exact_size


@pytest.mark.parametrize(
    "problem",
    [
        Problem(7),
        Problem(8),
        Problem(8, variant="toroidal"),
        Problem(7, variant="superqueens"),
        Problem(8, blocked=((0, 0), (4, 4))),
        Problem(8, givens=((3, 1),)),
    ],
    ids=repr,
)
def test_the_estimate_brackets_the_exact_tree_size(problem):
    exact = exact_size(problem)
    result = estimate(problem, probes=4000, run=Run(seed=11))
    # Unbiased: the mean lies within a few standard errors of the truth.
    assert abs(result.mean - exact) <= 5 * result.stderr + 1e-9
    assert result.levels[0] == 1
    assert math.isclose(sum(result.levels), result.mean)  # the profile adds up to the size


def test_a_tree_without_choices_is_estimated_exactly():
    """On a 1x1 board and with every row given, every probe walks the only path."""
    for problem in (Problem(1), Problem(4, givens=((0, 1), (1, 3), (2, 0), (3, 2)))):
        result = estimate(problem, probes=50, run=Run(seed=0))
        assert result.mean == exact_size(problem) and result.stderr == 0


def test_the_same_seed_gives_the_same_estimate():
    first, second = (estimate(Problem(10), 300, Run(seed=5)) for _ in range(2))
    assert first == second
    assert estimate(Problem(10), 300, Run(seed=6)).mean != first.mean


def test_cli_json_plot_and_bounds(queens, tmp_path):
    plot = tmp_path / "tree.png"
    run = queens(
        "estimate", "6-7", "--seed", "1", "--exact", "--format", "json", "--plot", str(plot)
    )
    assert run.returncode == 0
    records = [json.loads(line) for line in run.stdout.splitlines()]
    assert [r["n"] for r in records] == [6, 7]
    assert all(r["ci95"][0] <= r["estimate"] <= r["ci95"][1] for r in records)
    assert all(r["exact"] == exact_size(Problem(r["n"])) for r in records)
    assert plot.read_bytes().startswith(b"\x89PNG")
    profile = tmp_path / "profile.png"
    assert queens("estimate", "8", "--seed", "1", "--plot", str(profile)).returncode == 0
    assert profile.read_bytes().startswith(b"\x89PNG")
    for argv in (("20", "--exact"), ("8-16", "--exact"), ("8", "--probes", "0"),
                 ("8", "--blocked", "9:9"), ("8", "--plot", "x.txt")):  # fmt: skip
        bad = queens("estimate", *argv)
        assert bad.returncode == 2 and bad.stderr.count("\n") == 1, argv


def test_a_profile_carries_intervals_and_the_exact_counts_per_depth(queens):
    run = queens("estimate", "8", "--seed", "1", "--exact", "--format", "json")
    record = json.loads(run.stdout)
    assert record["exact_levels"] == [1, 8, 42, 140, 344, 568, 550, 312, 92]
    assert sum(record["exact_levels"]) == record["exact"] == 2057
    assert len(record["levels_ci95"]) == 9 and record["levels_ci95"][0] == [1.0, 1.0]
    inside = [lo <= exact <= hi for (lo, hi), exact in zip(record["levels_ci95"],
              record["exact_levels"], strict=True)]  # fmt: skip
    assert sum(inside) >= 7  # 95% intervals: one miss in nine depths is to be expected


def test_the_profile_plot_is_on_a_log_scale_with_the_exact_counts(monkeypatch, tmp_path):
    from queenslab.cli import estimate as command
    from queenslab.io import figures
    from queenslab.lab.estimate import exact_profile

    result = estimate(Problem(10), 300, Run(seed=1))  # n = 12's exact profile took 3.9 CPU s
    result.exact_levels = exact_profile(Problem(10))
    drawn = {}
    monkeypatch.setattr(figures, "save", lambda fig, path: drawn.setdefault("axes", fig.axes[0]))
    command.write_plot([result], str(tmp_path / "p.png"))
    axes = drawn["axes"]
    assert axes.get_yscale() == "log"
    assert [t.get_text() for t in axes.get_legend().get_texts()] == [
        "exact",
        "Knuth estimate",
        "95% interval",
    ]


def test_boards_past_a_float_are_refused_and_the_largest_is_estimated(queens):
    """n = 210 raised OverflowError (a probe's size past 10^308); n = 10^9 never ended."""
    for n in ("210", "1000000000"):
        bad = queens("estimate", n, "--probes", "2")
        assert bad.returncode == 2 and "n up to 170" in bad.stderr, bad.stderr
        assert bad.stderr.count("\n") == 1, bad.stderr
    result = estimate(Problem(170), probes=3, run=Run(seed=1))
    assert math.isfinite(result.mean) and sum(result.levels) > 1e200


def test_a_time_limit_stops_the_probes_and_says_how_many_were_used(queens):
    run = queens("estimate", "8", "--probes", "1000000", "--time-limit", "0.5", "--seed", "1")
    assert run.returncode == 3, run.stderr
    probes = int(run.stdout.split("(")[1].split()[0])
    assert 2 <= probes < 1_000_000
    assert run.stderr == f"time limit reached after {probes} of 1000000 probes (n=8)\n"
