"""Check seed 003's claim: "branch and bound" (lookup arrays) vs plain backtracking.

The seed reports 659.68 s vs 119.63 s for one solution at N=32. Both methods visit the
same nodes in the same order; the lookup arrays only make each safety test O(1) instead
of a scan over the rows placed so far. This script times both on the same first-solution
searches and prints the node counts (identical) and the time ratio.

    python benchmarks/lookup_vs_scan.py [--n 16 20 22 24] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import time

from queenslab.exact.backtracking import search
from queenslab.problem import Problem


def first_solution_by_scanning(n: int) -> tuple[tuple[int, ...], int]:
    """Plain backtracking: each candidate is checked against every queen placed so far."""
    placed: list[int] = []
    nodes = 0
    col = 0
    while True:
        row = len(placed)
        if row == n:
            return tuple(placed), nodes
        while col < n and any(c == col or abs(c - col) == row - r for r, c in enumerate(placed)):
            col += 1
        if col < n:
            placed.append(col)
            nodes += 1
            col = 0
        elif placed:
            col = placed.pop() + 1
        else:
            raise ValueError(f"no solution for n={n}")


def first_solution_by_lookup(n: int) -> tuple[tuple[int, ...], int]:
    stats: dict[str, int] = {}
    return next(search(Problem(n), stats)), stats["nodes"]


def timed(fn, n: int, repeat: int) -> tuple[float, tuple[int, ...], int]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        cols, nodes = fn(n)
        times.append(time.perf_counter() - start)
    return statistics.median(times), cols, nodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, nargs="+", default=[16, 20, 22, 24, 26])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'n':>4} {'nodes':>10} {'scan s':>9} {'lookup s':>9} {'ratio':>6}")
    for n in args.n:
        scan_s, scan_cols, scan_nodes = timed(first_solution_by_scanning, n, args.repeat)
        look_s, look_cols, look_nodes = timed(first_solution_by_lookup, n, args.repeat)
        assert (scan_cols, scan_nodes) == (look_cols, look_nodes), "the searches differ"
        print(f"{n:>4} {look_nodes:>10} {scan_s:>9.3f} {look_s:>9.3f} {scan_s / look_s:>6.2f}")


if __name__ == "__main__":
    main()
