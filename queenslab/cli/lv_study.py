"""``queens lv-study``: the Las Vegas + backtracking hybrid, step by step."""

from __future__ import annotations

import argparse

from queenslab.cli import arguments as a
from queenslab.core.errors import ExitCode
from queenslab.runtime import progress

HELP = "Las Vegas + backtracking: p, s, e, t per step"
EXAMPLES = """examples:
  queens lv-study --n 8 --exact --format json
  queens lv-study --n 8-20 --repeat 1000 --seed 0 --plot lv.png"""
#: Largest board studied: the exact walk and Monte Carlo trials grow fast with n.
MAX_STUDY_N = 64


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--n", type=_study_range, default=range(8, 9), metavar="FIRST-LAST", help="sizes (8)"
    )
    parser.add_argument(
        "--repeat",
        type=lambda t: a.whole_number(t, "--repeat", 1, 10**9),
        default=1000,
        help="Monte Carlo trials per step",
    )
    parser.add_argument("--exact", action="store_true", help="enumerate every random choice")
    parser.add_argument(
        "--seed", type=lambda t: a.whole_number(t, "--seed"), help="random seed for the trials"
    )
    parser.add_argument("--format", choices=["text", "json"], default="text")
    a.add_plot(parser, "t (and p) per step", "lv-study.png")


def _study_range(text: str) -> range:
    sizes = a.n_range(text)
    if sizes[-1] > MAX_STUDY_N:
        raise argparse.ArgumentTypeError(f"the study covers n up to {MAX_STUDY_N}, got {text!r}")
    return sizes


def run(args: argparse.Namespace) -> int:
    from queenslab.lab.lv_study import print_study, run_study, write_plot

    results = []
    # one unit per Monte Carlo trial (told per batch), or per board when exact
    total = len(args.n) if args.exact else sum((n + 1) * args.repeat for n in args.n)
    finished = 0
    with progress.progress_bar("Las Vegas study") as bar:

        def done(units: int) -> None:
            nonlocal finished
            finished += units
            if bar:
                bar(finished, total)

        for n in args.n:
            results.append(run_study(n, args.repeat, args.seed, args.exact, done))
            if args.exact:
                done(1)
            print_study(results[-1], args.format)
    if args.plot:
        write_plot(results, args.plot)
        a.wrote_plot(args.plot)
    return ExitCode.OK
