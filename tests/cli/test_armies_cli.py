"""The armies backend from the command line at its edges: limits at the largest n it
takes, Ctrl-C and SIGTERM at any moment of a search, the best armies kept.

No test looks at the clock to judge a search: a run is signalled once its log shows an
answer, and a limit test only asks that a run at n = 30 ends, with a generous bound."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time

import pytest

from tests import kind_oracle
from tests.cli.test_anytime import wait_for_an_answer
from tests.conftest import finish, start_queens

#: Far above a 3 s limit plus start-up at load 10 on two cores: only a run that ignores
#: its limit reaches it (decide 30 ran past 100 s).
ENDS_WITHIN = 60


@pytest.mark.parametrize(
    "args",
    [
        ["decide", "30", "--problem", "peaceable", "--value", "120"],
        ["optimize", "30", "--problem", "peaceable"],
    ],
    ids=" ".join,
)
def test_a_time_limit_stops_the_armies_search_at_n_30(args):
    began = time.monotonic()
    process = start_queens(*args, "-b", "armies", "--time-limit", "3", "-q")
    try:
        out, err = process.communicate(timeout=ENDS_WITHIN)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise AssertionError(f"still running {ENDS_WITHIN} s after a 3 s limit") from None
    assert time.monotonic() - began < ENDS_WITHIN
    assert process.returncode == 3 or (args[0] == "decide" and process.returncode in (0, 1)), err
    assert "Traceback" not in err and "Error" not in err, err
    assert "limit" in out.partition("\n")[0] or "feasible" in out.partition("\n")[0], out


def test_a_small_value_at_n_25_is_a_yes():
    """A trivial yes is answered, not a limit (it said limit within 5 s)."""
    code, out, err = finish(
        start_queens("decide", "25", "--problem", "peaceable", "--value", "3", "-q")
    )
    assert code == 0 and out.startswith("peaceable n=25: value >= 3: yes"), (out, err)


@pytest.mark.parametrize(
    ("signum", "code", "said"),
    [(signal.SIGINT, 130, "queens: interrupted"), (signal.SIGTERM, 143, "queens: terminated")],
    ids=["ctrl-c", "sigterm"],
)
def test_a_signal_keeps_the_best_armies_and_their_cpu_seconds(tmp_path, signum, code, said):
    """Once the log shows armies, Ctrl-C or SIGTERM ends the run with its own exit code and
    one line (SystemError from a kernel's return, 4 runs in 19; SIGTERM once gave 130),
    the best armies printed with the CPU seconds the run used (0.0)."""
    log = tmp_path / "run.jsonl"
    process = start_queens(
        "optimize", "15", "--problem", "peaceable", "--format", "json", "--log", str(log)
    )
    wait_for_an_answer(log, process)
    os.killpg(process.pid, signum)
    got, out, err = finish(process)
    assert (got, err.strip().splitlines()) == (code, [said]), err
    record = json.loads(out)
    assert record["status"] == "feasible" and record["backend"] == "armies"
    assert kind_oracle.fault("peaceable", 15, "standard", (), record["answer"]) is None
    assert record["cpu_seconds"] > 0


@pytest.mark.parametrize(
    "argv",
    [
        ["optimize", "6", "--problem", "peaceable", "-b", "armies", "--seed", "3"],
        ["solve", "8", "-b", "sat", "--seed", "3"],
    ],
    ids=" ".join,
)
def test_a_seed_for_a_named_deterministic_backend_is_refused_in_one_line(queens, argv):
    """Like any option the backend does not take (it was a note after the run)."""
    run = queens(*argv)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr.splitlines() == [
        f"queens: error: backend {argv[argv.index('-b') + 1]!r} is deterministic: "
        "it takes no --seed"
    ]
