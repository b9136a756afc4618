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
from queenslab.exports.spec import Instance, ModelInstance, commented, rules, title


def _sum(terms: Iterable[tuple[int, Cell]], n: int) -> str:
    return " ".join(f"{k:+d} x{r * n + c + 1}" for k, (r, c) in terms)


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


def write_model(instance: ModelInstance, out: TextIO) -> None:
    """A problem kind's model: variable v is ``x(v + 1)``, as in DIMACS; ``<=`` rows are
    negated into ``>=``, a maximised objective into a minimised one."""
    model = instance.model
    rows = linear.model_rows(model)

    def terms(pairs: Iterable[tuple[int, int]]) -> str:
        return " ".join(f"{a:+d} x{v + 1}" for a, v in pairs)

    out.write(f"* #variable= {model.size} #constraint= {len(rows)}\n")
    notes = [*instance.header(), "x(v + 1) is variable v of the model, named as in the LP export"]
    if model.sense == "max":
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
