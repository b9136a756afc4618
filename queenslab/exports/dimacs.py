"""DIMACS CNF: the SAT competition's input format, for any SAT solver or model counter.

Variables 1..n² are the board (cell (r, c) is ``r*n + c + 1``), the auxiliary variables
of the cardinality encoding come after them. The ``c p show`` line lists the board
variables: projected model counters (Ganak, ApproxMC) count boards, not assignments of
the auxiliary variables.
"""

from __future__ import annotations

from typing import TextIO

from queenslab.exports.spec import Instance, commented, rules, title


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
