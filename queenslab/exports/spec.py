"""What an export writes: a kind's model, or placement from the board with its weights.

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
    """Placement to write from the board (the formats that state no 0-1 model);
    ``weights`` (n x n integers) makes it weighted N-queens."""

    problem: Problem
    weights: np.ndarray | None = None

    @property
    def task(self) -> Task:
        return Task.SOLVE if self.weights is None else Task.OPTIMIZE


@dataclass(frozen=True, eq=False)
class ModelInstance:
    """A problem kind's 0-1 model to write: every format that takes one writes the model's
    own variables, constraints and objective, nothing of the board."""

    problem: Problem
    model: BoolModel
    symmetry: str = "none"
    encoding: str = "pairwise"  # cardinality encoding of the CNF formats
    #: The model in the kind's words (``ProblemKind.models``); "" when it says none.
    description: str = ""

    def header(self) -> list[str]:
        model = self.model
        answer = ", ".join(model.names[v] for v in model.answer[:3])
        return [
            *title(self.problem, f", problem {self.problem.kind}, model {model.name}"),
            *([f"model: {self.description}"] if self.description else []),
            f"symmetry breaking: {self.symmetry}; objective: {model.sense}imise"
            + ("" if model.objective else " nothing"),
            f"{model.size} variables, {len(model.answer)} of them the answer ({answer}, ...)",
        ]

    def numbered(self, prefix: str = "") -> str:
        """What a numbered variable (DIMACS; OPB, ``prefix`` ``x``) stands for, its first
        ones by name: the placement kind's ``1 = q_0_0, 2 = q_0_1`` are the open cells
        row by row."""
        first = ", ".join(
            f"{prefix}{v + 1} = {self.name(v)}" for v in range(min(3, self.model.size))
        )
        lead = f"{prefix}(v + 1)" if prefix else "variable v + 1"
        return f"{lead} is variable v of the model, named as in the LP export ({first}, ...)"

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
