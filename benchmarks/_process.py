"""Time one whole process and read its peak memory (shared by the start-up benchmarks)."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
    # and run this checkout's queenslab whatever ``root`` names
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONSAFEPATH": "1"}
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
