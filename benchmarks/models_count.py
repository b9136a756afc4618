"""`queens count N --backend cpsat|sat` (whole process) against the textbook models.

Baselines, each run as a process of its own so both sides pay for Python and the imports:
- cpsat: one integer variable per row, AllDifferent on q, q+i, q-i, one CP-SAT solve with
  ``enumerate_all_solutions`` and one worker, counting in a solution callback;
- sat: one CaDiCaL 1.9.5, pairwise encoding, one blocking clause (the negated board) per
  model.
Both programs run alternately ``--repeat`` times; the table shows the medians, the ratio of
the whole processes, and the ratio against the baseline's search alone (its model build
and solve, timed inside the baseline process), which is the stricter of the two.

    PYTHONPATH=. python benchmarks/models_count.py --cpsat 11 --sat 12 13 14 --repeat 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from _process import parse_args

ROOT = Path(__file__).resolve().parent.parent


def textbook_cpsat(n: int) -> int:
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    q = [model.new_int_var(0, n - 1, f"q{i}") for i in range(n)]
    model.add_all_different(q)
    model.add_all_different([q[i] + i for i in range(n)])
    model.add_all_different([q[i] - i for i in range(n)])

    class Counter(cp_model.CpSolverSolutionCallback):
        found = 0

        def on_solution_callback(self) -> None:
            self.found += 1

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    counter = Counter()
    solver.solve(model, counter)
    return counter.found


def textbook_sat_boards(n: int) -> Iterator[list[int]]:
    """The textbook AllSAT loop: solve, yield the board, block it, repeat."""
    from pysat.card import CardEnc, EncType
    from pysat.solvers import Solver

    def cell(r: int, c: int) -> int:
        return r * n + c + 1

    clauses = []
    for i in range(n):
        clauses += CardEnc.equals(
            [cell(i, c) for c in range(n)], 1, encoding=EncType.pairwise
        ).clauses
        clauses += CardEnc.equals(
            [cell(r, i) for r in range(n)], 1, encoding=EncType.pairwise
        ).clauses
    for d in range(2 * n - 1):
        for line in (
            [cell(r, d - r) for r in range(n) if 0 <= d - r < n],
            [cell(r, r - d + n - 1) for r in range(n) if 0 <= r - d + n - 1 < n],
        ):
            if len(line) > 1:
                clauses += CardEnc.atmost(line, 1, encoding=EncType.pairwise).clauses
    with Solver(name="cadical195", bootstrap_with=clauses) as solver:
        while solver.solve():
            board = solver.get_model()[: n * n]
            yield board
            solver.add_clause([-lit for lit in board])


def textbook_sat(n: int) -> int:
    return sum(1 for _ in textbook_sat_boards(n))


BASELINES = {"cpsat": textbook_cpsat, "sat": textbook_sat}


def queens_command() -> list[str]:
    script = Path(sys.executable).parent / "queens"
    return [str(script)] if script.exists() else [sys.executable, "-m", "queenslab"]


def timed(argv: list[str]) -> tuple[float, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, check=True, env=env)
    return time.perf_counter() - start, done.stdout


def compare(backend: str, n: int, repeat: int) -> None:
    base_whole, base_search, ours = [], [], []
    for _ in range(repeat):
        seconds, out = timed([sys.executable, __file__, "--baseline", backend, str(n)])
        expected, search = out.split()
        base_whole.append(seconds)
        base_search.append(float(search))
        seconds, out = timed([*queens_command(), "count", str(n), "--backend", backend])
        ours.append(seconds)
        if out.split()[-1] != expected:
            raise SystemExit(f"{backend} n={n}: queens says {out.strip()}, baseline {expected}")
    whole, search, mine = (statistics.median(t) for t in (base_whole, base_search, ours))
    print(
        f"{backend:>6} {n:>3} {expected:>8} {whole:>12.3f} {search:>12.3f} {mine:>12.3f} "
        f"{mine / whole:>8.3f} {mine / search:>9.3f}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cpsat", type=int, nargs="*", default=[11])
    parser.add_argument("--sat", type=int, nargs="*", default=[12, 13, 14])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", nargs=2, metavar=("BACKEND", "N"), help=argparse.SUPPRESS)
    args = parse_args(parser, {"cpsat": [6], "sat": [6], "repeat": 1})
    if args.baseline:  # child process: run one baseline, print its count and search time
        backend, n = args.baseline[0], int(args.baseline[1])
        start = time.perf_counter()
        found = BASELINES[backend](n)
        print(found, time.perf_counter() - start)
        return
    print(f"## queens count N vs textbook models, medians of {args.repeat} runs, this machine\n")
    print(
        f"{'backend':>6} {'N':>3} {'count':>8} {'base whole':>12} {'base search':>12} "
        f"{'queens':>12} {'/whole':>8} {'/search':>9}"
    )
    for backend, sizes in (("cpsat", args.cpsat), ("sat", args.sat)):
        for n in sizes:
            compare(backend, n, args.repeat)


if __name__ == "__main__":
    main()
