"""`queens enumerate N --backend sat` (cubes and symmetry) against the textbook AllSAT loop.

Each side is a whole process writing every solution as a JSON line to /dev/null:
- baseline: one CaDiCaL 1.9.5, pairwise encoding, solve / print the board / block it /
  repeat (``models_count.textbook_sat_boards``);
- queens: ``queens enumerate N --backend sat --format jsonl``;
- cpsat: the same through ``--backend cpsat`` (its row cubes on threads), for comparison;
- reference, when MiniZinc with Gecode is installed: ``queens export N --format mzn`` then
  ``minizinc --solver gecode --all-solutions`` (both timed).
They run alternately ``--repeat`` times; the table shows wall medians and queens/baseline.
The output of queens is checked once: one distinct line per solution.

    PYTHONPATH=. python benchmarks/sat_enumerate.py --n 12 --repeat 5
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from _process import ROOT, machine, measure, parse_args, queens_command
from models_count import textbook_sat_boards


def baseline(n: int) -> None:
    out = sys.stdout
    for board in textbook_sat_boards(n):
        cols = [c for r in range(n) for c in range(n) if board[r * n + c] > 0]
        out.write(json.dumps({"cols": cols}) + "\n")


def enumerate_with(backend: str, n: int) -> float:
    """Wall seconds of ``queens enumerate N --backend B`` writing JSON lines."""
    argv = [*queens_command(), "enumerate", str(n), "--backend", backend, "--format", "jsonl"]
    return measure(argv)[0]


def gecode(n: int, folder: Path) -> Callable[[], float]:
    model = folder / f"queens{n}.mzn"

    def run() -> float:
        start = time.perf_counter()
        measure([*queens_command(), "export", str(n), "--format", "mzn", "-o", str(model)])
        measure(["minizinc", "--solver", "gecode", "--all-solutions", str(model)])
        return time.perf_counter() - start

    return run


def has_gecode() -> bool:
    if shutil.which("minizinc") is None:
        return False
    listed = subprocess.run(["minizinc", "--solvers"], capture_output=True, text=True)
    return "gecode" in listed.stdout.lower()


def distinct_lines(n: int) -> int:
    done = subprocess.run(
        [*queens_command(), "enumerate", str(n), "--backend", "sat", "--format", "jsonl"],
        capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    lines = done.stdout.splitlines()
    if len(lines) != len(set(lines)):
        raise SystemExit(f"queens enumerate {n} repeated a solution")
    return len(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baseline", type=int, help=argparse.SUPPRESS)
    args = parse_args(parser, {"n": 6, "repeat": 1})
    if args.baseline is not None:  # child process: the textbook loop
        baseline(args.baseline)
        return
    n = args.n
    print(f"## queens enumerate {n} --backend sat vs the textbook AllSAT loop, "
          f"wall medians of {args.repeat}\n\n{machine()}\n")  # fmt: skip
    sides: dict[str, Callable[[], float]] = {
        "textbook": lambda: measure([sys.executable, __file__, "--baseline", str(n)])[0],
        "queens": functools.partial(enumerate_with, "sat", n),
        "cpsat": functools.partial(enumerate_with, "cpsat", n),
    }
    with tempfile.TemporaryDirectory() as folder:
        if has_gecode():
            sides["gecode"] = gecode(n, Path(folder))
        else:
            print("MiniZinc with Gecode not installed: no reference column\n")
        times: dict[str, list[float]] = {side: [] for side in sides}
        for _ in range(args.repeat):
            for side, run in sides.items():
                times[side].append(run())
    medians = {side: statistics.median(t) for side, t in times.items()}
    print(" ".join(f"{side:>10}" for side in medians) + f" {'queens/textbook':>16}")
    print(" ".join(f"{m:>9.3f}s" for m in medians.values())
          + f" {medians['queens'] / medians['textbook']:>16.3f}")  # fmt: skip
    print(f"\nqueens output: {distinct_lines(n)} distinct lines")


if __name__ == "__main__":
    main()
