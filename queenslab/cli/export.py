"""``queens export``: the model in a standard format, for solvers queenslab does not wrap."""

from __future__ import annotations

import argparse
from typing import Any

from queenslab.cli import arguments as a
from queenslab.core.errors import ExitCode

HELP = "write the model as DIMACS, WCNF, OPB, LP, MPS, CP-SAT proto or MiniZinc"
EXAMPLES = """examples:
  queens export 8 --format dimacs > eight.cnf
  queens export 8 --format lp --given 0:0 --output eight.lp
  queens export 8 --output eight.mzn --variant toroidal --blocked 0:0
  queens export 8 --format wcnf --weights weights.csv --encoding seqcounter
  queens export 10 --format cpsat --weights weights.json --output ten.pbtxt
  queens export 8 --problem domination --format lp --output domination8.lp
  queens export 8 --problem independent-domination --symmetry lex-leader --format wcnf"""


def add_model_arguments(parser: argparse.ArgumentParser) -> None:
    """The board, the cardinality encoding of the CNF formats, and the output file."""
    from queenslab.models.cnf import ENCODING_OPTION

    a.add_board(parser)
    parser.add_argument(
        "--encoding",
        default=ENCODING_OPTION.default,
        choices=ENCODING_OPTION.choices,
        metavar="ENC",
        help=f"dimacs, wcnf: {ENCODING_OPTION.help} ({', '.join(ENCODING_OPTION.choices)})",
    )
    parser.add_argument("--output", "-o", metavar="FILE", help="write here instead of stdout")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from queenslab.exports import FORMATS

    parser.add_argument(
        "--format",
        choices=list(FORMATS),
        help="; ".join(f"{e.name}: {e.help} ({e.suffix})" for e in FORMATS.values())
        + "; default: from the suffix of --output",
    )
    add_model_arguments(parser)
    parser.add_argument(
        "--weights",
        metavar="FILE",
        help="n x n integers, JSON or CSV: the weighted problem (maximise the queens' weight)",
    )
    a.add_problem(parser)


def write_model(
    args: argparse.Namespace, name: str, weights_file: str | None = None, **question: Any
) -> int:
    """Write the board of ``args`` in export format ``name``, to stdout or --output: the
    placement kind's model, or with ``question`` (``kind``, ``model``, ``symmetry``:
    ``--problem``) that problem's (``api.export``)."""
    from queenslab import api
    from queenslab.io.output import atomic_output
    from queenslab.io.weights import load_weights

    problem = a.problem(args)
    weights = load_weights(weights_file, problem.n) if weights_file else None
    with atomic_output(args.output) as out:
        api.export(
            problem, format=name, out=out, weights=weights, encoding=args.encoding, **question
        )
    return ExitCode.OK


def run(args: argparse.Namespace) -> int:
    from queenslab import exports

    name = exports.choose(args.format, args.output).name
    return write_model(args, name, args.weights, **a.kind_arguments(args))
