"""The real `queens` command in a subprocess: the CLI contract and its exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests import oracle
from tests.conftest import ROOT, on_terminal, queens_command


def test_solve_json_is_a_valid_placement(queens):
    run = queens("solve", "8", "--format", "json")
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    assert set(record) == {
        "n",
        "variant",
        "backend",
        "status",
        "cols",
        "seconds",
        "cpu_seconds",
        "stats",
    }
    assert record["cpu_seconds"] > 0  # the backend's loading and search take some CPU
    assert record["n"] == 8 and record["status"] == "solved"
    assert oracle.is_solution(record["cols"], 8)


def test_enumerate_leetcode_prints_the_two_boards_in_order(queens):
    run = queens("enumerate", "4", "--format", "leetcode")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        '[".Q..", "...Q", "Q...", "..Q."]',
        '["..Q.", "Q...", "...Q", ".Q.."]',
    ]


def test_enumerate_jsonl_streams_distinct_valid_lines(queens):
    run = queens("enumerate", "6", "--format", "jsonl", "--backend", "backtrack")
    rows = [tuple(json.loads(line)["cols"]) for line in run.stdout.splitlines()]
    assert len(rows) == len(set(rows)) == 4
    assert all(oracle.is_solution(r, 6) for r in rows)


def test_enumerate_limit_and_givens(queens):
    run = queens("enumerate", "8", "--given", "0:0", "--limit", "3", "--backend", "backtrack")
    rows = [json.loads(line)["cols"] for line in run.stdout.splitlines()]
    assert len(rows) == 3 and all(r[0] == 0 for r in rows)


def test_count_backtrack(queens):
    run = queens("count", "8", "--backend", "backtrack")
    assert (run.returncode, run.stdout) == (0, "92\n")
    run = queens("count", "6", "--backend", "backtrack", "--unique", "--format", "json")
    record = json.loads(run.stdout)
    assert (record["total"], record["unique"]) == (4, 1)


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "8"],
        ["count", "8"],
        ["count", "8", "--unique"],
        ["enumerate", "5"],
        ["solve", "40"],
        ["solve", "30", "--given", "0:0"],
    ],
)
def test_every_command_has_a_default_backend(queens, argv):
    run = queens(*argv)
    assert run.returncode == 0, run.stderr
    assert run.stdout


def test_solve_3_has_no_solution(queens):
    run = queens("solve", "3", "--backend", "backtrack")
    assert run.returncode == 1
    assert run.stdout == ""


def test_time_limit_reached_exits_3(queens):
    run = queens("count", "14", "--backend", "backtrack", "--time-limit", "0.2")
    assert run.returncode == 3, run.stderr


def test_output_file_and_formats(queens, tmp_path):
    target = tmp_path / "board.json"
    run = queens("solve", "10", "--format", "json", "--output", str(target))
    assert run.returncode == 0 and run.stdout == ""
    assert oracle.is_solution(json.loads(target.read_text())["cols"], 10)
    svg = queens("solve", "6", "--format", "svg").stdout
    assert svg.startswith("<svg") and svg.count("<circle") == 6
    text = queens("solve", "5", "--format", "text").stdout.split()
    assert len(text) == 5 and all(row.count("Q") == 1 for row in text)
    matrix = [row.split() for row in queens("solve", "6", "--format", "matrix").stdout.splitlines()]
    assert oracle.is_solution([row.index("1") for row in matrix], 6)
    assert all(sorted(row) == ["0"] * 5 + ["1"] for row in matrix)


def test_no_partial_file_when_the_run_fails(queens, tmp_path):
    target = tmp_path / "none.json"
    run = queens(
        "solve", "3", "--backend", "backtrack", "--format", "json", "--output", str(target)
    )
    assert run.returncode == 1
    # A proven "no solution" is an answer: the JSON says so.
    assert json.loads(target.read_text())["cols"] is None
    target = tmp_path / "bad.json"
    run = queens("solve", "8", "--backend", "nosuch", "--output", str(target))
    assert run.returncode == 2 and not target.exists()
    # No board, nothing to draw: no (empty) text or SVG file.
    for fmt in ("text", "svg"):
        run = queens("solve", "2", "--format", fmt, "--output", str(tmp_path / f"b.{fmt}"))
        assert run.returncode == 1
    # A time limit is not an answer: no partial enumeration file.
    run = queens(
        "enumerate", "14", "--backend", "backtrack", "--time-limit", "0.3",
        "--output", str(tmp_path / "part.jsonl"),
    )  # fmt: skip
    assert run.returncode == 3 and "time limit" in run.stderr
    assert list(tmp_path.iterdir()) == [tmp_path / "none.json"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["solve", "-1"], "between 1 and"),
        (["solve", "abc"], "whole number"),
        (["solve", "8", "--backend", "nosuch"], "unknown backend 'nosuch'"),
        (["solve", "8", "--given", "9:9"], "off the 8x8 board"),
        (["solve", "8", "--given", "0:0", "--given", "1:1"], "attack each other"),
        (["solve", "8", "--given", "x"], "ROW:COL"),
        (["solve", "8", "--output", "/nonexistent/dir/f.json"], "cannot write"),
        (["solve", "8", "--time-limit", "-1"], "number of seconds"),
        (["count", "8", "--backend", "backtrack", "--given", "0:0", "--unique"], "--unique"),
        (["count", "8", "--backend", "backtrack", "--encoding", "x"], "no option 'encoding'"),
        (["enumerate", "5", "--limit", "-2"], "--limit"),
        (["frobnicate"], "unknown command 'frobnicate'"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(queens, argv, message):
    run = queens(*argv)
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1 and message in run.stderr
    assert "Traceback" not in run.stderr


def test_backends_lists_every_registered_backend(queens):
    from queenslab.registry import names

    listed = json.loads(queens("backends", "--format", "json").stdout)
    assert [b["name"] for b in listed] == names()
    assert all({"family", "capabilities", "available"} <= set(b) for b in listed)
    assert "backtrack" in queens("backends").stdout


def test_version_and_help(queens):
    assert queens("--version").stdout.startswith("queenslab ")
    help_text = queens("count", "--help").stdout
    assert "examples:" in help_text and "--unique" in help_text


EXIT_HOOK = """
import atexit, sys
from queenslab.cli import entry
atexit.register(lambda: print("exit hook ran", file=sys.stderr))
sys.argv = ["queens", *sys.argv[1:]]
entry()
"""


@pytest.mark.parametrize(("argv", "code"), [(["count", "8"], 0), (["solve", "3"], 1)])
def test_the_command_skips_the_teardown_but_runs_exit_hooks_and_keeps_its_code(argv, code):
    """``entry`` leaves with os._exit: piped output is flushed all the same, the atexit
    hooks of other libraries run, and the exit code is main()'s."""
    run = subprocess.run(
        [sys.executable, "-c", EXIT_HOOK, *argv], capture_output=True, text=True, check=False
    )
    assert run.returncode == code, run.stderr
    assert run.stdout.strip() == ("92" if code == 0 else "")
    assert "exit hook ran" in run.stderr


