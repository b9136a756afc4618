"""DIMACS CNF: the SAT competition's input format, for any SAT solver or model counter.

Written from the kind's model, encoded as every model backend encodes it
(``models.zero_one.cnf.encode``): variable v + 1 is the model's variable v (the placement
kind's open cells row by row, as the header shows), the auxiliary variables of the
cardinality encoding come after them. The ``c p show`` line lists the answer's variables:
projected model counters (Ganak, ApproxMC) count answers, not assignments of the
auxiliary variables.
"""

from __future__ import annotations

from typing import TextIO

from queenslab.exports.spec import ModelInstance, commented


def model_header(instance: ModelInstance, top: int) -> list[str]:
    """What the variables of a kind's CNF mean (shared with the WCNF writer)."""
    size = instance.model.size
    auxiliary = f"{size + 1}..{top}" if top > size else "none"
    return [
        *instance.header(),
        instance.numbered(),
        f"auxiliary variables of the {instance.encoding} encoding: {auxiliary}",
    ]


def write_model(instance: ModelInstance, out: TextIO) -> None:
    """A kind's clauses and cardinality constraints, without its objective (which CNF
    cannot state: the WCNF export has it); ``c p show`` lists the answer's variables."""
    from queenslab.models.cnf import write_dimacs
    from queenslab.models.zero_one.cnf import encode

    model = instance.model
    cnf = encode(model, instance.encoding)
    notes = model_header(instance, cnf.top)
    if model.objective:
        notes.append("the objective is left out: every feasible answer is a model")
    out.write(commented(notes, "c"))
    out.write(f"c p show {' '.join(str(v + 1) for v in model.answer)} 0\n")
    write_dimacs(out, cnf.top, cnf.clauses)
