"""The gpu backend on a real GPU: marked ``gpu``, skipped with the reason elsewhere.

``python -m pytest -m gpu -n 0`` on a machine with an NVIDIA GPU and ``pip install ".[gpu]"``.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

import queenslab as ql
from queenslab.lab import reference
from queenslab.registry import info
from tests.conftest import HANG, finish, start_queens


def _why_no_gpu() -> str:
    details = info("gpu")
    return "" if details.available else f"no GPU to count on: {details.why_unavailable}"


needs_gpu = pytest.mark.skipif(bool(_why_no_gpu()), reason=_why_no_gpu())


@pytest.mark.gpu
@needs_gpu
@pytest.mark.parametrize("n", range(4, 22))
@pytest.mark.parametrize("unique", [False, True], ids=["total", "unique"])
def test_gpu_counts_equal_oeis(n, unique):
    result = ql.count(n, "gpu", unique=unique)
    assert result.total == reference.total(n)
    if unique:
        assert result.unique == reference.unique(n)


@pytest.mark.gpu
@pytest.mark.slow
@needs_gpu
def test_gpu_counts_22_once():
    result = ql.count(22, "gpu", unique=True)
    assert (result.total, result.unique) == (reference.total(22), reference.unique(22))


@pytest.mark.gpu
@needs_gpu
def test_gpu_time_limit_ends_with_status_limit(queens):
    run = queens("count", "23", "--backend", "gpu", "--time-limit", "5", "--format", "json")
    assert run.returncode == 3, run.stderr
    assert '"status": "limit"' in run.stdout


def _batches_recorded(path: Path) -> int:
    """Finished batches in a run's checkpoint; 0 while the file or its table is not there
    (read only: connecting must not create the file the run is about to write)."""
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            return int(db.execute("SELECT COUNT(*) FROM done").fetchone()[0])
    except sqlite3.OperationalError:  # the table not yet created, or the file locked
        return 0


def _interrupt_once_recorded(process: subprocess.Popen[str], path: Path) -> tuple[int, str]:
    """Ctrl-C to a ``start_queens`` run once its checkpoint holds a finished batch, however
    fast the machine: (exit code, stderr)."""
    patience = time.monotonic() + HANG
    while not _batches_recorded(path):
        assert process.poll() is None, "the run ended before its checkpoint held a batch"
        assert time.monotonic() < patience, f"no batch recorded in {HANG} s"
        time.sleep(0.01)
    assert process.poll() is None, "the run ended before the signal"
    os.killpg(process.pid, signal.SIGINT)
    code, _, err = finish(process)
    return code, err


@pytest.mark.gpu
@needs_gpu
def test_gpu_count_interrupted_and_resumed_from_its_checkpoint(tmp_path):
    """n = 20 in 191 batches: the first is recorded long before the last on any GPU."""
    path = tmp_path / "n20.sqlite"
    argv = ("count", "20", "--backend", "gpu", "--batch", "50", "--checkpoint", str(path))
    code, err = _interrupt_once_recorded(start_queens(*argv), path)
    assert code == 130, err
    recorded = _batches_recorded(path)
    assert 0 < recorded < 191
    resumed = start_queens(*argv)
    out, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, err
    assert int(out) == reference.total(20)


@pytest.mark.gpu
@needs_gpu
def test_gpu_dask_two_workers_share_one_gpu(dask_scheduler):
    result = ql.count(18, "gpu", unique=True, scheduler=dask_scheduler, batch=50)
    assert (result.total, result.unique) == (reference.total(18), reference.unique(18))


def test_the_interrupt_waits_for_a_recorded_batch_not_for_the_cpu_clock(tmp_path):
    """The helper above on the CPU counter, whose checkpoint is the same SQLite file: the
    signal comes once a subproblem is recorded, however early that is."""
    path = tmp_path / "n17.sqlite"
    process = start_queens("count", "17", "--workers", "1", "--checkpoint", str(path))
    code, err = _interrupt_once_recorded(process, path)
    assert code == 130, err
    assert _batches_recorded(path) > 0
