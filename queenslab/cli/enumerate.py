"""``queens enumerate``: stream every solution, never holding them all in memory."""

from __future__ import annotations

import argparse
import json
import sys

from queenslab import api
from queenslab.cli import arguments as a
from queenslab.core.backend import Task
from queenslab.core.errors import ExitCode, LimitReached, Undecided, UsageError
from queenslab.core.stats import summary
from queenslab.io import formats
from queenslab.io.output import atomic_output
from queenslab.problems import DEFAULT_KIND
from queenslab.runtime import progress

HELP = "stream every solution"
EXAMPLES = """examples:
  queens enumerate 4 --format leetcode
  queens enumerate 8 --backend sat --format jsonl --output all8.jsonl
  queens enumerate 10 --given 0:0 --limit 5
  queens enumerate 10 --variant superqueens
  queens enumerate 6 --problem domination --symmetry lex-leader"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    a.add_board(parser)
    a.add_run(parser)
    parser.add_argument(
        "--limit", type=lambda t: a.whole_number(t, "--limit"), help="stop after this many"
    )
    parser.add_argument("--format", choices=formats.solution_formats(), help="default: jsonl")
    parser.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    a.add_problem(parser)
    a.add_backend_options(parser, Task.ENUMERATE)


def _answer_line(answer: object) -> str:
    return json.dumps({"answer": answer}, separators=(", ", ": ")) + "\n"


def run(args: argparse.Namespace) -> int:
    problem = a.problem(args)
    fmt = formats.choose(args.format, args.output, formats.solution_formats(), "jsonl")
    assert fmt.solution is not None
    solutions = api.enumerate_solutions(
        problem, backend=args.backend, **a.whole_run_limits(args), **a.kind_arguments(args),
        **a.backend_options(args),
    )  # fmt: skip
    write = fmt.solution
    if args.problem != DEFAULT_KIND:  # a kind's answers: JSON lines of their data
        if fmt.name != "jsonl":
            raise UsageError(f"the {args.problem} problem's answers are written as jsonl only")
        write = _answer_line
    found = 0
    streams = args.output is None  # to a terminal, a bar would mix with the solutions
    try:
        with (
            atomic_output(args.output) as out,
            progress.progress_bar("enumerating", output_streams=streams) as bar,
        ):
            stream = iter(sorted(solutions)) if fmt.name == "leetcode" else solutions
            for placement in stream:  # LeetCode 51 lists them in order
                if found == args.limit:
                    break
                out.write(write(placement))
                found += 1
                if bar and found % 1024 == 0:
                    bar(found, None)
    except LimitReached:
        # Not an answer: stdout got what was found, a --output file is not written.
        print(f"time limit reached after {found} solutions", file=sys.stderr)
        return ExitCode.LIMIT
    except Undecided as failed:
        print(f"no answer after {found} solutions ({solutions.backend}: {failed})", file=sys.stderr)
        return ExitCode.LIMIT
    finally:
        solutions.close()
    a.say(args, f"{solutions.backend}: {found} solutions in {solutions.seconds:.3f} s; "
                f"{summary(solutions.stats)}")  # fmt: skip
    if found == 0 and args.limit != 0:
        print(f"no solution for {problem.describe()}", file=sys.stderr)
        return ExitCode.NO_SOLUTION
    return ExitCode.OK
