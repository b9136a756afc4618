"""``queens export``: the model in a standard format, for solvers queenslab does not wrap."""

from __future__ import annotations

import argparse

from queenslab.cli import arguments as a
from queenslab.core.errors import ExitCode
from queenslab.problems import DEFAULT_KIND

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


def write_model(args: argparse.Namespace, name: str, weights_file: str | None = None) -> int:
    """Write the board of ``args`` in export format ``name``, to stdout or --output."""
    from queenslab import exports
    from queenslab.io.output import atomic_output
    from queenslab.io.weights import load_weights

    problem = a.problem(args)
    weights = load_weights(weights_file, problem.n) if weights_file else None
    instance = exports.Instance(problem, weights, args.encoding)
    with atomic_output(args.output) as out:
        exports.write(instance, name, out)
    return ExitCode.OK


def run(args: argparse.Namespace) -> int:
    from queenslab import exports

    name = exports.choose(args.format, args.output).name
    if args.problem == DEFAULT_KIND:
        a.refuse_kind_model(args)
        return write_model(args, name, args.weights)
    return _write_kind_model(args, name)


def _write_kind_model(args: argparse.Namespace, name: str) -> int:
    """Write the 0-1 model of the problem kind of ``args`` in format ``name``."""
    from queenslab import api, exports
    from queenslab.io.output import atomic_output
    from queenslab.io.weights import load_weights

    problem = api.make_problem(a.problem(args), problem=args.problem)
    weights = load_weights(args.weights, problem.n) if args.weights else None
    model = api.problem_model(problem, None, args.model, args.symmetry, weights=weights)
    instance = exports.ModelInstance(problem, model, args.symmetry, args.encoding)
    write = exports.model_writer(name)
    with atomic_output(args.output) as out:
        write(instance, out)
    return ExitCode.OK
