"""Weighted N-queens as WCNF, the format of the MaxSAT Evaluations since 2022.

Hard clauses start with ``h``, soft clauses with their weight; there is no ``p`` line. A
MaxSAT solver minimises the total weight of the falsified soft clauses, and weights must
be positive: a cell of weight w > 0 is the soft clause (x) of weight w (it costs w when
empty), a cell of weight w < 0 the soft clause (¬x) of weight -w (it costs -w when
occupied). The total weight of the queens is then the sum of the positive weights minus
the cost, as the header says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from queenslab.exports.dimacs import header, model_header
from queenslab.exports.spec import Instance, ModelInstance, commented

if TYPE_CHECKING:
    from queenslab.models.cnf import BoardCnf


def soft_clauses(instance: Instance, formula: BoardCnf) -> list[tuple[int, int]]:
    """(weight, literal) of every soft unit clause, weights positive (blocked cells hold
    no queen and have no variable: their weights cannot count)."""
    return [
        (abs(w), formula.variable[cell] if w > 0 else -formula.variable[cell])
        for w, cell in instance.weighted_cells()
        if cell in formula.variable
    ]


def write(instance: Instance, out: TextIO) -> None:
    from queenslab.models.cnf import board_cnf

    problem = instance.problem
    formula = board_cnf(problem.board, instance.encoding)
    hard = formula.with_givens(problem.givens)
    soft = soft_clauses(instance, formula)
    positive = sum(w for w, lit in soft if lit > 0)
    out.write(
        commented(
            [
                *header(instance, formula),
                "soft clauses: (x) of weight w for a cell of weight w > 0, "
                "(-x) of weight -w for a cell of weight w < 0",
                f"total weight of the queens = {positive} - cost of the falsified soft clauses",
            ],
            "c",
        )
    )
    out.writelines("h " + " ".join(map(str, clause)) + " 0\n" for clause in hard)
    out.writelines(f"{w} {lit} 0\n" for w, lit in soft)


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
