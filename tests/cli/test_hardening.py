"""Issue 10's I/O and bad-input cases, each run through the real `queens` command.

Every failure must be one line on stderr, exit 2, no traceback, and no file left behind.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import stat
import subprocess
import threading
import time

import pytest

from tests.conftest import HANG, ROOT, queens_command


def run_queens(
    *argv: str,
    stdout=subprocess.PIPE,
    limit_file_size: int | None = None,
    limit_memory: int | None = None,
    **kw,
):
    """The real command; ``limit_file_size`` simulates a full disk (writes fail with EFBIG),
    ``limit_memory`` bounds its address space."""

    def limited() -> None:
        if limit_file_size is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a failed write, not a killed one
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_file_size, limit_file_size))
        if limit_memory is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limit_memory, limit_memory))

    return subprocess.run(
        [*queens_command(), *argv],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=limited,
        **kw,
    )


def assert_one_line_error(run, message: str = "") -> None:
    assert run.returncode == 2, run.stderr
    assert run.stderr.count("\n") == 1, run.stderr
    assert "Traceback" not in run.stderr and message in run.stderr, run.stderr


@pytest.mark.parametrize("argv", [["solve", "8"], ["enumerate", "9"], ["count", "8"]])
def test_stdout_on_a_full_device_is_one_line(argv):
    with open("/dev/full", "w") as full:
        run = run_queens(*argv, stdout=full)
    assert_one_line_error(run, "No space left on device")


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "100000", "-b", "explicit", "--format", "json"],
        ["enumerate", "8", "-b", "backtrack"],
        ["solve", "100000", "-b", "explicit", "--format", "npy"],
    ],
)
def test_output_on_a_full_disk_leaves_nothing(tmp_path, argv):
    suffix = {"json": ".json", "npy": ".npy"}.get(argv[-1], ".jsonl")
    target = tmp_path / f"out{suffix}"
    run = run_queens(*argv, "--output", str(target), limit_file_size=1024)
    assert_one_line_error(run, "cannot write")
    assert list(tmp_path.iterdir()) == []


def test_checkpoint_on_a_full_disk_is_one_line_and_leaves_nothing(tmp_path):
    target = tmp_path / "count.sqlite"
    run = run_queens(
        "count", "10", "-b", "bitmask", "--checkpoint", str(target), limit_file_size=4096
    )
    assert_one_line_error(run, f"cannot write checkpoint {target}")
    assert list(tmp_path.iterdir()) == []


def test_sigterm_during_output_leaves_no_hidden_file(tmp_path):
    target = tmp_path / "all.jsonl"
    process = subprocess.Popen(
        [*queens_command(), "enumerate", "14", "-b", "backtrack", "--output", str(target)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        deadline = time.monotonic() + 120
        while not any(p.name.startswith(".all.jsonl.") for p in tmp_path.iterdir()):
            assert time.monotonic() < deadline and process.poll() is None
            time.sleep(0.05)
        time.sleep(0.3)  # inside the search, writing
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=HANG) == 143
        assert process.stderr.read().decode().strip() == "queens: terminated"
    finally:
        process.kill()
        process.wait()
    assert list(tmp_path.iterdir()) == []


def test_a_second_sigterm_is_ignored_while_the_first_one_cleans_up():
    """GNU timeout sends SIGTERM to the command and again to its group: the second one
    killed the command inside its cleanup (temporary files of gigabytes were left)."""
    from queenslab import cli
    from queenslab.core.errors import Terminated

    previous = signal.getsignal(signal.SIGTERM)
    try:
        with pytest.raises(Terminated):
            cli._terminate(os.getpid(), signal.SIGTERM, None)
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_gnu_timeout_leaves_no_hidden_file(tmp_path):
    target = tmp_path / "all.jsonl"
    argv = [*queens_command(), "enumerate", "14", "-b", "backtrack", "--output", str(target)]
    run = subprocess.run(
        ["timeout", "2", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert (run.returncode, run.stderr) == (124, "queens: terminated\n")
    assert list(tmp_path.iterdir()) == []


def test_output_to_a_character_device_is_written_through(tmp_path):
    if os.geteuid() == 0:
        device = tmp_path / "null"
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    else:
        device = "/dev/null"
    run = run_queens("solve", "8", "--format", "json", "--output", str(device))
    assert run.returncode == 0, run.stderr
    assert stat.S_ISCHR(os.stat(device).st_mode)
    if os.geteuid() == 0:
        assert list(tmp_path.iterdir()) == [device]


def test_output_to_a_fifo_is_written_through(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    run = run_queens("solve", "8", "--format", "json", "--output", str(fifo))
    reader.join(timeout=HANG)
    assert run.returncode == 0, run.stderr
    assert json.loads(received[0])["n"] == 8
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and list(tmp_path.iterdir()) == [fifo]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["count", "8", "--checkpoint", ""], "--checkpoint must not be empty"),
        (["count", "8", "--scheduler", ""], "--scheduler must not be empty"),
        (["solve", "8", "-b", ""], "backend name must not be empty"),
        (["solve", "８"], "whole number"),
        (["solve", "8", "--seed", "８"], "whole number"),
        (["solve", "8", "--given", "８:0"], "whole number"),
        (["solve", "8", "--time-limit", "８"], "number of seconds"),
        (["enumerate", "8", "--limit", "８"], "whole number"),
        (["count", "8", "--workers", "８"], "--workers must be a whole number"),
        (["count", "8", "--workers", "0"], "--workers must be at least 1"),
        (["solve", "8", "--time-limit", "1e-300"], "number of seconds >= 0.001"),
        (["solve", "8", "--time-limit", "nan"], "number of seconds"),
        (["enumerate", "8", "--limit", "9" * 31], "at most 30 digits"),
        (["solve", "20", "-b", "las-vegas", "--step", "-1"], "step"),
        (["solve", "20", "-b", "las-vegas", "--step", "100"], "--step must be between 0"),
        (["lv-study", "--n", "9" * 23], "between 1 and"),
        (["crosscheck", "--n", "1-"], "FIRST-LAST"),
        (["crosscheck", "--n", "2000000000"], "between 1 and"),
        (["solve", "8", "--output", "board.unknown"], "cannot tell the format"),
        (["solve", "2000", "--format", "svg"], "up to n = 1000"),
        (["solve", "1001", "--format", "png", "--output", "x.png"], "up to n = 1000"),
    ],
)
def test_bad_arguments_are_one_line(argv, message, tmp_path):
    run = run_queens(*argv, cwd=tmp_path)
    assert_one_line_error(run, message)
    assert run.stdout == "" and list(tmp_path.iterdir()) == []


def test_a_huge_enumeration_limit_works():
    run = run_queens("enumerate", "8", "--limit", "99999999999999999999999")
    assert run.returncode == 0, run.stderr
    assert len(run.stdout.splitlines()) == len(set(run.stdout.splitlines())) == 92


#: Address space for a run at a huge n: the interpreter and its imports take a few hundred
#: MB; an n x n table of 5000 or more rows takes several GB.
HUGE_N_MEMORY = 1536 << 20


#: Command -> (exit code, what its one line says).
HUGE_BOARDS = {
    "count 100000 --time-limit 1": (3, "time limit reached"),
    "count 5000 -b backtrack --time-limit 1": (3, "time limit reached"),
    "solve 100000 -b backtrack --time-limit 1": (3, "no answer: limit"),
    "count 1000000000": (2, "handles n <= 1000000"),
    "enumerate 1000000000 --limit 1": (2, "handles n <= 1000000"),
    "solve 1000000000 --variant superqueens": (2, "handles n <= 1000000"),
    "solve 1000000000 -b las-vegas": (2, "out of memory"),
    # a trial's random phase (n rows of n columns) never looked at the clock: 500 s
    "solve 100000 -b las-vegas --time-limit 1": (3, "no answer: limit"),
    "generate --kind blocked --n 1000000000 --density 0.1": (2, "boards up to n = 500"),
    # the board's lines were all built before the first look at the clock: 24 GB, OOM
    "count 100000 -b sat --time-limit 1": (2, "the CNF models take n <= 2000"),
    "count 2000 -b sat --time-limit 1": (3, "time limit reached"),
    # four rows split at once: 2.5 million subproblems, 0.8 GB, before the clock
    "count 40 -b bitmask --blocked 0:0 --unique --time-limit 1": (3, "time limit reached"),
    "hardness-study --kind blocked --n 1000000000 --densities 0.1 -b cpsat": (2, "up to n = 500"),
}


@pytest.mark.parametrize("command", HUGE_BOARDS)
def test_huge_boards_end_on_time_in_little_memory(command):
    """The search built n x n tables before it looked at the clock (count 10^9: 3 GB in
    8 s); now it looks first, keeps O(n) memory, and states its largest n."""
    code, message = HUGE_BOARDS[command]
    run = run_queens(*command.split(), limit_memory=HUGE_N_MEMORY)
    assert run.returncode == code, run.stderr
    assert run.stderr.count("\n") == 1 and message in run.stderr, run.stderr


def test_output_suffix_chooses_the_format(tmp_path):
    run = run_queens("solve", "8", "--output", str(tmp_path / "board.png"))
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "board.png").read_bytes().startswith(b"\x89PNG")


WEIGHTS = {
    "huge.json": "[[" + "9" * 5000 + ", 1], [1, 1]]",
    "nested.json": "[" * 100000 + "]" * 100000,
    "nan.json": "[[NaN, 1], [1, 1]]",
    "infinity.json": "[[Infinity, 1], [1, 1]]",
    "float.json": "[[1.5, 1], [1, 1]]",
    "float.csv": "1.5,2\n3,4\n",
    "fullwidth.csv": "１,2\n3,4\n",
    "underscore.csv": "1_0,2\n3,4\n",
    "huge.csv": "9" * 5000 + ",2\n3,4\n",
}


@pytest.mark.parametrize("name", [*WEIGHTS, "/dev/zero"])
def test_bad_weights_files_are_one_line(tmp_path, name):
    if name.startswith("/"):
        path = name
    else:
        path = tmp_path / name
        path.write_text(WEIGHTS[name], encoding="utf-8")
    run = run_queens("optimize", "2", "--weights", str(path))
    assert_one_line_error(run, "weights file")
