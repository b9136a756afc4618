"""`queens count N` (whole process, default workers) against a one-thread C mirror counter.

Compiles benchmarks/c/mirror.c with ``gcc -O3 -march=native`` into benchmarks/bin/, then
for each N runs both programs alternately ``--repeat`` times and prints the medians and
their ratio. A second table compares the search itself per core: the bitmask kernel on
one thread, on the C program's own mirror split and on the full-symmetry split, in nodes
and nodes per second against the C loop.

    PYTHONPATH=. python benchmarks/count_vs_c.py --n 14 15 16 17 --per-core-n 14 15 16 --repeat 3
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

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "benchmarks" / "c" / "mirror.c"
BINARY = ROOT / "benchmarks" / "bin" / "mirror"


def build() -> Path:
    if not BINARY.exists() or BINARY.stat().st_mtime < SOURCE.stat().st_mtime:
        BINARY.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["gcc", "-O3", "-march=native", "-o", str(BINARY), str(SOURCE)], check=True)
    return BINARY


def queens_command() -> list[str]:
    script = Path(sys.executable).parent / "queens"
    return [str(script)] if script.exists() else [sys.executable, "-m", "queenslab"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(argv: list[str]) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds (all threads) and stdout of one run of a command."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cpu, start = _children_cpu(), time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=True, env=env)
    return time.perf_counter() - start, _children_cpu() - cpu, done.stdout


def whole_process(sizes: list[int], repeat: int) -> None:
    c_program = str(build())
    print("## queens count N (whole process, default workers) vs one-thread C mirror\n")
    print("medians; CPU = user + sys of all threads, which load from other programs disturbs less")
    print(f"{'N':>3} {'C wall s':>9} {'queens wall s':>14} {'ratio':>7}", end="")
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
        print(
            f"{n:>3} {c_wall:>9.3f} {q_wall:>14.3f} {q_wall / c_wall:>7.3f}"
            f" {c_cpu:>8.3f} {q_cpu:>13.3f}"
        )


def per_core(sizes: list[int], repeat: int) -> None:
    from queenslab.exact import parallel, subproblems

    def run(plan: subproblems.Subproblems) -> tuple[float, int]:
        start = time.thread_time()
        rows = parallel.count_part(plan)
        return time.thread_time() - start, int(rows[:, 2].sum())

    run(subproblems.symmetric(8))  # load the compiled kernels before timing
    c_program = str(build())
    print("\n## one core, CPU seconds: kernel (mirror split, full symmetry) vs the C mirror loop\n")
    print(
        f"{'N':>3} {'C Mnodes/s':>11} {'kernel mirror':>14} {'rate ratio':>11}"
        f" {'sym nodes/C':>12} {'C s':>7} {'mirror s':>9} {'sym s':>7} {'mirror/C':>9}"
    )
    for n in sizes:
        measured: dict[str, list[float]] = {"c": [], "mirror": [], "symmetric": []}
        nodes: dict[str, int] = {}
        for _ in range(repeat):
            _, seconds, out = timed([c_program, str(n)])
            measured["c"].append(seconds)
            nodes["c"] = int(out.split()[2])
            for name in ("mirror", "symmetric"):
                seconds, nodes[name] = run(getattr(subproblems, name)(n))
                measured[name].append(seconds)
        c, mirror, symmetric = (statistics.median(measured[k]) for k in measured)
        c_rate, mirror_rate = nodes["c"] / c / 1e6, nodes["mirror"] / mirror / 1e6
        print(
            f"{n:>3} {c_rate:>11.1f} {mirror_rate:>14.1f} {c_rate / mirror_rate:>11.3f}"
            f" {nodes['symmetric'] / nodes['c']:>12.3f} {c:>7.3f} {mirror:>9.3f} {symmetric:>7.3f}"
            f" {mirror / c:>9.3f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[14, 15, 16, 17])
    parser.add_argument("--per-core-n", type=int, nargs="*", default=[14, 15, 16])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    whole_process(args.n, args.repeat)
    per_core(args.per_core_n, args.repeat)


if __name__ == "__main__":
    main()
