"""Every script in benchmarks/ still runs against the package, at its smallest size.

``python benchmarks/run.py --quick`` crashed on two scripts that had rotted (one called
``build_model(n, {})`` after the model builder had come to take a Problem, one read
statistics from a dict the search no longer filled). Each script takes ``--smoke``, its
smallest run (benchmarks/_process.py); a new script is found here by its file and must
take it too. Nothing is timed: a script passes when it runs to its end. A script that
needs what this machine lacks (a GPU, a C compiler, the program it is compared with)
exits ``SKIPPED`` saying why, and is skipped with that reason.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

BENCHMARKS = ROOT / "benchmarks"
SCRIPTS = sorted(path for path in BENCHMARKS.glob("*.py") if not path.name.startswith("_"))


def _shared():  # benchmarks/_process.py, which the scripts import as a sibling
    spec = importlib.util.spec_from_file_location("_process", BENCHMARKS / "_process.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SKIPPED = _shared().SKIPPED


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.stem)
def test_every_benchmark_runs_at_its_smallest_size(script, tmp_path):
    run = subprocess.run(
        [sys.executable, str(script), "--smoke"], capture_output=True, text=True,
        cwd=tmp_path, timeout=900, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    if run.returncode == SKIPPED:
        pytest.skip(run.stderr.strip().splitlines()[-1])
    assert run.returncode == 0, run.stderr[-4000:]
    assert run.stdout.strip(), "a benchmark reports on stdout"
    assert list(tmp_path.iterdir()) == [], "--smoke leaves nothing behind"
