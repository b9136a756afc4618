"""DIMACS CNF: the SAT competition's input format, for any SAT solver or model counter.

Variables 1..n² are the board (cell (r, c) is ``r*n + c + 1``; with blocked cells, the
open cells row by row), the auxiliary variables of the cardinality encoding come after
them. The ``c p show`` line lists the board
variables: projected model counters (Ganak, ApproxMC) count boards, not assignments of
the auxiliary variables.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from queenslab.exports.spec import Instance, ModelInstance, commented, rules, title

if TYPE_CHECKING:
    from queenslab.models.cnf import BoardCnf


def header(instance: Instance, formula: BoardCnf) -> list[str]:
    """What the variables of the CNF mean (shared with the WCNF writer)."""
    problem = instance.problem
    n, size, top = problem.n, formula.board_size, formula.top
    auxiliary = f"{size + 1}..{top}" if top > size else "none"
    where = f"cell (r, c) is r*{n} + c + 1 (0-based r, c)" if size == n * n else (
        "row by row, blocked cells skipped")  # fmt: skip
    return [
        *title(problem, f", cardinality encoding {instance.encoding}"),
        f"variables 1..{size} are the open cells: {where}",
        f"auxiliary variables of the encoding: {auxiliary}",
        rules(problem),
    ]


def write(instance: Instance, out: TextIO) -> None:
    """The placement kind's model in CNF (``models.cnf.board_cnf``), givens as unit
    clauses; ``c p show`` lists the cell variables."""
    from queenslab.models.cnf import board_cnf, write_dimacs

    problem = instance.problem
    formula = board_cnf(problem.board, instance.encoding)
    out.write(commented(header(instance, formula), "c"))
    out.write(f"c p show {' '.join(str(v) for v in range(1, formula.board_size + 1))} 0\n")
    write_dimacs(out, formula.top, formula.with_givens(problem.givens))


def model_header(instance: ModelInstance, top: int) -> list[str]:
    """What the variables of a kind's CNF mean (shared with the WCNF writer)."""
    size = instance.model.size
    auxiliary = f"{size + 1}..{top}" if top > size else "none"
    return [
        *instance.header(),
        f"variable v + 1 is variable v of the model (named as in the LP export); "
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
