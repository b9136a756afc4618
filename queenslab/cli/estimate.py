"""``queens estimate``: Knuth's random-probe estimate of the backtracking tree size."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from queenslab.cli import arguments as a
from queenslab.core.errors import ExitCode, LimitReached, UsageError
from queenslab.core.problem import Problem
from queenslab.core.run import MIN_TIME_LIMIT, Run
from queenslab.lab.estimate import (
    MAX_EXACT_N,
    MAX_N,
    MAX_PROBES,
    Estimate,
    estimate,
    exact_profile,
)
from queenslab.runtime import progress

HELP = "estimate the backtracking tree size from random probes (Knuth 1975)"
EXAMPLES = f"""examples:
  queens estimate 20 --probes 10000 --seed 1
  queens estimate 12 --exact
  queens estimate 8 --seed 1 --probes 10000 --exact --plot profile.png
  queens estimate 8-20 --seed 1 --plot tree-size.png

--exact also walks the whole tree with the backtrack backend (n <= {MAX_EXACT_N}; it takes
tens of seconds at n = 12 and grows about sixfold per n). Boards up to n = {MAX_N}: beyond,
a tree's size can exceed a float. With --time-limit, what was estimated before the limit
is printed, with the probes it used, and the exit code is 3."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("n", type=_board_sizes, metavar="N", help="board size, or FIRST-LAST")
    a.add_board_rules(parser)
    parser.add_argument(
        "--probes",
        type=lambda t: a.whole_number(t, "--probes", 2, MAX_PROBES),
        default=1000,
        help="random paths per board (default 1000)",
    )
    parser.add_argument(
        "--seed", type=lambda t: a.whole_number(t, "--seed"), help="random seed (reproducible)"
    )
    parser.add_argument(
        "--time-limit",
        type=a.seconds,
        metavar="SEC",
        help="stop probing (and walking) after SEC seconds in all; exit 3",
    )
    parser.add_argument(
        "--exact",
        action="store_true",
        help=f"also count the tree's nodes exactly (boards up to n = {MAX_EXACT_N})",
    )
    parser.add_argument("--format", choices=["text", "json"], default="text")
    a.add_plot(
        parser, "for one N the tree's profile (nodes per depth), for a range the size per n",
        "estimate.png",
    )  # fmt: skip


def _board_sizes(text: str) -> range:
    sizes = a.n_range(text)
    if sizes[-1] > MAX_N:
        raise argparse.ArgumentTypeError(f"the estimate covers n up to {MAX_N}, got {text!r}")
    return sizes


def run(args: argparse.Namespace) -> int:
    if args.exact and args.n[-1] > MAX_EXACT_N:
        asked = f"{args.n[0]}-{args.n[-1]}" if len(args.n) > 1 else str(args.n[0])
        raise UsageError(f"--exact walks trees up to n = {MAX_EXACT_N}, got n = {asked}")
    clock = Run(None, args.time_limit)  # one deadline for every board
    results, stopped = [], ""
    for n in args.n:
        problem = Problem(n, variant=args.variant, blocked=tuple(a.blocked_cells(args)))
        try:
            if not _time_left(clock):
                raise LimitReached
            with progress.progress_bar(f"probing {problem.describe()}") as bar:
                result = estimate(problem, args.probes, Run(args.seed, clock.remaining(), bar))
        except LimitReached:
            stopped = "time limit reached before two probes"
        else:
            if result.probes < args.probes:
                stopped = f"time limit reached after {result.probes} of {args.probes} probes"
            elif args.exact:
                if _time_left(clock):
                    with progress.progress_bar(f"walking the tree of {problem.describe()}"):
                        result.exact_levels = exact_profile(problem, clock.remaining())
                if result.exact_levels is None:
                    stopped = "time limit reached while walking the tree"
                else:
                    result.exact = sum(result.exact_levels)
            results.append(result)
            _say(result, args.format)
        if stopped:
            print(f"{stopped} (n={n})", file=sys.stderr)
            break
    if args.plot and results:
        write_plot(results, args.plot)
        a.wrote_plot(args.plot)
    return ExitCode.LIMIT if stopped else ExitCode.OK


def _time_left(clock: Run) -> bool:
    """Whether the command's time limit leaves enough for another run (always, without)."""
    left = clock.remaining()
    return left is None or left >= MIN_TIME_LIMIT


def _say(result: Estimate, fmt: str) -> None:
    if fmt == "json":
        print(json.dumps(result.to_json()))
        return
    low, high = result.interval
    exact = "" if result.exact is None else f"  exact {result.exact}"
    print(
        f"n={result.n}  estimate {result.mean:.4g}  95% interval {low:.4g} .. {high:.4g}  "
        f"({result.probes} probes){exact}"
    )


def write_plot(results: list[Estimate], path: str) -> None:
    """One board: its profile; several: their sizes."""
    from queenslab.io.figures import pyplot, save

    fig, ax = pyplot().subplots(figsize=(7, 4.5), dpi=100)
    if len(results) == 1:
        _profile(ax, results[0])
    else:
        _sizes(ax, results)
    save(fig, path)


def _profile(ax: Any, result: Estimate) -> None:
    """Estimated nodes per depth with their 95% intervals, on a log scale so that the
    narrow top of the tree shows beside its wide middle; the walked tree's counts too."""
    depths = range(len(result.levels))
    lows, highs = zip(*result.level_intervals(), strict=True)
    errors = [
        [m - lo for m, lo in zip(result.levels, lows, strict=True)],
        [hi - m for m, hi in zip(result.levels, highs, strict=True)],
    ]
    ax.bar(depths, result.levels, color="#90caf9", label="Knuth estimate")
    ax.errorbar(depths, result.levels, yerr=errors, fmt="none", ecolor="#0d47a1", capsize=3,
                label="95% interval")  # fmt: skip
    if result.exact_levels is not None:
        ax.plot(depths, result.exact_levels, "x", color="black", markersize=9, label="exact")
    ax.set_yscale("log")
    ax.set_xticks(list(depths))
    ax.set_xlabel("depth (queens placed)")
    ax.set_ylabel("nodes")
    ax.set_title(f"backtracking tree, n = {result.n} ({result.probes} probes)")
    ax.legend()


def _sizes(ax: Any, results: list[Estimate]) -> None:
    """Estimates with their 95% intervals on a log scale; exact sizes as crosses."""
    ns = [r.n for r in results]
    means = [r.mean for r in results]
    errors = [[r.mean - r.interval[0] for r in results], [r.interval[1] - r.mean for r in results]]
    ax.errorbar(ns, means, yerr=errors, fmt="o", capsize=3, label="Knuth estimate (95%)")
    exact = [(r.n, r.exact) for r in results if r.exact is not None]
    if exact:
        ax.plot(*zip(*exact, strict=True), "x", color="black", markersize=9, label="exact")
    ax.set_yscale("log")
    ax.set_xticks(ns)
    ax.set_xlabel("n")
    ax.set_ylabel("nodes of the backtracking tree")
    ax.legend()
