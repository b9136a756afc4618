"""``queens count``: how many solutions, and how many up to the board's symmetries."""

from __future__ import annotations

import argparse
import json
import sys

from queenslab import api
from queenslab.cli import arguments as a
from queenslab.core.backend import Task
from queenslab.core.errors import ExitCode, StoppedWithAnswer, UsageError
from queenslab.core.result import CountResult, Status
from queenslab.problems import DEFAULT_KIND
from queenslab.runtime import progress

HELP = "count all solutions (and unique ones with --unique), or a problem's optimal answers"
#: The tree --profile describes unless told otherwise: the textbook one, as ``estimate``.
PROFILE_BACKEND = "backtrack"
EXAMPLES = """examples:
  queens count 12 --unique
  queens count 16 --workers 2 --checkpoint n16.sqlite
  queens count 17 --scheduler tcp://10.0.0.5:8786
  queens count 13 --variant toroidal
  queens count 8 --profile --plot tree8.png
  queens count 10 --backend sat --encoding seqcounter --format json
  queens count 8 --problem domination
  queens count 8 --problem domination --symmetry lex-leader --backend cpsat"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    a.add_board(parser)
    a.add_run(parser)
    parser.add_argument(
        "--unique", action="store_true", help="also count up to the board's symmetries"
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="record the nodes of each depth of the search tree (backtrack, bitmask, csp); "
        f"without --backend, the textbook tree of {PROFILE_BACKEND}",
    )
    a.add_plot(parser, "the tree profile", "tree-profile.png")
    parser.add_argument("--format", choices=["text", "json"], default="text")
    a.add_problem(parser)
    a.add_backend_options(parser, Task.COUNT)


def run(args: argparse.Namespace) -> int:
    if args.plot is not None and not args.profile:
        raise UsageError("--plot draws the tree profile: add --profile")
    problem = a.problem(args)
    backend = args.backend or (PROFILE_BACKEND if args.profile else None)
    what = problem.describe()
    if args.problem != DEFAULT_KIND:  # the optimum first, then the answers found, one by one
        what = f"optimal {args.problem} answers of {what}"
    stop: StoppedWithAnswer[CountResult] | None = None
    with progress.progress_bar(f"counting {what}") as bar:
        try:
            result = api.count(
                problem,
                backend=backend,
                unique=args.unique,
                progress=bar,
                profile=args.profile,
                **a.whole_run_limits(args),
                **a.kind_arguments(args),
                **a.backend_options(args),
            )
        except StoppedWithAnswer as stopped:  # Ctrl-C: what was counted, then the exit
            stop, result = stopped, stopped.result
    a.say_result(args, result)
    if args.format == "json":
        print(json.dumps(result.to_json()))
    elif result.lower_bound is not None:  # stopped: not the total, and said so
        print(f"at least {result.lower_bound}")
    if stop is not None:
        raise stop.cause
    if result.status is not Status.SOLVED:
        what = "time limit reached before the count finished"
        if result.status is not Status.LIMIT:
            what = f"no count: {result.status}"
        print(f"{what} ({a.by_whom(result)})", file=sys.stderr)
        return result.status.exit_code
    if result.optimum is not None:
        a.say(args, f"{result.total} answers of optimum {result.optimum}")
    if args.format == "text":
        print(f"total  {result.total}\nunique {result.unique}" if args.unique else result.total)
    if args.profile:
        profile = result.stats["profile"]
        if args.format == "text":
            print("depth  nodes")
            print("\n".join(f"{depth:<6} {nodes}" for depth, nodes in enumerate(profile)))
        if args.plot is not None:
            from queenslab.io.figures import tree_profile

            title = f"search tree of {problem.describe()} ({result.backend})"
            tree_profile(profile, title, args.plot)
            a.wrote_plot(args.plot)
    return ExitCode.OK
