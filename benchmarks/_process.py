"""What the benchmark scripts share: one whole process timed with its peak memory, the
machine, and ``--smoke``, the smallest run of a script, with which the test suite checks
that every script still runs against today's API (tests/integration/test_benchmarks.py)."""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, NoReturn

ROOT = Path(__file__).resolve().parent.parent
#: The exit code of a script that cannot run here (no GPU, no C compiler): the tests skip it.
SKIPPED = 77


def parse_args(
    parser: argparse.ArgumentParser, smallest: dict[str, Any], argv: list[str] | None = None
) -> argparse.Namespace:
    """The command line, with ``--smoke`` giving the options the ``smallest`` values (the
    options named on the command line still win): a script that no longer runs against
    the package shows in the tests, without their time going to a real measurement."""
    parser.add_argument("--smoke", action="store_true", help="the smallest run (the tests')")
    args = parser.parse_args(argv)
    if args.smoke:
        parser.set_defaults(**smallest)
        args = parser.parse_args(argv)
    return args


def skip(reason: str) -> NoReturn:
    """End a script that cannot run on this machine, saying why (exit ``SKIPPED``)."""
    print(f"skipped: {reason}", file=sys.stderr)
    raise SystemExit(SKIPPED)


def needs(program: str, purpose: str) -> str:
    """The path of ``program``, else the script is skipped: no ``program`` for ``purpose``."""
    found = shutil.which(program)
    return found if found else skip(f"no {program} {purpose}")


def queens_command() -> list[str]:
    return [sys.executable, "-m", "queenslab"]


def measure(
    argv: list[str], cwd: Path | None = None, root: Path = ROOT, ok: tuple[int, ...] = (0,)
) -> tuple[float, float]:
    """(wall seconds, peak RSS in MB) of one run of ``argv`` with the queenslab of
    ``root`` (this checkout by default); raises if it exits with a code not in ``ok``
    (``queens decide`` says no with exit 1).

    The command may write Python bytecode caches, as an installed package has them
    (PYTHONDONTWRITEBYTECODE would make every run compile queenslab's sources again).
    """
    # PYTHONSAFEPATH: ``python -m`` would put the working directory first on the path,
    # and run this checkout's queenslab whatever ``root`` names; a script of this folder
    # run as a child (a baseline) still finds its siblings
    path = os.pathsep.join([str(root), str(Path(__file__).parent)])
    env = {**os.environ, "PYTHONPATH": path, "PYTHONSAFEPATH": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    process = subprocess.Popen(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in ok:
        raise SystemExit(f"{' '.join(argv)} failed: {process.stderr.read().decode()}")
    process.stderr.close()
    return wall, usage.ru_maxrss / 1024  # Linux reports KB


def machine() -> str:
    """The machine the figures belong to, for the report."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if "model name" in line)
    except (OSError, StopIteration):
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (
        f"{platform.node()}: {cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load average {load:.2f}"
    )
