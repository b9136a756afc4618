"""``queens cnf``: the board's CNF in DIMACS, for any SAT solver or model counter."""

from __future__ import annotations

import argparse
import sys

from queenslab.cli import arguments as a

HELP = "write the N-queens CNF in DIMACS format to stdout"
EXAMPLES = """examples:
  queens cnf 8 > eight.cnf
  queens cnf 8 --encoding seqcounter --given 0:0
  queens cnf 11 --variant toroidal --blocked 0:0"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from queenslab.models.cnf import ENCODING_OPTION

    a.add_board(parser)
    parser.add_argument(
        "--encoding",
        default=ENCODING_OPTION.default,
        choices=ENCODING_OPTION.choices,
        help=ENCODING_OPTION.help,
    )


def run(args: argparse.Namespace) -> int:
    from queenslab.models.cnf import write_dimacs

    write_dimacs(a.problem(args), args.encoding, sys.stdout)
    return a.EXIT_OK
