"""Free MPS, the column-wise MILP format every solver reads, with readable names.

Free rather than fixed MPS: names such as ``diag_down_12`` are longer than the eight
characters of the fixed columns. All variables are binary (``BV`` bounds); a weighted
problem maximises (``OBJSENSE MAX``), a feasibility problem has an empty objective.
"""

from __future__ import annotations

from typing import TextIO

from queenslab.boards import Cell
from queenslab.exports import linear
from queenslab.exports.spec import Instance, ModelInstance, commented, rules, title

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


_SENSES = {"=": "E", "<=": "L", ">=": "G"}


def write_model(instance: ModelInstance, out: TextIO) -> None:
    """A problem kind's model: its variables by name, a row per clause and constraint."""
    model = instance.model
    rows = linear.model_rows(model)
    entries: list[list[tuple[str, int]]] = [[] for _ in range(model.size)]
    for a, v in model.objective:
        entries[v].append(("objective", a))
    for row in rows:
        for a, v in row.terms:
            entries[v].append((row.name, a))
    out.write(commented(instance.header(), "*"))
    out.write(f"NAME {model.name}\n")
    if model.sense == "max":
        out.write("OBJSENSE\n    MAX\n")
    out.write("ROWS\n N objective\n")
    out.writelines(f" {_SENSES[row.sense]} {row.name}\n" for row in rows)
    out.write("COLUMNS\n")
    for v, column in enumerate(entries):
        name = instance.name(v)
        out.writelines(f"    {name} {row} {a}\n" for row, a in column or [("objective", 0)])
    out.write("RHS\n")
    out.writelines(f"    RHS {row.name} {row.rhs}\n" for row in rows if row.rhs)
    out.write("BOUNDS\n")
    out.writelines(f" BV BND {instance.name(v)}\n" for v in range(model.size))
    out.write("ENDATA\n")
