"""The CPLEX LP format, with readable names: ``q_3_5``, ``row_3``, ``diag_up_7``.

Written from the kind's model rather than through Pyomo's LP writer, which numbers
variables and constraints (``x1``, ``c_e_x3_``) unless asked for symbolic labels, and
even then spells them ``x(3,5)`` and ``groups(row_3)``, names some readers refuse.
HiGHS, CPLEX, Gurobi, SCIP, CBC and GLPK read the file.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TextIO

from queenslab.exports import linear
from queenslab.exports.spec import ModelInstance, commented

#: LP readers limit the length of a line (CPLEX: 510 characters): sums are wrapped.
_TERMS_PER_LINE = 8


def write_model(instance: ModelInstance, out: TextIO) -> None:
    """A problem kind's model: its variables by name, a row per clause and constraint."""
    model = instance.model

    def terms(pairs: Iterable[tuple[int, int]]) -> str:
        words = []
        for a, v in pairs:
            coefficient = "" if abs(a) == 1 else f"{abs(a)} "  # 1 q_0_0 reads as q_0_0
            words.append(f"{'-' if a < 0 else '+'} {coefficient}{instance.name(v)}")
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
