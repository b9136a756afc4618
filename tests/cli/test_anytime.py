"""Anytime optimisation from the command line: the log of improvements, Ctrl-C and limits
that keep the best answer, the live line on a terminal only, CPU limits and figures.

No test looks at the clock: a run is signalled once its log shows an answer, and limits
are checked by what the run says, never by how long it took."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from tests import kind_oracle
from tests.conftest import finish, on_terminal, start_queens

#: Peaceable armies on 9 x 9 by CP-SAT: answers within a second, no proof for minutes.
HARD = ("optimize", "9", "--problem", "peaceable", "--backend", "cpsat", "--workers", "1")


def read_log(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def wait_for_an_answer(path: Path, process) -> None:
    """Poll the log until it shows an answer (a generous minute at most)."""
    for _ in range(600):
        if path.exists() and any(r["event"] == "solution" for r in read_log(path)):
            return
        assert process.poll() is None, finish(process)
        time.sleep(0.1)
    os.killpg(process.pid, signal.SIGKILL)
    raise AssertionError("no answer in the log after a minute")


def test_ctrl_c_prints_the_best_answer_and_its_bound_then_exits_130(tmp_path):
    log = tmp_path / "run.jsonl"
    process = start_queens(*HARD, "--format", "json", "--log", str(log))
    wait_for_an_answer(log, process)
    os.killpg(process.pid, signal.SIGINT)
    code, out, err = finish(process)
    assert code == 130, err
    assert err.strip().splitlines()[-1] == "queens: interrupted"
    record = json.loads(out)
    assert record["status"] == "feasible"
    assert kind_oracle.fault("peaceable", 9, "standard", (), record["answer"]) is None
    assert record["objective"] <= record["bound"]  # maximising: the bound is above
    lines = read_log(log)
    assert lines[-1]["event"] == "end" and lines[-1]["status"] == "feasible"
    assert lines[-1]["incumbent"] == record["objective"]


@pytest.mark.parametrize("backend", ["cpsat", "milp", "maxsat"])
def test_the_log_improves_monotonically_and_ends_with_the_answer(queens, tmp_path, backend):
    log = tmp_path / "run.jsonl"
    run = queens("optimize", "6", "--problem", "domination", "-b", backend, "--format", "json",
                 "--log", str(log))  # fmt: skip
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    lines = read_log(log)
    assert all(set(line) >= {"t", "event", "incumbent", "bound"} for line in lines)
    found = [line["incumbent"] for line in lines if line["event"] == "solution"]
    bounds = [line["bound"] for line in lines if line["bound"] is not None]
    times = [line["t"] for line in lines]
    assert found and found == sorted(found, reverse=True) and len(set(found)) == len(found)
    assert bounds == sorted(bounds)  # minimising: the bound rises
    assert times == sorted(times)
    chosen = [line for line in lines if line["event"] == "chosen"]
    assert len(chosen) == 1 and chosen == lines[:1]  # said before any answer
    assert chosen[0]["setting"].startswith(f"{record['stats']['model']}")
    assert f" on {backend}: {record['stats']['chosen']}" in chosen[0]["setting"]
    best = record["objective"]
    end = {"event": "end", "status": "optimal", "incumbent": best, "bound": best}
    assert lines[-1] == {**lines[-1], **end}


def test_the_live_line_says_which_model_runs_and_why():
    from queenslab.cli.anytime import describe
    from queenslab.core.run import News, Run

    told: list[tuple[str, News]] = []
    run = Run(on_news=lambda event, news, _seconds: told.append((event, news)))
    run.choose("sat", "lines", "lex-leader", "measured fastest on sat for n = 4..12")
    run.learn("solution", News(5, "an answer", 3))
    assert [event for event, _ in told] == ["chosen", "solution"]
    line = describe(told[-1][1], 12.34)
    setting = "lines + lex-leader on sat: measured fastest on sat for n = 4..12"
    assert line == f"incumbent 5  bound 3  gap 2  12.3 s  ({setting})"
    assert run.stats["model"] == "lines" and run.stats["symmetry"] == "lex-leader"


def test_a_limit_keeps_the_best_answer_and_exits_3(queens):
    run = queens(*HARD, "--format", "json", "--cpu-limit", "2")
    assert run.returncode == 3, run.stderr
    record = json.loads(run.stdout)
    assert record["status"] in ("feasible", "limit")
    if record["status"] == "feasible":
        assert kind_oracle.fault("peaceable", 9, "standard", (), record["answer"]) is None
    assert record["cpu_seconds"] > 0


@pytest.mark.parametrize(
    "command",
    [
        ("solve", "62", "-b", "bitmask"),
        ("count", "20"),
        ("enumerate", "30"),
        ("decide", "14", "--problem", "domination", "--value", "7", "-b", "sat"),
    ],
    ids=lambda command: command[0],
)
def test_every_command_stops_at_its_cpu_limit_with_exit_3(queens, command):
    run = queens(*command, "--cpu-limit", "0.01")
    assert run.returncode == 3, run.stderr
    bad = queens(*command, "--cpu-limit", "0")
    assert bad.returncode == 2 and "--cpu-limit" in bad.stderr


def test_a_bad_log_path_or_a_log_without_a_problem_exit_2_leaving_nothing(queens, tmp_path):
    missing = tmp_path / "no" / "run.jsonl"
    run = queens("optimize", "5", "--problem", "domination", "--log", str(missing))
    assert run.returncode == 2 and run.stderr.startswith("queens: error: cannot write")
    assert not missing.parent.exists()
    weights = tmp_path / "w.json"
    weights.write_text(json.dumps([[1] * 5] * 5))
    log = tmp_path / "placement.jsonl"
    run = queens("optimize", "5", "--weights", str(weights), "--log", str(log))
    assert run.returncode == 2 and "--log" in run.stderr and not log.exists()
    run = queens("optimize", "5", "--problem", "domination", "--cpu-limit", "-1")
    assert run.returncode == 2 and "--cpu-limit" in run.stderr


def test_the_live_line_shows_on_a_terminal_only(queens):
    """Issue 33: with no options, `optimize 9 --problem peaceable` ran for minutes without a
    word; the default backend now proves the published 12 in about a second, its live line
    (how often it is redrawn depends on the machine) showing the incumbent, the bound and
    the gap on a terminal, and nothing of it when piped."""
    argv = ("optimize", "9", "--problem", "peaceable")
    code, seen = on_terminal(*argv)
    assert code == 0 and "peaceable n=9: optimal 12" in seen, seen
    assert all(word in seen for word in ("incumbent ", "  bound ", "  gap ")), seen
    run = queens(*argv)
    assert run.returncode == 0 and "incumbent" not in run.stderr, run.stderr
