"""What an export writes: the problem, the weights when it is an optimisation, the encoding.

Also the header every format opens with (in its own comment syntax), so a file read
without queenslab still says which board it is and what its variables mean.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from queenslab.core.backend import Task
from queenslab.core.model import BoolModel
from queenslab.core.problem import Problem

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True, eq=False)
class Instance:
    """A problem to write; ``weights`` (n x n integers) makes it weighted N-queens."""

    problem: Problem
    weights: np.ndarray | None = None
    encoding: str = "pairwise"  # cardinality encoding of the CNF formats

    @property
    def task(self) -> Task:
        return Task.SOLVE if self.weights is None else Task.OPTIMIZE

    def weighted_cells(self) -> list[tuple[int, tuple[int, int]]]:
        """(weight, cell) for every cell of non-zero weight, row by row."""
        if self.weights is None:
            return []
        n = self.problem.n
        return [
            (int(self.weights[r, c]), (r, c))
            for r in range(n)
            for c in range(n)
            if self.weights[r, c]
        ]


@dataclass(frozen=True, eq=False)
class ModelInstance:
    """A problem kind's 0-1 model to write (``--problem``): every format that takes one
    writes the model's own variables, constraints and objective, nothing of the board."""

    problem: Problem
    model: BoolModel
    symmetry: str = "none"
    encoding: str = "pairwise"  # cardinality encoding of the CNF formats

    def header(self) -> list[str]:
        model = self.model
        answer = ", ".join(model.names[v] for v in model.answer[:3])
        return [
            *title(self.problem, f", problem {self.problem.kind}, model {model.name}"),
            f"symmetry breaking: {self.symmetry}; objective: {model.sense}imise"
            + ("" if model.objective else " nothing"),
            f"{model.size} variables, {len(model.answer)} of them the answer ({answer}, ...)",
        ]

    def name(self, variable: int) -> str:
        """A variable's name as every LP and MPS reader takes it: letters, digits, _."""
        return identifier(self.model.names[variable])


def identifier(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_]", "_", name)


def title(problem: Problem, detail: str = "") -> list[str]:
    """The first header lines: the board, its givens and blocked cells."""
    given = " ".join(f"{r}:{c}" for r, c in problem.givens) or "none"
    blocked = " ".join(f"{r}:{c}" for r, c in problem.blocked) or "none"
    return [
        f"N-queens n={problem.n}, variant {problem.variant}{detail}",
        f"given queens: {given}; blocked cells: {blocked}",
    ]


def rules(problem: Problem) -> str:
    """The board's groups in words, from the variant's declared facts."""
    variant = problem.board.variant
    return (
        "lines: rows and columns hold exactly one queen, diagonals at most one"
        + (" (diagonals wrap around)" if variant.wraps else "")
        + (", knight-move pairs at most one" if variant.leaps else "")
    )


def commented(lines: list[str], lead: str) -> str:
    """Header lines behind a format's comment marker, one per line."""
    return "".join(f"{lead} {line}".rstrip() + "\n" for line in lines)
