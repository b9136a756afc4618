"""The independent-search backend from the command line: Ctrl-C and SIGTERM in the middle
of a search end it with their exit codes and the best answer kept. A run is signalled once
its log shows an answer, never after a fixed sleep."""

from __future__ import annotations

import json
import os
import signal

import pytest

from tests import oracle
from tests.cli.test_anytime import wait_for_an_answer
from tests.conftest import finish, start_queens


@pytest.mark.parametrize(
    ("signum", "code", "said"),
    [(signal.SIGINT, 130, "queens: interrupted"), (signal.SIGTERM, 143, "queens: terminated")],
    ids=["ctrl-c", "sigterm"],
)
def test_a_signal_keeps_the_best_answer(tmp_path, signum, code, said):
    """n = 19: the first answers come at once, the proof takes long; signalled then, the
    run ends with its code and one line, the best answer printed and valid."""
    log = tmp_path / "run.jsonl"
    argv = ["optimize", "19", "--problem", "independent-domination", "-b", "independent-search"]
    process = start_queens(*argv, "--format", "json", "--log", str(log))
    wait_for_an_answer(log, process)
    os.killpg(process.pid, signum)
    got, out, err = finish(process)
    assert (got, err.strip().splitlines()) == (code, [said]), err
    record = json.loads(out)
    assert record["status"] == "feasible" and record["backend"] == "independent-search"
    queens = [tuple(q) for q in record["answer"]]
    assert not any(oracle.attack(19, "standard", a, b) for a in queens for b in queens if a < b)
    assert all(
        cell in queens or any(oracle.attack(19, "standard", q, cell) for q in queens)
        for cell in ((r, c) for r in range(19) for c in range(19))
    )
