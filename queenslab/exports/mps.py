"""Free MPS, the column-wise MILP format every solver reads, with readable names.

Written from the kind's model, named as in the LP export. Free rather than fixed MPS:
names such as ``diag_down_12`` are longer than the eight characters of the fixed columns.
All variables are binary (``BV`` bounds); a maximum says so (``OBJSENSE MAX``), a model
with nothing to optimise has an empty objective.
"""

from __future__ import annotations

from typing import TextIO

from queenslab.exports import linear
from queenslab.exports.spec import ModelInstance, commented

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
