"""``queens decide N --problem P --value K``: is there an answer of value K or better?

Exit codes: 0 yes (the answer is drawn, checked by the kind's checker), 1 no (proven), 3 a
limit, 2 bad usage. ``--proof DIR`` keeps the CNF and the solver's proof of a no, checked
by the project's own checker (``queenslab.proofs``) before the output says ``checked``. A
no names the facts its formula assumed beyond the board's rules (``assumes: ...``), and
``--axioms none`` builds a formula without those not asked for.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from queenslab import api
from queenslab.cli import arguments as a
from queenslab.cli.reach import say_beyond_reach
from queenslab.core.backend import Task
from queenslab.core.model import AXIOMS
from queenslab.core.result import DecideResult
from queenslab.io import formats
from queenslab.io.output import atomic_output
from queenslab.runtime import progress

HELP = "is there an answer of a problem of value K or better? (yes, with the answer; or no)"
EXAMPLES = """examples:
  queens decide 8 --problem domination --value 5
  queens decide 8 --problem domination --value 4 --backend cpsat --format json
  queens decide 10 --problem peaceable --value 14 --backend sat
  queens decide 14 --problem domination --value 7 -b sat --model hilbert --proof proof14
  queens decide 14 --problem domination --value 7 -b sat --model hilbert --axioms none --proof p14
  queens decide 12 --problem domination --value 5 --backend sat --split 4 --workers 2"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    a.add_board(parser)
    a.add_run(parser)
    a.add_problem(parser)
    parser.add_argument(
        "--value",
        type=lambda text: a.whole_number(text, "--value", 0, 10**9),
        metavar="K",
        help="the value asked about: at most K for a minimum, at least K for a maximum",
    )
    parser.add_argument(
        "--proof",
        metavar="DIR",
        help="sat backend: write the CNF and the solver's proof of a no here, and check it",
    )
    parser.add_argument(
        "--split",
        type=lambda text: a.whole_number(text, "--split", 1, 12),
        metavar="D",
        help="cube and conquer (sat, cpsat): 2^D cubes over the D cells of highest degree, "
        "--workers at a time; no only when every cube is refuted",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDR",
        help="solve the pieces of a split proof (--split's cubes, or the row colourings of "
        "-b armies) on this Dask scheduler",
    )
    parser.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="keep the refuted pieces of a split proof (as --scheduler) in this SQLite file; "
        "a rerun skips them",
    )
    parser.add_argument(
        "--axioms",
        default="all",
        choices=AXIOMS,
        help="all: the model states the facts it knows beyond the board's rules (a theorem's "
        "bound, implied sums, its own symmetry breaking); none: only what is asked "
        "(--symmetry), so a no and its proof are about the board alone",
    )
    parser.add_argument("--format", choices=("text", "json"), help="default: text")
    parser.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")
    a.add_backend_options(parser, Task.DECIDE, besides=("scheduler", "checkpoint"))


def run(args: argparse.Namespace) -> int:
    fmt = formats.choose(args.format, args.output, ["text", "json"], "text").name
    problem = a.problem(args)
    say_beyond_reach(problem, args.problem, args.backend)
    with atomic_output(args.output) as out:
        shown = f"pieces refuted, {problem.describe()}"  # drawn if the search reports them
        if args.split is not None:
            shown = f"cubes refuted, {problem.describe()}"
        elif args.proof:
            shown = f"checking the proof (bytes), {problem.describe()}"
        with progress.progress_bar(shown) as bar:
            result = api.decide(problem, kind=args.problem, value=args.value, backend=args.backend,
                                **a.whole_run_limits(args), model=args.model,
                                symmetry=args.symmetry, proof=args.proof, progress=bar,
                                split=args.split, scheduler=args.scheduler,
                                checkpoint=args.checkpoint, axioms=args.axioms,
                                **a.backend_options(args))  # fmt: skip
        if fmt == "json":
            out.write(json.dumps(result.to_json()) + "\n")
        else:
            _write_text(result, out)
    a.say_result(args, result)
    if result.message:
        print(f"queens: {result.backend}: {result.message}", file=sys.stderr)
    return result.status.exit_code


def _write_text(result: DecideResult, out: TextIO) -> None:
    """``domination n=8 ...: value <= 5: yes (5)`` then the answer, or ``no`` and the
    proof's effort and check."""
    from queenslab.core.stats import summary
    from queenslab.problems import kind

    question = kind(result.kind)
    relation = "<=" if question.sense == "min" else ">="
    board = result.problem.describe() if result.problem else ""
    line = f"{result.kind} {board}: value {relation} {result.value}: {result.status}"
    if result.objective is not None:
        line += f" ({result.objective})"
    out.write(line + "\n")
    if result.answer is not None and result.problem is not None:
        out.write(question.text(result.problem.board, result.answer) + "\n")
    elif result.status == "no":
        out.write(f"statistics: {summary(result.stats)}\n")
        out.write(assumes(result) + "\n")
    if result.proof:
        out.write(f"proof {result.proof}: {result.proof_dir}\n")


def assumes(result: DecideResult) -> str:
    """The one line naming what a no rests on beyond the board's rules."""
    if result.assumptions is None:
        return f"assumes: no formula (the {result.backend} backend's own search)"
    facts = "; ".join(fact.brief() for fact in result.assumptions)
    return "assumes: " + (facts or "nothing beyond the board's rules")
