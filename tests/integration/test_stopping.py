"""Every run ends on time and on Ctrl-C, however big the model: the real command.

Ctrl-C ends a long count cleanly: exit 130, one line on stderr, no traceback. The command
runs in its own session with SIGINT at its default (as from a terminal), and the signal
goes to the whole process group, pool processes included.

A time limit covers building the model and loading it into the solver (n = 2000 takes
minutes to build); Ctrl-C ends optimisation and counting runs with exit 130 and one line
(CP-SAT used to abort, RC2 to end in a traceback, Ganak to ignore it, a MILP count to
print a reader thread's traceback first). Nothing here asserts a duration: a run that
ignored its limit would run into the subprocess timeout.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time

import pytest

from queenslab.core.errors import UsageError
from queenslab.registry import info
from queenslab.runtime.pool import connect
from queenslab.runtime.stop import leave_sigint_to_parent
from tests.conftest import HANG, ROOT, finish, queens_command, signal_after, start_queens


def _needs(backend: str) -> pytest.MarkDecorator:
    return pytest.mark.skipif(not info(backend).available, reason=f"{backend} not installed")


#: One big model per backend in the default suite (the portfolio's members too); the other
#: tasks and kinds are slow tests, here and for Ctrl-C below.
SLOW = pytest.mark.slow


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["solve", "2000", "-b", "cpsat"], marks=_needs("cpsat")),
        pytest.param(["solve", "2000", "-b", "milp"], marks=_needs("milp")),
        pytest.param(["solve", "150", "-b", "sat"], marks=_needs("sat")),
        pytest.param(["count", "1000", "-b", "sat"], marks=_needs("sat")),  # n³ clauses
        pytest.param(["enumerate", "1000", "-b", "sat"], marks=(_needs("sat"), SLOW)),
        pytest.param(["count", "1000", "-b", "cpsat"], marks=(_needs("cpsat"), SLOW)),
        pytest.param(["count", "14", "-b", "milp"], marks=(_needs("milp"), SLOW)),
        pytest.param(["enumerate", "14", "-b", "milp"], marks=(_needs("milp"), SLOW)),
        *(
            pytest.param(
                ["optimize", "80", "-b", name, "--problem", "domination"],
                marks=(_needs(name), *(() if name in ("maxsat", "portfolio") else (SLOW,))),
            )
            for name in ("cpsat", "milp", "maxsat", "sat", "portfolio")
        ),
        pytest.param(
            ["count", "80", "-b", "sat", "--problem", "domination"], marks=(_needs("sat"), SLOW)
        ),
    ],
    ids=" ".join,
)
def test_time_limit_covers_building_big_models(args):
    code, out, err = finish(start_queens(*args, "--time-limit", "1"))
    assert code == 3, err
    if "feasible" in out.partition("\n")[0]:  # an answer came before the limit: kept
        assert err == "", err
    else:
        assert len(err.splitlines()) == 1 and "limit" in err, err


@pytest.fixture(scope="module")
def weights_file(tmp_path_factory):
    """Random weights 0..10^6 on a 30 x 30 board (the first n rows and columns are used)."""
    rng = random.Random(30)
    path = tmp_path_factory.mktemp("weights") / "w30.json"
    path.write_text(json.dumps([[rng.randint(0, 10**6) for _ in range(30)] for _ in range(30)]))
    return path


def _weights(n: int, path) -> list[str]:
    matrix = json.loads(path.read_text())
    small = path.with_name(f"w{n}.json")
    small.write_text(json.dumps([row[:n] for row in matrix[:n]]))
    return ["--weights", str(small)]


#: Runs that take far longer than the few seconds before the interrupt.
LONG_RUNS = {
    "cpsat optimize": (["optimize", "30", "-b", "cpsat"], 30),
    "maxsat optimize": (["optimize", "30", "-b", "maxsat"], 30),
    "sharpsat count": (["count", "13", "-b", "sharpsat"], None),
    "milp count": (["count", "14", "-b", "milp"], None),
    "sat solve": (["solve", "150", "-b", "sat"], None),
    **{
        f"{name} domination": (["optimize", "14", "-b", name, "--problem", "domination"], None)
        for name in ("cpsat", "milp", "maxsat", "sat", "portfolio")
    },
    "sat count domination": (["count", "13", "-b", "sat", "--problem", "domination"], None),
}


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(
            case, marks=SLOW if case.endswith(" domination") and "portfolio" not in case else ()
        )
        for case in LONG_RUNS
    ],
)
def test_ctrl_c_ends_a_model_run_with_one_line(case, weights_file):
    args, weights_n = LONG_RUNS[case]
    backend = args[3]
    if not info(backend).available:
        pytest.skip(f"{backend} not installed")
    extra = _weights(weights_n, weights_file) if weights_n else []
    code, out, err = signal_after(start_queens(*args, *extra))
    assert (code, err) == (130, "queens: interrupted\n"), err
    if args[0] == "optimize" and "--problem" in args:  # the best answer, or "interrupted"
        assert out.startswith("domination n=14: feasible") or out.startswith(
            "domination n=14: interrupted"
        ), out
    elif args[0] == "count":
        assert counted_so_far(out) >= 0
    else:
        assert out == ""


def counted_so_far(out: str) -> int:
    """The lower bound an interrupted count prints in place of its total."""
    found = re.fullmatch(r"at least (\d+)\n", out)
    assert found, out
    return int(found[1])


@pytest.fixture
def scheduler(tmp_path):
    """A Dask scheduler on 127.0.0.1 (no workers): its address and its process."""
    pytest.importorskip("distributed")
    address_file = tmp_path / "scheduler.json"
    process = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", "0", "--no-dashboard", "--scheduler-file", str(address_file)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        for _ in range(300):
            if address_file.exists() and address_file.stat().st_size:
                break
            time.sleep(0.1)
        yield json.loads(address_file.read_text())["address"], process
    finally:
        process.kill()
        process.wait()


def test_a_scheduler_without_workers_honours_the_time_limit(scheduler):
    address, _ = scheduler
    argv = ["count", "12", "-b", "bitmask", "--scheduler", address, "--time-limit", "1"]
    code, _, err = finish(start_queens(*argv))
    assert code == 3, err
    assert len(err.splitlines()) == 1, err


def test_a_killed_scheduler_is_one_line(scheduler, tmp_path):
    address, scheduler_process = scheduler
    worker = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
         "--no-dashboard"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    try:
        process = start_queens("count", "19", "-b", "bitmask", "--scheduler", address)
        _wait_for_tasks(address, process)
        scheduler_process.kill()
        _, _, err = finish(process)
    finally:
        worker.kill()
        worker.wait()
    assert process.returncode not in (0, None), err
    assert len(err.splitlines()) == 1 and "lost the Dask scheduler" in err, err


def _wait_for_tasks(address: str, process: subprocess.Popen[str]) -> None:
    """Until the scheduler's workers run the count's tasks (a fixed sleep killed the
    scheduler before the count had reached it, at load 10), the count still going."""
    from distributed import Client

    patience = time.monotonic() + HANG
    with Client(address, timeout=HANG) as observer:
        while not any(observer.processing().values()):
            assert process.poll() is None, "the count ended before the scheduler was killed"
            assert time.monotonic() < patience, "the count sent no task to the scheduler"
            time.sleep(0.1)


#: Counts that take well over the few seconds before the interrupt.
LONG_COUNTS = {"bitmask": "18", "cpsat": "16", "sat": "16", "milp": "14"}


@pytest.mark.parametrize(("backend", "n"), LONG_COUNTS.items())
def test_ctrl_c_stops_a_count_cleanly(backend, n):
    """It keeps what it counted: a lower bound, never taken for the total."""
    process = start_queens("count", n, "--backend", backend)
    code, out, err = signal_after(process)
    assert (code, err) == (130, "queens: interrupted\n"), err
    assert counted_so_far(out) >= 0


@pytest.mark.parametrize(
    "argv",
    [
        ["count", "8", "-b", "bitmask"],
        [
            "hardness-study",
            "--kind",
            "blocked",
            "--n",
            "8",
            "--densities",
            "0.1",
            "-b",
            "backtrack",
        ],
    ],
    ids=["count", "hardness-study"],
)
def test_a_scheduler_nobody_listens_for_is_refused_at_once(argv):
    """Port 9 refuses the connection at once, yet the command waited Dask's 10 s connect
    timeout before its one line: the next test shows that no Dask client is asked."""
    pytest.importorskip("distributed")
    run = subprocess.run(
        [*queens_command(), *argv, "--scheduler", "tcp://127.0.0.1:9"],
        capture_output=True,
        text=True,
        timeout=HANG,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert run.returncode == 2, run.stderr
    assert run.stderr.count("\n") == 1 and "cannot reach the Dask scheduler" in run.stderr


def test_a_refused_connection_is_answered_without_dasks_client(monkeypatch):
    """Dask's client retries a refused connection for its whole timeout; a plain socket
    hears the refusal at once (no duration asserted: the client is never made)."""
    distributed = pytest.importorskip("distributed")

    def client(*_, **__):
        pytest.fail("Dask's client was asked to connect to a refusing port")

    monkeypatch.setattr(distributed, "Client", client)
    with pytest.raises(UsageError, match="cannot reach the Dask scheduler"):
        connect("tcp://127.0.0.1:9")


@pytest.mark.parametrize(
    "args",
    [["count", "15"], ["enumerate", "16", "--output", "all.jsonl"]],
    ids=["count", "enumerate"],
)
def test_ctrl_c_inside_a_python_sat_solve_is_one_line(args, tmp_path):
    """With one worker the solver runs in the main process, where python-sat catches
    SIGINT itself and raised "Caught keyboard interrupt" (a traceback, exit 1)."""
    argv = [arg.replace("all.jsonl", str(tmp_path / "all.jsonl")) for arg in args]
    process = start_queens(*argv, "-b", "sat", "--workers", "1")
    code, out, err = signal_after(process)
    assert (code, err) == (130, "queens: interrupted\n"), err
    assert counted_so_far(out) >= 0 if args[0] == "count" else out == ""
    assert list(tmp_path.iterdir()) == []


def test_a_worker_process_dies_at_sigterm_whatever_thread_takes_it():
    """A worker kept the command's Python handler for SIGTERM, which only its main thread
    runs: delivered to its queue's feeder thread, the signal left it asleep in a full
    queue, and the parent's join hung (SIGTERM to `queens enumerate 14 -b sat`)."""
    saved = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM)}
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    try:
        signal.signal(signal.SIGTERM, lambda *_: None)  # as the command's handler
        leave_sigint_to_parent()
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
        # blocked too: python-sat puts its own handler in place for each solve
        assert signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)  # else every later child inherits it


def test_sigterm_ends_an_enumeration_in_worker_processes(tmp_path):
    output = tmp_path / "all.jsonl"
    process = start_queens("enumerate", "14", "-b", "sat", "--output", str(output))
    ended = signal_after(process, signum=signal.SIGTERM)
    assert ended == (143, "", "queens: terminated\n")
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_inside_thread_start_leaves_no_work_running(monkeypatch):
    """A signal inside Thread.start() (which waits for the new thread) escaped before the
    main thread watched the work: the command printed its last line while the solve still
    ran, inside Pyomo's capture of stderr, and the line was lost (enumerate 12 -b milp)."""
    import threading

    from queenslab.runtime.stop import run_stoppably

    start = threading.Thread.start

    def start_then_interrupt(thread: threading.Thread) -> None:
        start(thread)
        raise KeyboardInterrupt

    began, ended = threading.Event(), threading.Event()

    def work() -> None:
        began.set()
        time.sleep(0.2)
        ended.set()

    monkeypatch.setattr(threading.Thread, "start", start_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        run_stoppably(work, lambda: None, lambda: False)
    assert ended.is_set() or not began.wait(0.5)  # finished first, or never ran
