"""The OPB format of the Pseudo-Boolean Competition (linear 0-1 constraints).

Variables are ``x1``..``xn²`` (cell (r, c) is ``x(r*n + c + 1)``, as in DIMACS). The format
knows only ``>=`` and ``=``, so "at most one" is written ``-1 xa -1 xb ... >= -1``. The
weighted problem minimises the negated total weight (``min:``), so the optimum the
solver reports is minus the best total weight.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from queenslab.boards import Cell
from queenslab.exports import linear
from queenslab.exports.spec import Instance, commented, rules, title


def _sum(terms: Iterable[tuple[int, Cell]], n: int) -> str:
    from queenslab.models.cnf import cell

    return " ".join(f"{k:+d} x{cell(n, r, c)}" for k, (r, c) in terms)


def write(instance: Instance, out: TextIO) -> None:
    problem = instance.problem
    n = problem.n
    constraints = linear.rows(problem)
    out.write(f"* #variable= {n * n} #constraint= {len(constraints)}\n")
    notes = [
        *title(problem),
        f"x(r*{n} + c + 1) is 1 when a queen stands on cell (r, c) (0-based r, c)",
        rules(problem),
        "constraints: blocked cells = 0, then rows, columns, diagonals"
        + (", knight-move pairs" if problem.board.variant.leaps else "")
        + ", then given queens = 1",
    ]
    if instance.weights is not None:
        notes.append("objective: minimise minus the total weight of the queens")
    out.write(commented(notes, "*"))
    if instance.weights is not None:
        objective = [(-w, cell) for w, cell in instance.weighted_cells()]
        out.write(f"min: {_sum(objective or [(0, (0, 0))], n)} ;\n")
    for row in constraints:
        if row.equal:
            out.write(f"{_sum(row.terms(), n)} = {row.rhs} ;\n")
        else:  # sum <= rhs as -sum >= -rhs
            negated = [(-k, cell) for k, cell in row.terms()]
            out.write(f"{_sum(negated, n)} >= {-row.rhs} ;\n")
