"""The benchmarks behind the measured defaults run at their smallest size (no timing
asserted): ``defaults.py``, which writes the table, and ``coloring_exact_cover.py``, which
measures colouring with no options beside the frontier recipe."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def bench(script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_defaults_measures_a_kind_and_prints_its_table():
    out = bench("defaults.py", "--n", "coloring:1", "--backends", "sat", "--symmetry", "none",
                "--starts", "none", "heuristic", "--frontier")  # fmt: skip
    assert "BEST = {'coloring': [(1, 1000000000, 'sat'," in out


def test_coloring_exact_cover_runs_every_setting_at_n_1():
    out = bench("coloring_exact_cover.py", "--n", "1", "--time-limit", "60")
    assert "| 1 | no options: " in out and out.count("| optimal | 1 | 1 |") == 3
