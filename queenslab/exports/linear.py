"""The 0-1 linear view of a board, shared by the OPB, LP and MPS writers.

One binary variable per cell; one named linear row per constraint, in the order of the
CP-SAT model: each blocked cell fixed empty (``blocked_r0_c2``), each of the board's
groups (``row_3``, ``col_5``, ``diag_up_7``, ``leap_0_1_2_2``: sum = 1 or sum <= 1),
each given queen fixed (``given_r4_c1``).
"""

from __future__ import annotations

from dataclasses import dataclass

from queenslab.boards import Cell
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
