"""min-conflicts on huge boards against two C baselines: search time, whole process, peak RSS.

Builds benchmarks/c/qs4.c (QS4, Sosic & Gu 1994) and benchmarks/c/nqc.c (in the manner
of FrozenVoid's NQ.c) with ``gcc -O2`` into benchmarks/bin/, then for each n runs, in turn
and ``--repeat`` times, the two C programs and ``queens solve N --backend min-conflicts
--seed S --format npy --output F -v``, and prints medians and ratios to QS4:
- search: the C programs' own clock around their search; queens' ``solved in`` seconds
  (the backend's search, start-up and writing excluded);
- process: wall seconds of the whole process (the C programs write raw int32 columns);
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

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = ("qs4", "nqc")


def build(name: str) -> Path:
    source, binary = ROOT / "benchmarks" / "c" / f"{name}.c", ROOT / "benchmarks" / "bin" / name
    if not binary.exists() or binary.stat().st_mtime < source.stat().st_mtime:
        binary.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["gcc", "-O2", "-o", str(binary), str(source)], check=True)
    return binary


def measured(argv: list[str]) -> tuple[float, float, str]:
    """Wall seconds, peak RSS in MB and stdout + stderr of one run.

    The peak comes from GNU time: a child forked from this Python process would report
    Python's own RSS as its peak when that is larger.
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.NamedTemporaryFile("r") as peak:
        timed = ["/usr/bin/time", "-f", "%M", "-o", peak.name, *argv]
        start = time.perf_counter()
        done = subprocess.run(timed, capture_output=True, text=True, env=env)
        wall = time.perf_counter() - start
        rss_kb = int(peak.read().split()[-1])
    if done.returncode:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr}")
    return wall, rss_kb / 1024, done.stdout + done.stderr


def check_raw(path: Path, n: int) -> None:
    cols = np.fromfile(path, dtype=np.int32).astype(np.int64)
    rows = np.arange(n)
    for key in (cols, rows + cols, rows - cols + n):
        if cols.size != n or np.bincount(key).max() != 1:
            raise SystemExit(f"{path.name}: not a solution for n={n}")


def run_c(name: str, n: int, seed: int, out: Path) -> tuple[float, float, float]:
    wall, rss, text = measured([str(build(name)), str(n), str(seed), str(out)])
    check_raw(out, n)
    return float(text.split()[1]), wall, rss


def run_queens(n: int, seed: int, out: Path) -> tuple[float, float, float]:
    argv = [sys.executable, "-m", "queenslab", "solve", str(n), "--backend", "min-conflicts"]
    argv += ["--seed", str(seed), "--format", "npy", "--output", str(out), "-v"]
    wall, rss, text = measured(argv)
    found = re.search(r"solved in ([0-9.]+) s", text)
    if not found:
        raise SystemExit(f"queens did not solve n={n}:\n{text}")
    return float(found.group(1)), wall, rss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[10**6, 10**7])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--nqc-up-to", type=int, default=10**7, help="largest n for nqc")
    args = parser.parse_args()
    print("medians of", args.repeat, "runs, interleaved; search s / process s / peak MB\n")
    print(f"{'n':>10} {'program':>9} {'search':>8} {'process':>8} {'peak MB':>8}", end="")
    print(f" {'search/QS4':>10} {'process/QS4':>11} {'peak/QS4':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.n:
            runs: dict[str, list[tuple[float, float, float]]] = {}
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
            for name, (search, process, peak) in medians.items():
                print(f"{n:>10} {name:>9} {search:>8.3f} {process:>8.3f} {peak:>8.0f}", end="")
                ratios = (search / base[0], process / base[1], peak / base[2])
                print(" {:>10.2f} {:>11.2f} {:>8.2f}".format(*ratios))


if __name__ == "__main__":
    main()
