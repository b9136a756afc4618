"""Ctrl-C keeps what a run found: the real command, signalled once it shows the state the
test needs (an answer in its log, answers in its output file), never after a fixed time.

python-sat's CaDiCaL aborted the process ("solver in invalid state", SIGABRT) when Ctrl-C
came during a count or an enumeration of a kind's answers, which solve in the main
process, and left the enumeration's temporary file behind; graph-search told no answer
before it returned, so Ctrl-C lost its best.
"""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

import queenslab as ql
from queenslab.core.errors import StoppedWithAnswer
from queenslab.core.result import Status
from tests import kind_oracle
from tests.cli.test_anytime import read_log, wait_for_an_answer
from tests.conftest import HANG, finish, start_queens


def _wait_for_output(folder: Path, process) -> None:
    """Until a file in ``folder`` holds answers (the enumeration streams them), the run
    still going."""
    patience = time.monotonic() + HANG
    while not any(path.stat().st_size for path in folder.iterdir()):
        assert process.poll() is None, finish(process)
        assert time.monotonic() < patience, "no answer written"
        time.sleep(0.05)


def test_ctrl_c_during_a_python_sat_enumeration_ends_cleanly_and_leaves_no_file(tmp_path):
    output = tmp_path / "en.jsonl"
    process = start_queens("enumerate", "8", "--problem", "domination", "-b", "sat",
                           "--output", str(output))  # fmt: skip
    _wait_for_output(tmp_path, process)
    os.killpg(process.pid, signal.SIGINT)
    assert finish(process) == (130, "", "queens: interrupted\n")
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_between_a_kind_s_answers_ends_cleanly():
    """Signalled once an answer has come, Ctrl-C lands inside a solve: on n = 9 each of
    the 114 answers takes CaDiCaL tens of milliseconds, and Python a fraction of one."""
    process = start_queens("enumerate", "9", "--problem", "domination", "-b", "sat",
                           PYTHONUNBUFFERED="1")  # fmt: skip
    first = process.stdout.readline()
    assert first.startswith('{"answer": '), finish(process)
    os.killpg(process.pid, signal.SIGINT)
    code, _, err = finish(process)
    assert (code, err) == (130, "queens: interrupted\n"), err


def test_ctrl_c_keeps_graph_search_s_best_answer(tmp_path):
    """Every better answer is news: the log shows it, and Ctrl-C prints the best."""
    log = tmp_path / "run.jsonl"
    process = start_queens("optimize", "30", "--problem", "domination", "-b", "graph-search",
                           "--patience", "100000000", "--format", "json",
                           "--log", str(log))  # fmt: skip
    wait_for_an_answer(log, process)
    os.killpg(process.pid, signal.SIGINT)
    code, out, err = finish(process)
    assert (code, err) == (130, "queens: interrupted\n"), err
    record = json.loads(out)
    assert record["status"] == "feasible"
    assert kind_oracle.fault("domination", 30, "standard", (), record["answer"]) is None
    found = [line["incumbent"] for line in read_log(log) if line["event"] == "solution"]
    assert found == sorted(found, reverse=True) and found[-1] == record["objective"]
    assert read_log(log)[-1] == {**read_log(log)[-1], "event": "end", "status": "feasible"}


#: Counts that report progress as they go: (n, backend, options, kind).
PARTIAL_COUNTS = {
    "bitmask": (12, "bitmask", {"workers": 1}, None),
    "sat cubes": (10, "sat", {"workers": 1}, None),
    "cpsat cubes": (10, "cpsat", {"workers": 1}, None),
    "small": (10, "small", {}, None),
    "sat domination": (6, "sat", {}, "domination"),
    "cpsat domination": (6, "cpsat", {}, "domination"),
}


@pytest.mark.parametrize("case", PARTIAL_COUNTS)
def test_an_interrupted_count_keeps_what_it_counted_as_a_lower_bound(case):
    """Ctrl-C (raised where the main thread reports progress) ends the count with its
    answers so far, status limit and no total; the kind's answers are told one by one.
    Progress counts finished parts (a kind's count: its answers); a waiting run also
    reports nothing new, a few times a second, while a child proves the optimum."""
    n, backend, options, kind = PARTIAL_COUNTS[case]
    total = ql.count(n, backend, problem=kind, **options).total

    def interrupt(done: int, _total: int | None) -> None:
        if done >= 3:
            raise KeyboardInterrupt  # what Ctrl-C raises in the main thread

    with pytest.raises(StoppedWithAnswer) as stopped:
        ql.count(n, backend, problem=kind, progress=interrupt, **options)
    so_far = stopped.value.result
    assert (so_far.status, so_far.total, so_far.backend) == (Status.INTERRUPTED, None, backend)
    assert 0 <= so_far.lower_bound < total
    if kind is not None:  # each answer is counted before it is reported
        assert so_far.lower_bound >= 3


def test_a_count_stopped_by_its_limit_says_what_it_found(queens):
    run = queens("count", "14", "-b", "backtrack", "--time-limit", "0.2", "--format", "json")
    assert run.returncode == 3, run.stderr
    record = json.loads(run.stdout)
    assert (record["status"], record["total"]) == ("limit", None)
    assert record["lower_bound"] >= 0
    text = queens("count", "14", "-b", "backtrack", "--time-limit", "0.2")
    assert text.returncode == 3 and text.stdout.startswith("at least "), text.stdout
