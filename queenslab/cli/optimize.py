"""``queens optimize``: the placement of greatest total weight."""

from __future__ import annotations

import argparse
import sys

from queenslab import api
from queenslab.cli import arguments as a
from queenslab.cli.solve import write_answer
from queenslab.core.backend import Task
from queenslab.io import formats

HELP = "maximise the total weight of occupied cells"
EXAMPLES = """examples:
  queens optimize 8 --weights weights.json
  queens optimize 10 --weights weights.csv --backend milp --solver highs --format json"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    a.add_board(parser)
    a.add_run(parser)
    parser.add_argument(
        "--weights", required=True, metavar="FILE", help="n x n integers, JSON or CSV"
    )
    parser.add_argument("--format", choices=formats.answer_formats(), help="default: text")
    parser.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    a.add_backend_options(parser, Task.OPTIMIZE)


def run(args: argparse.Namespace) -> int:
    from queenslab.io.weights import load_weights

    problem = a.problem(args)
    fmt = formats.choose(args.format, args.output, formats.answer_formats(), "text")
    formats.check_size(fmt, problem.n)
    weights = load_weights(args.weights, problem.n)
    result = write_answer(
        args, fmt, lambda: api.optimize(problem, weights, args.backend,
                                        time_limit=args.time_limit, **a.backend_options(args))
    )  # fmt: skip
    a.say_result(args, result)
    if result.placement is None:
        print(f"no optimum: {result.status} ({result.backend})", file=sys.stderr)
    return result.status.exit_code
