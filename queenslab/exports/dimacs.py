"""DIMACS CNF: the SAT competition's input format, for any SAT solver or model counter.

Variables 1..n² are the board (cell (r, c) is ``r*n + c + 1``), the auxiliary variables
of the cardinality encoding come after them. The ``c p show`` line lists the board
variables: projected model counters (Ganak, ApproxMC) count boards, not assignments of
the auxiliary variables.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TextIO

from queenslab.exports.instance import Instance, commented, rules, title


def write_cnf(out: TextIO, top: int, clauses: Sequence[Iterable[int]]) -> None:
    """The ``p cnf`` line and the clauses, each ended by 0."""
    out.write(f"p cnf {top} {len(clauses)}\n")
    out.writelines(" ".join(map(str, clause)) + " 0\n" for clause in clauses)


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
    from queenslab.models.formula import clauses

    n = instance.problem.n
    body, top = clauses(instance.problem, instance.encoding)
    out.write(commented(header(instance, top), "c"))
    out.write(f"c p show {' '.join(str(v) for v in range(1, n * n + 1))} 0\n")
    write_cnf(out, top, body)