def test_every_blocked_file_counts(queens, tmp_path):
    """A second --blocked-file replaced the first: 76 here instead of 72."""
    (tmp_path / "a.txt").write_text("0 0\n")
    (tmp_path / "b.txt").write_text("1 1\n")
    files = ["--blocked-file", str(tmp_path / "a.txt"), "--blocked-file", str(tmp_path / "b.txt")]
    run = queens("count", "8", "-b", "backtrack", *files)
    assert (run.returncode, run.stdout) == (0, "72\n"), run.stderr


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        # a second instance replaced the first
        (["count", "--instance", "i.json", "--instance", "i.json"], "--instance is given twice"),
        # offered by solve, enumerate and optimize, and ignored there
        (["solve", "8", "--checkpoint", "c.sqlite"], "unrecognized arguments: --checkpoint"),
        (["enumerate", "8", "--scheduler", "tcp://x:1"], "unrecognized arguments: --scheduler"),
        # optimize offers it for the armies backend's peaceable search, not for weights
        (
            ["optimize", "8", "--weights", "w.json", "--checkpoint", "c.sqlite"],
            "option 'checkpoint' is only for counting placement; optimizing, deciding peaceable",
        ),
        # argparse took -1:0 for an option: "expected one argument"
        (["solve", "8", "--given", "-1:0"], "argument --given: ROW must be at least 0, got '-1'"),
        (["count", "8", "--blocked", "-2:-1"], "argument --blocked: ROW must be at least 0"),
    ],
)
def test_arguments_that_were_silently_lost_are_refused(queens, tmp_path, argv, message):
    (tmp_path / "i.json").write_text(
        '{"format": "queenslab-instance", "version": 1, "n": 8}', encoding="utf-8"
    )
    (tmp_path / "w.json").write_text(str([[1] * 8] * 8), encoding="utf-8")
    run = queens(*(str(tmp_path / arg) if arg in ("i.json", "w.json") else arg for arg in argv))
    assert run.returncode == 2, run.stderr
    assert run.stderr.count("\n") == 1 and message in run.stderr, run.stderr


@pytest.mark.parametrize("argv", [["backends", "--help"], ["--help"], ["--version"]])
def test_help_that_cannot_be_written_is_an_error(argv):
    """argparse drops a failed write: `queens backends --help > /dev/full` exited 0."""
    with open("/dev/full", "w") as full:
        run = subprocess.run(
            [*queens_command(), *argv],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=120,
        )
    assert (run.returncode, run.stderr) == (
        2,
        "queens: error: cannot write the output: No space left on device\n",
    )


@pytest.mark.parametrize(
    "argv", [["enumerate", "8", "--limit", "3"], ["enumerate", "4", "--format", "leetcode"]]
)
def test_no_bar_among_solutions_on_a_terminal(argv):
    """The bar was opened although the solutions went to the same terminal:
    'enumerating ━━━━ 0/? 0:00:00 ETA {"cols": ...}'."""
    code, seen = on_terminal(*argv)
    assert code == 0 and "enumerating" not in seen and "━" not in seen, seen
