"""``queens generate``: random hard instances (completion, blocked, excluded diagonals)."""

from __future__ import annotations

import argparse
import math
import os

from queenslab.cli import arguments as a
from queenslab.core.errors import ExitCode, UsageError

HELP = "random instances from the generators of Gent, Jefferson and Nightingale"
#: Most instances written by one command (each is drawn, written and forgotten in turn).
MAX_COUNT = 100_000
EXAMPLES = """examples:
  queens generate --kind blocked --n 12 --density 0.5 --seed 1
  queens generate --kind completion --n 20 --density 0.3 --seed 1 --count 10 --output inst
  queens generate --kind excluded-diagonals --n 14 --density 1.0 --min-open 4 --output inst
  queens count --instance inst/blocked-n12-d0.5-s1.json"""


def density(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0):
        raise argparse.ArgumentTypeError(f"must be a number >= 0, got {text!r}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from queenslab.lab.generators import KIND_DENSITY

    add_instance_arguments(parser)
    parser.add_argument("--n", type=a.board_size, required=True, help="board size")
    parser.add_argument(
        "--density",
        type=density,
        required=True,
        help="; ".join(f"{kind}: {what}" for kind, what in KIND_DENSITY.items()),
    )
    parser.add_argument(
        "--seed",
        type=lambda t: a.whole_number(t, "--seed"),
        default=0,
        help="random seed of the first instance; the k-th uses SEED + k (default 0)",
    )
    parser.add_argument(
        "--count",
        type=lambda t: a.whole_number(t, "--count", 1, MAX_COUNT),
        default=1,
        help=f"instances to write (default 1, at most {MAX_COUNT:,})",
    )
    parser.add_argument(
        "--output",
        "-o",
        metavar="DIR",
        help="write KIND-nN-dD-sS.json files here (created if needed) and list them; "
        "default: one instance on stdout",
    )


def add_instance_arguments(parser: argparse.ArgumentParser) -> None:
    """--kind, --min-open and --variant: how instances are drawn (also for hardness-study)."""
    from queenslab import boards
    from queenslab.lab.generators import DEFAULT_MIN_OPEN, GENERATORS

    parser.add_argument(
        "--kind", choices=list(GENERATORS), required=True, help="instance generator"
    )
    parser.add_argument(
        "--min-open",
        type=lambda t: a.whole_number(t, "--min-open"),
        default=DEFAULT_MIN_OPEN,
        metavar="K",
        help="blocked, excluded-diagonals: open cells every row and column keeps "
        f"(default {DEFAULT_MIN_OPEN})",
    )
    parser.add_argument(
        "--variant",
        default=boards.DEFAULT_VARIANT,
        choices=list(boards.VARIANTS),
        help="rules of attack (the paper's generators are for the standard board)",
    )


def file_name(kind: str, n: int, density: float, seed: int) -> str:
    return f"{kind}-n{n}-d{density:g}-s{seed}.json"


def run(args: argparse.Namespace) -> int:
    from queenslab.io.instance import write
    from queenslab.lab.generators import generate

    if args.output is None and args.count > 1:
        raise UsageError("give --output DIR to write more than one instance")
    seeds = range(args.seed, args.seed + args.count)
    instances = (
        generate(args.kind, args.n, args.density, seed, min_open=args.min_open,
                 variant=args.variant)
        for seed in seeds
    )  # fmt: skip
    if args.output is None:
        print(next(instances).dumps(), end="")
        return ExitCode.OK
    try:
        os.makedirs(args.output, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot create {args.output}: {exc.strerror or exc}") from None
    for instance in instances:
        seed = instance.provenance["seed"]
        path = os.path.join(args.output, file_name(args.kind, args.n, args.density, seed))
        write(instance, path)
        print(path)
    return ExitCode.OK
