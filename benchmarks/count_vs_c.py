"""`queens count N` against a one-thread C counter with the mirror symmetry (Somers' method).

Compiles benchmarks/c/mirror.c with ``gcc -O3 -march=native`` into benchmarks/bin/, then
for each N runs the programs alternately ``--repeat`` times and prints medians and ratios:
- whole process, default workers: wall seconds of ``queens count N`` against the C program;
- per core: CPU seconds of ``queens count N --workers 1`` (whole process, start-up
  included) and of the constellation kernels alone (one thread, in this process) against
  the C program's, with nodes visited and nodes per second of each.

    PYTHONPATH=. python benchmarks/count_vs_c.py --n 14 15 16 --per-core-n 12 13 14 15 16 17
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _process import needs, parse_args

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "benchmarks" / "c" / "mirror.c"
BINARY = ROOT / "benchmarks" / "bin" / "mirror"


def build() -> Path:
    if not BINARY.exists() or BINARY.stat().st_mtime < SOURCE.stat().st_mtime:
        BINARY.parent.mkdir(parents=True, exist_ok=True)
        gcc = needs("gcc", "to build the C baseline")
        subprocess.run([gcc, "-O3", "-march=native", "-o", str(BINARY), str(SOURCE)], check=True)
    return BINARY


def queens_command() -> list[str]:
    script = Path(sys.executable).parent / "queens"
    return [str(script)] if script.exists() else [sys.executable, "-m", "queenslab"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(argv: list[str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (all threads) and stdout of one run of a command.

    The command may write Python bytecode caches, as an installed package has them
    (PYTHONDONTWRITEBYTECODE would make every run compile queenslab's sources again).
    """
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cpu, start = _children_cpu(), time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=True, env=env)
    return time.perf_counter() - start, _children_cpu() - cpu, done.stdout


def whole_process(sizes: list[int], repeat: int) -> None:
    c_program = str(build())
    print("## queens count N (whole process, default workers) vs one-thread C mirror\n")
    print("medians; CPU = user + sys of all threads, which load from other programs disturbs less")
    print(f"{'N':>3} {'C wall s':>9} {'queens wall s':>14} {'ratio':>7} {'paired':>7}", end="")
    print(f" {'C cpu s':>8} {'queens cpu s':>13}")
    for n in sizes:
        runs: dict[str, list[tuple[float, float]]] = {"c": [], "queens": []}
        for _ in range(repeat):
            wall, cpu, out = timed([c_program, str(n)])
            runs["c"].append((wall, cpu))
            c_total = int(out.split()[1])
            wall, cpu, out = timed([*queens_command(), "count", str(n), "--backend", "bitmask"])
            runs["queens"].append((wall, cpu))
            if int(out.split()[-1]) != c_total:
                raise SystemExit(f"n={n}: queens says {out.strip()}, C says {c_total}")
        (c_wall, c_cpu), (q_wall, q_cpu) = (
            [statistics.median(column) for column in zip(*runs[k], strict=True)] for k in runs
        )
        paired = _paired([w for w, _ in runs["queens"]], [w for w, _ in runs["c"]])
        print(
            f"{n:>3} {c_wall:>9.3f} {q_wall:>14.3f} {q_wall / c_wall:>7.3f} {paired:>7.3f}"
            f" {c_cpu:>8.3f} {q_cpu:>13.3f}"
        )


def _paired(ours: list[float], baseline: list[float]) -> float:
    """The median of the ratios run by run: robust to the machine's speed drifting between
    repeats, which moves both runs of a pair alike."""
    return statistics.median(a / b for a, b in zip(ours, baseline, strict=True))


def _kernel(n: int) -> tuple[float, int]:
    """CPU seconds and nodes of counting every constellation of n on this thread."""
    from queenslab.exact import constellations, parallel

    plan = constellations.plan(n)
    start = time.thread_time()
    rows = parallel.count_part(plan)
    return time.thread_time() - start, int(rows[:, 2].sum())


def per_core(sizes: list[int], repeat: int) -> None:
    _kernel(8)  # load the compiled kernels before timing
    c_program = str(build())
    print("\n## one core, CPU seconds: queens count N --workers 1 vs the C mirror counter\n")
    print("medians; 'process' includes start-up, 'kernel' is the constellation search alone;")
    print("'paired': the median of the per-repeat ratios")
    print(
        f"{'N':>3} {'C s':>8} {'process s':>10} {'ratio':>6} {'paired':>6} {'kernel s':>9}"
        f" {'ratio':>6} {'paired':>6}"
        f" {'C nodes':>13} {'nodes':>12} {'ratio':>6} {'C Mn/s':>7} {'Mn/s':>6}"
    )
    for n in sizes:
        measured: dict[str, list[float]] = {"c": [], "process": [], "kernel": []}
        nodes: dict[str, int] = {}
        for _ in range(repeat):
            _, seconds, out = timed([c_program, str(n)])
            measured["c"].append(seconds)
            c_total, nodes["c"] = (int(x) for x in out.split()[1:3])
            argv = [*queens_command(), "count", str(n), "-b", "bitmask", "--workers", "1"]
            _, seconds, out = timed(argv)
            measured["process"].append(seconds)
            if int(out.split()[-1]) != c_total:
                raise SystemExit(f"n={n}: queens says {out.strip()}, C says {c_total}")
            seconds, nodes["ours"] = _kernel(n)
            measured["kernel"].append(seconds)
        c, process, kernel = (statistics.median(measured[k]) for k in measured)
        process_paired, kernel_paired = (
            _paired(measured[k], measured["c"]) for k in ("process", "kernel")
        )
        print(
            f"{n:>3} {c:>8.3f} {process:>10.3f} {process / c:>6.3f} {process_paired:>6.3f}"
            f" {kernel:>9.3f} {kernel / c:>6.3f} {kernel_paired:>6.3f}"
            f" {nodes['c']:>13} {nodes['ours']:>12}"
            f" {nodes['ours'] / nodes['c']:>6.3f} {nodes['c'] / c / 1e6:>7.0f}"
            f" {nodes['ours'] / kernel / 1e6:>6.0f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="*", default=[14, 15, 16])
    parser.add_argument("--per-core-n", type=int, nargs="*", default=[12, 13, 14, 15, 16, 17])
    parser.add_argument("--repeat", type=int, default=3)
    args = parse_args(parser, {"n": [8], "per_core_n": [8], "repeat": 1})
    timed([*queens_command(), "count", "8", "-b", "bitmask"])  # caches written before timing
    whole_process(args.n, args.repeat)
    per_core(args.per_core_n, args.repeat)


if __name__ == "__main__":
    main()
