"""The queens graph of a board: which open cells reach which cells.

Problems other than placing n queens (domination, peaceable armies, colouring) ask about
this graph: two cells are adjacent when a queen on one attacks the other under the
board's rules (lines of every family, wrapped on a torus, and leaps). Blocked cells hold
no queen but are still cells of the graph: a queen attacks along a line through them, so
a blocked cell can be dominated, and it does not shield the cells behind it.
"""

from __future__ import annotations

from collections.abc import Iterator

from queenslab.boards.base import Board, Cell


def cells(board: Board) -> Iterator[Cell]:
    """Every cell of the board, blocked ones too, row by row."""
    n = board.n
    return ((r, c) for r in range(n) for c in range(n))


def reach(board: Board) -> dict[Cell, frozenset[Cell]]:
    """For every cell, the open cells whose queen occupies or attacks it.

    Built from the line families over all cells (blocked ones included) and the leaps:
    O(n^3) work, for the boards exact models take.
    """
    n = board.n
    lines: dict[tuple[int, int], list[Cell]] = {}
    for cell in cells(board):
        if board.is_open(*cell):
            for index, family in enumerate(board.families):
                lines.setdefault((index, family.key(n, *cell)), []).append(cell)
    found: dict[Cell, frozenset[Cell]] = {}
    for r, c in cells(board):
        near: set[Cell] = set()
        for index, family in enumerate(board.families):
            near.update(lines.get((index, family.key(n, r, c)), ()))
        for dr, dc in board.variant.leaps:
            for other in ((r + dr, c + dc), (r - dr, c - dc)):
                if board.is_open(*other):
                    near.add(other)
        found[(r, c)] = frozenset(near)
    return found
