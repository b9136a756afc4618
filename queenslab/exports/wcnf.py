"""A kind's model as WCNF, the format of the MaxSAT Evaluations since 2022.

Hard clauses start with ``h``, soft clauses with their weight; there is no ``p`` line. A
MaxSAT solver minimises the total weight of the falsified soft clauses, and weights must
be positive: each term of the objective is a soft unit clause (weighted N-queens: a cell
of weight w > 0 is the soft clause (x) of weight w, which costs w when the cell is empty,
one of weight w < 0 the clause (¬x) of weight -w). The header says how the objective is
read back from the cost.
"""

from __future__ import annotations

from typing import TextIO

from queenslab.exports.dimacs import model_header
from queenslab.exports.spec import ModelInstance, commented


def write_model(instance: ModelInstance, out: TextIO) -> None:
    """A kind's clauses and cardinality constraints as hard clauses, its objective as soft
    unit clauses (``models.zero_one.cnf.penalties``)."""
    from queenslab.models.zero_one.cnf import encode, penalties

    hard = encode(instance.model, instance.encoding)
    goal = penalties(instance.model)
    notes = [
        *model_header(instance, hard.top),
        "soft clause (-l) of weight w: the literal l costs w when true",
        f"objective = {goal.sign} * (cost of the falsified soft clauses + {goal.offset})",
    ]
    out.write(commented(notes, "c"))
    out.writelines("h " + " ".join(map(str, clause)) + " 0\n" for clause in hard.clauses)
    out.writelines(f"{w} {-lit} 0\n" for w, lit in goal.weighted)
