"""The 0-1 linear view of a board (or of a problem kind's model), shared by the OPB, LP and
MPS writers.

One binary variable per cell; one named linear row per constraint, in the order of the
CP-SAT model: each blocked cell fixed empty (``blocked_r0_c2``), each of the board's
groups (``row_3``, ``col_5``, ``diag_up_7``, ``leap_0_1_2_2``: sum = 1 or sum <= 1),
each given queen fixed (``given_r4_c1``).
"""

from __future__ import annotations

from dataclasses import dataclass

from queenslab.boards import Cell
from queenslab.core.model import BoolModel
from queenslab.core.problem import Problem


@dataclass(frozen=True)
class Row:
    """``sum of cells = rhs`` (``equal``) or ``sum of cells <= rhs``."""

    name: str
    cells: tuple[Cell, ...]
    equal: bool
    rhs: int

    def terms(self) -> list[tuple[int, Cell]]:
        """(coefficient, cell) pairs. A row or column with every cell blocked keeps its
        name as ``0 x_r0_c0 = 1``: infeasible, as the board is, in every reader."""
        return [(1, cell) for cell in self.cells] or [(0, (0, 0))]


def variable(cell: Cell) -> str:
    """The readable name of a cell's variable, as in the CP-SAT model: ``x_r3_c5``."""
    return f"x_r{cell[0]}_c{cell[1]}"


def rows(problem: Problem) -> list[Row]:
    """Every constraint of the problem as a named linear row."""
    board = problem.board
    return [
        *(Row(f"blocked_r{r}_c{c}", ((r, c),), True, 0) for r, c in board.blocked),
        *(Row(g.name, g.cells, g.exactly_one, 1) for g in board.groups()),
        *(Row(f"given_r{r}_c{c}", ((r, c),), True, 1) for r, c in problem.givens),
    ]


def cells(problem: Problem) -> list[Cell]:
    """Every cell, row by row: the variables."""
    return [(r, c) for r in range(problem.n) for c in range(problem.n)]


def wrapped(words: list[str], indent: str, per_line: int = 8) -> str:
    """Words joined by spaces, ``per_line`` to a line: LP readers limit line length."""
    return "\n".join(
        indent + " ".join(words[i : i + per_line]) for i in range(0, len(words), per_line)
    )


@dataclass(frozen=True)
class ModelRow:
    """``sum(coefficient * variable) sense rhs`` of a problem kind's 0-1 model."""

    name: str
    terms: tuple[tuple[int, int], ...]
    sense: str  # "=", "<=" or ">="
    rhs: int


def model_rows(model: BoolModel) -> list[ModelRow]:
    """Every clause and linear constraint of ``model`` as a linear row, named by its place
    (``clause_12``, ``linear_3``; a range as ``linear_3_lo`` and ``linear_3_hi``).

    A clause is ``sum(x of its positive literals) - sum(x of its negative ones) >= 1 - m``
    with m its negative literals. A row without terms keeps its name as ``0 x >= 1``: as
    infeasible as it is, in every reader.
    """
    rows = []
    for i, clause in enumerate(model.clauses):
        terms = tuple((1 if lit > 0 else -1, abs(lit) - 1) for lit in clause)
        negative = sum(a < 0 for a, _ in terms)
        rows.append(ModelRow(f"clause_{i}", terms or ((0, 0),), ">=", 1 - negative))
    for i, constraint in enumerate(model.linear):
        terms = constraint.terms or ((0, 0),)
        lower, upper = constraint.lower, constraint.upper
        if lower is not None and lower == upper:
            rows.append(ModelRow(f"linear_{i}", terms, "=", lower))
            continue
        both = lower is not None and upper is not None
        if lower is not None:
            rows.append(ModelRow(f"linear_{i}" + ("_lo" if both else ""), terms, ">=", lower))
        if upper is not None:
            rows.append(ModelRow(f"linear_{i}" + ("_hi" if both else ""), terms, "<=", upper))
    return rows
