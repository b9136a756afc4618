"""``queens hardness-study``: cost and solvability of random instances vs their density."""

from __future__ import annotations

import argparse
import sys

from queenslab.cli import arguments as a
from queenslab.cli.generate import add_instance_arguments
from queenslab.core.backend import default_workers
from queenslab.core.errors import ExitCode, UsageError
from queenslab.io.output import atomic_output
from queenslab.lab.table import FORMAT_NAMES, choose_format
from queenslab.runtime import progress

HELP = "easy-hard-easy: solve random instances over a range of densities with several backends"
EXAMPLES = """examples:
  queens hardness-study --kind blocked --n 12 --densities 0.3:0.66:0.04 --samples 20 \\
      --backend cpsat --backend sat --time-limit 10 --plot hardness.png
  queens hardness-study --kind excluded-diagonals --n 12 --densities 0.25:1.5:0.25 \\
      --samples 10 -b backtrack -b cpsat --format csv --output diagonals.csv
  queens hardness-study --kind completion --n 16 --densities 0:0.5:0.125 --samples 10 \\
      -b cpsat --scheduler tcp://10.0.0.5:8786"""

DEFAULT_TIME_LIMIT = 30.0


def densities(text: str) -> list[float]:
    from queenslab.lab.hardness import density_range

    try:
        return density_range(text)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_instance_arguments(parser)
    parser.add_argument("--n", type=a.board_size, required=True, help="board size")
    parser.add_argument(
        "--densities",
        type=densities,
        required=True,
        metavar="FIRST:LAST:STEP",
        help="densities to study, LAST included (see queens generate --help for their meaning)",
    )
    parser.add_argument(
        "--samples",
        type=lambda t: a.whole_number(t, "--samples", 1, 100_000),
        default=10,
        help="instances per density (default 10)",
    )
    parser.add_argument(
        "--backend", "-b", action="append", required=True, help="a backend (repeatable)"
    )
    parser.add_argument(
        "--time-limit",
        type=a.seconds,
        default=DEFAULT_TIME_LIMIT,
        metavar="SEC",
        help=f"limit of each solve, start-up included (default {DEFAULT_TIME_LIMIT:g})",
    )
    parser.add_argument(
        "--seed",
        type=lambda t: a.whole_number(t, "--seed"),
        default=0,
        help="sample j of every density is drawn from SEED + j (default 0)",
    )
    parser.add_argument(
        "--workers",
        type=lambda t: a.whole_number(t, "--workers", 1),  # bounded by the run
        default=default_workers(),
        help="solves at once on threads (default: the cores)",
    )
    parser.add_argument(
        "--scheduler", metavar="ADDR", help="run the solves on this Dask scheduler instead"
    )
    parser.add_argument(
        "--format", choices=FORMAT_NAMES, help="table format (default markdown, or from --output)"
    )
    parser.add_argument("--output", "-o", metavar="FILE", help="write the table here")
    a.add_plot(parser, "cost and fraction solvable", "hardness.png")


def run(args: argparse.Namespace) -> int:
    from queenslab.lab.hardness import run_study, write_plot

    fmt = choose_format(args.format, args.output)
    try:
        with atomic_output(args.output) as out:
            with progress.progress_bar(f"{args.kind} n={args.n}") as bar:
                report = run_study(
                    args.kind, args.n, args.densities, args.samples, args.backend,
                    time_limit=args.time_limit, seed=args.seed, min_open=args.min_open,
                    variant=args.variant, workers=args.workers, scheduler=args.scheduler,
                    progress=bar, log=lambda line: a.say(args, line),
                )  # fmt: skip
            if not report.ok:
                raise _Stopped
            report.table().write(fmt, out)
    except _Stopped:
        for problem in report.problems:
            print(f"queens: hardness-study: {problem}", file=sys.stderr)
        return ExitCode.NO_SOLUTION
    if args.plot:
        write_plot(report, args.plot)
        a.wrote_plot(args.plot)
    return ExitCode.OK


class _Stopped(Exception):
    """The study stopped on a problem: leave no table behind."""
