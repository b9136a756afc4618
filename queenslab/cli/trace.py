"""``queens trace``: watch a search step by step (JSON lines, an HTML player, an SVG)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath
from typing import IO, Any

from queenslab.cli import arguments as a
from queenslab.core.errors import ExitCode, UsageError
from queenslab.core.problem import Problem
from queenslab.io.output import atomic_output
from queenslab.trace import DEFAULT_STEPS, MAX_STEPS, TRACED, Tracer, trace

HELP = "record a search step by step, and replay it in a browser or on a slide"
EXAMPLES = f"""examples:
  queens trace 6 --backend backtrack --all --output backtrack6.html
  queens trace 50 --backend min-conflicts --seed 1 --output mc50.html
  queens trace 8 --backend bitmask --format jsonl | head
  queens trace 8 --backend hill-climbing --seed 2 --output slide.svg
  queens trace 8 --backend las-vegas --seed 1 --output slide.gif

Traced methods and their largest board: {", ".join(f"{k} {v.max_n}" for k, v in TRACED.items())}.
A trace records at most --max-steps steps (default {DEFAULT_STEPS}, at most {MAX_STEPS});
a longer search is cut there, its log ends with status "step limit" and the exit code is 3."""


def _jsonl(tracer: Tracer, _problem: Problem, out: IO[Any]) -> None:
    for step in tracer.steps:
        out.write(json.dumps(step, separators=(",", ":")) + "\n")


def _html(tracer: Tracer, problem: Problem, out: IO[Any]) -> None:
    from queenslab.trace.html import page

    out.write(page(tracer, f"{tracer.method}, {problem.describe()}", problem.board))


def _svg(tracer: Tracer, _problem: Problem, out: IO[Any]) -> None:
    from queenslab.trace.svg import animation

    out.write(animation(tracer) + "\n")


def _gif(tracer: Tracer, _problem: Problem, out: IO[Any]) -> None:
    from queenslab.trace.gif import write_gif

    write_gif(tracer, out)


@dataclass(frozen=True)
class Writer:
    suffix: str
    write: Callable[[Tracer, Problem, IO[Any]], None]
    binary: bool = False


#: Format name -> how a trace is written in it.
WRITERS: dict[str, Writer] = {
    "jsonl": Writer(".jsonl", _jsonl),
    "html": Writer(".html", _html),
    "svg": Writer(".svg", _svg),
    "gif": Writer(".gif", _gif, binary=True),
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    a.add_board(parser)
    parser.add_argument(
        "--backend", "-b", default="backtrack", choices=list(TRACED), help="search to trace"
    )
    parser.add_argument(
        "--seed",
        type=lambda t: a.whole_number(t, "--seed"),
        help="random seed (las-vegas and the local searches)",
    )
    parser.add_argument(
        "--all", action="store_true", help="row searches: walk the whole tree, every solution"
    )
    parser.add_argument(
        "--step",
        type=lambda t: a.whole_number(t, "--step"),
        metavar="K",
        help="las-vegas: rows placed at random before backtracking",
    )
    parser.add_argument(
        "--max-steps",
        type=lambda t: a.whole_number(t, "--max-steps", 1, MAX_STEPS),
        default=DEFAULT_STEPS,
        metavar="K",
        help=f"cut the trace after this many steps (default {DEFAULT_STEPS})",
    )
    parser.add_argument("--format", choices=list(WRITERS), help="default: from --output, jsonl")
    parser.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")


def _format(args: argparse.Namespace) -> str:
    if args.format is not None:
        return args.format
    if args.output is None:
        return "jsonl"
    suffix = PurePath(args.output).suffix.lower()
    for name, writer in WRITERS.items():
        if suffix == writer.suffix:
            return name
    raise UsageError(f"cannot tell the format of {args.output}; give --format")


def run(args: argparse.Namespace) -> int:
    problem = a.problem(args)
    name = _format(args)
    options = {"seed": args.seed, "every": args.all}
    if args.step is not None:
        options["step"] = args.step
    writer = WRITERS[name]
    if writer.binary and args.output is None and sys.stdout.isatty():
        raise UsageError(f"--format {name} is binary: give --output FILE")
    with atomic_output(args.output, writer.binary) as out:
        tracer = trace(problem, args.backend, max_steps=args.max_steps, **options)
        writer.write(tracer, problem, out)
    status = tracer.steps[-1]["status"]
    if tracer.truncated:
        print(f"trace cut after {args.max_steps} steps (--max-steps)", file=sys.stderr)
        return ExitCode.LIMIT
    if status == "no solution":
        return ExitCode.NO_SOLUTION
    return ExitCode.OK if status in ("solved", "exhausted") else ExitCode.LIMIT
