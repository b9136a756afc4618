"""``queens check-proof CNF PROOF``: is PROOF a valid refutation of CNF? One line, exit 0, 1
or 2.

The proof is checked by the project's own checkers (``queenslab.proofs``): an LRAT proof
(text) step by step from its hints; a DRAT proof (text) first given its hints by
``proofs.drat`` (in a temporary file), then the same way. Any solver's proof can be
checked, not only those ``queens decide --proof`` writes. A split proof's cube file
(``cubes.txt``, ``decide --split D --proof DIR``) is checked whole by ``proofs.cubes``:
the cubes cover every case and each ``cube-K`` folder's proof (its LRAT, else its DRAT)
refutes the formula under cube K.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from queenslab.core.errors import ExitCode, UsageError
from queenslab.runtime import progress

if TYPE_CHECKING:
    from collections.abc import Sequence

    from queenslab.proofs.lrat import Clause

HELP = "check a proof of unsatisfiability (text LRAT, DRAT or a split's cubes) of a DIMACS CNF"
EXAMPLES = """examples:
  queens check-proof proof12/formula.cnf proof12/proof.lrat
  queens check-proof formula.cnf solver.drat --format drat
  queens check-proof split14/formula.cnf split14/cubes.txt"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("cnf", metavar="CNF", help="the formula, DIMACS CNF")
    parser.add_argument("proof", metavar="PROOF", help="its proof of unsatisfiability")
    parser.add_argument(
        "--format",
        choices=("lrat", "drat", "cubes"),
        help="how PROOF is written (default: drat for a .drat file, cubes for a split "
        "proof's cubes.txt, else lrat)",
    )


def run(args: argparse.Namespace) -> int:
    from queenslab.proofs import cubes, lrat

    fmt = args.format or _format(args.proof)
    try:
        with open(args.cnf, encoding="ascii") as text:
            formula = lrat.read_cnf(text)
    except lrat.ProofError as exc:  # bad input, not a proof found wrong
        raise UsageError(f"{args.cnf} is not a DIMACS CNF: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise _unreadable(args.cnf, exc) from None
    try:
        if fmt == "cubes":
            count, steps = cubes.check(formula, Path(args.proof), _cube_refuted)
        else:
            steps = _refuted(formula, args.proof, fmt)
    except lrat.ProofError as exc:
        print(f"invalid: {exc}")
        return ExitCode.NO_SOLUTION
    except (OSError, UnicodeDecodeError) as exc:
        raise _unreadable(getattr(exc, "filename", None) or args.proof, exc) from None
    if fmt == "cubes":
        print(f"valid: {count} cubes cover every case, each refuted ({steps} clauses added)")
    else:
        print(f"valid: {steps} clauses added, the empty clause derived ({len(formula)} in the CNF)")
    return ExitCode.OK


def _format(proof: str) -> str:
    """The format a proof file's name says."""
    if proof.endswith(".drat"):
        return "drat"
    return "cubes" if os.path.basename(proof) == "cubes.txt" else "lrat"


def _refuted(formula: Sequence[Clause], path: str, fmt: str) -> int:
    """The clauses the proof at ``path`` (``lrat`` or ``drat``) adds to refute ``formula``;
    ProofError when it does not."""
    from queenslab.proofs import drat, lrat, reading

    size = os.path.getsize(path)
    with (
        open(path, encoding="ascii") as proof,
        progress.progress_bar(f"checking {path} (bytes)") as bar,
    ):
        lines = reading.reported(proof, size, bar)
        if fmt == "lrat":
            return lrat.check(formula, lines)
        with tempfile.TemporaryFile("w+", encoding="ascii") as hinted:
            drat.to_lrat(formula, lines, hinted)
            hinted.seek(0)
            return lrat.check(formula, hinted)


def _cube_refuted(formula: Sequence[Clause], folder: Path) -> int:
    """A cube folder's proof: its LRAT when there is one, else its DRAT."""
    lrat_file = folder / "proof.lrat"
    if lrat_file.exists():
        return _refuted(formula, str(lrat_file), "lrat")
    return _refuted(formula, str(folder / "proof.drat"), "drat")


def _unreadable(path: str, exc: OSError | UnicodeDecodeError) -> UsageError:
    """The one line for a file that cannot be read as text: naming that file alone."""
    if isinstance(exc, UnicodeDecodeError):
        return UsageError(f"{path} is not a text file")
    return UsageError(f"cannot read {path}: {exc.strerror}")
