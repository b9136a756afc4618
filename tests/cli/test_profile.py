"""Tree profiles (--profile): the nodes of each depth of the backtracking tree.

The backtrack backend's profile must be exactly the brute-force count of consistent partial
placements (tests/oracle.py); the bitmask search prunes with a look-ahead, so its profile
lies below it at every depth and agrees on the leaves (the solutions).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import queenslab as ql
from queenslab.core.errors import QueensError
from tests import oracle
from tests.conftest import ROOT


@pytest.mark.parametrize(
    ("n", "variant", "blocked"),
    [
        (6, "standard", ()),
        (7, "toroidal", ()),
        (6, "superqueens", ()),
        (6, "standard", ((0, 1), (3, 3))),
    ],
)
def test_backtrack_profile_is_the_tree_counted_by_brute_force(n, variant, blocked):
    result = ql.count(n, "backtrack", variant=variant, blocked=blocked, profile=True)
    expected = oracle.tree_profile(n, variant, blocked)
    assert result.stats["profile"] == expected
    assert result.stats["nodes"] == sum(expected)
    assert result.total == expected[-1]


def test_count_8_json_reports_the_exact_backtracking_tree():
    done = subprocess.run(
        [sys.executable, "-m", "queenslab", "count", "8", "--backend", "backtrack",
         "--format", "json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert json.loads(done.stdout)["stats"]["nodes"] == sum(oracle.tree_profile(8))


@pytest.mark.parametrize("variant", ["standard", "toroidal", "superqueens"])
def test_bitmask_profile_is_a_pruned_tree_with_the_same_leaves(variant):
    n = 9
    full = (
        oracle.tree_profile(n, variant)
        if n <= 7
        else ql.count(n, "backtrack", variant=variant, profile=True).stats["profile"]
    )
    result = ql.count(n, "bitmask", variant=variant, unique=True, profile=True)
    profile = result.stats["profile"]
    assert len(profile) == n + 1 and profile[0] == 1 and profile[1] == full[1]
    assert all(0 <= mine <= theirs for mine, theirs in zip(profile, full, strict=True))
    assert profile[-1] == full[-1] == result.total
    assert result.unique == ql.count(n, "backtrack", variant=variant, unique=True).unique


def test_profile_needs_a_backend_that_records_it():
    refusal = "does not support tree profiles; backends that do: backtrack"
    with pytest.raises(QueensError, match=refusal):
        ql.count(6, "sat", profile=True)
    assert ql.count(6, profile=True).stats["profile"][0] == 1  # the default can


def test_cli_prints_and_plots_the_profile(tmp_path):
    plot = tmp_path / "tree.png"
    done = subprocess.run(
        [sys.executable, "-m", "queenslab", "count", "6", "--backend", "backtrack",
         "--profile", "--plot", str(plot)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    lines = done.stdout.splitlines()
    assert lines[0] == "4" and lines[1].split() == ["depth", "nodes"]
    assert [int(line.split()[1]) for line in lines[2:]] == oracle.tree_profile(6)
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_profile_defaults_to_the_textbook_tree_and_plot_alone_names_its_file(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "queenslab", "count", "8", "--profile", "--plot"],
        capture_output=True, text=True, check=True, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    nodes = [int(line.split()[1]) for line in done.stdout.splitlines()[2:]]
    assert sum(nodes) == 2057  # backtrack's tree, as estimate --exact reports it
    assert done.stderr == "queens: plot written to tree-profile.png\n"
    assert (tmp_path / "tree-profile.png").read_bytes()[:4] == b"\x89PNG"


def test_plot_without_profile_is_refused(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "queenslab", "count", "6", "--plot", str(tmp_path / "x.png")],
        capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 2 and "add --profile" in done.stderr
    assert not list(tmp_path.iterdir())
