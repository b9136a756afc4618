"""``queens sweep``: backends x their option choices x n x task, timed, counted and checked."""

from __future__ import annotations

import argparse
import sys

from queenslab.cli import arguments as a
from queenslab.core.errors import ExitCode, UsageError
from queenslab.io.output import atomic_output
from queenslab.lab.table import FORMAT_NAMES, choose_format
from queenslab.problems import DEFAULT_KIND
from queenslab.runtime import progress

HELP = "time and effort of every backend configuration over a range of n, answers checked"
EXAMPLES = """examples:
  queens sweep --backend sat --n 8-11 --task count
  queens sweep --backend sat --encoding pairwise,seqcounter --solver all --n 8-10
  queens sweep -b cpsat -b sat -b milp -b backtrack --n 8-12 --task count --repeat 3 \\
      --output sweep.md --plot sweep.png
  queens sweep -b milp --solver highs --task solve --n 8-20 --format csv
  queens sweep -b csp --task solve --n 8-16 --repeat 9      # the course's node table
  queens sweep -b milp -b cpsat -b sat -b maxsat --problem domination --task optimize --n 4-10"""

DEFAULT_TIME_LIMIT = 60.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--backend", "-b", action="append", required=True, help="a backend (repeatable)"
    )
    parser.add_argument(
        "--n", type=a.n_range, default=range(8, 12), metavar="FIRST-LAST", help="sizes (8-11)"
    )
    parser.add_argument(
        "--task",
        action="append",
        choices=["solve", "count", "optimize"],
        help="solve, count or optimize (repeatable; default solve and count, or optimize for a "
        "--problem other than placement)",
    )
    a.add_problem(parser)
    parser.add_argument(
        "--repeat",
        type=lambda t: a.whole_number(t, "--repeat", 1, 1000),
        default=1,
        help="runs per cell, summarised by median and quartiles (default 1)",
    )
    parser.add_argument(
        "--time-limit",
        type=a.seconds,
        default=DEFAULT_TIME_LIMIT,
        metavar="SEC",
        help=f"limit of each run, start-up included (default {DEFAULT_TIME_LIMIT:g})",
    )
    parser.add_argument(
        "--workers",
        type=lambda t: a.whole_number(t, "--workers", 1),  # bounded by the run
        default=1,
        help="for backends with a workers option (default 1: times compare searches, "
        "not parallelism)",
    )
    a.add_board_rules(parser)
    parser.add_argument(
        "--format", choices=FORMAT_NAMES, help="table format (default markdown, or from --output)"
    )
    parser.add_argument("--output", "-o", metavar="FILE", help="write the table here")
    a.add_plot(parser, "time and effort vs n", "sweep.png")
    _add_option_lists(parser)


def _add_option_lists(parser: argparse.ArgumentParser) -> None:
    """A flag taking a list of values for every backend option a sweep iterates over."""
    from queenslab.lab.sweep import FOUND_CHOICES
    from queenslab.registry import backend_class, names

    declared: dict[str, list[str]] = {}
    for name in names():
        try:
            cls = backend_class(name)
        except UsageError:
            continue  # a broken plug-in: `queens backends` says so
        for option in cls.options:
            if option.choices:
                declared.setdefault(option.name, []).append(f"{name}: {', '.join(option.choices)}")
            elif (name, option.name) in FOUND_CHOICES:
                declared.setdefault(option.name, []).append(f"{name}: those found here")
    group = parser.add_argument_group("option values to sweep (default: every one)")
    for option_name, helps in declared.items():
        group.add_argument(
            "--" + option_name.replace("_", "-"),
            dest=f"values_{option_name}",
            metavar="V,V,...",
            type=lambda text: [v for v in text.split(",") if v],
            help="; ".join(helps) + "; or all",
        )


def run(args: argparse.Namespace) -> int:
    from queenslab.lab.sweep import configurations, run_sweep, write_plot

    default = ["solve", "count"] if args.problem == DEFAULT_KIND else ["optimize"]
    tasks = list(dict.fromkeys(args.task or default))
    wanted = {
        key.removeprefix("values_"): values
        for key, values in vars(args).items()
        if key.startswith("values_") and values is not None and values != ["all"]
    }
    configs = configurations(
        args.backend, tasks, wanted, args.problem, model=args.model, symmetry=args.symmetry
    )
    fmt = choose_format(args.format, args.output)
    blocked = a.blocked_cells(args)
    with atomic_output(args.output) as out:
        with progress.progress_bar(f"sweeping {len(configs)} configurations") as bar:
            report = run_sweep(
                configs, list(args.n), tasks, repeat=args.repeat, time_limit=args.time_limit,
                workers=args.workers, variant=args.variant, blocked=blocked,
                problem=args.problem, model=args.model, symmetry=args.symmetry, progress=bar,
                log=lambda line: a.say(args, line),
            )  # fmt: skip
        report.table().write(fmt, out)
    if args.plot:
        write_plot(report, args.plot)
        a.wrote_plot(args.plot)
    for problem in report.problems:
        print(f"queens: sweep: {problem}", file=sys.stderr)
    return ExitCode.OK if report.ok else ExitCode.NO_SOLUTION
