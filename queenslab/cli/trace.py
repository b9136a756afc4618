"""``queens trace``: watch a search step by step (JSON lines, an HTML player, SVG or GIF)."""

from __future__ import annotations

import argparse
import json
import math
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePath
from typing import IO, Any

from queenslab.cli import arguments as a
from queenslab.core.errors import ExitCode, UsageError
from queenslab.core.problem import Problem
from queenslab.io.output import atomic_output
from queenslab.runtime import progress
from queenslab.trace import DEFAULT_STEPS, MAX_STEPS, TRACED, Tracer, method, trace
from queenslab.trace.html import PROJECTOR
from queenslab.trace.replay import DEFAULT_FPS, MAX_FRAMES, Frame, frames

HELP = "record a search step by step, and replay it in a browser or on a slide"
EXAMPLES = f"""examples:
  queens trace 8 --compare backtrack forward-checking --output bt-vs-fc8.html
  queens trace 8 --compare mac mac+mrv --projector --output mac-mrv8.html
  queens trace 8 --backend mac --output mac8.html
  queens trace 8 --backend forward-checking+mrv+lcv --all --output fc8.html
  queens trace 50 --backend minton --seed 1 --output minton50.html
  queens trace 6 --backend backtrack --all --output backtrack6.html
  queens trace 8 --backend bitmask --format jsonl | head
  queens trace 8 --backend minton --seed 2 --fps 2 --output slide.svg
  queens trace 8 --backend forward-checking --key-frames --fps 1 --output fc8.gif
  queens trace 6 --backend mac --all --max-frames 80 --output mac6.svg

{
    textwrap.fill(
        "Traced methods and their largest board: "
        + ", ".join(f"{k} {v.max_n}" for k, v in TRACED.items())
        + ".",
        88,
    )
}
backtrack, forward-checking and mac take orders: +mrv (fewest values left first) and
+lcv (least constraining value first), e.g. mac+mrv.
A trace records at most --max-steps steps (default {DEFAULT_STEPS}, at most {MAX_STEPS});
a longer search is cut there, its log ends with status "step limit" and the exit code is 3."""


@dataclass(frozen=True)
class Framing:
    """Which frames of a trace an animation shows (``replay.frames``), and how fast."""

    fps: float = DEFAULT_FPS
    budget: int = MAX_FRAMES
    key_only: bool = False
    scale: float = 1.0  # html: the text scale the page opens with

    def frames(self, tracer: Tracer, problem: Problem) -> list[Frame]:
        return frames(tracer, problem.board, self.fps, self.budget, self.key_only)


def _jsonl(tracers: list[Tracer], _problem: Problem, out: IO[Any], _framing: Framing) -> None:
    for tracer in tracers:
        for step in tracer.steps:
            out.write(json.dumps({"method": tracer.method, **step} if len(tracers) > 1 else step,
                                 separators=(",", ":")) + "\n")  # fmt: skip


def _html(tracers: list[Tracer], problem: Problem, out: IO[Any], framing: Framing) -> None:
    from queenslab.trace.html import page

    title = f"{' vs '.join(t.method for t in tracers)}, {problem.describe()}"
    out.write(page(tracers, problem, title, framing.scale))


def _svg(tracers: list[Tracer], problem: Problem, out: IO[Any], framing: Framing) -> None:
    from queenslab.trace.svg import document

    out.write(document(tracers[0], problem, framing.frames(tracers[0], problem)) + "\n")


def _gif(tracers: list[Tracer], problem: Problem, out: IO[Any], framing: Framing) -> None:
    from queenslab.trace.gif import write_gif

    with progress.progress_bar("drawing GIF frames") as bar:
        write_gif(tracers[0], problem, framing.frames(tracers[0], problem), out, bar)


@dataclass(frozen=True)
class Writer:
    suffix: str
    write: Callable[[list[Tracer], Problem, IO[Any], Framing], None]
    binary: bool = False
    pairs: bool = True  # can show two traces (--compare)
    frames: bool = False  # an animation: takes --fps, --key-frames, --max-frames


