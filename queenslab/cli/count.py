"""``queens count``: how many solutions, and how many up to the board's symmetries."""

from __future__ import annotations

import argparse
import json
import sys

from queenslab import api, progress
from queenslab.backend import Capability
from queenslab.cli import arguments as a
from queenslab.result import Status

HELP = "count all solutions (and unique ones with --unique)"
EXAMPLES = """examples:
  queens count 12 --unique
  queens count 16 --workers 2 --checkpoint n16.sqlite
  queens count 17 --scheduler tcp://10.0.0.5:8786
  queens count 13 --variant toroidal
  queens count 10 --backend sat --encoding seqcounter --format json"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    a.add_board(parser)
    a.add_run(parser)
    parser.add_argument(
        "--unique", action="store_true", help="also count up to the board's symmetries"
    )
    parser.add_argument("--format", choices=["text", "json"], default="text")
    a.add_backend_options(parser, Capability.COUNT)


def run(args: argparse.Namespace) -> int:
    problem = a.problem(args)
    with progress.progress_bar(f"counting {problem.describe()}") as bar:
        result = api.count(
            problem,
            args.backend,
            unique=args.unique,
            time_limit=args.time_limit,
            progress=bar,
            **a.backend_options(args),
        )
    a.say_result(args, result)
    if args.format == "json":
        print(json.dumps(result.to_json()))
    if result.status is Status.LIMIT:
        print(f"time limit reached before the count finished ({result.backend})", file=sys.stderr)
        return a.EXIT_LIMIT
    if args.format == "text":
        print(f"total  {result.total}\nunique {result.unique}" if args.unique else result.total)
    return a.EXIT_OK
