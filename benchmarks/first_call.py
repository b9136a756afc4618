"""First and second call of each backend in one process: what `seconds` and
`startup_seconds` report.

`seconds` is the search alone (plus model building); importing a solver package and loading
compiled kernels is `startup_seconds`, paid once per process by the first call. Each
backend runs in a fresh interpreter so its first call is a true first call.

    PYTHONPATH=. python benchmarks/first_call.py
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from _process import ROOT, machine, parse_args

CASES = [
    ("solve", 8, "small"), ("solve", 8, "bitmask"), ("count", 10, "bitmask"),
    ("count", 8, "backtrack"), ("count", 6, "cpsat"), ("count", 6, "sat"),
    ("count", 6, "milp"), ("count", 6, "sharpsat"), ("solve", 1000, "min-conflicts"),
]  # fmt: skip

PROBE = """
import json, sys, queenslab as ql
task, n, backend = sys.argv[1], int(sys.argv[2]), sys.argv[3]
call = ql.solve if task == "solve" else ql.count
runs = [call(n, backend) for _ in range(2)]
print(json.dumps([[r.seconds, r.stats.get("startup_seconds", 0.0)] for r in runs]))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    backends = sorted({backend for _, _, backend in CASES})
    parser.add_argument("--backends", nargs="+", choices=backends, default=backends)
    args = parse_args(parser, {"backends": ["small", "min-conflicts"]})
    print(machine())
    print(f"{'call':<28} {'1st seconds':>12} {'1st startup':>12} {'2nd seconds':>12} "
          f"{'2nd startup':>12}")  # fmt: skip
    for task, n, backend in CASES:
        if backend not in args.backends:
            continue
        done = subprocess.run(
            [sys.executable, "-c", PROBE, task, str(n), backend],
            capture_output=True, text=True, cwd=ROOT, check=True,
        )  # fmt: skip
        (first, first_startup), (second, second_startup) = json.loads(done.stdout)
        print(f"{task} {n} -b {backend:<16} {first:>12.4f} {first_startup:>12.4f} "
              f"{second:>12.4f} {second_startup:>12.4f}")  # fmt: skip


if __name__ == "__main__":
    main()
