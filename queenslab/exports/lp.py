"""The CPLEX LP format, with readable names: ``x_r3_c5``, ``row_3``, ``diag_up_7``.

Written from the board's groups rather than through Pyomo's LP writer, which numbers
variables and constraints (``x1``, ``c_e_x3_``) unless asked for symbolic labels, and
even then spells them ``x(3,5)`` and ``groups(row_3)``, names some readers refuse.
HiGHS, CPLEX, Gurobi, SCIP, CBC and GLPK read the file.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from queenslab.boards import Cell
from queenslab.exports import linear
from queenslab.exports.spec import Instance, ModelInstance, commented, rules, title

#: LP readers limit the length of a line (CPLEX: 510 characters): sums are wrapped.
_TERMS_PER_LINE = 8


def _sum(terms: Iterable[tuple[int, Cell]]) -> str:
    words = []
    for k, cell in terms:
        sign = "-" if k < 0 else "+"
        coefficient = "" if abs(k) == 1 else f"{abs(k)} "
        words.append(f"{sign} {coefficient}{linear.variable(cell)}")
    words[0] = words[0].removeprefix("+ ")
    return linear.wrapped(words, "   ", _TERMS_PER_LINE).lstrip()


def write(instance: Instance, out: TextIO) -> None:
    problem = instance.problem
    out.write(
        commented(
            [
                *title(problem),
                "x_rR_cC = 1 when a queen stands on row R, column C (0-based)",
                rules(problem),
            ],
            "\\",
        )
    )
    if instance.weights is None:
        out.write("Minimize\n no_objective: 0 x_r0_c0\n")
    else:
        weighted = instance.weighted_cells() or [(0, (0, 0))]
        out.write(f"Maximize\n total_weight: {_sum((w, cell) for w, cell in weighted)}\n")
    out.write("Subject To\n")
    for row in linear.rows(problem):
        sense = "=" if row.equal else "<="
        out.write(f" {row.name}: {_sum(row.terms())} {sense} {row.rhs}\n")
    names = [linear.variable(cell) for cell in linear.cells(problem)]
    out.write(f"Binary\n{linear.wrapped(names, ' ', _TERMS_PER_LINE)}\nEnd\n")


def write_model(instance: ModelInstance, out: TextIO) -> None:
    """A problem kind's model: its variables by name, a row per clause and constraint."""
    model = instance.model

    def terms(pairs: Iterable[tuple[int, int]]) -> str:
        words = [f"{'-' if a < 0 else '+'} {abs(a)} {instance.name(v)}" for a, v in pairs]
        words[0] = words[0].removeprefix("+ ")
        return linear.wrapped(words, "   ", _TERMS_PER_LINE).lstrip()

    out.write(commented(instance.header(), "\\"))
    sense = "Minimize" if model.sense == "min" else "Maximize"
    out.write(f"{sense}\n objective: {terms(model.objective or ((0, 0),))}\n")
    out.write("Subject To\n")
    for row in linear.model_rows(model):
        out.write(f" {row.name}: {terms(row.terms)} {row.sense} {row.rhs}\n")
    names = [instance.name(v) for v in range(model.size)]
    out.write(f"Binary\n{linear.wrapped(names, ' ', _TERMS_PER_LINE)}\nEnd\n")
