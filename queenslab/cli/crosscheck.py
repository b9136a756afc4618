"""``queens crosscheck``: every backend against each other and the published values, for any
problem kind (``lab.crosscheck``)."""

from __future__ import annotations

import argparse
import json

from queenslab.cli import arguments as a
from queenslab.core.errors import ExitCode
from queenslab.runtime import progress

HELP = "all backends vs each other and OEIS, for any problem kind"
EXAMPLES = """examples:
  queens crosscheck
  queens crosscheck --n 1-9 --backend bitmask --backend milp --format json
  queens crosscheck --n 8-10 --stats
  queens crosscheck --variant toroidal --n 1-13
  queens crosscheck --variant superqueens --n 1-12 --blocked 0:0
  queens crosscheck --problem domination --n 1-8
  queens crosscheck --problem domination --variant toroidal --n 1-9 -b milp -b sat"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--n", type=a.n_range, default=range(1, 11), metavar="FIRST-LAST", help="sizes (1-10)"
    )
    a.add_board_rules(parser)
    parser.add_argument("--backend", "-b", action="append", help="only these (repeatable)")
    parser.add_argument("--format", choices=["text", "json"], default="text")
    a.add_problem(parser)
    parser.add_argument(
        "--stats",
        action="store_true",
        help="each answer's statistics (JSON), or its effort figure (text)",
    )


def run(args: argparse.Namespace) -> int:
    from queenslab.core.stats import summary
    from queenslab.lab.crosscheck import crosscheck

    with progress.progress_bar("cross-checking") as bar:
        report = crosscheck(args.n, args.backend, problem=args.problem, variant=args.variant,
                            blocked=a.blocked_cells(args), model=args.model,
                            symmetry=args.symmetry, progress=bar)  # fmt: skip
    if args.verbose:
        for table in report.tables.values():
            for row in table.rows:
                for name, cell in {**row.counts, **row.heuristics}.items():
                    if cell.stats:
                        a.say(args, f"n={row.n} {name}: {cell.text()}; {summary(cell.stats)}")
    if args.format == "json":
        print(json.dumps(report.to_json(args.stats)))
    else:
        print(report.to_text(args.stats))
    return ExitCode.OK if report.ok else ExitCode.NO_SOLUTION
