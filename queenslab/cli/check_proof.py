"""``queens check-proof CNF PROOF``: is PROOF a valid refutation of CNF? One line, exit 0, 1
or 2.

The proof is checked by the project's own checkers (``queenslab.proofs``): an LRAT proof
(text) step by step from its hints; a DRAT proof (text) first given its hints by
``proofs.drat`` (in a temporary file), then the same way. Any solver's proof can be
checked, not only those ``queens decide --proof`` writes.
"""

from __future__ import annotations

import argparse
import os
import tempfile

from queenslab.core.errors import ExitCode, UsageError
from queenslab.runtime import progress

HELP = "check a proof of unsatisfiability (text LRAT or DRAT) of a DIMACS CNF"
EXAMPLES = """examples:
  queens check-proof proof12/formula.cnf proof12/proof.lrat
  queens check-proof formula.cnf solver.drat --format drat"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("cnf", metavar="CNF", help="the formula, DIMACS CNF")
    parser.add_argument("proof", metavar="PROOF", help="its proof of unsatisfiability")
    parser.add_argument(
        "--format",
        choices=("lrat", "drat"),
        help="how PROOF is written (default: drat for a .drat file, else lrat)",
    )


def run(args: argparse.Namespace) -> int:
    from queenslab.proofs import drat, lrat, reading

    fmt = args.format or ("drat" if args.proof.endswith(".drat") else "lrat")
    try:
        with open(args.cnf, encoding="ascii") as text:
            formula = lrat.read_cnf(text)
    except lrat.ProofError as exc:  # bad input, not a proof found wrong
        raise UsageError(f"{args.cnf} is not a DIMACS CNF: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise _unreadable(args.cnf, exc) from None
    try:
        size = os.path.getsize(args.proof)
        with (
            open(args.proof, encoding="ascii") as proof,
            progress.progress_bar(f"checking {args.proof} (bytes)") as bar,
        ):
            lines = reading.reported(proof, size, bar)
            if fmt == "lrat":
                steps = lrat.check(formula, lines)
            else:
                with tempfile.TemporaryFile("w+", encoding="ascii") as hinted:
                    drat.to_lrat(formula, lines, hinted)
                    hinted.seek(0)
                    steps = lrat.check(formula, hinted)
    except lrat.ProofError as exc:
        print(f"invalid: {exc}")
        return ExitCode.NO_SOLUTION
    except (OSError, UnicodeDecodeError) as exc:
        raise _unreadable(args.proof, exc) from None
    print(f"valid: {steps} clauses added, the empty clause derived ({len(formula)} in the CNF)")
    return ExitCode.OK


def _unreadable(path: str, exc: OSError | UnicodeDecodeError) -> UsageError:
    """The one line for a file that cannot be read as text: naming that file alone."""
    if isinstance(exc, UnicodeDecodeError):
        return UsageError(f"{path} is not a text file")
    return UsageError(f"cannot read {path}: {exc.strerror}")
