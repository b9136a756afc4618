"""``queens solve``: one placement of N queens, in any answer format."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TypeVar

from queenslab import api
from queenslab.cli import arguments as a
from queenslab.core.backend import Task
from queenslab.core.errors import UsageError
from queenslab.core.problem import Problem
from queenslab.core.result import OptimizeResult, SolveResult, Status
from queenslab.io import formats
from queenslab.io.output import atomic_output
from queenslab.problems import DEFAULT_KIND

HELP = "find one placement of N queens, or any answer of a --problem"
EXAMPLES = """examples:
  queens solve 8
  queens solve 8 --format leetcode
  queens solve 12 --output board.png
  queens solve 24 --backend cpsat --given 0:3 --given 5:10
  queens solve 13 --variant toroidal --blocked 0:0
  queens solve 1000000 --backend min-conflicts --seed 1 --format json --output board.json
  queens solve 8 --problem domination --format json"""
#: The results written by ``write_answer``: those with a board.
R = TypeVar("R", SolveResult, OptimizeResult)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    a.add_board(parser)
    a.add_problem(parser)
    a.add_run(parser, seed=True)
    parser.add_argument("--format", choices=formats.answer_formats(), help="default: text")
    parser.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    a.add_backend_options(parser, Task.SOLVE)


def run(args: argparse.Namespace) -> int:
    a.refuse_unused_seed(args)
    problem = a.problem(args)
    if args.problem != DEFAULT_KIND:
        return _solve_kind(args, problem)
    a.refuse_kind_model(args)
    fmt = formats.choose(args.format, args.output, formats.answer_formats(), "text")
    formats.check_size(fmt, problem.n)
    if fmt.binary and args.output is None and sys.stdout.isatty():
        raise UsageError(f"--format {fmt.name} is binary: give --output FILE")
    result = write_answer(
        args, fmt, lambda: api.solve(problem, backend=args.backend, seed=args.seed,
                                     **a.whole_run_limits(args), **a.backend_options(args))
    )  # fmt: skip
    a.note_unused_seed(args, result.backend)
    a.say_result(args, result)
    if result.status is Status.INFEASIBLE:
        print(f"no solution for {problem.describe()}", file=sys.stderr)
    elif result.placement is None:
        print(f"no answer: {result.status} ({a.by_whom(result)})", file=sys.stderr)
    return result.status.exit_code


def write_answer(args: argparse.Namespace, fmt: formats.Format, compute: Callable[[], R]) -> R:
    """Run ``compute`` with the output already open, and write its answer in ``fmt``.

    The output file is opened first, so an unwritable path fails before the search; an
    answer without a board writes no file in a drawing format (JSON still records it).
    """
    try:
        with atomic_output(args.output, fmt.binary) as out:
            result = compute()
            if result.placement is None and fmt.needs_board:
                raise _NoBoard
            assert fmt.answer is not None
            fmt.answer(result, out)
    except _NoBoard:
        pass
    return result


def _solve_kind(args: argparse.Namespace, problem: Problem) -> int:
    """Any answer of a kind (its objective, if it has one, left out), as text or JSON."""
    from queenslab.problems import kind

    if args.format not in (None, "text", "json"):
        raise UsageError(f"the {args.problem} problem's answer is written as text or json")
    fmt = formats.choose(args.format, args.output, ["text", "json"], "text").name
    with atomic_output(args.output) as out:
        result = api.solve(problem, backend=args.backend, seed=args.seed,
                           **a.whole_run_limits(args), **a.kind_arguments(args),
                           **a.backend_options(args))  # fmt: skip
        if fmt == "json":
            out.write(json.dumps(result.to_json()) + "\n")
        else:
            out.write(f"{args.problem} {problem.describe()}: {result.status}\n")
            if result.answer is not None:
                out.write(kind(args.problem).text(problem.board, result.answer) + "\n")
    a.say_result(args, result)
    a.note_unused_seed(args, result.backend)
    return result.status.exit_code


class _NoBoard(Exception):
    """The run ended without a board: in a drawing format there is nothing to write."""
