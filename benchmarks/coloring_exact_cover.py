"""Colouring the queens graph: the exact-cover model (Vasquez 2004) beside the best of the
others, n = 5..12, as a Markdown table on stdout.

Each run is one ``ql.optimize`` call (problem ``coloring``) with a time limit that covers
it whole; the table gives its status and value, its wall and CPU seconds (the translator's
forked child included) and the published chromatic number (OEIS A088202, read here only
to print it beside the value). The compared model is ``precedence`` on the SAT backend,
the fastest of the others at n <= 9 in ``benchmarks/problems.py compare``. Figures pair
only on one machine under one load: the machine and its load average come first.

    python benchmarks/coloring_exact_cover.py --n 5 6 7 8 9 10 11 12 --time-limit 60
"""

from __future__ import annotations

import argparse
import time

from _process import machine

import queenslab as ql
from queenslab.lab import reference

MODELS = (("precedence", "sat"), ("exact-cover", "sat"))


def row(n: int, model: str, backend: str, time_limit: float) -> str:
    start = time.perf_counter()
    result = ql.optimize(n, problem="coloring", model=model, backend=backend,
                         time_limit=time_limit)  # fmt: skip
    wall = time.perf_counter() - start
    value = "-" if result.objective is None else str(result.objective)
    return (
        f"| {n} | {model} | {backend} | {result.status} | {value} | "
        f"{reference.optimum('coloring', n)} | {wall:.2f} | {result.cpu_seconds:.2f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=list(range(5, 13)))
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per run")
    args = parser.parse_args()
    print(machine())
    print()
    print("| n | model | backend | status | colours | published | wall s | CPU s |")
    print("|---|---|---|---|---|---|---|---|")
    for n in args.n:
        for model, backend in MODELS:
            print(row(n, model, backend, args.time_limit), flush=True)


if __name__ == "__main__":
    main()
