"""Shared test settings: the tiers, ``--backend``, Hypothesis profiles, kernels warmed once.

Tests live in four tiers, one folder each, and carry its marker: ``unit`` (in-process,
fast), ``harness`` (every backend on every variant against tests/oracle.py), ``cli`` (the
real command in a subprocess) and ``integration`` (signals, external programs, the site,
notebooks, installed plug-ins). ``-m unit`` runs one tier; ``--backend NAME`` (repeatable)
runs the tests parametrized by backend for those backends only, e.g. the harness of one
backend while writing it. Tests marked ``slow`` run only when ``-m`` names them
(``-m slow``, ``-m "unit and slow"``) or names ``gpu``.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, max_examples=25, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "ci",
    deadline=None,
    max_examples=25,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
settings.load_profile("ci" if os.environ.get("CI") else "default")

ROOT = Path(__file__).resolve().parent.parent
TIERS = ("unit", "harness", "cli", "integration")
#: The parameter names under which tests receive a backend's name.
BACKEND_PARAMETERS = ("name", "backend")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--backend",
        action="append",
        default=[],
        metavar="NAME",
        help="run the tests parametrized by backend for this backend only (repeatable)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Compile or load every Numba kernel once, before any test or subprocess needs one:
    later processes load them from the cache instead of compiling the same code at once."""
    if (
        config.option.collectonly
        or hasattr(config, "workerinput")  # a worker of pytest-xdist: the controller warmed
        or os.environ.get("QUEENSLAB_TEST_NO_WARMUP")
    ):
        return
    subprocess.run(
        [sys.executable, "-c", WARM_UP],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=True,
        timeout=900,
    )


WARM_UP = """
from queenslab import registry
from queenslab.core.backend import Family
for name in registry.names():
    cls = registry.backend_class(name)
    if cls.family is not Family.MODEL and "numba" in cls.requires:
        cls().load()
"""


#: Backends whose every answer is a member's (the portfolio races them): their own unit tests
#: (tests/unit/test_portfolio.py) check them against brute force in the default suite.
RACERS = {"portfolio"}


def harness_marks(name: str, variant: str) -> tuple[pytest.MarkDecorator, ...]:
    """The marks of a harness case (every backend, kind and model against brute force): an
    unavailable backend is shown as skipped, never dropped; the default suite checks the
    standard board, and the other variants and the racers are slow tests (CI runs both):
    these were half of the harness tier's time."""
    from queenslab.registry import info

    details = info(name)
    unavailable = pytest.mark.skipif(
        not details.available, reason=f"{name}: {details.why_unavailable}"
    )
    slow = variant != "standard" or name in RACERS
    return (unavailable, pytest.mark.slow) if slow else (unavailable,)


def asks_for_slow_tests(config: pytest.Config) -> bool:
    """Whether the ``-m`` expression names ``slow`` or ``gpu``: otherwise the slow tests
    are left out, so ``-m unit`` is the fast unit tier (a ``-m`` in ``addopts`` would be
    replaced by the command line's). A gpu run, on a machine with one, is its full check."""
    return bool(re.search(r"\b(slow|gpu)\b", config.option.markexpr or ""))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    wanted = set(config.getoption("--backend"))
    with_slow = asks_for_slow_tests(config)
    kept, dropped = [], []
    for item in items:
        tier = Path(str(item.fspath)).parent.name
        if tier in TIERS:
            item.add_marker(getattr(pytest.mark, tier))
        params = getattr(getattr(item, "callspec", None), "params", {})
        backend = next((params[p] for p in BACKEND_PARAMETERS if p in params), None)
        other_backend = bool(wanted) and isinstance(backend, str) and backend not in wanted
        unasked_slow = not with_slow and item.get_closest_marker("slow") is not None
        (dropped if other_backend or unasked_slow else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def queens_command() -> list[str]:
    """The installed `queens` console script beside this Python, else `python -m queenslab`."""
    script = Path(sys.executable).parent / "queens"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "queenslab"]


def start_queens(*argv: str, **env: str) -> subprocess.Popen[str]:
    """The real command in a session of its own, SIGINT at its default (as from a
    terminal), so a test can press Ctrl-C with ``os.killpg``; ``env`` adds variables."""
    return subprocess.Popen(
        [*queens_command(), *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


#: Seconds a run may take to end after a test has no more to wait for: far above any
#: run's own limit plus start-up at load 10 on two cores, so only a hang reaches it.
HANG = 300


def finish(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    """A ``start_queens`` run's (exit code, stdout, stderr); one still going ``HANG``
    seconds later is killed with its group (the test fails)."""
    try:
        out, err = process.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise
    return process.returncode, out, err


def cpu_seconds(group: int) -> float:
    """CPU time the processes of process group ``group`` have used so far, the children
    they have waited for included (Linux: /proc/PID/stat)."""
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()  # from field 3, state, on
        except OSError:  # the process has ended meanwhile
            continue
        if int(fields[2]) == group:
            ticks += sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
    return ticks / os.sysconf("SC_CLK_TCK")


#: CPU seconds a run has used when a test signals it: past its start-up (under 0.7 s of CPU
#: for every command, the kernels loaded from the cache) and into its work.
INTO_THE_WORK = 1.5


def signal_after(
    process: subprocess.Popen[str], seconds: float = INTO_THE_WORK, signum: int = signal.SIGINT
) -> tuple[int, str, str]:
    """Send ``signum`` (Ctrl-C by default) to a ``start_queens`` run's group once it has
    used ``seconds`` of CPU time, the run still going: then ``finish`` it.

    CPU time, not a wall-clock sleep: at load 10 a run gets a fifth of a core, and a
    signal after a few seconds of wall time caught it still starting up."""
    patience = time.monotonic() + HANG
    while cpu_seconds(process.pid) < seconds:
        assert process.poll() is None, "the run ended before the signal"
        assert time.monotonic() < patience, f"the run used no {seconds} s of CPU in {HANG} s"
        time.sleep(0.05)
    assert process.poll() is None, "the run ended before the signal"
    os.killpg(process.pid, signum)
    return finish(process)


def on_terminal(*argv: str, **env: str) -> tuple[int, str]:
    """The real command with stdout and stderr on one 80-column terminal, as a user sees
    it: (exit code, everything the terminal received); ``env`` adds variables."""
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    process = subprocess.Popen(
        [*queens_command(), *argv],
        stdin=subprocess.DEVNULL,
        stdout=terminal,
        stderr=terminal,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
    )
    os.close(terminal)
    received = b""
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # EIO: every writer has closed the terminal
            break
        if not chunk:
            break
        received += chunk
    os.close(controller)
    return process.wait(timeout=HANG), received.decode("utf-8", "replace")


@pytest.fixture
def queens():
    """Run the real command in a subprocess: ``queens("solve", "8")`` -> CompletedProcess."""

    def run(*argv: str, input: str | None = None, timeout: float = HANG):
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        return subprocess.run(
            [*queens_command(), *argv],
            capture_output=True,
            text=True,
            input=input,
            timeout=timeout,
            env=env,
        )

    return run


@pytest.fixture
def dask_scheduler() -> Iterator[str]:
    """The address of a Dask cluster of two one-thread workers in this process, on
    127.0.0.1 without a dashboard, shut down after the test."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        yield cluster.scheduler_address
