"""Where the MILP's time goes as n grows: Pyomo model build, loading into the solver, solve.

For each n the three phases are timed separately (median of ``--repeat`` runs), so it shows
when Pyomo, not HiGHS, dominates; the solve is the feasibility model with presolve off, as
``queens solve --backend milp`` runs it. Boards are validated.

    python benchmarks/milp_scaling.py [--n 8 16 32 64 128 256] [--repeat 3] [--solver highs]
"""

from __future__ import annotations

import argparse
import statistics
import time

from _process import parse_args

from queenslab.core.problem import Problem
from queenslab.models.milp import state
from queenslab.models.pyomo_solvers import Outcome, open_solver


def timed_run(n: int, solver_name: str, time_limit: float) -> tuple[float, float, float, Outcome]:
    start = time.perf_counter()
    stated = state(Problem(n))  # the placement kind's model, as the milp backend builds it
    assert stated is not None
    built = time.perf_counter()
    solver = open_solver(solver_name)
    solver.prepare(stated.model)
    loaded = time.perf_counter()
    outcome = solver.solve(time_limit, presolve=False)
    solved = time.perf_counter()
    solved_board = outcome in (Outcome.OPTIMAL, Outcome.FEASIBLE)
    if solved_board and not stated.placement(n).is_valid():
        raise AssertionError(f"invalid board at n={n}")
    return built - start, loaded - built, solved - loaded, outcome


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[8, 16, 32, 64, 128, 256])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--solver", default="highs")
    parser.add_argument("--time-limit", type=float, default=120.0)
    args = parse_args(parser, {"n": [8], "repeat": 1})

    timed_run(8, args.solver, args.time_limit)  # imports and solver start-up, not measured
    print(f"solver {args.solver}; median of {args.repeat} runs; seconds")
    header = f"{'n':>5} {'vars':>7} {'build':>8} {'load':>8} {'solve':>8} {'total':>8}  outcome"
    print(header)
    print("-" * len(header))
    for n in args.n:
        runs = [timed_run(n, args.solver, args.time_limit) for _ in range(args.repeat)]
        build, load, solve = (statistics.median(run[i] for run in runs) for i in range(3))
        outcomes = ",".join(sorted({run[3].value for run in runs}))
        total = build + load + solve
        print(
            f"{n:>5} {n * n:>7} {build:>8.3f} {load:>8.3f} {solve:>8.3f} {total:>8.3f}  {outcomes}"
        )


if __name__ == "__main__":
    main()
