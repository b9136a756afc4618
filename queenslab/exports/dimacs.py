"""DIMACS CNF: the SAT competition's input format, for any SAT solver or model counter.

Variables 1..n² are the board (cell (r, c) is ``r*n + c + 1``), the auxiliary variables
of the cardinality encoding come after them. The ``c p show`` line lists the board
variables: projected model counters (Ganak, ApproxMC) count boards, not assignments of
the auxiliary variables.
"""

from __future__ import annotations

from typing import TextIO

from queenslab.exports.spec import Instance, ModelInstance, commented, rules, title


def header(instance: Instance, top: int) -> list[str]:
    """What the variables of the CNF mean (shared with the WCNF writer)."""
    problem = instance.problem
    n = problem.n
    auxiliary = f"{n * n + 1}..{top}" if top > n * n else "none"
    return [
        *title(problem, f", cardinality encoding {instance.encoding}"),
        f"variables 1..{n * n} are the board: cell (r, c) is r*{n} + c + 1 (0-based r, c)",
        f"auxiliary variables of the encoding: {auxiliary}",
        rules(problem),
    ]


def write(instance: Instance, out: TextIO) -> None:
    from queenslab.models.cnf import clauses, write_dimacs

    n = instance.problem.n
    body, top = clauses(instance.problem, instance.encoding)
    out.write(commented(header(instance, top), "c"))
    out.write(f"c p show {' '.join(str(v) for v in range(1, n * n + 1))} 0\n")
    write_dimacs(out, top, body)


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
