"""The gpu backend on a real GPU: marked ``gpu``, skipped with the reason elsewhere.

``python -m pytest -m gpu -n 0`` on a machine with an NVIDIA GPU and ``pip install ".[gpu]"``.
"""

from __future__ import annotations

import sqlite3

import pytest

import queenslab as ql
from queenslab.lab import reference
from queenslab.registry import info
from tests.conftest import signal_after, start_queens


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


@pytest.mark.gpu
@needs_gpu
def test_gpu_count_interrupted_and_resumed_from_its_checkpoint(tmp_path):
    path = str(tmp_path / "n19.sqlite")
    argv = ("count", "19", "--backend", "gpu", "--checkpoint", path)
    code, _, err = signal_after(start_queens(*argv), 4.0)
    assert code == 130, err
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT COUNT(*) FROM done").fetchone()[0] > 0
    resumed = start_queens(*argv)
    out, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, err
    assert int(out) == reference.total(19)


@pytest.mark.gpu
@needs_gpu
def test_gpu_dask_two_workers_share_one_gpu(dask_scheduler):
    result = ql.count(18, "gpu", unique=True, scheduler=dask_scheduler, batch=50)
    assert (result.total, result.unique) == (reference.total(18), reference.unique(18))
