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
