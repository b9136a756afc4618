"""Free MPS, the column-wise MILP format every solver reads, with readable names.

Free rather than fixed MPS: names such as ``diag_down_12`` are longer than the eight
characters of the fixed columns. All variables are binary (``BV`` bounds); a weighted
problem maximises (``OBJSENSE MAX``), a feasibility problem has an empty objective.
"""

from __future__ import annotations

from typing import TextIO

from queenslab.boards import Cell
from queenslab.exports import linear
from queenslab.exports.spec import Instance, commented, rules, title

_OBJECTIVE = "total_weight"


def write(instance: Instance, out: TextIO) -> None:
    problem = instance.problem
    constraints = linear.rows(problem)
    entries: dict[Cell, list[tuple[str, int]]] = {cell: [] for cell in linear.cells(problem)}
    for w, cell in instance.weighted_cells():
        entries[cell].append((_OBJECTIVE, w))
    for row in constraints:
        for k, cell in row.terms():
            entries[cell].append((row.name, k))
    out.write(
        commented(
            [
                *title(problem),
                "x_rR_cC = 1 when a queen stands on row R, column C (0-based)",
                rules(problem),
            ],
            "*",
        )
    )
    out.write(f"NAME queens{problem.n}\n")
    if instance.weights is not None:
        out.write("OBJSENSE\n    MAX\n")
    out.write(f"ROWS\n N {_OBJECTIVE}\n")
    out.writelines(f" {'E' if row.equal else 'L'} {row.name}\n" for row in constraints)
    out.write("COLUMNS\n")
    for cell, column in entries.items():
        name = linear.variable(cell)
        out.writelines(f"    {name} {row} {k}\n" for row, k in column or [(_OBJECTIVE, 0)])
    out.write("RHS\n")
    out.writelines(f"    RHS {row.name} {row.rhs}\n" for row in constraints if row.rhs)
    out.write("BOUNDS\n")
    out.writelines(f" BV BND {linear.variable(cell)}\n" for cell in entries)
    out.write("ENDATA\n")