#: Format name -> how a trace is written in it.
WRITERS: dict[str, Writer] = {
    "jsonl": Writer(".jsonl", _jsonl),
    "html": Writer(".html", _html),
    "svg": Writer(".svg", _svg, pairs=False, frames=True),
    "gif": Writer(".gif", _gif, binary=True, pairs=False, frames=True),
}


def _spec(text: str) -> str:
    """A traced method, e.g. ``mac+mrv``; checked before anything runs."""
    try:
        method(text)
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _fps(text: str) -> float:
    try:
        value = float(text) if text.isascii() else math.nan
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0.1 <= value <= 60):
        raise argparse.ArgumentTypeError(f"--fps must be between 0.1 and 60, got {text!r}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    a.add_board(parser)
    parser.add_argument(
        "--backend", "-b", default="backtrack", type=_spec, metavar="METHOD",
        help=f"search to trace: {', '.join(TRACED)} (default backtrack)",
    )  # fmt: skip
    parser.add_argument(
        "--compare", nargs=2, type=_spec, metavar=("A", "B"),
        help="trace two methods on the same board, side by side on one page (html, jsonl)",
    )  # fmt: skip
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
    parser.add_argument(
        "--fps", type=_fps, default=DEFAULT_FPS,
        help=f"svg, gif: frames per second (default {DEFAULT_FPS:g}); solutions and the "
        "last board stay longer",
    )  # fmt: skip
    parser.add_argument(
        "--key-frames", action="store_true",
        help="svg, gif: only the first and last step, each solution and each failure "
        "(wipe-out, dead end)",
    )  # fmt: skip
    parser.add_argument(
        "--max-frames",
        type=lambda t: a.whole_number(t, "--max-frames", 1),
        metavar="K",
        help=f"svg, gif: at most K frames (default {MAX_FRAMES}): the first and last, then "
        "solutions, then failures, then other steps, each spread evenly once short of room",
    )
    parser.add_argument(
        "--projector", action="store_true",
        help=f"html: text {PROJECTOR:g} times larger (captions, legend, tree labels, "
        "numbers), for the back row; the < and > keys change it in the page",
    )  # fmt: skip
    parser.add_argument("--format", choices=list(WRITERS), help="default: from --output, jsonl")
    parser.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")


def _format(args: argparse.Namespace) -> str:
    asked: str | None = args.format
    if asked is not None:
        return asked
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
    writer = WRITERS[name]
    if args.compare and not writer.pairs:
        raise UsageError(f"--compare needs --format html or jsonl, not {name}")
    if (args.key_frames or args.max_frames is not None) and not writer.frames:
        raise UsageError(f"--key-frames and --max-frames need --format svg or gif, not {name}")
    if args.projector and name != "html":
        raise UsageError(f"--projector needs --format html, not {name}")
    budget = MAX_FRAMES if args.max_frames is None else args.max_frames
    framing = Framing(args.fps, budget, args.key_frames, PROJECTOR if args.projector else 1.0)
    if writer.binary and args.output is None and sys.stdout.isatty():
        raise UsageError(f"--format {name} is binary: give --output FILE")
    options = {"seed": args.seed, "every": args.all}
    if args.step is not None:
        options["step"] = args.step
    specs = args.compare or [args.backend]
    with atomic_output(args.output, writer.binary) as out:
        tracers = [trace(problem, spec, max_steps=args.max_steps, **options) for spec in specs]
        writer.write(tracers, problem, out, framing)
    if args.output is not None and sys.stderr.isatty():
        print(f"wrote {args.output}", file=sys.stderr)
    statuses = [tracer.steps[-1]["status"] for tracer in tracers]
    if any(tracer.truncated for tracer in tracers):
        print(f"trace cut after {args.max_steps} steps (--max-steps)", file=sys.stderr)
        return ExitCode.LIMIT
    if "no solution" in statuses:
        return ExitCode.NO_SOLUTION
    return ExitCode.OK if all(s in ("solved", "exhausted") for s in statuses) else ExitCode.LIMIT
