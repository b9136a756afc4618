"""``queens optimize``: the placement of greatest total weight, or a problem's optimum."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from queenslab import api
from queenslab.cli import arguments as a
from queenslab.cli.anytime import Watch, log_file
from queenslab.cli.reach import say_beyond_reach
from queenslab.cli.solve import write_answer
from queenslab.core.backend import Task
from queenslab.core.errors import StoppedWithAnswer, UsageError
from queenslab.core.problem import Problem
from queenslab.core.result import OptimizeResult
from queenslab.core.run import News
from queenslab.io import formats
from queenslab.io.answers import read_answer
from queenslab.io.output import atomic_output
from queenslab.problems import DEFAULT_KIND
from queenslab.runtime.progress import live_line

HELP = "maximise the total weight of occupied cells, or optimise a problem (--problem)"
EXAMPLES = """examples:
  queens optimize 8 --weights weights.json
  queens optimize 10 --weights weights.csv --backend milp --solver highs --format json
  queens optimize 8 --problem domination
  queens optimize 12 --problem domination --variant toroidal --backend cpsat --workers 2
  queens optimize 10 --problem independent-domination --symmetry lex-leader --format json
  queens optimize 20 --problem domination --backend sat --time-limit 10
  queens optimize 9 --problem peaceable --cpu-limit 60 --log peaceable9.jsonl
  queens optimize 30 --problem peaceable --backend graph-search --seed 1
  queens optimize 12 --problem domination -b sat --from-heuristic --time-limit 60
  queens optimize 12 --problem domination -b cpsat --start best12.json --bound 6"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    a.add_board(parser)
    a.add_run(parser, seed=True)
    parser.add_argument(
        "--weights", metavar="FILE", help="n x n integers, JSON or CSV (placement needs them)"
    )
    a.add_problem(parser)
    parser.add_argument(
        "--log", metavar="FILE",
        help="a problem's run: write each better answer and bound as a JSON line",
    )  # fmt: skip
    start = parser.add_mutually_exclusive_group()
    start.add_argument(
        "--start", metavar="FILE",
        help="begin from the answer in FILE (a result --format json wrote), checked first",
    )  # fmt: skip
    start.add_argument(
        "--from-heuristic", action=argparse.BooleanOptionalAction,
        help="run graph-search first, with half the limits, and begin from its answer "
        "(default: where measured faster, with no --model, --symmetry or --start)",
    )  # fmt: skip
    parser.add_argument(
        "--bound", type=lambda t: a.whole_number(t, "--bound", -(10**30)), metavar="K",
        help="a bound on the optimum proven by another run (its JSON bound): lower when "
        "minimising, upper when maximising; it must be proven, it is not checked",
    )  # fmt: skip
    parser.add_argument("--format", choices=formats.answer_formats(), help="default: text")
    parser.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    a.add_backend_options(parser, Task.OPTIMIZE)


def run(args: argparse.Namespace) -> int:
    from queenslab.io.weights import load_weights

    a.refuse_unused_seed(args)
    problem = a.problem(args)
    weights = load_weights(args.weights, problem.n) if args.weights else None
    if args.problem != DEFAULT_KIND:
        return _optimize_kind(args, problem, weights)
    if args.log is not None:
        raise UsageError("--log records a problem's anytime search (--problem)")
    if args.from_heuristic:
        raise UsageError("--from-heuristic runs graph-search, which optimises a --problem")
    fmt = formats.choose(args.format, args.output, formats.answer_formats(), "text")
    formats.check_size(fmt, problem.n)
    start = _start(args, problem)
    result = write_answer(
        args, fmt, lambda: api.optimize(problem, weights=weights, backend=args.backend,
                                        seed=args.seed,
                                        start=start, bound=args.bound,
                                        **a.whole_run_limits(args), **a.kind_arguments(args),
                                        **a.backend_options(args))
    )  # fmt: skip
    a.say_result(args, result)
    a.note_unused_seed(args, result.backend)
    if result.placement is None:
        print(f"no optimum: {result.status} ({a.by_whom(result)})", file=sys.stderr)
    return result.status.exit_code


def _optimize_kind(args: argparse.Namespace, problem: Problem, weights: object) -> int:
    """A kind's optimum, its bound and certificate, as text or JSON; watched while it runs
    (``cli.anytime``). Ctrl-C writes the best answer found before it ends the command."""
    if args.format not in (None, "text", "json"):
        raise UsageError(f"the {args.problem} problem's answer is written as text or json")
    fmt = formats.choose(args.format, args.output, ["text", "json"], "text").name
    stop: StoppedWithAnswer[OptimizeResult] | None = None
    say_beyond_reach(problem, args.problem, args.backend)
    with log_file(args.log) as log, atomic_output(args.output) as out:
        with live_line() as line:  # gone before the answer is written
            watch = Watch(line, log)
            try:
                start = _start(args, problem)
                result = api.optimize(problem, weights=weights, backend=args.backend,
                                      seed=args.seed,
                                      on_news=watch.news, start=start, bound=args.bound,
                                      from_heuristic=args.from_heuristic,
                                      **a.whole_run_limits(args),
                                      **a.kind_arguments(args),
                                      **a.backend_options(args))  # fmt: skip
            except StoppedWithAnswer as stopped:
                stop, result = stopped, stopped.result
        if fmt == "json":
            out.write(json.dumps(result.to_json()) + "\n")
        else:
            _write_text(result, out)
        watch.end(str(result.status), News(result.objective, None, result.bound))
    if stop is not None:
        raise stop.cause
    a.say_result(args, result)
    a.note_unused_seed(args, result.backend)
    if result.message:
        print(f"queens: {result.backend}: {result.message}", file=sys.stderr)
    elif result.answer is None:
        print(f"no answer: {result.status} ({result.backend})", file=sys.stderr)
    return result.status.exit_code


def _start(args: argparse.Namespace, problem: Problem) -> object:
    """The answer in ``--start FILE`` to begin from; None."""
    if args.start is None:
        return None
    return read_answer(args.start, args.problem, problem.n, problem.variant)


def _write_text(result: OptimizeResult, out: TextIO) -> None:
    """``optimal 5``, ``feasible 9, bound 8 (gap 1)`` or ``limit``; then the answer drawn."""
    from queenslab.problems import kind

    line = f"{result.status}"
    if result.objective is not None:
        line += f" {result.objective}"
    if result.bound is not None and result.bound != result.objective:
        gap = "" if result.gap is None else f" (gap {result.gap})"
        line += f", bound {result.bound}{gap}"
    out.write(f"{result.kind} {result.problem.describe() if result.problem else ''}: {line}\n")
    if result.answer is not None and result.problem is not None:
        out.write(kind(result.kind).text(result.problem.board, result.answer) + "\n")
