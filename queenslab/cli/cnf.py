"""``queens cnf``: the board's CNF in DIMACS, the same as ``queens export --format dimacs``."""

from __future__ import annotations

import argparse

from queenslab.cli.export import add_model_arguments, write_model

HELP = "write the N-queens CNF in DIMACS format (= export --format dimacs)"
EXAMPLES = """examples:
  queens cnf 8 > eight.cnf
  queens cnf 8 --encoding seqcounter --given 0:0
  queens cnf 11 --variant toroidal --blocked 0:0"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_model_arguments(parser)


def run(args: argparse.Namespace) -> int:
    return write_model(args, "dimacs")
