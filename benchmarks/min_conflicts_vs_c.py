"""min-conflicts on huge boards against two C baselines: search time, whole process, peak RSS.

Builds benchmarks/c/qs4.c (QS4, Sosic & Gu 1994) and benchmarks/c/nqc.c (in the manner
of FrozenVoid's NQ.c) with ``gcc -O2`` into benchmarks/bin/, then for each n runs, in turn
and ``--repeat`` times, the two C programs and ``queens solve N --backend min-conflicts
--seed S --format npy --output F -v``, and prints medians and ratios to QS4:
- search: the C programs' own clock around their search; queens' ``solved in`` seconds
  (the backend's search, start-up and writing excluded);
- process: wall seconds of the whole process (the C programs write raw int32 columns),
  and its CPU seconds (user + sys), which load from other programs disturbs less;
- peak RSS of each process (GNU time's maximum resident set size).
Every answer is checked (the C output with NumPy, queens' own by its validation).

    PYTHONPATH=. python benchmarks/min_conflicts_vs_c.py --n 1000000 10000000 --repeat 3
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from _process import needs, parse_args

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ("qs4", "nqc")


def build(name: str) -> Path:
    source, binary = ROOT / "benchmarks" / "c" / f"{name}.c", ROOT / "benchmarks" / "bin" / name
    if not binary.exists() or binary.stat().st_mtime < source.stat().st_mtime:
        binary.parent.mkdir(parents=True, exist_ok=True)
        gcc = needs("gcc", "to build the C baselines")
        subprocess.run([gcc, "-O2", "-o", str(binary), str(source)], check=True)
    return binary


def measured(argv: list[str]) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds (user + sys), peak RSS in MB and stdout + stderr of a run.

    The peak comes from GNU time: a child forked from this Python process would report
    Python's own RSS as its peak when that is larger.
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.NamedTemporaryFile("r") as peak:
        gnu_time = needs("time", "(GNU) to read the peak memory")
        timed = [gnu_time, "-f", "%U %S %M", "-o", peak.name, *argv]
        start = time.perf_counter()
        done = subprocess.run(timed, capture_output=True, text=True, env=env)
        wall = time.perf_counter() - start
        user, system, rss_kb = peak.read().split()[-3:]
    if done.returncode:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr}")
    return wall, float(user) + float(system), int(rss_kb) / 1024, done.stdout + done.stderr


def check_raw(path: Path, n: int) -> None:
    cols = np.fromfile(path, dtype=np.int32).astype(np.int64)
    rows = np.arange(n)
    for key in (cols, rows + cols, rows - cols + n):
        if cols.size != n or np.bincount(key).max() != 1:
            raise SystemExit(f"{path.name}: not a solution for n={n}")


def run_c(name: str, n: int, seed: int, out: Path) -> tuple[float, ...]:
    wall, cpu, rss, text = measured([str(build(name)), str(n), str(seed), str(out)])
    check_raw(out, n)
    return float(text.split()[1]), wall, cpu, rss


def run_queens(n: int, seed: int, out: Path) -> tuple[float, ...]:
    argv = [sys.executable, "-m", "queenslab", "solve", str(n), "--backend", "min-conflicts"]
    argv += ["--seed", str(seed), "--format", "npy", "--output", str(out), "-v"]
    wall, cpu, rss, text = measured(argv)
    found = re.search(r"solved in ([0-9.]+) s", text)
    if not found:
        raise SystemExit(f"queens did not solve n={n}:\n{text}")
    return float(found.group(1)), wall, cpu, rss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[10**6, 10**7])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--nqc-up-to", type=int, default=10**7, help="largest n for nqc")
    args = parse_args(parser, {"n": [1000], "repeat": 1})
    print(f"medians of {args.repeat} interleaved runs; process = wall seconds of the whole")
    print("process, cpu = its user + sys seconds (less disturbed by other load)\n")
    print(f"{'n':>10} {'program':>8} {'search':>8} {'process':>8} {'cpu':>7}", end="")
    print(f" {'peak MB':>8} {'search/QS4':>10} {'process/QS4':>11} {'cpu/QS4':>7} {'peak/QS4':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.n:
            runs: dict[str, list[tuple[float, ...]]] = {}
            for rep in range(args.repeat):
                seed = rep + 1
                for name in PROGRAMS:
                    if name != "nqc" or n <= args.nqc_up_to:
                        runs.setdefault(name, []).append(run_c(name, n, seed, Path(tmp) / name))
                queens = run_queens(n, seed, Path(tmp) / "queens.npy")
                runs.setdefault("queens", []).append(queens)
            medians = {
                name: [statistics.median(column) for column in zip(*rows, strict=True)]
                for name, rows in runs.items()
            }
            base = medians["qs4"]
            for name, (search, process, cpu, peak) in medians.items():
                print(f"{n:>10} {name:>8} {search:>8.3f} {process:>8.3f} {cpu:>7.3f}", end="")
                pairs = zip(medians[name], base, strict=True)
                ratios = [value / qs4 if qs4 else float("nan") for value, qs4 in pairs]
                print(f" {peak:>8.0f} {ratios[0]:>10.2f} {ratios[1]:>11.2f}", end="")
                print(f" {ratios[2]:>7.2f} {ratios[3]:>8.2f}")


if __name__ == "__main__":
    main()
