"""The armies search's checkpoint as a proof's ledger: it survives a kill, it is shared
by runs that finish the proof together, and it says how much is left
(``exact.armies_ledger``)."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

import queenslab as ql
from queenslab.api import make_problem
from queenslab.core.errors import UsageError
from queenslab.exact.armies_ledger import progress
from queenslab.exact.armies_plan import Plan

#: n = 11 at 18 is a no (a(11) = 17) that takes a few CPU seconds: long enough to kill.
N, VALUE = 11, 18


def _decide(path: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "queenslab", "decide", str(N), "--problem", "peaceable",
               "--value", str(VALUE), "-b", "armies", "--workers", "1", "--checkpoint", path,
               "--format", "json"]  # fmt: skip
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def _rows(path: str) -> int:
    """The rows the file holds now (0 while it is being created or is locked)."""
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.1) as db:
            return int(db.execute("SELECT COUNT(*) FROM done").fetchone()[0])
    except sqlite3.Error:
        return 0


def test_the_ledger_resumes_after_a_kill_with_the_unbroken_answer(tmp_path):
    """SIGKILL once the file shows refuted rows: what it holds stays, the resumed run
    searches only the rest and says no as the unbroken run does."""
    path = str(tmp_path / "ledger.sqlite")
    whole = ql.decide(N, "peaceable", VALUE, "armies", workers=1)
    run = _decide(path)
    patience = time.monotonic() + 600
    while _rows(path) == 0 and run.poll() is None and time.monotonic() < patience:
        time.sleep(0.01)
    run.send_signal(signal.SIGKILL)
    run.communicate()
    assert run.returncode == -signal.SIGKILL, "the run ended before its kill"
    kept = progress(path, make_problem(N, kind="peaceable"), VALUE)
    assert 0 < kept.refuted < kept.total and kept.bound >= VALUE
    resumed = ql.decide(N, "peaceable", VALUE, "armies", workers=1, checkpoint=path)
    assert resumed.status == whole.status == "no"
    assert 0 < resumed.stats["pairs"] < whole.stats["pairs"]
    done = progress(path, make_problem(N, kind="peaceable"), VALUE)
    assert (done.refuted, done.fraction, done.bound) == (done.total, 1.0, VALUE - 1)


@pytest.mark.slow
def test_runs_sharing_a_ledger_split_the_proof_and_finish_together(tmp_path):
    """Two runs started on one file each say no, and together search about the pairs of
    one run: each takes the blocks the other has not claimed first."""
    path = str(tmp_path / "ledger.sqlite")
    whole = ql.decide(N, "peaceable", VALUE, "armies", workers=1)
    runs = [_decide(path), _decide(path)]
    answers = [json.loads(run.communicate()[0]) for run in runs]
    assert [answer["status"] for answer in answers] == ["no", "no"]
    shared = sum(answer["stats"].get("pairs", 0) for answer in answers)
    assert whole.stats["pairs"] <= shared < 1.5 * whole.stats["pairs"]


def test_the_ledger_counts_the_rows_below_the_rectangle_bound_as_refuted(tmp_path):
    """A fresh ledger at a target holds the rows refuted by their bound alone; one
    proven at a target answers every higher one; a missing file is one line."""
    path = str(tmp_path / "ledger.sqlite")
    problem = make_problem(9, kind="peaceable")
    plan = Plan.of(problem.board)
    assert ql.decide(9, "peaceable", 13, "armies", checkpoint=path).status == "no"
    everything = len(plan.jobs())
    assert progress(path, problem, 13).refuted == progress(path, problem, 16).refuted == everything
    assert progress(path, problem, 13).bound == 12  # the no at 13
    below = sum(plan.row_bound(job) < 12 for job in plan.jobs())  # 12 is a yes: a(9) = 12
    assert 0 < progress(path, problem, 12).refuted == below < everything
    assert progress(path, problem, 12).bound == plan.upper_bound()  # nothing refuted at 12
    with pytest.raises(UsageError, match="no checkpoint"):
        progress(str(tmp_path / "missing.sqlite"), problem, 13)
