"""The OPB format of the Pseudo-Boolean Competition (linear 0-1 constraints).

Written from the kind's model: variable v is ``x(v + 1)``, as in DIMACS (the placement
kind's open cells row by row). The format knows only ``>=`` and ``=``, so "at most one"
is written ``-1 xa -1 xb ... >= -1``. A maximum is written as the minimum of its negation
(``min:``), so the optimum the solver reports is minus the model's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from queenslab.exports import linear
from queenslab.exports.spec import ModelInstance, commented


def write_model(instance: ModelInstance, out: TextIO) -> None:
    """A problem kind's model: variable v is ``x(v + 1)``, as in DIMACS; ``<=`` rows are
    negated into ``>=``, a maximised objective into a minimised one."""
    model = instance.model
    rows = linear.model_rows(model)

    def terms(pairs: Iterable[tuple[int, int]]) -> str:
        return " ".join(f"{a:+d} x{v + 1}" for a, v in pairs)

    out.write(f"* #variable= {model.size} #constraint= {len(rows)}\n")
    notes = [*instance.header(), instance.numbered("x")]
    if model.sense == "max" and model.objective:
        notes.append("objective: minimise minus the model's objective")
    out.write(commented(notes, "*"))
    if model.objective:
        sign = -1 if model.sense == "max" else 1
        out.write(f"min: {terms((sign * a, v) for a, v in model.objective)} ;\n")
    for row in rows:
        if row.sense == "<=":
            out.write(f"{terms((-a, v) for a, v in row.terms)} >= {-row.rhs} ;\n")
        else:
            out.write(f"{terms(row.terms)} {row.sense} {row.rhs} ;\n")
